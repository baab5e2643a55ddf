"""The README and the notebooks against the tree: the README's module table lists every library
module, and every path the README or a notebook names exists (the table once missed six modules
and named a test file that had moved)."""

from __future__ import annotations

import json
import re

from dplab.lab.paths import package_dir, repo_root
from dplab.lab.sources import module_files

ROOT = repo_root()


def _table_entries() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| library module |"):]
    table = table[:table.index("\n\n")]
    return re.findall(r"`([\w/]+(?:\.py)?/?)`", table)


def test_the_module_table_lists_every_library_module():
    """catches: a library module added without its README row. A module is listed by its file
    (``laplace.py``, ``mechanisms/laplace.py``) or by its package's row (``range_queries/``)."""
    entries = set(_table_entries())
    unlisted = []
    for module, path in module_files().items():
        if module == "dplab" or module.startswith(("dplab.lab", "dplab.data")) or module.endswith("__main__"):
            continue
        parts = path.relative_to(package_dir())
        relative = parts.as_posix()
        packages = {"/".join(parts.parts[:i]) + "/" for i in range(1, len(parts.parts))}
        if not ({relative, path.name} | packages) & entries:
            unlisted.append(module)
    assert not unlisted, unlisted


def _missing_paths(text: str) -> list[str]:
    """The repository paths ``text`` names (in backticks or as a Markdown link) that do not exist."""
    paths = set(re.findall(r"`((?:dplab|tests|notebooks|figures|\.ci)/[\w./<>-]*)`", text))
    paths |= set(re.findall(r"\]\(((?:notebooks|dplab|figures)/[\w./-]+)\)", text))
    return [p for p in sorted(paths) if "<" not in p and not (ROOT / p).exists()]


def test_every_path_the_readme_names_exists():
    """catches: a README that points at a file that moved (tests/test_layers.py was under tests/lab)."""
    missing = _missing_paths((ROOT / "README.md").read_text(encoding="utf-8"))
    assert not missing, missing


def test_every_path_a_notebook_names_exists():
    """catches: a notebook that sends the student to a test file that moved (notebook 6 named
    tests/test_composition.py after it went to tests/accounting/)."""
    missing = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        if found := _missing_paths("\n".join("".join(cell["source"]) for cell in cells)):
            missing[path.name] = found
    assert not missing, missing
