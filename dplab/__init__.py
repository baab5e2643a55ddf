"""dplab: a teaching lab for differential privacy.

The library is organised in namespaces that show its layers: ``dplab.mechanisms`` (one
module per mechanism: ``Laplace``, ``Gaussian``, ``RandomizedResponse``, ``EpsilonDelta``,
private selection, noise reduction), ``dplab.accounting`` (the accountants, filters,
composition theorems, the neighbour relation, the calibration routine), ``dplab.promises``
(what epsilon promises an attacker), ``dplab.sensitivity``, ``dplab.smooth_sensitivity``,
``dplab.inference``, ``dplab.datasets``, the lectures' topics (``dplab.bmi``,
``dplab.means``, ``dplab.contingency``, ``dplab.range_queries``, ``dplab.sparse_vector``,
``dplab.net_mechanism``, ``dplab.reconstruction``, ``dplab.hadamard_attack``,
``dplab.accuracy_first``, ``dplab.local``, ``dplab.query_release``, ``dplab.learning``) and the
experiment harness (``dplab.simulate``, ``dplab.audit``, ``dplab.attacks``).

The flat ``dplab.NAME`` is a curated core of what the first notebooks type
(``dplab.laplace_mse``, ``dplab.gaussian_sigma``, ``dplab.expected_total_error``, ...).
Every other public name lives in its namespace; asking ``dplab`` for it raises an
AttributeError that names its home. The lab that shows the library (figures, panels,
lessons, report) is ``dplab.lab``: nothing here imports it, except ``dplab.check`` (the
exercise checker), loaded on first use, so ``import dplab`` loads neither matplotlib nor
ipywidgets. Notebooks live in ``notebooks/``; see README.md.
"""

from importlib import import_module

__version__ = "0.1.0"

#: The library's namespaces, foundation first (README.md, "Layout"; tests/lab/test_layers.py checks them).
NAMESPACES = (
    "mechanisms",
    "accounting",
    "promises",
    "sensitivity",
    "inference",
    "datasets",
    "means",
    "bmi",
    "contingency",
    "range_queries",
    "sparse_vector",
    "net_mechanism",
    "reconstruction",
    "hadamard_attack",
    "accuracy_first",
    "smooth_sensitivity",
    "local",
    "query_release",
    "simulate",
    "audit",
    "attacks",
    "learning",
)
_modules = {name: import_module(f"dplab.{name}") for name in NAMESPACES}

#: The curated flat core, by namespace: what notebooks 1-3 type, and the mechanism objects.
CORE = {
    "mechanisms": (
        "EpsilonDelta", "Gaussian", "Laplace", "RandomizedResponse", "SubsampledGaussian",
        "gaussian_delta", "gaussian_laplace_crossover_k", "gaussian_mechanism", "gaussian_privacy_loss",
        "gaussian_sigma", "gaussian_sigma_zcdp", "hockey_stick_samples",
        "laplace_accuracy_k", "laplace_accuracy_k_exact", "laplace_mae", "laplace_mechanism", "laplace_mse",
        "laplace_privacy_loss", "laplace_scale", "laplace_scale_k", "laplace_tail_bound",
    ),
    "accounting": (
        "advanced_beats_basic_from_k", "advanced_composition", "advanced_composition_per_step",
        "advanced_composition_simplified_max_epsilon", "parallel_composition", "sequential_composition",
        "subsampling_epsilon", "subsampling_slide_claim_fails_above", "subsampling_slide_claim_holds_up_to",
        "transformation_epsilon", "zcdp_to_approx_dp",
    ),
    "sensitivity": ("clipped_mean_sensitivity",),
    "datasets": ("load_yrbss",),
    "means": ("clipped_mean", "mean_release_n_public", "mean_release_sum_count", "mean_sum_count_mse"),
    "bmi": (
        "bmi_algorithm_1", "bmi_algorithm_2", "bmi_answers_sensitivity", "bmi_cells",
        "bmi_expected_total_error", "bmi_inference_trials", "bmi_order_violation_probability",
        "bmi_slides_table",
        "bmi_totals_expected_error", "bmi_totals_trials", "bmi_true_answers", "body_mass_index",
        "tall_counts", "tall_counts_expected_error", "tall_counts_isotonic_trials",
    ),
    "contingency": ("CONTINGENCY_METHODS", "contingency_expected_total_error", "contingency_release"),
    "range_queries": (
        "all_range_max_error", "all_range_total_error", "best_branching", "expected_error_per_query",
        "expected_total_error", "height_histogram", "hierarchy_crossover_any_k", "hierarchy_crossover_k",
        "hierarchy_max_range_error", "hierarchy_node_variance", "load_p_identity", "n_ranges",
        "p_identity_error", "p_identity_matrix", "range_strategy", "synthetic_histogram", "tree_height",
    ),
    "simulate": (
        "Estimate", "ScaledErrors", "bonferroni_confidence", "mean_ci", "proportion_ci", "quantile_ci",
    ),
}

for _namespace, _names in CORE.items():
    for _name in _names:
        globals()[_name] = getattr(_modules[_namespace], _name)
del _namespace, _names, _name

__all__ = sorted([name for names in CORE.values() for name in names] + ["check", "progress", "solution"])

#: Flat names of earlier versions whose thing has a new form, not just a new namespace.
RENAMED = {
    "laplace_pld": "dplab.mechanisms.Laplace(sensitivity, epsilon).pld(step=...)",
    "gaussian_pld": "dplab.mechanisms.Gaussian.from_mu(mu).pld(step=...)",
    "randomized_response_pld": "dplab.mechanisms.RandomizedResponse(epsilon).pld(step=...)",
    "tradeoff_laplace": "dplab.mechanisms.Laplace(sensitivity, epsilon).tradeoff(alpha)",
    "tradeoff_gaussian": "dplab.promises.tradeoff_gdp(alpha, mu) or Gaussian.from_mu(mu).tradeoff(alpha)",
    "tradeoff_randomized_response": "dplab.mechanisms.RandomizedResponse(epsilon).tradeoff(alpha)",
    "randomized_response_guess": "dplab.mechanisms.randomized_response_guess, or RandomizedResponse.keep",
    "NEIGHBOURS": "dplab.accounting.Neighbours",
    "check_neighbours": "dplab.accounting.Neighbours(value)",
    "MAX_GRID_POINTS": "dplab._pld.MAX_GRID_POINTS",
    "TAIL": "dplab._pld.TAIL",
    "advanced_composition_seed_max_epsilon": "dplab.advanced_composition_simplified_max_epsilon",
}


def home(name: str) -> str | None:
    """Where a public name lives now: ``dplab.NAME`` for the core, else ``dplab.<namespace>.NAME``
    (or its new form, for a renamed one); None if dplab has no such name."""
    if name in __all__:
        return f"dplab.{name}"
    if name in RENAMED:
        return RENAMED[name]
    for namespace, module in _modules.items():
        if name in getattr(module, "__all__", ()):
            return f"dplab.{namespace}.{name}"
    return None


def __getattr__(name: str):
    """``dplab.check`` imports the lab's exercise registry on first use (PEP 562); a name outside
    the flat core raises an AttributeError that names its namespace."""
    if name in ("check", "solution", "progress"):
        from dplab.lab import registry

        return getattr(registry, name)
    where = home(name)
    if where is not None and not name.startswith("__"):
        raise AttributeError(f"dplab.{name} is not in the flat core: use {where}")
    raise AttributeError(f"module 'dplab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(__all__) | set(NAMESPACES)
                  | {"lab", "check", "progress", "solution", "CORE", "NAMESPACES", "RENAMED", "home"})
