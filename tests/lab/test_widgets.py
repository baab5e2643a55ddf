"""Slider panels (no browser): redraw on change, new draw, ranges that exclude invalid values."""

from __future__ import annotations

import numpy as np
import pytest

import dplab
from dplab.lab.lessons.l01_laplace_vs_gaussian import views as lesson
from dplab.lab.widgets import delta_slider, epsilon_slider, k_slider


def test_error_panel_redraws_on_slider_and_new_draw():
    panel = lesson.laplace_error_panel()
    first_image, first_text = bytes(panel.image.value), panel.readout.value
    assert first_image.startswith(b"\x89PNG") and "ε = 1" in first_text
    panel.controls["epsilon"].value = 0.5
    assert bytes(panel.image.value) != first_image
    assert "ε = 0.5" in panel.readout.value and "theory 8" in panel.readout.value
    seed, before = panel.seed, panel.readout.value
    panel.button.click()
    assert panel.seed == seed + 1 and panel.readout.value != before
    assert len(panel.timings) == 3 and panel.timings.maxlen == 1000  # bounded in a long class


def test_k_panel_readout_names_the_winner():
    panel = lesson.k_query_panel()
    panel.controls["k"].value = 1
    assert "Laplace wins" in panel.readout.value
    panel.controls["k"].value = 100
    assert "Gaussian (analytic) wins" in panel.readout.value
    panel.controls["epsilon"].value = 2.0  # classical curve hidden, nothing raises
    classical = [line for line in panel.figure.axes[0].lines
                 if line.get_label().startswith("Gaussian, classical")]
    assert classical and not any(line.get_visible() for line in classical)


@pytest.mark.parametrize("args", [(1.0,), (0.5,), (1.0, 0.02, 5.0), (0.3, 0.05, 4.0)])
def test_the_default_value_lies_on_the_slider_grid(args):
    """A browser snaps the handle to min + j * step and, when the slider follows the drag, sends the
    snapped value back at once: a default off the grid would turn 1 into 0.998 on page load."""
    import math

    eps = epsilon_slider(*args)
    steps = (math.log10(eps.value) - eps.min) / eps.step
    assert steps == pytest.approx(round(steps), abs=1e-9)
    assert eps.continuous_update


def test_sliders_cannot_reach_invalid_values():
    eps, delta, k = epsilon_slider(), delta_slider(), k_slider()
    assert eps.base ** eps.min > 0 and delta.base ** delta.min > 0 and delta.base ** delta.max < 1
    assert k.min >= 1
    eps.value = 0.0  # a log slider clamps to its minimum, at or just above the requested 0.05
    assert eps.value == pytest.approx(10**eps.min) and 0.05 <= eps.value < 0.051
    k.value = 0
    assert k.value == 1
    with pytest.raises(ValueError, match="low"):
        epsilon_slider(value=1.0, low=0.0)
    with pytest.raises(ValueError, match="high"):
        delta_slider(high=1.0)


def test_bmi_panel_controls():
    from dplab.lab.lessons.l02_bmi_parallel_composition import views as l02

    panel = l02.bmi_panel()
    assert "Algorithm 2 is 10.7× more accurate" in panel.readout.value
    image = bytes(panel.image.value)
    panel.controls["neighbours"].value = "replace"
    assert "replace neighbours" in panel.readout.value and "2.67×" in panel.readout.value
    assert bytes(panel.image.value) != image
    panel.controls["algorithm"].value = "Algorithm 1"
    assert not panel.figure.axes[0].lines[2].get_visible()  # Algorithm 2's theory hidden
    panel.controls["epsilon"].value = 0.5
    assert "theory 512" in panel.readout.value


def test_range_panel_controls():
    from dplab.lab.lessons.l03_hierarchy_vs_flat_range_queries import views as l03

    panel = l03.range_panel()
    assert "k = 256" in panel.readout.value
    image = bytes(panel.image.value)
    panel.controls["k"].value = 4096
    assert "k = 4096" in panel.readout.value and bytes(panel.image.value) != image
    panel.controls["branching"].value = 16
    expected = dplab.expected_error_per_query("hierarchy", 4096, 1.0, 16, inference=True, include_root=False)
    assert f"hierarchy + inference {expected:.4g}" in panel.readout.value
    panel.controls["strategy"].value = "all ranges"
    assert "simulated only up to k = 256" in panel.readout.value
    assert list(panel.controls["k"].options)[0] >= 1  # k cannot be driven below 1


def test_bmi_panel_draw_is_the_algorithms_own_noise():
    from dplab.lab.lessons.l02_bmi_parallel_composition import views as l02

    t = dplab.load_yrbss()
    truth = dplab.bmi_true_answers(t)
    std = l02.standard_answer_errors(6, 1000)
    a2 = dplab.bmi_algorithm_2(t, 0.5, rng=6, size=1000, neighbours="replace")
    np.testing.assert_allclose((a2 - truth) / 4.0, std["2"], atol=1e-9)
    np.testing.assert_allclose((dplab.bmi_algorithm_1(t, 2.0, rng=6, size=1000) - truth) / 2.0,
                               std["1"], atol=1e-9)


