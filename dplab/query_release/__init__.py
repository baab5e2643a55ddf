"""Answering many counting queries (notebook 11): MWEM (Hardt, Ligett & McSherry, NeurIPS 2012)
and DualQuery (Gaboardi, Arias, Hsu, Roth & Wu, ICML 2014), after the net mechanism.

``workload``: the universe X = {0, 1}^b (the YRBSS students binned by sex, height and weight) and
the counting queries over it, as conjunctions and as a LinearOperator; ``baselines``: Laplace on
every answer (basic and advanced composition) and the noisy histogram with projection; ``mwem``:
MWEM, its privacy ledger and its error bound; ``best_response``: conjunctions answered on records
and DualQuery's exact best response (enumeration, integer program); ``binary_data``: synthetic
binary records of a stated block design (|X| = 2^30); ``dual_query``: DualQuery and its privacy.
``dplab.query_release.NAME`` re-exports these modules' public names.
"""

from dplab._namespace import reexport
from dplab.query_release import baselines, binary_data, workload
from dplab.query_release import best_response as _best_response_module
from dplab.query_release import dual_query as _dual_query_module
from dplab.query_release import mwem as _mwem_module

#: the re-exported modules, foundation first
MODULES: tuple = (workload, baselines, _mwem_module, _best_response_module, binary_data, _dual_query_module)

__all__ = reexport(globals(), list(MODULES))
