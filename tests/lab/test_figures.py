"""The committed figures are what the code draws today (rendered once, compared with a
tolerance, so other fonts or a conda matplotlib do not fail it)."""

from __future__ import annotations

import pytest
from matplotlib.testing.compare import compare_images

from dplab.lab.figures import render_figures
from dplab.lab.paths import figures_dir
from dplab.lab.registry import lesson_views

TOLERANCE = 2.0  # RMS over 0-255 pixel values: a moved curve or label exceeds it, hinting does not


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    return render_figures(tmp_path_factory.mktemp("figures"))


@pytest.mark.slow
def test_the_figures_are_the_committed_ones(rendered):
    names = sorted(p.name for p in rendered)
    assert names == sorted(p.name for p in figures_dir().glob("*.png")), "run make figures"
    stale = []
    for path in rendered:
        result = compare_images(str(figures_dir() / path.name), str(path), tol=TOLERANCE)
        if result is not None:
            stale.append(result)
    assert not stale, "figures/ is stale (run make figures):\n" + "\n".join(stale)


@pytest.mark.slow
def test_a_figure_renders_to_the_same_bytes_twice(tmp_path):
    views = lesson_views()[0]
    for i in (0, 1):
        views.figure_laplace_error().savefig(tmp_path / f"{i}.png", metadata={"Software": None})
    assert (tmp_path / "0.png").read_bytes() == (tmp_path / "1.png").read_bytes()


def test_the_checker_sees_a_change(tmp_path):
    import matplotlib.pyplot as plt

    for i, y in enumerate(([0, 1], [1, 0])):
        fig, ax = plt.subplots(figsize=(2, 2), dpi=50)
        ax.plot([0, 1], y, lw=4)
        fig.savefig(tmp_path / f"{i}.png")
        plt.close(fig)
    assert compare_images(str(tmp_path / "0.png"), str(tmp_path / "1.png"), tol=TOLERANCE) is not None


def test_an_accountant_is_drawn_in_its_one_style_in_every_figure():
    """catches: a lesson's own colour map for the accountants (notebooks 6 and 8 once drew "optimal
    (KOV)" in black and in pink, "zCDP (CKS)" in two oranges)."""
    from matplotlib.colors import to_hex

    from dplab.lab.lessons.l06_adaptive_filters.views import figure_composition as figure_06
    from dplab.lab.lessons.l08_what_epsilon_promises.views import figure_composition as figure_08
    from dplab.lab.plots import ACCOUNTANT_STYLES

    drawn = []
    for figure in (figure_06, figure_08):
        lines = [line for ax in figure().axes for line in ax.get_lines()]
        drawn += [(line.get_label(), to_hex(line.get_color()), line.get_linestyle()) for line in lines
                  if line.get_label() in ACCOUNTANT_STYLES]
    assert {label for label, *_ in drawn} >= {"basic", "advanced (DRV)", "zCDP (CKS)", "optimal (KOV)"}
    for label, color, style in drawn:
        assert (color, style) == (to_hex(ACCOUNTANT_STYLES[label][0]), ACCOUNTANT_STYLES[label][1]), label
