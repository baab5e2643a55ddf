"""Membership inference against a trained model, and an empirical audit of a learner's epsilon.

The loss-threshold attack (Yeom, Giacomelli, Fredrikson & Jha, "Privacy Risk in Machine Learning",
CSF 2018): a model fits its training rows better than rows it never saw, so "say member when the
row's loss is <= t" separates members from non-members as well as the model overfits. Its score is
minus the per-example loss; its ROC over t comes from notebook 8's machinery
(:func:`dplab.attacks.likelihood_ratio_roc`: non-members play D, members D', boxes at a joint level).

One model's ROC says how much that model leaks about its average member. What DP bounds is the
leak about ANY one row, over the learner's randomness: :func:`membership_audit` trains many models
with and without a target row and bounds epsilon from below with :func:`dplab.audit.audit_epsilon`
(Clopper-Pearson, the target's loss as the output; Jagielski, Ullman & Oprea, "Auditing
Differentially Private Machine Learning: How Private is Private SGD?", NeurIPS 2020). For an average
row the bound sits far below the accounted epsilon; a canary (:func:`flipped_label_canary`, an
outlier whose label the data contradict, so its clipped gradient always pulls with full force C)
brings it closer: DP's epsilon is a worst case over rows, the average row is not the worst.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_positive_int, check_rng
from dplab.attacks import EmpiricalRoc, likelihood_ratio_roc
from dplab.audit import AuditResult, audit_epsilon
from dplab.learning.dpsgd import dpsgd
from dplab.learning.logistic import LogisticModel, _check_features, _check_labels

__all__ = [
    "dpsgd_trainer",
    "flipped_label_canary",
    "loss_threshold_roc",
    "membership_advantage",
    "membership_audit",
    "membership_scores",
]


def membership_scores(model: LogisticModel, X: ArrayLike, y: ArrayLike) -> np.ndarray:
    """The loss-threshold attacker's score of each row: minus its loss under the model (higher: more
    likely a member; Yeom et al. 2018)."""
    return -np.asarray(model.losses(X, y))


def loss_threshold_roc(model: LogisticModel, X_members: ArrayLike, y_members: ArrayLike,
                       X_nonmembers: ArrayLike, y_nonmembers: ArrayLike, *, n_points: int = 40,
                       confidence: float = 0.95) -> EmpiricalRoc:
    """The ROC of "say member when -loss >= t" (:func:`membership_scores`): non-members' scores play D,
    members' D' in :func:`dplab.attacks.likelihood_ratio_roc`, so ``alpha`` is the false positive rate
    (non-members called members) and ``tpr`` = 1 - beta the share of members found, each point with a
    Clopper-Pearson box, the boxes holding together at ``confidence``."""
    return likelihood_ratio_roc(membership_scores(model, X_nonmembers, y_nonmembers),
                                membership_scores(model, X_members, y_members), n_points=n_points,
                                confidence=confidence)


def membership_advantage(roc: EmpiricalRoc) -> float:
    """max_t (TPR(t) - FPR(t)) over the ROC's points: the attacker's membership advantage over guessing
    (Yeom et al. 2018). For the test about one row over the learner's randomness, (epsilon, 0)-DP gives
    TPR <= e^eps FPR and 1 - FPR <= e^eps (1 - TPR), hence an advantage <= (e^eps - 1)/(e^eps + 1)."""
    if not isinstance(roc, EmpiricalRoc):
        raise TypeError(f"roc must be an EmpiricalRoc, got roc={roc!r}")
    return float(max(np.max(roc.tpr - roc.alpha), 0.0))


def flipped_label_canary(model: LogisticModel, X: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, float]:
    """A worst-case row for an audit: the row of X on which ``model`` is most confident and right,
    with its label flipped, i.e. the (x, 1 - y) of largest loss under the model. The data contradict
    it, so a model trained with it still misfits it and its gradient keeps full norm (clipped at C)
    in every step it is sampled: its presence shows in its loss more than any real row's."""
    X = _check_features(X)
    y = _check_labels(y, X.shape[0])
    flipped = 1.0 - y
    i = int(np.argmax(model.losses(X, flipped)))
    return X[i].copy(), float(flipped[i])


def dpsgd_trainer(**parameters) -> Callable[[np.ndarray, np.ndarray, np.random.Generator], LogisticModel]:
    """train(X, y, rng) -> model: :func:`dplab.learning.dpsgd` with these keyword parameters
    (noise_multiplier, clip, sampling_rate, steps, learning_rate, l2), for :func:`membership_audit`."""
    if "rng" in parameters:
        raise ValueError("parameters must not fix rng: the audit gives each model its own")

    def train(X: np.ndarray, y: np.ndarray, rng: np.random.Generator) -> LogisticModel:
        return dpsgd(X, y, rng=rng, **parameters)[0]

    return train


def membership_audit(X: ArrayLike, y: ArrayLike, target_x: ArrayLike, target_y: float, *,
                     train: Callable[[np.ndarray, np.ndarray, np.random.Generator], LogisticModel],
                     n_runs: int, n_pilot: int, confidence: float = 0.95, delta: float = 0.0,
                     rng: np.random.Generator | int | None = None) -> AuditResult:
    """A lower bound on the learner's epsilon for the add/remove pair D = (X, y) and D' = D plus the
    target row: 2 (n_runs + n_pilot) models trained by ``train(X, y, rng)``, each scored by minus the
    target's loss; :func:`dplab.audit.audit_epsilon` picks a threshold on the pilot models and bounds
    ln(Pr_D'[event] / Pr_D[event]) (or the reverse) from below by Clopper-Pearson, the claimed
    ``delta`` subtracted (Jagielski et al. 2020). ``epsilon_lower`` holds with probability >=
    ``confidence``: above the accounted epsilon, the accounting (or the learner) is wrong."""
    X = _check_features(X)
    y = _check_labels(y, X.shape[0])
    target_x = np.asarray(target_x, dtype=float)
    if target_x.shape != (X.shape[1],) or not np.all(np.isfinite(target_x)):
        raise ValueError(f"target_x must be one finite row of {X.shape[1]} features, "
                         f"got shape {target_x.shape}")
    target_y = float(_check_labels([target_y], 1, "target_y")[0])
    with_target = (np.vstack([X, target_x]), np.append(y, target_y))
    n_runs, n_pilot = check_positive_int(n_runs, "n_runs"), check_positive_int(n_pilot, "n_pilot")
    if not callable(train):
        raise TypeError(f"train must be a function train(X, y, rng) -> model, got train={train!r}")

    def sampler(data: tuple[np.ndarray, np.ndarray], size: int, r: np.random.Generator) -> np.ndarray:
        scores = np.empty(size)
        for k in range(size):
            model = train(*data, r)
            scores[k] = -model.losses(target_x[None, :], [target_y])[0]
        return scores

    return audit_epsilon(sampler, (X, y), with_target, n_runs=n_runs, n_pilot=n_pilot, confidence=confidence,
                         delta=delta, rng=check_rng(rng))
