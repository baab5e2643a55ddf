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

#: the modules, foundation first
MODULES = ("histograms", "errors", "strategies", "theory", "optimization", "dawa")

_modules = [import_module(f"dplab.range_queries.{name}") for name in MODULES]
for _module in _modules:
    for _name in _module.__all__:
        globals()[_name] = getattr(_module, _name)
del _module, _name

__all__ = sorted({name for module in _modules for name in module.__all__})
