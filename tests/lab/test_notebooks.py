"""Stored notebook outputs were made by the code that is checked in (per-notebook fingerprints)."""

from __future__ import annotations

import hashlib
import json

import pytest

from dplab.lab.paths import notebooks_dir
from dplab.lab.sources import (
    code_fingerprint,
    code_text,
    notebook_fingerprint,
    notebook_modules,
    stored_fingerprint,
)

NOTEBOOKS = sorted(notebooks_dir().glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_outputs_were_made_by_this_code(path):
    stored = stored_fingerprint(path)
    assert stored is not None, f"{path.name} has no dplab fingerprint: run make notebooks"
    current = notebook_fingerprint(path)
    changed = ["code cells"] if stored["cells"] != current["cells"] else []
    changed += [m for m in set(stored["modules"]) | set(current["modules"])
                if stored["modules"].get(m) != current["modules"].get(m)]
    changed += [f for f in set(stored["data"]) | set(current["data"])
                if stored["data"].get(f) != current["data"].get(f)]
    assert not changed, f"{path.name}: outputs made by other code ({sorted(changed)}): run make notebooks"


def _modules(stem: str) -> set[str]:
    return notebook_modules(json.loads((notebooks_dir() / f"{stem}.ipynb").read_text(encoding="utf-8")))


def test_a_notebook_depends_on_its_own_topics_only():
    modules = _modules("01_laplace_vs_gaussian")
    assert {"dplab.mechanisms.laplace", "dplab.lab.lessons.l01_laplace_vs_gaussian.views"} <= modules
    assert "dplab.bmi" not in modules and not any(m.startswith("dplab.range_queries") for m in modules)
    assert "dplab.range_queries.theory" in _modules("03_hierarchy_vs_flat_range_queries")


def test_the_fingerprint_is_the_hash_of_the_code_text():
    source = ('"""Module docstring."""\n\nimport math  # why\n\n\ndef f(x):\n'
              '    """Square x,\n    twice."""\n    s = "# not a comment"\n    return x * x  # fast\n')
    text = 'import math\ndef f(x):\n    s = "# not a comment"\n    return x * x'
    assert code_text(source) == text
    assert code_fingerprint(source) == hashlib.sha256(text.encode()).hexdigest()[:16]


def test_docstrings_and_comments_do_not_change_the_fingerprint():
    code = 'def f(x):\n    """Square x."""\n    return x * x  # fast\n'
    same = 'def f(x):\n    """Return x squared (a new docstring)."""\n\n    return x * x\n'
    other = 'def f(x):\n    """Square x."""\n    return x ** 2\n'
    assert code_fingerprint(code) == code_fingerprint(same)
    assert code_fingerprint(code) != code_fingerprint(other)


def test_a_notebook_that_checks_answers_depends_on_its_lessons_exercises():
    """catches: a stale stored 'no answer yet. <question>' line after an exercise's text changed
    (dplab.check reads the lesson's exercises.py, which the notebook does not import)."""
    assert "dplab.lab.lessons.l04_above_threshold_proof.exercises" in _modules("04_above_threshold_proof")
    assert "dplab.lab.lessons.l04_above_threshold_proof.implement" in _modules("04_above_threshold_proof")
    assert not any(m.endswith(".implement") for m in _modules("03_hierarchy_vs_flat_range_queries"))
    assert not any(m.endswith("l05_net_mechanism.exercises") for m in _modules("04_above_threshold_proof"))


def test_the_names_a_notebook_types_bring_their_modules():
    """catches: a fingerprint blind to a module reached only through ``dplab.NAME`` or
    ``dplab.namespace.NAME`` (a changed formula would leave stale outputs undetected)."""
    cell = {"cell_type": "code", "source": ["import dplab\n", "dplab.laplace_mse(1, 1)\n",
                                            "dplab.sparse_vector.above_threshold([0.0], 0.0, 1.0)\n",
                                            "dplab.accounting.PLDAccountant()\n", "dplab.check('01.1', 0)"]}
    modules = notebook_modules({"cells": [cell]})
    assert {"dplab.mechanisms.laplace", "dplab.sparse_vector", "dplab.accounting.pld",
            "dplab.lab.registry"} <= modules
    assert "dplab.bmi" not in modules and not any(m.startswith("dplab.lab.lessons.l") for m in modules)
