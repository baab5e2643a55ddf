"""What dplab code a notebook runs, and a fingerprint of it: stale stored outputs are caught.

``import_graph()`` reads every dplab module's imports (module level and inside
functions, and ``import_module`` calls, an f-string read as a pattern) from its
source with ``ast``, without importing anything; relative imports are banned (ruff
TID252), so none is missed. A notebook's
modules are the lesson modules it imports and the modules defining the ``dplab.NAME``
it uses, closed under imports. ``make notebooks`` writes their fingerprints (and those
of the notebook's code cells and of ``dplab/data``) into the notebook's metadata; a
test recomputes them, so outputs made by other code fail the build, while an edit
elsewhere does not stale this notebook. Docstrings and comments are left out of a
module's fingerprint: they cannot change what a notebook prints.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import re
import tokenize
from functools import lru_cache
from pathlib import Path

from dplab.lab.paths import data_dir, package_dir

__all__ = [
    "code_fingerprint",
    "code_text",
    "find_cycle",
    "import_graph",
    "module_files",
    "notebook_fingerprint",
    "notebook_modules",
    "reachable",
    "stamp_notebook",
    "stored_fingerprint",
]

METADATA_KEY = "dplab"
DATA_SUFFIXES = (".csv", ".npy", ".json")  # the data files (not the README, not __init__.py)


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__.py``)."""
    root = package_dir()
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(["dplab", *parts])] = path
    return out


def _imports(tree: ast.AST, modules: set[str], dynamic: bool = True) -> set[str]:
    """The dplab modules a syntax tree imports (``from dplab.x import y`` is dplab.x.y when
    y is a module, else dplab.x), with their parent packages, the facade ``dplab`` aside."""
    found = set()
    for node in ast.walk(tree):
        if dynamic and isinstance(node, ast.Call) and node.args \
                and getattr(node.func, "id", getattr(node.func, "attr", "")) == "import_module":
            found |= _dynamic_imports(node.args[0], modules)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "dplab":
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "dplab")
    with_parents = set()
    for name in found:
        parts = name.split(".")
        with_parents.update(".".join(parts[:i]) for i in range(2, len(parts) + 1))
    return {m for m in with_parents if m in modules} | ({"dplab"} & found)


def _dynamic_imports(arg: ast.expr, modules: set[str]) -> set[str]:
    """The modules an ``import_module(...)`` call may load: a constant names one; an f-string
    such as f"dplab.lab.lessons.{name}.report" is read as a pattern, each {...} any name."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return {arg.value} & modules
    if isinstance(arg, ast.JoinedStr):
        pattern = "".join(re.escape(part.value) if isinstance(part, ast.Constant) else r"[\w.]+"
                          for part in arg.values)
        return {m for m in modules if re.fullmatch(pattern, m)}
    return set()


@lru_cache(maxsize=2)
def _graph(dynamic: bool) -> tuple[tuple[str, frozenset[str]], ...]:
    files = module_files()
    names = set(files)
    return tuple((m, frozenset(_imports(ast.parse(p.read_text(encoding="utf-8")), names,
                                        dynamic or not m.startswith("dplab.lab")) - {m}))
                 for m, p in files.items())


def import_graph(dynamic: bool = True, *, parents: bool = True) -> dict[str, set[str]]:
    """module -> the dplab modules it imports (anywhere in its source). ``dynamic=False``
    leaves out the lab's ``import_module`` calls: the registry's walk over every lesson, which a
    notebook's outputs do not depend on (``dplab.check`` answers from its own lesson); a library
    package's walk over its own modules (``dplab.mechanisms``) stays. ``parents=False`` leaves
    out the edge from a module to its own parent packages: importing ``dplab.accounting.base``
    runs ``dplab/accounting/__init__.py``, which imports base again, a loop Python resolves
    because no module imports anything from its own package's ``__init__``."""
    graph = {m: set(deps) for m, deps in _graph(dynamic)}
    if not parents:
        for m, deps in graph.items():
            deps -= {d for d in deps if m.startswith(d + ".")}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import cycle as a list of modules [a, b, ..., a], or None (depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                return path[path.index(d):] + [d]
            if d not in state and (found := visit(d)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def reachable(graph: dict[str, set[str]], starts: set[str]) -> set[str]:
    """The modules ``starts`` import, directly or not, with ``starts`` themselves."""
    seen, todo = set(), list(starts)
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph.get(m, ()))
    return seen


@lru_cache(maxsize=1)
def _exports() -> dict[str, dict[str, str]]:
    """Each library module or package -> {public name: the module that defines it}: a module's
    own literal ``__all__``; a package's, the union of its modules' (``dplab.mechanisms.Laplace``
    is defined in ``dplab.mechanisms.laplace``)."""
    own: dict[str, list[str]] = {}
    for m, path in module_files().items():
        if m == "dplab" or m.startswith("dplab.lab"):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
                try:
                    own[m] = list(ast.literal_eval(node.value))
                except ValueError:  # a package's __all__, computed from its modules'
                    own.setdefault(m, [])
    out: dict[str, dict[str, str]] = {m: {} for m in own}
    for m, names in sorted(own.items(), key=lambda item: -item[0].count(".")):
        for package in [p for p in out if p == m or m.startswith(p + ".")]:
            for name in names:
                out[package].setdefault(name, m)
    return out


@lru_cache(maxsize=1)
def _core() -> dict[str, str]:
    """dplab.NAME of the flat core -> its namespace module (read from ``CORE`` in dplab/__init__.py)."""
    tree = ast.parse(module_files()["dplab"].read_text(encoding="utf-8"))
    core = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                and any(getattr(t, "id", "") == "CORE" for t in node.targets))
    return {name: f"dplab.{namespace}" for namespace, names in core.items() for name in names}


