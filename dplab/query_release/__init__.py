"""Answering many counting queries (notebook 11): MWEM (Hardt, Ligett & McSherry, NeurIPS 2012)
and DualQuery (Gaboardi, Arias, Hsu, Roth & Wu, ICML 2014), after the net mechanism.

``workload``: the universe X = {0, 1}^b (the YRBSS students binned by sex, height and weight) and
the counting queries over it, as conjunctions and as a LinearOperator; ``baselines``: Laplace on
every answer (basic and advanced composition) and the noisy histogram with projection; ``mwem``:
MWEM, its privacy ledger and its error bound. ``dplab.query_release.NAME`` re-exports these
modules' public names.
"""

from dplab._namespace import reexport
from dplab.query_release import baselines, workload
from dplab.query_release import mwem as _mwem_module

#: the re-exported modules, foundation first
MODULES: tuple = (workload, baselines, _mwem_module)

__all__ = reexport(globals(), list(MODULES))
