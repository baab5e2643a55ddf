"""LAB_SPEC.md's module map, checked on the import graph built from the sources.

The library (everything outside dplab/lab/) imports only its own layer or earlier ones
and never the lab; a lesson's report.py never reaches plots, widgets, matplotlib or
ipywidgets; there is no import cycle; ``import dplab`` loads neither matplotlib nor
ipywidgets.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys

from dplab.lab.sources import find_cycle, import_graph, module_files, reachable

# LAB_SPEC.md, "The module map": the library's layers, foundation first. A new library
# module must be given a layer here (its dotted name or a package prefix).
LAYERS = {
    "dplab._checks": 0, "dplab._calibrate": 0, "dplab._namespace": 0, "dplab._pld": 0, "dplab._tradeoff": 0,
    "dplab.data": 0,
    "dplab.mechanisms": 1,
    "dplab.accounting": 2, "dplab.promises": 2, "dplab.sensitivity": 2, "dplab.inference": 2,
    "dplab.datasets": 3, "dplab.means": 3, "dplab.bmi": 3, "dplab.contingency": 3, "dplab.range_queries": 3,
    "dplab.sparse_vector": 3, "dplab.net_mechanism": 3, "dplab.reconstruction": 3,
    "dplab.hadamard_attack": 3,
    "dplab.accuracy_first": 3, "dplab.smooth_sensitivity": 3,
    "dplab.local": 3, "dplab.query_release": 3,
    # DAWA's preset comparison and privacy audit summarise simulations (dplab.simulate's intervals)
    "dplab.range_queries.dawa_presets": 4, "dplab.range_queries.dawa_privacy": 4,
    "dplab.simulate": 4, "dplab.audit": 4, "dplab.attacks": 4,
    # DP-SGD's membership attack reuses the attackers' ROC machinery
    "dplab.learning": 4,
}
FACADES = {"dplab", "dplab.__main__"}  # may reach the lab: the flat API's lazy check, the CLI
GUI = ("matplotlib", "ipywidgets", "IPython", "PIL")


def _layer(module: str) -> int:
    parts = module.split(".")
    for i in range(len(parts), 1, -1):
        if ".".join(parts[:i]) in LAYERS:
            return LAYERS[".".join(parts[:i])]
    raise AssertionError(f"{module}: give it a layer in tests/test_layers.py")


def _library() -> list[str]:
    return [m for m in module_files() if m not in FACADES and not m.startswith("dplab.lab")]


def test_no_import_cycles():
    graph = import_graph(parents=False)
    assert find_cycle(graph) is None, find_cycle(graph)


def test_no_module_imports_from_its_own_package_facade():
    """What makes the package-to-module loops harmless (see import_graph): a module of
    dplab.accounting imports its siblings by their own path, never ``from dplab.accounting import``."""
    packages = {m for m, path in module_files().items() if path.name == "__init__.py"}
    graph = import_graph(parents=False)
    offenders = [f"{m} imports {d}" for m, deps in graph.items() for d in deps
                 if d in packages and m.startswith(d + ".")]
    assert not offenders


def test_the_cycle_finder_sees_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) in (["a", "b", "c", "a"], ["b", "c", "a", "b"], ["c", "a", "b", "c"])
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_library_imports_only_its_own_or_earlier_layers_and_never_the_lab():
    graph = import_graph()
    problems = []
    for module in _library():
        for imported in graph[module]:
            if imported.startswith("dplab.lab") or imported == "dplab":
                problems.append(f"{module} imports {imported}")
            elif _layer(imported) > _layer(module):
                problems.append(f"{module} (layer {_layer(module)}) imports {imported} "
                                f"(layer {_layer(imported)})")
    assert not problems, "\n".join(problems)


@functools.cache
def _third_party(module: str) -> frozenset[str]:
    tree = ast.parse(module_files()[module].read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return frozenset(names)


def test_library_and_lesson_reports_need_no_plotting():
    graph = import_graph()
    reports = [m for m in module_files() if m.startswith("dplab.lab.lessons.") and m.endswith(".report")]
    assert len(reports) >= 3
    for start in _library() + reports:
        for module in reachable(graph, {start}):
            assert module not in ("dplab.lab.plots", "dplab.lab.widgets"), f"{start} reaches {module}"
            gui = _third_party(module) & set(GUI)
            assert not gui, f"{start} reaches {module}, which imports {gui}"


def test_only_facades_import_the_facade():
    graph = import_graph()
    assert not [m for m, deps in graph.items() if "dplab" in deps and m not in FACADES]


def test_import_dplab_loads_no_plotting_and_no_lab():
    code = ("import sys, dplab; dplab.laplace_mse(1, 1.0); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            f"{GUI!r} or m.startswith('dplab.lab')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_every_public_name_lives_in_a_namespace_and_the_flat_core_is_curated():
    """catches: a library module left out of the namespaces (its names unreachable from dplab), a
    flat core that grows past 100 names again, a core name that is not the namespace's object."""
    import dplab

    exporting = {m for m in _library() if "__all__" in module_files()[m].read_text(encoding="utf-8")}
    reached = set()
    for namespace in dplab.NAMESPACES:
        module = getattr(dplab, namespace)
        reached |= {m for m in exporting if m == module.__name__ or m.startswith(module.__name__ + ".")}
    private = {m for m in exporting if m.split(".")[-1].startswith("_")}
    assert not (exporting - private - reached), exporting - private - reached
    assert len(dplab.__all__) <= 100
    for namespace, names in dplab.CORE.items():
        for name in names:
            assert getattr(dplab, name) is getattr(getattr(dplab, namespace), name), name


def test_a_name_outside_the_core_raises_naming_its_home():
    """catches: a name dropped from the flat API without a pointer (a student following an older
    notebook gets 'no attribute' and no way on)."""
    import pytest

    import dplab

    for namespace in dplab.NAMESPACES:
        for name in getattr(getattr(dplab, namespace), "__all__", ()):
            if name in dplab.__all__ or name in dplab.NAMESPACES:  # dplab.sparse_vector is the namespace
                continue
            with pytest.raises(AttributeError, match=rf"use dplab\.{namespace}\.{name}"):
                getattr(dplab, name)
    for name, home in dplab.RENAMED.items():
        with pytest.raises(AttributeError) as raised:
            getattr(dplab, name)
        assert home in str(raised.value)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        dplab.no_such_name  # noqa: B018
