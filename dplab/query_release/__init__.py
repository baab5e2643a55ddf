"""Answering many counting queries (notebook 11): MWEM (Hardt, Ligett & McSherry, NeurIPS 2012)
and DualQuery (Gaboardi, Arias, Hsu, Roth & Wu, ICML 2014), after the net mechanism.
``dplab.query_release.NAME`` re-exports these modules' public names.
"""

from dplab._namespace import reexport

#: the re-exported modules, foundation first
MODULES: tuple = ()

__all__ = reexport(globals(), list(MODULES))
