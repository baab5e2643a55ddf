"""dplab: a teaching lab for differential privacy.

The library's public API is flat: ``dplab.laplace_mechanism``, ``dplab.gaussian_sigma``,
``dplab.expected_total_error``, ... Every module named in ``_LIBRARY`` lists its public
names in ``__all__``; this file re-exports them all. The lab that shows the library
(figures, widget panels, lessons, report) is ``dplab.lab``: nothing here imports it,
except ``dplab.check`` (the exercise checker), loaded on first use, so ``import dplab``
loads neither matplotlib nor ipywidgets. Notebooks live in ``notebooks/``; see README.md.
"""

from importlib import import_module

__version__ = "0.1.0"

#: The library modules, foundation first (LAB_SPEC.md, "The module map").
_LIBRARY = tuple(import_module(f"dplab.{name}") for name in (
    "mechanisms.laplace",
    "mechanisms.gaussian",
    "mechanisms.exponential",
    "mechanisms.noise_reduction",
    "composition",
    "zcdp",
    "tradeoff",
    "pld",
    "filters",
    "sensitivity",
    "inference",
    "datasets",
    "means",
    "bmi",
    "contingency",
    "sparse_vector",
    "net_mechanism",
    "reconstruction",
    "accuracy_first",
    "smooth_sensitivity",
    "range_queries.histograms",
    "range_queries.errors",
    "range_queries.strategies",
    "range_queries.theory",
    "range_queries.optimization",
    "range_queries.dawa",
    "simulate",
    "audit",
    "attacks",
))

for _module in _LIBRARY:
    for _name in _module.__all__:
        globals()[_name] = getattr(_module, _name)
del _module, _name

__all__ = [name for module in _LIBRARY for name in module.__all__] + ["check"]


def __getattr__(name: str):
    """``dplab.check`` imports the lab's exercise registry on first use (PEP 562)."""
    if name == "check":
        from dplab.lab.registry import check

        return check
    raise AttributeError(f"module 'dplab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"check"})
