"""Citations a reader can follow (issue 29): what a user reads cites the lectures by the short names of
the lecture tables in README.md and notebooks/00_glossary.md, never by an internal label ("seed 003"),
and points nowhere outside the repository.

What a user reads: README.md, notebooks/*.md (glossary, TEACHING.md), every notebook cell (markdown,
code comments, printed strings) and its stored outputs, figures/REPORT.md, and every module under
dplab/ (docstrings that help() shows, error messages, exercise texts, report rows). These checks read
text, not the library's behaviour, so no mutant of dplab/ stands for their bugs: each test names the
bug it catches."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from dplab.lab.paths import repo_root
from dplab.lab.report import LECTURES, lecture_citation

ROOT = repo_root()

#: an internal lecture label or a path outside the repository
FORBIDDEN = re.compile(r"\b[Ss]eeds? ?0\d\d\b|\b[Ss]eed's\b|\b[Tt]he seeds\b|\bseed paper\b"
                       r"|\.\./shared|LAB_SPEC")
#: a citation: [Roth11]-style (author and year) anywhere, [Hu]-style (a capitalised word) in Markdown
CITED_WITH_YEAR = re.compile(r"(?<![\w.\]])\[([A-Z][a-z]+\d\d)\](?!\()")
CITED_IN_MARKDOWN = re.compile(r"(?<![\w.\]])\[([A-Z][a-z]+(?:\d\d)?)\](?![(:])")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _notebook_texts(path: Path) -> tuple[str, str]:
    """(the markdown cells, everything: every cell's source and its text outputs)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    markdown = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    parts = ["".join(c["source"]) for c in cells]
    for cell in cells:
        for out in cell.get("outputs", []):
            parts.append("".join(out.get("text", "")))
            parts.append("".join(out.get("data", {}).get("text/plain", "")))
    return markdown, "\n".join(parts)


def _markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "notebooks").glob("*.md"))]


@cache
def _user_texts() -> dict[str, str]:
    """Every text a user reads, by its path relative to the repository."""
    paths = [*_markdown_files(), ROOT / "figures" / "REPORT.md", *sorted((ROOT / "dplab").rglob("*.py"))]
    texts = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in paths}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        texts[path.relative_to(ROOT).as_posix()] = _notebook_texts(path)[1]
    return texts


@cache
def _markdown_texts() -> dict[str, str]:
    texts = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in _markdown_files()}
    texts["figures/REPORT.md"] = (ROOT / "figures" / "REPORT.md").read_text(encoding="utf-8")
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        texts[path.relative_to(ROOT).as_posix()] = _notebook_texts(path)[0]
    return texts


def lecture_table(text: str) -> list[list[str]]:
    """The rows (cells) of the table under the ``## Lectures`` heading."""
    section = text[text.index("\n## Lectures\n"):]
    table = section[section.index("\n| short name |") + 1:]
    lines = table.split("\n\n")[0].strip().splitlines()
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines[2:]]


