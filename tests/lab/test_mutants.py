"""The mutation run itself (dplab.lab.mutants): a killed mutant passes, a survivor and an inapplicable
mutant fail the run, and a check that names an undeclared mutant is reported."""

from __future__ import annotations

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
    return tmp_path


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
    assert lines[0].startswith("killed   pilot.triple")
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
