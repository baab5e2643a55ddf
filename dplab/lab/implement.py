"""The harness of the "implement it" exercises: a student's function, run and tested the way the lab
tests its own mechanisms.

A lesson's ``implement.py`` states the signature (``fn(value, sensitivity, epsilon, rng) -> float``,
one release per call) and builds its check from the pieces here; :func:`run` applies them in order and
the first that fails gives the one line the student reads (:class:`Wrong`). The pieces:

* :func:`call` runs the student's function: an exception inside it becomes one line naming the
  exception and the call, never a traceback;
* :func:`refuses`: bad input (epsilon <= 0) must raise ValueError;
* :func:`uses_rng`: two Generators of one seed give the same releases (the noise comes from
  the ``rng`` given, so a run is reproducible and the check's draws are the seeded ones);
* :func:`releases`: at most :data:`MAX_RELEASES` calls in all, each with the one seeded Generator;
* :func:`continuous_law`: a real release's law, tested in the order that names the mistake:
  it varies, its noise has the reference's shape (Kolmogorov-Smirnov on the standardized releases),
  its centre and its standard deviation (dplab.simulate.mean_ci), then the exact law (KS);
* :func:`discrete_law`: a finite output's law against the exact probabilities (chi-square), with
  the laws of anticipated mistakes named when the releases fit one of them;
* :func:`audit`: an empirical privacy audit of the releases on the exercise's pair of neighbours
  (dplab.audit.audit_epsilon, Clopper-Pearson bounds), which must not certify more than epsilon.

Every statistical check of one exercise runs at the per-check level
:func:`dplab.simulate.bonferroni_confidence` (n_checks, :data:`FAMILY_ERROR`): a right function passes
them all with probability >= 99.9%.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Sequence

import numpy as np
from scipy import stats

from dplab.audit import audit_epsilon
from dplab.lab.exercises import as_number
from dplab.simulate import mean_ci

__all__ = ["FAMILY_ERROR", "MAX_RELEASES", "PER_SIDE", "RNG_CHECK_CALLS", "SEED", "Wrong", "as_number",
           "audit", "call", "continuous_law", "discrete_law", "refuses", "releases", "run", "uses_rng"]

#: the most releases one exercise's check draws, and the seconds its draws may take
MAX_RELEASES, SECONDS = 20_000, 10.0
#: the rng check's calls on each of its two Generators, and the releases left to each side of a pair
RNG_CHECK_CALLS = 10
PER_SIDE = (MAX_RELEASES - 2 * RNG_CHECK_CALLS) // 2
#: the probability that a right function fails one of an exercise's statistical checks, at most
FAMILY_ERROR = 0.001
#: the seed of the Generators passed to a student's function
SEED = 2029


class Wrong(Exception):
    """A failed check: its message is the one line the student reads."""


def _show(value: object) -> str:
    """A short text for one argument of a call (an array by its length, the Generator as rng)."""
    if isinstance(value, np.random.Generator):
        return "rng"
    if isinstance(value, np.ndarray) and (value.ndim > 1 or value.size > 6):
        return f"<array of shape {value.shape}>"
    if isinstance(value, np.ndarray):
        return repr([float(f"{v:.4g}") for v in value.tolist()])
    if isinstance(value, (float, np.floating)):
        return f"{value:.4g}"
    return repr(value)


def _takes(fn: Callable, args: Sequence[object]) -> None:
    """Wrong, naming the exercise's call, when ``fn``'s parameters cannot take ``args``."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin or a callable without a signature: let the call tell
        return
    try:
        signature.bind(*args)
    except TypeError:
        raise Wrong(f"your function's parameters {signature} cannot take the exercise's call "
                    f"fn({', '.join(_show(a) for a in args)}): write it with the signature the question "
                    "states") from None


def call(fn: Callable, *args: object) -> object:
    """``fn(*args)``; an exception inside it becomes :class:`Wrong` with one line naming it and the call."""
    _takes(fn, args)
    try:
        return fn(*args)
    except Exception as error:  # noqa: BLE001 - a student's code is reported, never propagated
        text = str(error).strip().splitlines()
        raise Wrong(f"your function raised {type(error).__name__}{': ' + text[0] if text else ''} "
                    f"when called as fn({', '.join(_show(a) for a in args)})") from None


