"""Notebook 11's bench rows: the library's own (issue 31's goals), MWEM over |X| = 2^16 with 10,848 queries
and T = 50 (dplab.lab.query_release_bench), DualQuery over |X| = 2^30 with the integer-program best
response (dplab.lab.dual_query_bench), timed with their peak memory (``make bench NB=11``). The notebook
itself runs smaller sizes."""

from dplab.lab.dual_query_bench import ROWS as DUAL_QUERY_ROWS
from dplab.lab.query_release_bench import ROWS as MWEM_ROWS

ROWS = (*MWEM_ROWS, *DUAL_QUERY_ROWS)
