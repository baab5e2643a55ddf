"""Range queries over k ordered bins (notebook 3): histograms, strategies, their exact
errors, errors over all ranges in O(k), and an optimised strategy.

``histograms``: the data; ``errors``: scoring all k(k+1)/2 ranges without
materialising them; ``strategies``: one class per strategy (a dense base class and
fast subclasses); ``theory``: exact expected errors and what follows from them;
``optimization``: the p-Identity strategy of McKenna et al. 2018. Every public name
is also reachable flat as ``dplab.NAME``.
"""
