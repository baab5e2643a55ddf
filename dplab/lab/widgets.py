"""Slider panels that redraw fast: sliders, a "new draw" button, the plot, a readout.

Sliders follow the hand: they update while dragged (``continuous_update=True``; ipywidgets
keeps one update in flight and merges the rest, so no backlog builds), except where a panel's
recompute cannot keep up, which passes ``continuous_update=False`` and says so in its readout.
The plot is shown at its native pixel size (never stretched), with the readout as its text
alternative: a live region that screen readers announce. (A widget tooltip would be the other
half, but with a tooltip set Voila 0.5 fails to render the widget at all: measured here.)

The panel owns one figure. On every change it calls ``update(values, seed)``,
which recomputes (from cached standard draws: a slider only rescales) and moves
the existing artists; the panel then renders the figure to PNG into an
``ipywidgets.Image``. No figure is rebuilt, so a step costs one render.
Slider ranges exclude invalid values (epsilon and delta sliders are logarithmic,
so they cannot reach 0).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import ipywidgets as widgets

from dplab.lab.plots import FastPNG, figure_png
from dplab.promises import detection_sentence, odds_sentence

__all__ = [
    "BENCH_EPSILONS",
    "EPSILON_STEP",
    "BrowserStep",
    "PanelCase",
    "SliderPanel",
    "delta_slider",
    "epsilon_slider",
    "k_slider",
    "promise",
    "view_figure",
    "view_panel",
]


#: the epsilons a bench sweeps an epsilon slider through: 12 from 0.1 to 4, geometric
BENCH_EPSILONS = tuple(0.1 * 40 ** (i / 11) for i in range(12))
#: the readout of a log epsilon slider at 1 after one ArrowRight: 10^0.05
EPSILON_STEP = f"{10 ** 0.05:.3g}"


@dataclass(frozen=True)
class BrowserStep:
    """How the browser test moves a panel in the page: the panel's place among the notebook's
    panels, the slider's description, the readout after one ArrowRight, and a text the panel's
    readout then contains."""

    panel: int
    slider: str
    readout: str
    text: str


@dataclass(frozen=True)
class PanelCase:
    """A widget panel as its lesson declares it (``views.PANELS``): a label, the function that
    builds it, the slider values the bench sweeps (control -> values), and the browser test's
    step, if any. The bench, the widget tests and the browser test read these declarations."""

    label: str
    make: Callable[[], SliderPanel]
    sweep: dict[str, list] = field(default_factory=dict)
    browser: BrowserStep | None = None


def promise(*, epsilon: float | None = None, delta: float = 0.0, mu: float | None = None,
            prior: float = 0.1, reason: str | None = None, label: str = "What it promises") -> str:
    """The last line of an epsilon panel's readout: what the release promises a person
    (notebook 8). Pure epsilon-DP: the odds sentence (dplab.promises.odds_sentence, a bound on the
    posterior). With delta > 0 or as mu-GDP the posterior odds are not bounded, so the
    attacker's test instead (dplab.promises.detection_sentence at 5% false accusations). ``reason``
    instead of both: why this release promises nothing (a variant that is not private)."""
    if reason is not None:
        text = f"no promise: {reason}"
    elif mu is not None:
        text = detection_sentence(mu=mu)
    elif delta > 0:
        text = detection_sentence(epsilon=epsilon, delta=delta)
    else:
        text = odds_sentence(epsilon, prior)
    text = text.replace("eps = ", "ε = ").replace("delta = ", "δ = ").replace("mu = ", "μ = ")
    return f"<br><i>{label} (notebook 8):</i> {text}."


def epsilon_slider(
    value: float = 1.0, low: float = 0.05, high: float = 5.0, description: str = "epsilon",
    continuous_update: bool = True,
) -> widgets.FloatLogSlider:
    """A logarithmic epsilon slider on [low, high] (low > 0, so epsilon = 0 is unreachable);
    the plot follows the drag unless ``continuous_update=False`` (a recompute that cannot keep up)."""
    if not 0 < low <= value <= high:
        raise ValueError(f"need 0 < low <= value <= high, got low={low}, value={value}, high={high}")
    # the ends on the grid of steps through log10(value): a browser snaps the handle to that grid and,
    # when the slider follows the drag, sends the snapped value back at once (1 would become 0.998)
    step = 0.05
    anchor = math.log10(value)
    low_exp = anchor - step * math.floor((anchor - math.log10(low)) / step + 1e-9)  # >= low
    high_exp = anchor + step * round((math.log10(high) - anchor) / step)  # high, to the nearest step
    return widgets.FloatLogSlider(
        value=value, base=10, min=low_exp, max=high_exp, step=step,
        description=description, readout_format=".3g", continuous_update=continuous_update,
    )


def delta_slider(
    value: float = 1e-6, low: float = 1e-12, high: float = 1e-2, description: str = "delta",
    continuous_update: bool = True,
) -> widgets.FloatLogSlider:
    """A logarithmic delta slider on [low, high] inside (0, 1)."""
    if not 0 < low <= value <= high < 1:
        raise ValueError(f"need 0 < low <= value <= high < 1, got low={low}, value={value}, "
                         f"high={high}")
    return widgets.FloatLogSlider(
        value=value, base=10, min=math.log10(low), max=math.log10(high), step=0.5,
        description=description, readout_format=".0e", continuous_update=continuous_update,
    )


def k_slider(value: int = 10, low: int = 1, high: int = 200, description: str = "k",
             continuous_update: bool = True) -> widgets.IntSlider:
    """An integer slider for a number of queries, k >= 1."""
    if not 1 <= low <= value <= high:
        raise ValueError(f"need 1 <= low <= value <= high, got low={low}, value={value}, high={high}")
    return widgets.IntSlider(value=value, min=low, max=high, description=description,
                             continuous_update=continuous_update)


class SliderPanel:
    """Controls + "new draw" button + plot image + readout, wired to ``update``.

    ``update(values, seed)`` gets the controls' values by name and the current
    seed, moves the artists of ``figure`` and returns the readout (HTML). When
    ``dynamic`` lists the only artists that move (limits and titles fixed), frames are
    blitted (:class:`dplab.lab.plots.FastPNG`) instead of fully re-rendered.
    """

    def __init__(
        self,
        figure,
        update: Callable[[dict, int], str],
        controls: Mapping[str, widgets.ValueWidget],
        *,
        seed: int = 0,
        dynamic=None,
    ):
        self.figure = figure
        self._render = FastPNG(figure, dynamic).png if dynamic else lambda: figure_png(figure)
        self._update = update
        self.controls = dict(controls)
        self.seed = seed
        width, _ = figure.get_size_inches() * figure.dpi  # shown at its native pixel size
        self.image = widgets.Image(format="png", layout=widgets.Layout(width=f"{round(width)}px",
                                                                       max_width="100%", height="auto"))
        self.readout = widgets.HTML()
        self.button = widgets.Button(description="new draw", icon="refresh",
                                     tooltip="simulate again with the next seed")
        #: (recompute s, recompute + redraw s) of the latest redraws (bounded: a live panel
        #: in class may be moved thousands of times)
        self.timings: deque[tuple[float, float]] = deque(maxlen=1000)
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.button.on_click(self._on_new_draw)
        self.widget = widgets.VBox(
            [widgets.HBox([*self.controls.values(), self.button]), self.image, self.readout]
        )
        self.widget.add_class("widget-interact")
        self.widget.add_class("dplab-panel")
        self.redraw()

    def values(self) -> dict:
        return {name: control.value for name, control in self.controls.items()}

    def recompute(self) -> str:
        """Recompute and move the artists; no rendering. Returns the readout."""
        return self._update(self.values(), self.seed)

    def redraw(self) -> None:
        """Recompute, render the figure into the image and refresh the readout."""
        start = time.perf_counter()
        text = self.recompute()
        middle = time.perf_counter()
        self.image.value = self._render()
        self.readout.value = f'<div role="status" aria-live="polite">{text}</div>'
        self.timings.append((middle - start, time.perf_counter() - start))

    def _on_change(self, _change) -> None:
        self.redraw()

    def _on_new_draw(self, _button) -> None:
        self.seed += 1
        self.redraw()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


def view_panel(view: Callable[[], object], controls: Mapping[str, widgets.ValueWidget], seed: int = 0
               ) -> SliderPanel:
    """A panel on a lesson's View: ``view()`` builds ``.fig`` (and ``.dynamic``, the artists that
    move) and its ``update(values, seed)`` moves them and returns the readout."""
    v = view()
    return SliderPanel(v.fig, v.update, controls, seed=seed, dynamic=getattr(v, "dynamic", None))


def view_figure(view: Callable[[], object], values: Mapping[str, object], seed: int):
    """The View's figure at ``values`` (a panel's still, for ``make figures`` and static HTML)."""
    v = view()
    v.update(dict(values), seed)
    return v.fig


# --- shared view helpers (issue 25) ---


@dataclass(frozen=True)
class ViewPanel:
    """A lesson's panel declared once: its View, a function making its controls (fresh widgets for
    each panel) and the seed of its still. ``figure()`` draws the View at the controls' starting
    values (``make figures``, the notebook's still), ``panel(seed)`` is the live panel: the still and
    the panel start from the same values by construction, not by two copies of them."""

    view: Callable[[], object]
    controls: Callable[[], Mapping[str, widgets.ValueWidget]]
    still_seed: int = 0

    def figure(self):
        """The View's figure at the controls' starting values, drawn with ``still_seed``."""
        start = {name: control.value for name, control in self.controls().items()}
        return view_figure(self.view, start, self.still_seed)

    def panel(self, seed: int = 0) -> SliderPanel:
        """The live panel (:func:`view_panel`) on fresh controls."""
        return view_panel(self.view, self.controls(), seed)


def value_slider(values, value, description: str, *, fmt: str = "{:g}", continuous_update: bool = True
                 ) -> widgets.SelectionSlider:
    """A slider over a few fixed ``values`` (a precomputed sweep, a short menu of deltas), each labelled
    by ``fmt`` ("{:g}": 0.05, 1.59; "{:.0e}": 1e-06); ``value`` must be one of them."""
    return widgets.SelectionSlider(options=[(fmt.format(v), v) for v in values], value=value,
                                   description=description, continuous_update=continuous_update)
