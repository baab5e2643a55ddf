"""Range queries over k ordered bins (notebooks 3 and 9): histograms, strategies, their exact
errors, errors over all ranges in O(k), an optimised strategy, and DAWA.

``histograms``: the data; ``errors``: scoring all k(k+1)/2 ranges without
materialising them; ``strategies``: one class per strategy (a dense base class and
fast subclasses); ``theory``: exact expected errors and what follows from them;
``optimization``: the p-Identity strategy of McKenna et al. 2018; ``dawa``: the data-aware
workload-adaptive mechanism of Li et al. 2014. ``dplab.range_queries.NAME`` re-exports every
module's public names.
"""

from importlib import import_module

from dplab._namespace import reexport

#: the modules, foundation first
MODULES = ("histograms", "errors", "strategies", "theory", "optimization", "greedy_h", "dawa", "dawa_privacy",
           "dawa_presets")

__all__ = reexport(globals(), [import_module(f"dplab.range_queries.{name}") for name in MODULES])
