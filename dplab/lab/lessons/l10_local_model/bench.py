"""Notebook 10's bench rows: the library's own (dplab.lab.local_bench): OLH over n = 10^6 users and
d = 1,024 values, and the prefix extension over 2^32 ids with n = 10^6 users, timed with their peak memory
(``make bench NB=10``). The notebook itself runs smaller sizes."""

from dplab.lab.local_bench import ROWS

__all__ = ["ROWS"]
