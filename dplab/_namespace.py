"""A package that shows its modules' public names as its own (``dplab.mechanisms.Laplace``)."""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

__all__ = ["reexport"]


def reexport(namespace: dict, modules: Iterable[ModuleType]) -> list[str]:
    """Bind every name of each module's ``__all__`` in ``namespace`` (a package's ``globals()``)
    and return them sorted: the package's ``__all__``."""
    names = set()
    for module in modules:
        for name in module.__all__:
            namespace[name] = getattr(module, name)
            names.add(name)
    return sorted(names)
