"""Range queries over k ordered bins (notebooks 3 and 9): histograms, strategies, their exact
errors, errors over all ranges in O(k), an optimised strategy, and DAWA.

``histograms``: the data; ``errors``: scoring all k(k+1)/2 ranges without
materialising them; ``strategies``: one class per strategy (a dense base class and
fast subclasses); ``theory``: exact expected errors and what follows from them;
``optimization``: the p-Identity strategy of McKenna et al. 2018; ``dawa``: the data-aware
workload-adaptive mechanism of Li et al. 2014 (with ``greedy_h``, its second stage).
``dplab.range_queries.NAME`` re-exports these modules' public names. ``dawa_privacy`` (the
partition step's exact privacy loss) and ``dawa_presets`` (the presets' errors) summarise
simulations, so they stand on dplab.simulate, a later layer: import them by their own path.
"""

from dplab._namespace import reexport
from dplab.range_queries import dawa, errors, greedy_h, histograms, optimization, strategies, theory

#: the re-exported modules, foundation first
MODULES = (histograms, errors, strategies, theory, optimization, greedy_h, dawa)

__all__ = reexport(globals(), list(MODULES))
