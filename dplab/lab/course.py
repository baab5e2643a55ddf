"""A course with the lab: ``python -m dplab assignment NN`` and ``python -m dplab grade PATH...``.

``assignment`` turns notebook NN into the copy a student gets: outputs stripped, the answer cell
(the code cell starting ``answers = {``) reset to ``None``s, every "implement it" cell (one calling
``dplab.check("NN.impl", fn)``) reset to its stub (the function's body ``...`` and the line
``fn = None``), every cell tagged ``solution`` removed, and a first cell that says the assignment runs
on the honour system (``dplab.solution`` and ``python -m dplab answers`` stay available) and how it
is graded. The notebook's number is written into its metadata (``metadata.dplab.assignment``).

``grade`` runs each handed-in notebook in a fresh kernel (nbclient, errors allowed, 120 s per cell,
the notebook's own folder as working directory), then reads in that kernel the verdicts
``dplab.check`` recorded (``dplab.lab.registry.RECORDED``), and writes ``grades.csv``: one row per
exercise of the notebook (file, exercise, verdict, feedback), an exercise never checked "missing".
A notebook that cannot run (bad JSON, a kernel that dies) gets "missing" for every exercise of the
notebook its metadata or file name names, with the error in the feedback. Grading runs the students'
code on the teacher's machine, as executing any notebook does.
"""

from __future__ import annotations

import ast
import copy
import csv
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from dplab.lab.exercises import VERDICTS
from dplab.lab.paths import notebooks_dir
from dplab.lab.registry import all_exercises, notebook_prefix

__all__ = ["GradeRow", "assignment_notebook", "grade", "grade_notebook", "notebook_number",
           "reset_answers", "reset_implement", "write_assignment"]

COLUMNS = ("file", "exercise", "verdict", "feedback")
CELL_TIMEOUT = 120  # seconds per cell, then the kernel is interrupted and the next cell runs
_MARKER = "DPLAB-RECORDED "
_READ_RECORDED = ("import json as _dplab_json\nfrom dplab.lab.registry import RECORDED as _dplab_recorded\n"
                  f"print({_MARKER!r} + _dplab_json.dumps({{k: [v.verdict, v.feedback] "
                  "for k, v in _dplab_recorded.items()}))")
_IMPLEMENT_CHECK = re.compile(r"dplab\.check\(\s*[\"'](\d\d\.impl)[\"']\s*,\s*([A-Za-z_]\w*)\s*\)")

INTRO = """# Assignment: notebook {number}

This copy of notebook {number} is an assignment. Answer each exercise in the answer cell (the code
cell starting `answers = {{`) and in the "implement it" cells, then run every cell from the top and
hand in this file under its name.

**Honour system.** Nothing is hidden: `dplab.solution("{number}.1")` and
`python -m dplab answers {number}` still show the worked solutions. Try each exercise first, and use
them as your course's rules say.

**How it is graded.** Your teacher runs `python -m dplab grade` on the file you hand in: it runs the
notebook from the top in a fresh kernel (a cell that raises does not stop it; each cell has
{timeout} s) and records what `dplab.check` said for each exercise: right, wrong, malformed, or
missing (left at `None` or never checked). Keep the calls to `dplab.check`."""


def notebook_number(name: str | Path, metadata: dict | None = None) -> str | None:
    """The notebook ("01", ...) a file is an assignment of: its metadata's ``dplab.assignment`` when
    present, else the file name's two-digit prefix, else a notebook's stem in the file name
    (``alice_laplace_vs_gaussian.ipynb``); None when nothing names one."""
    numbers = sorted({i.split(".")[0] for i in all_exercises()})
    stored = ((metadata or {}).get("dplab") or {}).get("assignment") if isinstance(metadata, dict) else None
    if isinstance(stored, str) and stored in numbers:
        return stored
    file_name = Path(name).name
    if (found := re.match(r"(\d\d)[_.\-]", file_name)) and found.group(1) in numbers:
        return found.group(1)
    for path in sorted(notebooks_dir().glob("[0-9][0-9]_*.ipynb")):
        if path.stem[3:] in file_name and path.stem[:2] in numbers:
            return path.stem[:2]
    return None


