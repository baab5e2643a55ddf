"""What dplab code a notebook runs, and a fingerprint of it: stale stored outputs are caught.

``import_graph()`` reads every dplab module's imports (module level and inside
functions) from its source with ``ast``, without importing anything. A notebook's
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


def _imports(tree: ast.AST, modules: set[str]) -> set[str]:
    """The dplab modules a syntax tree imports (``from dplab.x import y`` is dplab.x.y when
    y is a module, else dplab.x), with their parent packages, the facade ``dplab`` aside."""
    found = set()
    for node in ast.walk(tree):
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


@lru_cache(maxsize=1)
def _graph() -> tuple[tuple[str, frozenset[str]], ...]:
    files = module_files()
    names = set(files)
    return tuple((m, frozenset(_imports(ast.parse(p.read_text(encoding="utf-8")), names) - {m}))
                 for m, p in files.items())


def import_graph() -> dict[str, set[str]]:
    """module -> the dplab modules it imports (anywhere in its source)."""
    return {m: set(deps) for m, deps in _graph()}


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
def _flat_names() -> dict[str, str]:
    """dplab.NAME -> the library module that defines NAME (from each module's __all__)."""
    out = {}
    for m, path in module_files().items():
        if m == "dplab" or m.startswith("dplab.lab"):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
                for name in ast.literal_eval(node.value):
                    out[name] = m
    out["check"] = "dplab.lab.registry"
    return out


def _code_cells(nb: dict) -> list[str]:
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def notebook_modules(nb: dict) -> set[str]:
    """The dplab modules a notebook's code runs: what it imports and the modules of the
    ``dplab.NAME`` it uses, closed under the import graph (the facade itself aside)."""
    names = _flat_names()
    graph = import_graph()
    direct = set()
    for source in _code_cells(nb):
        code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
        direct |= _imports(ast.parse(code), set(graph))
        direct |= {names[n] for n in re.findall(r"\bdplab\.(\w+)", code) if n in names}
    direct.discard("dplab")
    return reachable(graph, direct) - {"dplab"}


def code_fingerprint(source: str) -> str:
    """sha256 of a module's tokens, without comments, blank lines and docstrings."""
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                docstrings.update(range(first.lineno, first.end_lineno + 1))
    kept = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL):
            continue
        if tok.type == tokenize.STRING and tok.start[0] in docstrings:
            continue
        kept.append(f"{tok.type}:{tok.string}")
    return _sha("\n".join(kept).encode())


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
                 if p.is_file() and p.suffix != ".py"},
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