@pytest.mark.slow
def test_every_epsilon_panel_says_what_it_promises():
    """Issue 14: each panel with an epsilon slider ends its readout with the odds sentence (pure
    eps-DP), the attacker-test sentence ((eps, delta) or mu-GDP), or why it promises nothing."""
    from dplab.lab.registry import lesson_panels

    checked = set()
    for prefix, cases in lesson_panels().items():
        for case in cases:
            if "epsilon" not in case.sweep:
                continue
            text = case.make().recompute()
            assert "(notebook 8):" in text, case.label
            assert ("can become at most" in text or "spots Alice's record at most" in text
                    or "no promise: " in text), case.label
            checked.add(prefix)
    assert len(checked) >= 9  # every lesson so far has an epsilon panel: the loop saw them all


def test_promise_picks_the_sentence_for_the_guarantee():
    from dplab.lab.widgets import promise

    assert "can become at most 23% sure" in promise(epsilon=1.0)
    assert "ε = 1, δ = 1e-06" in promise(epsilon=1.0, delta=1e-6)
    assert "μ = 1 (Gaussian DP)" in promise(mu=1.0)
    assert "no promise: broken" in promise(reason="broken")
    assert "no promise: lee_clifton is not ε-DP" in _loss_panel_text("lee_clifton")
    assert "can become at most" in _loss_panel_text("above_threshold")


def _loss_panel_text(variant: str) -> str:
    from dplab.lab.lessons.l04_above_threshold_proof import views

    panel = views.loss_panel()
    panel.controls["variant"].value = variant
    return panel.recompute()


def test_loss_panel_c_and_neighbours_change_the_readouts_limit():
    """Issue 27: the c slider and the general/monotone toggle move the exact loss limit in the readout
    (Lyu, Su & Li 2017: Lee-Clifton's (1 + 6c)/4 eps; with monotone neighbours each top pays one shift
    of its Lap(4/(3 eps)) noise, (1 + 3c)/4 eps, and Algorithm 1 eps1 + eps2/2 = 3 eps/4)."""
    from dplab.lab.lessons.l04_above_threshold_proof import views

    panel = views.loss_panel()
    assert "limit as j grows: 1.75 = 1.75 ε" in panel.readout.value
    image = bytes(panel.image.value)
    panel.controls["c"].value = 3
    assert "c = 3" in panel.readout.value and "limit as j grows: 4.75 = 4.75 ε" in panel.readout.value
    assert bytes(panel.image.value) != image
    panel.controls["neighbours"].value = "monotone"
    assert "monotone neighbours" in panel.readout.value
    assert "limit as j grows: 2.5 = 2.5 ε" in panel.readout.value
    panel.controls["variant"].value = "lyu_alg1"
    assert "limit as j grows: 0.75 = 0.75 ε, within" in panel.readout.value
    panel.controls["variant"].value, panel.controls["c"].value = "lee_clifton", 1  # (1 + 3c)/4 = 1
    assert "1 = 1 ε, within" in panel.readout.value and "under monotone ones its limit on 0s is 1 ε" in (
        panel.readout.value)
    panel.controls["neighbours"].value = "general"
    assert "monotone ones" not in panel.readout.value and "not ε-DP under general" in panel.readout.value
    panel.controls["variant"].value, panel.controls["c"].value = "above_threshold", 5
    assert "c ignored (halts at the first ⊤)" in panel.readout.value and "c = 5" not in panel.readout.value


class _CountingView:
    """A View whose readout says which values and seed it was updated with."""

    def __init__(self):
        from dplab.lab.plots import new_figure

        self.fig, (ax,) = new_figure(1)
        (self.line,) = ax.plot([0, 1], [0, 0])
        self.dynamic = [self.line]

    def update(self, values, seed):
        self.line.set_ydata([0, values["epsilon"]])
        return f"eps={values['epsilon']:.3g} seed={seed}"


def test_view_panel_and_view_figure_pass_the_values_and_the_seed():
    """catches: view_panel wiring the View's update to the wrong figure or dropping the seed, and
    view_figure returning a figure it never updated"""
    from dplab.lab.widgets import view_figure, view_panel

    panel = view_panel(_CountingView, {"epsilon": epsilon_slider(1.0)}, seed=7)
    assert panel.readout.value.endswith("eps=1 seed=7</div>")
    panel.controls["epsilon"].value = 2.0
    panel.button.click()
    assert "eps=2 seed=8" in panel.readout.value
    fig = view_figure(_CountingView, {"epsilon": 3.0}, seed=0)
    assert fig.axes[0].get_lines()[0].get_ydata()[1] == 3.0