def reset_answers(source: str) -> str:
    """The answer cell with every answer ``None`` (its keys, comments and loop kept)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.split("\n")
    for node in tree.body:
        if (isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["answers"]
                and isinstance(node.value, ast.Dict)):
            values = node.value.values
            if all(isinstance(v, ast.Constant) and v.value is None for v in values):
                return source
            keys = [ast.get_source_segment(source, k) for k in node.value.keys]
            rest = lines[node.end_lineno - 1].encode()[node.end_col_offset:].decode()
            new = "answers = {" + ", ".join(f"{k}: None" for k in keys) + "}" + rest
            return "\n".join(lines[:node.lineno - 1] + [new] + lines[node.end_lineno:])
    return source


def reset_implement(source: str) -> str:
    """An "implement it" cell reset to its stub: the checked function's body ``...`` (its signature
    and docstring kept) and the line ``fn = None`` before ``dplab.check("NN.impl", fn)``."""
    found = _IMPLEMENT_CHECK.search(source)
    if found is None:
        return source
    name = found.group(2)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.split("\n")
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            if body and not (len(body) == 1 and isinstance(body[0], ast.Expr)
                             and getattr(body[0].value, "value", None) is Ellipsis):
                indent = " " * body[0].col_offset
                lines = (lines[:body[0].lineno - 1] + [f"{indent}...  # your code"]
                         + lines[node.end_lineno:])
            break
    if not any(re.match(rf"{name}\s*=\s*None\b", line) for line in lines):
        at = next(i for i, line in enumerate(lines) if _IMPLEMENT_CHECK.search(line))
        lines.insert(at, f"{name} = None  # delete this line once your function is written")
    return "\n".join(lines)


def assignment_notebook(nb: dict, number: str) -> dict:
    """Notebook ``nb`` (as JSON) made an assignment of notebook ``number``: see the module docstring."""
    out = copy.deepcopy(nb)
    cells = []
    for cell in out["cells"]:
        if "solution" in cell.get("metadata", {}).get("tags", []):
            continue
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            if source.lstrip().startswith("answers = {"):
                source = reset_answers(source)
            source = reset_implement(source)
            cell["source"] = source
            cell["outputs"] = []
            cell["execution_count"] = None
        cell.get("metadata", {}).pop("execution", None)
        cells.append(cell)
    intro = {"cell_type": "markdown", "metadata": {"tags": ["assignment"]},
             "source": INTRO.format(number=number, timeout=CELL_TIMEOUT)}
    if "id" in (cells[0] if cells else {}):
        intro["id"] = f"assignment-{number}"
    out["cells"] = [intro] + cells
    out["metadata"].pop("widgets", None)
    out["metadata"]["dplab"] = {"assignment": number}
    return out


def write_assignment(number: str, out_dir: str | Path = ".") -> Path:
    """Write ``NN_<stem>.assignment.ipynb`` for notebook ``number`` ("01" or "1") into ``out_dir``;
    ValueError naming the notebooks when there is no such notebook."""
    number = notebook_prefix(number)
    found = sorted(notebooks_dir().glob(f"{number}_*.ipynb"))
    if not found:
        names = sorted(p.stem[:2] for p in notebooks_dir().glob("[0-9][0-9]_*.ipynb"))
        raise ValueError(f"notebook must be one of {names}, got {number!r}")
    source = found[0]
    nb = assignment_notebook(json.loads(source.read_text(encoding="utf-8")), number)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{source.stem}.assignment.ipynb"
    target.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return target


@dataclass(frozen=True)
class GradeRow:
    file: str
    exercise: str
    verdict: str
    feedback: str


def _run(path: Path, timeout: int) -> tuple[dict[str, list[str]], list[str], dict]:
    """Run the notebook at ``path``: (the verdicts recorded in its kernel, the errors its cells raised,
    its metadata). Raises when it cannot be read or run."""
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(_READ_RECORDED))
    # the kernel is this Python (the one with dplab), not whatever a "python3" kernelspec names
    manager = AsyncKernelManager(kernel_name="python3", kernel_spec_manager=KernelSpecManager(kernel_dirs=[]))
    client = NotebookClient(nb, km=manager, timeout=timeout, kernel_name="python3", allow_errors=True,
                            interrupt_on_timeout=True,
                            error_on_timeout={"ename": "Timeout", "evalue": f"the cell ran over {timeout} s",
                                              "traceback": []},
                            resources={"metadata": {"path": str(path.parent.resolve())}})
    env = {**os.environ, "DPLAB_PROGRESS": "0", "MPLBACKEND": "Agg"}
    errors = []
    with client.setup_kernel(env=env):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
                if index < len(nb.cells) - 1:
                    errors += [f"cell {index + 1}: {o.get('ename')}: {o.get('evalue')}"
                               for o in cell.outputs if o.get("output_type") == "error"]
    reading = nb.cells[-1].outputs
    text = "".join(o.get("text", "") for o in reading if o.get("output_type") == "stream")
    if _MARKER not in text:
        raise RuntimeError("the verdicts could not be read from the kernel: "
                           + "; ".join(f"{o.get('ename')}: {o.get('evalue')}" for o in reading))
    return json.loads(text.split(_MARKER, 1)[1].splitlines()[0]), errors, dict(nb.metadata)


def _metadata(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("metadata")
    except (OSError, ValueError, AttributeError):
        return None


def grade_notebook(path: str | Path, timeout: int = CELL_TIMEOUT) -> tuple[list[GradeRow], str]:
    """One handed-in notebook's rows (one per exercise of its notebook) and its summary line."""
    path = Path(path)
    exercises = all_exercises()
    try:
        recorded, errors, metadata = _run(path, timeout)
        problem = None
    except Exception as error:  # noqa: BLE001 - any notebook that cannot run is graded "missing"
        recorded, errors, metadata = {}, [], _metadata(path)
        problem = f"{type(error).__name__}: {(str(error).strip().splitlines() or [''])[0]}"
    number = notebook_number(path, metadata)
    if number is None:
        why = problem or "neither its metadata nor its file name names a notebook (NN_...)"
        return [GradeRow(str(path), "", "missing", f"cannot tell which notebook this is: {why}")], \
            f"{path}: cannot tell which notebook this is ({why})"
    rows = []
    for exercise_id in (i for i in exercises if i.startswith(number + ".")):
        if problem is not None:
            rows.append(GradeRow(str(path), exercise_id, "missing", f"the notebook could not run: {problem}"))
        elif exercise_id in recorded:
            verdict, feedback = recorded[exercise_id]
            rows.append(GradeRow(str(path), exercise_id, verdict, feedback))
        else:
            rows.append(GradeRow(str(path), exercise_id, "missing", f"{exercise_id}: never checked"
                                 + (f" (first error: {errors[0]})" if errors else "")))
    counts = ", ".join(f"{sum(r.verdict == v for r in rows)} {v}" for v in VERDICTS)
    summary = f"{path}: notebook {number}, {counts} of {len(rows)}"
    if problem is not None:
        summary += f"; could not run: {problem}"
    elif errors:
        summary += f"; {len(errors)} cell(s) raised, first {errors[0]}"
    return rows, summary


def grade(paths: Sequence[str | Path], out: str | Path = "grades.csv", timeout: int = CELL_TIMEOUT,
          say=print) -> list[GradeRow]:
    """Grade each notebook of ``paths`` (one at a time), write ``out`` (CSV: file, exercise, verdict,
    feedback) and ``say`` one summary line per file."""
    rows: list[GradeRow] = []
    for path in paths:
        found, summary = grade_notebook(path, timeout)
        rows += found
        say(summary)
    _write_csv(out, rows)
    return rows


def _write_csv(out: str | Path, rows: Iterable[GradeRow]) -> None:
    with open(out, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        writer.writerows([r.file, r.exercise, r.verdict, r.feedback] for r in rows)