def run(fn: Callable, *checks: Callable[[Callable], str]) -> tuple[bool, str]:
    """Apply ``checks`` (each returns what it verified, or raises :class:`Wrong`) in order: (False, the
    first failure's line), or (True, "right: " and what was verified)."""
    said = []
    for check in checks:
        try:
            said.append(check(fn))
        except Wrong as wrong:
            return False, str(wrong)
    return True, "right: " + "; ".join(s for s in said if s) + "."


def refuses(*bad_args: Sequence[object], what: str = "epsilon <= 0") -> Callable[[Callable], str]:
    """A check: ``fn(*args)`` raises ValueError for every ``args`` in ``bad_args``."""
    def check(fn: Callable) -> str:
        for args in bad_args:
            shown = ", ".join(_show(a) for a in args)
            _takes(fn, args)
            try:
                out = fn(*args)
            except ValueError:
                continue
            except Exception as error:  # noqa: BLE001
                raise Wrong(f"fn({shown}) raised {type(error).__name__} where ValueError was expected "
                            f"({what} is bad input)") from None
            raise Wrong(f"fn({shown}) returned {_show(out)}: it must raise ValueError ({what} is bad input)")
        return f"refuses {what}"
    return check


def _one(value: object, kind: str | int) -> object:
    """One release as a float (kind "number"), an int ("index") or a float vector of ``kind`` entries."""
    if kind in ("number", "index"):
        number = as_number(value)
        if isinstance(number, str):
            raise Wrong(f"one release must be one number: your function returned {number}")
        if kind == "index" and number != int(number):
            raise Wrong(f"one release must be an index (an int): your function returned {number!r}")
        return int(number) if kind == "index" else number
    try:
        vector = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise Wrong(f"one release must be {kind} numbers: your function returned {_show(value)}") from None
    if vector.shape != (kind,) or not np.all(np.isfinite(vector)):
        raise Wrong(f"one release must be {kind} finite numbers: your function returned {_show(value)}")
    return vector


def _first(x: np.ndarray, shown: int = 3) -> str:
    """The first releases of a run, rounded: [0.512, -3.1, 2.07, ...]."""
    flat = [f"{v:.3g}" for v in np.ravel(x)[:shown]]
    return "[" + ", ".join(flat) + (", ...]" if np.size(x) > shown else "]")


def uses_rng(args: Sequence[object], kind: str | int = "number") -> Callable[[Callable], str]:
    """A check: RNG_CHECK_CALLS calls ``fn(*args, rng)`` on each of two Generators of one seed release
    the same sequence (one call each is not enough where a discrete output repeats by chance)."""
    def check(fn: Callable) -> str:
        a, b = (np.array([_one(call(fn, *args, rng), kind) for _ in range(RNG_CHECK_CALLS)])
                for rng in (np.random.default_rng(SEED), np.random.default_rng(SEED)))
        if not np.array_equal(a, b):
            raise Wrong(f"{RNG_CHECK_CALLS} calls with each of two Generators of one seed released "
                        f"{_first(a)} and {_first(b)}: draw every noise from the rng your "
                        "function is given (rng.random(...), rng.laplace(...), ...), not np.random")
        return "draws from its rng"
    return check


def releases(fn: Callable, args: Sequence[object], n: int, kind: str | int = "number",
             seed: int = SEED) -> np.ndarray:
    """``n`` releases ``fn(*args, rng)`` with one Generator seeded ``seed`` (Wrong if they take over
    :data:`SECONDS`)."""
    if n > MAX_RELEASES:
        raise ValueError(f"n must be at most {MAX_RELEASES}, got n={n}")
    rng, start, out = np.random.default_rng(seed), time.perf_counter(), []
    for i in range(n):
        out.append(_one(call(fn, *args, rng), kind))
        if time.perf_counter() - start > SECONDS:
            raise Wrong(f"your function took over {SECONDS:g} s for {i + 1} of the {n} releases the check "
                        "draws: one release per call, without loops over many draws")
    return np.asarray(out)