def _slug(heading: str) -> str:
    """A Markdown heading's anchor as GitHub and JupyterLab make it: lower case, no punctuation, - for
    spaces."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, re.M)}


def test_no_internal_lecture_label_or_outside_path_in_what_a_user_reads():
    """catches: a lecture cited by the internal label "seed 003" (38 times in the notebooks, in the
    glossary, TEACHING.md, docstrings and REPORT.md's column), "the seed's" or "the seeds", and a
    pointer outside the repository (README's ../shared/seeds/ and LAB_SPEC.md)."""
    found = [f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r}"
             for name, text in _user_texts().items() for m in FORBIDDEN.finditer(text)]
    assert not found, "\n".join(found)


def test_the_forbidden_pattern_sees_every_label():
    """catches: a FORBIDDEN pattern that misses a form of the label (so the test above could not fail)."""
    for text in ("seed 003's proof", "Seed 000 also states", "seeds 003, 004", "the seed's split",
                 "The seeds", "the seed paper's Lemma", "(`../shared/seeds/`)", "LAB_SPEC.md",
                 '"seed003"'):
        assert FORBIDDEN.search(text), text
    for text in ("a fixed seed", "each run with its own seed (8 tests", "seed=2032", '"derived_last"'):
        assert not FORBIDDEN.search(text), text


def test_every_relative_link_resolves_inside_the_repository():
    """catches: a README or notebook link to a file that moved or lies outside the repository
    (README's lecture column linked ../shared/seeds/), or to a heading that does not exist."""
    broken = []
    texts = {p: p.read_text(encoding="utf-8") for p in _markdown_files()}
    texts |= {p: _notebook_texts(p)[0] for p in sorted((ROOT / "notebooks").glob("*.ipynb"))}
    for path, text in texts.items():
        for m in LINK.finditer(text):
            target = m.group(1)
            if re.match(r"^(https?|mailto):", target):
                continue
            file, _, anchor = target.partition("#")
            resolved = (path.parent / file).resolve() if file else path
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                broken.append(f"{path.name}: {target} (no such file in the repository)")
                continue
            if not anchor or (file and resolved.suffix != ".md"):
                continue  # no anchor, or one into a notebook (not checked)
            headings = resolved.read_text(encoding="utf-8") if file else text
            if anchor not in _anchors(headings):
                broken.append(f"{path.name}: {target} (no such heading)")
    assert not broken, broken


def test_the_link_check_sees_a_broken_link(tmp_path):
    """catches: a link pattern that matches nothing (so the test above could not fail)."""
    targets = [m.group(1) for m in LINK.finditer("see [the seeds](../shared/seeds/) and ![a](figures/x.png)")]
    assert targets == ["../shared/seeds/", "figures/x.png"]


def test_the_lecture_tables_of_readme_and_glossary_agree_with_the_report():
    """catches: a lecture added to, renamed in or dropped from one table and not the other, or not in
    the short names a report row may cite (dplab.lab.report.LECTURES)."""
    readme = lecture_table((ROOT / "README.md").read_text(encoding="utf-8"))
    glossary = lecture_table((ROOT / "notebooks" / "00_glossary.md").read_text(encoding="utf-8"))
    assert readme == glossary
    assert [row[0] for row in readme] == [f"[{name}]" for name in LECTURES]
    assert all(len(row) == 6 and all(row) for row in readme), readme  # title, course, lecturer, date, address


def test_every_short_name_cited_is_in_the_lecture_table():
    """catches: a citation of a lecture the tables do not list (a typo, [Roth12], or a new lecture
    cited before it has a row)."""
    known = set(LECTURES)
    unknown = {f"{name}: [{m.group(1)}]" for name, text in _user_texts().items()
               for m in CITED_WITH_YEAR.finditer(text) if m.group(1) not in known}
    unknown |= {f"{name}: [{m.group(1)}]" for name, text in _markdown_texts().items()
                for m in CITED_IN_MARKDOWN.finditer(text) if m.group(1) not in known}
    assert not unknown, sorted(unknown)


def test_no_markdown_line_starts_with_a_citation_and_a_colon():
    """catches: "[Roth11]: Pr[...]" at the start of a Markdown line, which Markdown reads as a link
    definition and does not show."""
    starts = [f"{name}: {line[:40]}" for name, text in _markdown_texts().items()
              for line in text.splitlines() if re.match(r"\s*\[[A-Z][a-z]+(\d\d)?\]:", line)]
    assert not starts, starts


def test_report_lecture_column_holds_short_names():
    """catches: REPORT.md's column still called seed, or a row citing "001" instead of [Gaboardi17]."""
    lines = (ROOT / "figures" / "REPORT.md").read_text(encoding="utf-8").splitlines()
    header = next(line for line in lines if line.startswith("| id |"))
    columns = [c.strip() for c in header.strip("|").split("|")]
    assert "seed" not in columns
    at = columns.index("lecture")
    citation = re.compile(r"^(—|\[[A-Za-z0-9]+\]( \[[A-Za-z0-9]+\])*)$")
    rows = [[c.strip() for c in line.strip("|").split(" | ")] for line in lines if line.startswith("| 0")]
    assert rows
    bad = [(row[0], row[at]) for row in rows
           if not citation.match(row[at]) or not set(re.findall(r"\[(\w+)\]", row[at])) <= set(LECTURES)]
    assert not bad, bad


@pytest.mark.parametrize("lecture, cell", [("Duke18", "[Duke18]"), ("—", "—"),
                                           ("Rogers23, Roth11", "[Rogers23] [Roth11]")])
def test_a_row_cites_short_names(lecture, cell):
    assert lecture_citation(lecture) == cell


@pytest.mark.parametrize("lecture", ["001", "002/004", "Roth12", "", "[Hu]"])
def test_a_row_refuses_an_internal_label(lecture):
    """catches: a report row passing "001"-style labels (every row did before issue 29)."""
    with pytest.raises(ValueError, match="lecture"):
        lecture_citation(lecture)
