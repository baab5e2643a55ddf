"""A course with the lab (dplab/lab/course.py): the assignment a student gets and the grades.csv a
teacher gets from the notebooks handed in. The grading tests start kernels (a few seconds each): one
grade run over three small notebooks, shared."""

from __future__ import annotations

import ast
import csv
import json
import os

import pytest

from dplab.lab import course
from dplab.lab.paths import notebooks_dir
from dplab.lab.registry import all_exercises


def _code(source: str, outputs: list | None = None, tags: list | None = None) -> dict:
    return {"cell_type": "code", "execution_count": 3 if outputs else None, "metadata": {"tags": tags or []},
            "outputs": outputs or [], "source": source}


def _notebook(cells: list[dict], metadata: dict | None = None) -> dict:
    return {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                        "language": "python"}, **(metadata or {})},
            "nbformat": 4, "nbformat_minor": 4}


def _answers(source: str) -> dict:
    """The answer cell's dict, evaluated (keys and values are literals)."""
    node = next(n for n in ast.parse(source).body if isinstance(n, ast.Assign))
    return ast.literal_eval(node.value)


STREAM = [{"output_type": "stream", "name": "stdout", "text": "01.1: right.\n"}]
IMPLEMENT = ('def laplace_release(value, sensitivity, epsilon, rng):\n'
             '    """One release."""\n'
             '    return value + rng.laplace(0, sensitivity / epsilon)\n'
             'dplab.check("01.impl", laplace_release)')


@pytest.mark.catches("course.solution_cells_kept", "course.outputs_kept", "course.answers_kept")
def test_an_assignment_strips_outputs_drops_solution_cells_and_resets_the_answers():
    """catches: a solution-tagged cell handed to students, stored outputs (the answers printed) kept,
    the teacher's filled-in answers left in the answer cell."""
    nb = _notebook([
        {"cell_type": "markdown", "metadata": {}, "source": "## Exercises"},
        _code("import dplab", STREAM),
        _code('answers = {"01.1": 8.0, "01.2": "x"}  # fill in numbers\n'
              "for exercise_id, answer in answers.items():\n    dplab.check(exercise_id, answer)", STREAM),
        _code("dplab.solution('01.1')", STREAM, tags=["solution"]),
        {"cell_type": "markdown", "metadata": {"tags": ["solution"]}, "source": "The key: 8."},
    ], {"widgets": {"state": {}}})
    out = course.assignment_notebook(nb, "01")
    sources = [c["source"] for c in out["cells"]]
    assert not [s for s in sources if "solution('01.1')" in s or "The key" in s]
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in out["cells"]
               if c["cell_type"] == "code")
    cell = next(s for s in sources if s.startswith("answers = {"))
    assert _answers(cell) == {"01.1": None, "01.2": None}
    assert cell.split("\n")[0].endswith("  # fill in numbers") and "dplab.check(exercise_id, answer)" in cell
    assert "widgets" not in out["metadata"] and out["metadata"]["dplab"] == {"assignment": "01"}
    assert "honour system" in out["cells"][0]["source"].lower()
    assert nb["cells"][2]["source"].startswith('answers = {"01.1": 8.0')  # the original is untouched


@pytest.mark.catches("course.stub_none_dropped", "course.stub_body_kept")
def test_an_implement_it_cell_is_reset_to_its_stub():
    """catches: a filled-in function handed out as the stub, the line ``fn = None`` not restored (a
    student who runs the stub gets "right" for nothing or an error instead of "no answer yet")."""
    stub = course.reset_implement(IMPLEMENT)
    assert "rng.laplace" not in stub and '    """One release."""\n    ...  # your code' in stub
    lines = stub.split("\n")
    assert lines.index('dplab.check("01.impl", laplace_release)') == 1 + next(
        i for i, line in enumerate(lines) if line.startswith("laplace_release = None"))
    assert course.reset_implement(stub) == stub  # a stub stays as it is
    shipped = ("def laplace_release(value, sensitivity, epsilon, rng):\n    ...  # your code: one release\n"
               "laplace_release = None  # delete this line once your function is written\n"
               'dplab.check("01.impl", laplace_release)')
    assert course.reset_implement(shipped) == shipped