def continuous_law(x: np.ndarray, law: stats.rv_continuous, what: str, *, scale_hint: str,
                   shape_hint: str, confidence: float) -> str:
    """Releases ``x`` against the reference ``law`` (a frozen scipy distribution), four checks at
    ``confidence`` each: they vary and their standardized noise has the law's shape (KS), the
    centre, the standard deviation (Student intervals of dplab.simulate.mean_ci), the exact law (KS)."""
    alpha, mean, sd = 1 - confidence, float(law.mean()), float(law.std())
    if np.ptp(x) == 0:
        raise Wrong(f"{what} do not vary (standard deviation 0 where {sd:.3g} was expected): add noise")
    standard = (x - x.mean()) / x.std(ddof=1)
    shape = stats.kstest(standard, lambda t: law.cdf(mean + sd * t)).pvalue
    if shape < alpha:
        raise Wrong(f"{what} do not have the shape of the expected noise (Kolmogorov-Smirnov p = {shape:.1g} "
                    f"< {alpha:.1g}): {shape_hint}")
    if not mean_ci(x, confidence).contains(mean):
        raise Wrong(f"{what} are centred at {x.mean():.4g} where {mean:.4g} was expected: is the noise "
                    "centred at 0, added to the true value?")
    if not mean_ci((x - mean) ** 2, confidence).contains(sd ** 2):
        raise Wrong(f"{what}: your noise has standard deviation {x.std(ddof=1):.3g} where {sd:.3g} was "
                    f"expected: {scale_hint}")
    p = stats.kstest(x, law.cdf).pvalue
    if p < alpha:
        raise Wrong(f"{what} do not follow the expected law (Kolmogorov-Smirnov p = {p:.1g} < {alpha:.1g})")
    return f"{what} follow the law (KS p = {p:.2f})"


def discrete_law(x: np.ndarray, outputs: Sequence[object], probabilities: np.ndarray, what: str, *,
                 hint: str, confidence: float,
                 mistakes: Sequence[tuple[np.ndarray, str]] = ()) -> str:
    """Releases ``x`` (each one of ``outputs``) against the exact ``probabilities``: chi-square, the
    cells whose expected count is under 5 pooled. When it rejects, the first law of ``mistakes`` (its
    probabilities, its hint) that the releases fit names the mistake; else the output furthest from its
    probability and ``hint``."""
    index = {o: i for i, o in enumerate(outputs)}
    if (stray := next((v for v in x.tolist() if v not in index), None)) is not None:
        raise Wrong(f"{what}: your function returned {stray!r}, which is not an output "
                    f"(expected one of {', '.join(map(str, outputs))})")
    counts = np.bincount([index[v] for v in x.tolist()], minlength=len(outputs))
    alpha = 1 - confidence

    def fit(p: np.ndarray) -> float:
        if np.any(counts[p == 0] > 0):
            return 0.0
        big = len(x) * p >= 5
        observed = np.append(counts[big], counts[~big].sum())
        expected = np.append(len(x) * p[big], len(x) * p[~big].sum())
        keep = expected > 0
        return float(stats.chisquare(observed[keep], expected[keep] * observed.sum() / expected.sum()).pvalue)

    p = fit(np.asarray(probabilities, dtype=float))
    if p >= alpha:
        return f"{what} follow the law (chi-square p = {p:.2f})"
    for law, mistake in mistakes:
        if fit(np.asarray(law, dtype=float)) >= alpha:
            raise Wrong(f"{what} do not follow the expected law (chi-square p = {p:.1g}): {mistake}")
    share = counts / len(x)
    worst = int(np.argmax(np.abs(share - probabilities)))
    raise Wrong(f"{what} do not follow the expected law (chi-square p = {p:.1g}): output {outputs[worst]} "
                f"came {share[worst]:.1%} of the time where {probabilities[worst]:.1%} was expected. {hint}")


def audit(x: np.ndarray, x_prime: np.ndarray, epsilon: float, pair: str, *, confidence: float) -> str:
    """An audit (dplab.audit.audit_epsilon) of releases ``x`` on D and ``x_prime`` on its neighbour D'
    (30% of each the pilot that picks the event, the rest counted): Wrong if it certifies more than
    ``epsilon`` at ``confidence``."""
    drawn, used = (np.asarray(x), np.asarray(x_prime)), [0, 0]

    def replay(which: int, size: int, _rng: object) -> np.ndarray:
        out = drawn[which][used[which]:used[which] + size]
        used[which] += size
        return out

    pilot = len(x) * 3 // 10
    result = audit_epsilon(replay, 0, 1, n_runs=len(x) - pilot, n_pilot=pilot, confidence=confidence,
                           rng=SEED)
    if result.epsilon_lower > epsilon:
        raise Wrong(f"not {epsilon:g}-DP: an audit of your releases on {pair} certifies epsilon >= "
                    f"{result.epsilon_lower:.2f} (the event {result.event} came {result.counts[0]} and "
                    f"{result.counts[1]} times in {result.n_runs} runs)")
    return (f"an audit on {pair} finds no privacy loss above epsilon = {epsilon:g} (the loss it can prove "
            f"from your releases is {result.epsilon_lower:.2f})")