def _referenced_module(dotted: str, modules: set[str]) -> str | None:
    """The module that defines what ``dplab.<dotted>`` names in a notebook: the longest module
    prefix, then the name in it (``dplab.mechanisms.Laplace`` -> dplab.mechanisms.laplace;
    ``dplab.laplace_mse`` -> the module of the flat core's name; ``dplab.check`` -> the registry)."""
    parts = dotted.split(".")
    module = "dplab"
    while parts and f"{module}.{parts[0]}" in modules:
        module = f"{module}.{parts.pop(0)}"
    if not parts:
        return module
    name = parts[0]
    if module == "dplab":
        if name == "check":
            return "dplab.lab.registry"
        if name not in _core():
            return None
        module = _core()[name]
    return _exports().get(module, {}).get(name, module)


def _code_cells(nb: dict) -> list[str]:
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def notebook_modules(nb: dict) -> set[str]:
    """The dplab modules a notebook's code runs: what it imports and the modules of the
    ``dplab.NAME`` it uses, closed under the import graph (the facade itself aside)."""
    graph = import_graph(dynamic=False)
    direct = set()
    for source in _code_cells(nb):
        code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
        direct |= _imports(ast.parse(code), set(graph))
        direct |= {_referenced_module(d, set(graph)) for d in re.findall(r"\bdplab\.(\w+(?:\.\w+)*)", code)}
    direct.discard(None)
    if "dplab.lab.registry" in direct:  # dplab.check answers from the notebook's own lesson's exercises
        lessons = {".".join(m.split(".")[:4]) for m in direct if m.startswith("dplab.lab.lessons.l")}
        parts = ("exercises", "implement")  # implement: the "implement it" exercise, where there is one
        direct |= {f"{lesson}.{part}" for lesson in lessons for part in parts} & set(graph)
    direct.discard("dplab")
    return reachable(graph, direct) - {"dplab"}


def code_text(source: str) -> str:
    """A module's source without docstrings, comments, trailing spaces and blank lines.

    Docstrings are found with ``ast`` (whole lines), comments with ``tokenize`` (cut at
    their column): both report the same positions on every Python >= 3.8, so the text,
    and its fingerprint, do not depend on the Python version.
    """
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                for i in range(first.lineno - 1, first.end_lineno):
                    lines[i] = ""
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            lines[row - 1] = lines[row - 1][:col]
    return "\n".join(line.rstrip() for line in lines if line.strip())


def code_fingerprint(source: str) -> str:
    """The first 16 hex digits of the sha256 of :func:`code_text`."""
    return _sha(code_text(source).encode("utf-8"))


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def notebook_fingerprint(path: str | Path) -> dict:
    """The fingerprint of what made a notebook's outputs: its code cells, the dplab modules
    they run (code only) and the files of dplab/data."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    files = module_files()
    return {
        "cells": _sha("\n\0".join(_code_cells(nb)).encode()),
        "modules": {m: code_fingerprint(files[m].read_text(encoding="utf-8"))
                    for m in sorted(notebook_modules(nb))},
        "data": {p.name: _sha(p.read_bytes()) for p in sorted(data_dir().iterdir())
                 if p.suffix in DATA_SUFFIXES},
    }


def stored_fingerprint(path: str | Path) -> dict | None:
    """The fingerprint ``make notebooks`` stored in the notebook's metadata (None if none)."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return nb.get("metadata", {}).get(METADATA_KEY)


def stamp_notebook(path: str | Path) -> None:
    """Write the notebook's current fingerprint into its metadata (after re-executing it)."""
    import nbformat

    nb = nbformat.read(str(path), as_version=4)
    nb.metadata[METADATA_KEY] = notebook_fingerprint(path)
    nbformat.write(nb, str(path))
