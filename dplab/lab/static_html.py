"""``make html``: every notebook with its stored outputs as static HTML, with an index, for
students who only read: no server and no network.

The pages use nbconvert's lab look through the template ``dplab_static`` (in
``dplab/lab/jupyter/nbconvert/templates/``), which drops require.js and the mermaid loader, and
load MathJax 2 from a ``mathjax/`` folder copied beside them from the jupyter-server-mathjax
package. A live panel's place (its widget state is not stored) gets a note saying so. The
glossary and the teaching notes become pages too, and the index is the same template as
``make present``'s, with links to the pages. Open ``html/index.html`` in a browser.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from dplab.lab.present import lessons, template_root, use_templates

__all__ = ["EXTRA_PAGES", "MATHJAX_URL", "PANEL_NOTE", "write_html"]

#: MathJax 2 as nbconvert's lab template configures it, from the folder beside the pages
MATHJAX_URL = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe"
#: Markdown files of notebooks/ that become pages, with their title in the index
EXTRA_PAGES = {"00_glossary.md": "Glossary: notation and neighbour relations",
               "TEACHING.md": "For teachers: a ten-minute demo path per lesson"}


def _exporter():
    from nbconvert import HTMLExporter

    use_templates()
    exporter = HTMLExporter(template_name="dplab_static")
    exporter.mathjax_url = MATHJAX_URL
    return exporter


#: what a reader of a static page sees where a notebook shows a live panel
PANEL_NOTE = ("<p><em>Here the notebook shows a live panel: sliders and a plot that follows them. "
              "The figure above shows it at its default values; run the notebook (make lab), or "
              "make present, to move the sliders.</em></p>")
WIDGET = "application/vnd.jupyter.widget-view+json"


def _without_widgets(notebook):
    """Each widget output (a panel: its saved state is stripped, so a page could show only the
    widget's text form, ``VBox(children=...``) becomes :data:`PANEL_NOTE`."""
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if WIDGET in output.get("data", {}):
                output["data"] = {"text/html": PANEL_NOTE}
    return notebook


def _relink(html: str) -> str:
    """Links between the lab's files point at their pages (``00_glossary.md`` -> ``.html``)."""
    for name in EXTRA_PAGES:
        html = html.replace(f'href="{name}"', f'href="{Path(name).with_suffix(".html")}"')
    return html


def write_html(folder: str | Path, out: str | Path) -> list[Path]:
    """Write ``out/index.html``, one page per notebook ``NN_*.ipynb`` of ``folder`` and per
    :data:`EXTRA_PAGES` file, and ``out/mathjax/``; return the pages written."""
    import jinja2
    import jupyter_server_mathjax
    import nbformat

    folder, out = Path(folder), Path(out)
    out.mkdir(parents=True, exist_ok=True)
    exporter = _exporter()
    written = []
    index = lessons(folder)
    for lesson in index:
        notebook = _without_widgets(nbformat.read(folder / lesson["path"], as_version=4))
        body, _ = exporter.from_notebook_node(notebook, resources={"metadata": {"name": lesson["title"]}})
        page = out / Path(lesson["path"]).with_suffix(".html").name
        page.write_text(_relink(body), encoding="utf-8")
        lesson["link"] = page.name
        written.append(page)
    extras = []
    for name, title in EXTRA_PAGES.items():
        if not (folder / name).is_file():
            continue
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
            (folder / name).read_text(encoding="utf-8"))])
        body, _ = exporter.from_notebook_node(notebook, resources={"metadata": {"name": title}})
        page = out / Path(name).with_suffix(".html").name
        page.write_text(_relink(body), encoding="utf-8")
        extras.append({"title": title, "link": page.name})
        written.append(page)
    shutil.copytree(Path(jupyter_server_mathjax.__file__).with_name("static"), out / "mathjax",
                    dirs_exist_ok=True)
    index_template = template_root() / "voila" / "templates" / "dplab"
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(index_template), autoescape=True)
    lead = ("Every lesson with its stored outputs, to read offline. To move the sliders, run the "
            "notebooks: make lab, or make present in front of a class.")
    html = env.get_template("tree.html").render(
        base_url="", page_config={"dplabLessons": index, "dplabExtras": extras, "dplabLead": lead})
    (out / "index.html").write_text(html, encoding="utf-8")
    return [out / "index.html", *written]