def test_every_notebook_makes_an_assignment_with_no_outputs_and_no_answers(tmp_path):
    for path in sorted(notebooks_dir().glob("[0-9][0-9]_*.ipynb")):
        written = course.write_assignment(path.stem[:2], tmp_path)
        assert written.name == f"{path.stem}.assignment.ipynb"
        nb = json.loads(written.read_text(encoding="utf-8"))
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        assert all(not c["outputs"] for c in code), path.name
        sources = ["".join(c["source"]) for c in code]
        answers = [_answers(s) for s in sources if s.startswith("answers = {")]
        assert len(answers) == 1 and set(answers[0].values()) == {None}, path.name
        assert course.notebook_number("renamed.ipynb", nb["metadata"]) == path.stem[:2]


def test_the_notebook_is_found_from_metadata_prefix_or_stem():
    assert course.notebook_number("alice.ipynb", {"dplab": {"assignment": "04"}}) == "04"
    assert course.notebook_number("07_x.assignment.ipynb") == "07"
    assert course.notebook_number("bob_what_epsilon_promises.ipynb") == "08"
    assert course.notebook_number("notes.ipynb") is None
    assert course.notebook_number("99_x.ipynb") is None


def test_the_assignment_command_writes_the_file_and_names_the_notebooks_on_a_bad_number(tmp_path, capsys):
    from dplab.lab.cli import main

    assert main(["assignment", "4", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "04_above_threshold_proof.assignment.ipynb").is_file()
    with pytest.raises(SystemExit) as stopped:
        main(["assignment", "99"])
    assert stopped.value.code == 2 and "'01'" in capsys.readouterr().err


# --- grading: one run over three notebooks, a few seconds per kernel ---------------------------------

def _pick(number: str) -> list:
    """Three exercises of notebook ``number``: two with numeric answers (right, wrong), one malformed."""
    exercises = [ex for i, ex in all_exercises().items() if i.startswith(number + ".")]
    numeric = [ex for ex in exercises if ex.kind == "number"]
    return numeric[:2] + [next(ex for ex in exercises if ex not in numeric[:2])]


def _wrong(ex) -> float:
    wrong = 10 * float(ex.answer()) + 7
    assert not ex.is_right(wrong)
    return wrong


TIMEOUT = 10  # seconds per cell in this run (120 by default): a cell sleeps past it


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """grades.csv of: 01 answered right / wrong / malformed (the right answer read from a file beside
    the notebook: the working directory is the notebook's folder); a notebook of 02 renamed by its
    student (found by its metadata) with a cell that raises and one that runs over the time limit; 03
    that is not JSON; 04 whose kernel dies."""
    folder = tmp_path_factory.mktemp("handed_in")
    right, wrong, malformed = _pick("01")
    (folder / "right.txt").write_text(repr(float(right.answer())), encoding="utf-8")
    answers = (f'answers = {{"{right.id}": float(open("right.txt").read()), "{wrong.id}": {_wrong(wrong)!r}, '
               f'"{malformed.id}": "x"}}\nfor exercise_id, answer in answers.items():\n'
               "    dplab.check(exercise_id, answer)")
    first = _notebook([_code("import dplab"), _code(answers)])
    (folder / "01_laplace_vs_gaussian.assignment.ipynb").write_text(json.dumps(first), encoding="utf-8")
    a, b, _ = _pick("02")
    halfway = _notebook([_code(f"import dplab\ndplab.check({a.id!r}, {float(a.answer())!r})"),
                         _code("raise RuntimeError('halfway')"),
                         _code("import time\ntime.sleep(600)"),
                         _code(f"dplab.check({b.id!r}, {_wrong(b)!r})")], {"dplab": {"assignment": "02"}})
    (folder / "alice.ipynb").write_text(json.dumps(halfway), encoding="utf-8")
    (folder / "03_hierarchy_vs_flat_range_queries.ipynb").write_text('{"cells": [', encoding="utf-8")
    dies = _notebook([_code("import dplab\ndplab.check('04.1', None)"), _code("import os\nos._exit(1)")])
    (folder / "04_above_threshold_proof.ipynb").write_text(json.dumps(dies), encoding="utf-8")
    elsewhere = tmp_path_factory.mktemp("teacher")
    said: list[str] = []
    here = os.getcwd()
    os.chdir(elsewhere)
    try:
        names = ["01_laplace_vs_gaussian.assignment.ipynb", "alice.ipynb",
                 "03_hierarchy_vs_flat_range_queries.ipynb", "04_above_threshold_proof.ipynb"]
        course.grade([folder / name for name in names], "grades.csv", timeout=TIMEOUT, say=said.append)
        with open("grades.csv", encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
    finally:
        os.chdir(here)
    return {"rows": rows, "said": said, "picked": {"01": (right, wrong, malformed), "02": (a, b)}}


def _verdicts(graded, name: str) -> dict[str, tuple[str, str]]:
    return {r["exercise"]: (r["verdict"], r["feedback"]) for r in graded["rows"] if r["file"].endswith(name)}


@pytest.mark.slow
@pytest.mark.catches("course.missing_dropped", "course.cwd_not_the_notebooks")
def test_grades_say_right_wrong_malformed_and_missing_for_every_exercise(graded):
    """catches: exercises never checked left out of grades.csv (a blank a teacher reads as nothing
    owed), a notebook run outside its folder (its relative paths fail)."""
    assert list(graded["rows"][0]) == list(course.COLUMNS)
    got = _verdicts(graded, "01_laplace_vs_gaussian.assignment.ipynb")
    ids = [i for i in all_exercises() if i.startswith("01.")]
    assert list(got) == ids
    right, wrong, malformed = graded["picked"]["01"]
    assert (got[right.id][0], got[wrong.id][0], got[malformed.id][0]) == ("right", "wrong", "malformed")
    assert all(got[i][0] == "missing" for i in ids if i not in (right.id, wrong.id, malformed.id))
    assert got[wrong.id][1].startswith(f"{wrong.id}: not quite")
    summary = f"{graded['rows'][0]['file']}: notebook 01, 1 right, 1 wrong, 1 malformed"
    assert graded["said"][0].startswith(summary)


@pytest.mark.slow
@pytest.mark.catches("course.errors_stop_the_run", "course.timeout_stops_the_run")
def test_a_notebook_whose_cell_raises_or_runs_too_long_still_grades_what_ran(graded):
    """catches: the first error or the first cell over the time limit ending the run, so a student
    loses every answer for one bad cell."""
    a, b = graded["picked"]["02"]
    got = _verdicts(graded, "alice.ipynb")
    assert list(got) == [i for i in all_exercises() if i.startswith("02.")]
    assert (got[a.id][0], got[b.id][0]) == ("right", "wrong")
    assert "2 cell(s) raised, first cell 2: RuntimeError: halfway" in graded["said"][1]


@pytest.mark.slow
@pytest.mark.catches("course.error_not_reported")
def test_a_notebook_that_cannot_run_gets_missing_rows_with_its_error(graded):
    """catches: an unreadable notebook, or one whose kernel dies, graded without saying why (the
    teacher cannot tell a broken file from one left blank)."""
    got = _verdicts(graded, "03_hierarchy_vs_flat_range_queries.ipynb")
    assert list(got) == [i for i in all_exercises() if i.startswith("03.")]
    assert all(v == "missing" and "NotJSONError" in f for v, f in got.values())
    assert "could not run: NotJSONError" in graded["said"][2]
    died = _verdicts(graded, "04_above_threshold_proof.ipynb")
    assert list(died) == [i for i in all_exercises() if i.startswith("04.")]
    assert all(v == "missing" and "DeadKernelError" in f for v, f in died.values())
