"""The local model (notebook 10): each person randomizes their own data before it leaves their
device, so no one, not even the server, sees a true value.

``randomized_response``: Warner's randomized response on a yes/no question, its unbiased estimate,
variance and the local/central error gap; ``frequency_oracles``: eps-LDP frequency estimation over
d values (k-RR, SUE i.e. basic RAPPOR, OUE, OLH, Hadamard response), each a mechanism object with
its exact variance and privacy loss; ``prefix_extension``: heavy hitters on a domain too large to
enumerate; ``shuffle``: privacy amplification by shuffling. ``dplab.local.NAME`` re-exports these
modules' public names (``dplab.local.heavy_hitters`` is the function).
"""

from dplab._namespace import reexport
from dplab.local import frequency_oracles, prefix_extension, randomized_response, shuffle

#: the re-exported modules, foundation first
MODULES = (randomized_response, frequency_oracles, prefix_extension, shuffle)

__all__ = reexport(globals(), list(MODULES))
