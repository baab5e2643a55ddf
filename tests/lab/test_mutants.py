"""The mutation run itself (dplab.lab.mutants): a killed mutant passes, a survivor and an inapplicable
mutant fail the run, and a check that names an undeclared mutant is reported."""

from __future__ import annotations

import json
import re
import textwrap

import pytest

import dplab.lab.mutants as mutants
from dplab.lab.mutants import applicable, catches_ids
from dplab.lab.paths import repo_root
from dplab.lab.report import Mutant


def test_catches_ids_reads_the_ids_before_the_colon():
    assert catches_ids("laplace.scale_x2, laplace.sign: the noise scale doubled") == ["laplace.scale_x2",
                                                                                      "laplace.sign"]
    assert catches_ids("") == []


def test_a_mutant_needs_an_id_and_an_edit():
    with pytest.raises(ValueError, match="id="):
        Mutant("Bad Id", "dplab/x.py", "a", "b", "bug")
    with pytest.raises(ValueError, match="same"):
        Mutant("a.b", "dplab/x.py", "a", "a", "bug")


@pytest.fixture
def pilot_root(tmp_path):
    """A copy of the repository with a tiny module under test and a test file that names mutants."""
    mutants._copy_tree(repo_root(), tmp_path)  # what the run copies for each mutant
    (tmp_path / "tests" / "pilot_target.py").write_text("def double(x):\n    return 2 * x\n")
    marker = "mark." + "catches"  # not literally here: the real run scans tests/ for the marker
    (tmp_path / "tests" / "test_pilot.py").write_text(textwrap.dedent(f'''
        import pytest
        from pilot_target import double

        @pytest.{marker}("pilot.triple", "pilot.harmless")
        def test_double():
            assert double(3) == 6
        '''))
    source = ["# catches: pilot.triple\n", "import sys\n", "sys.path.insert(0, '../tests')\n",
              "from pilot_target import double\n", "assert double(3) == 6\n"]
    notebook = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# pilot"]},
                          {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                           "source": source}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "notebooks" / "99_pilot.ipynb").write_text(json.dumps(notebook))
    return tmp_path


def test_cell_catches_reads_the_first_line_only():
    assert mutants.cell_catches("# catches: a.b, c.d\nassert x") == ["a.b", "c.d"]
    assert mutants.cell_catches("x = 1\n# catches: a.b") == [] and mutants.cell_catches("") == []


@pytest.mark.slow
def test_the_run_kills_a_caught_mutant_and_fails_on_a_survivor(pilot_root, monkeypatch):
    """catches: a runner that never applies the edit (every mutant would survive), one that counts a
    passing test as a kill, and one that ignores an old text found twice"""
    pilot = (
        Mutant("pilot.triple", "tests/pilot_target.py", "2 * x", "3 * x", "a factor 3 for 2"),
        Mutant("pilot.harmless", "tests/pilot_target.py", "2 * x", "x * 2", "the same product"),
        Mutant("pilot.twice", "tests/test_pilot.py", "pilot", "pilots", "an old text found 3 times"),
    )
    declared = mutants.all_mutants() + pilot  # the copy's real checks name the lessons' mutants
    monkeypatch.setattr(mutants, "all_mutants", lambda: declared)
    lines: list[str] = []
    assert mutants.run_mutants(only=["pilot.triple"], root=pilot_root, echo=lines.append) == 0
    assert lines[0].startswith("killed   pilot.triple") and "cell 99_pilot.ipynb:1" in lines[0], lines
    lines.clear()
    assert mutants.run_mutants(only=["pilot.harmless"], root=pilot_root, echo=lines.append) == 1
    assert lines[0].startswith("SURVIVED pilot.harmless")
    assert applicable(pilot[2], pilot_root) == "its old text occurs 3 times in tests/test_pilot.py"
    lines.clear()
    assert mutants.run_mutants(only=["pilot.twice"], root=pilot_root, echo=lines.append) == 1
    assert lines[0].startswith("BROKEN   pilot.twice")


def test_every_declared_mutant_applies_and_a_check_names_it():
    """catches: code moved or reworded under a mutant (its old text no longer found exactly once, so the
    mutation run would test nothing), and a mutant declared with no row or test to kill it"""
    root = repo_root()
    named = set(mutants.row_killers(root)) | set(mutants.test_killers(root))
    for m in mutants.all_mutants():
        assert applicable(m, root) is None, f"{m.id}: {applicable(m, root)}"
        assert m.id in named, f"{m.id}: no report row or unit test names it"


@pytest.mark.slow
def test_a_subset_of_the_real_run_kills_its_mutants():
    """catches: a lab whose declared checks stopped catching their mutants between two make mutants runs
    (a subset in make test: lesson 1's Laplace scale and classical sigma, rows and unit tests)"""
    lines: list[str] = []
    status = mutants.run_mutants(only=["laplace.scale_times_2", "gaussian.classical_no_2"], echo=lines.append,
                                 notebooks=False)
    assert status == 0 and sum(line.startswith("killed") for line in lines) == 2, lines


@pytest.mark.slow
def test_every_report_row_names_a_declared_mutant(report_rows):
    """catches: a row added without the bug it is there to catch (it could be one that cannot fail),
    and a row naming a mutant no lesson declares (the mutation run would never plant it)"""
    known = {m.id for m in mutants.all_mutants()}
    for row in report_rows:
        ids = catches_ids(row.catches or "")
        assert ids, f"{row.id}: no catches="
        assert set(ids) <= known, f"{row.id}: unknown mutants {sorted(set(ids) - known)}"
        assert (row.catches or "").split(":", 1)[1].strip(), f"{row.id}: catches= names no bug"


def _assert_cells(path):
    for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and re.search(r"^\s*assert\b", source, re.M):
            yield i, source


def test_every_assert_cell_of_a_notebook_names_declared_mutants():
    """catches: a notebook check added without the bug it catches, or naming an undeclared mutant"""
    known = {m.id for m in mutants.all_mutants()}
    for path in sorted((repo_root() / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        for i, source in _assert_cells(path):
            ids = mutants.cell_catches(source)
            assert ids, f"{path.name} cell {i}: no '# catches: <id>' line"
            assert set(ids) <= known, f"{path.name} cell {i}: unknown mutants {sorted(set(ids) - known)}"
