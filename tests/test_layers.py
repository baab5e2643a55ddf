"""LAB_SPEC.md's layer rule: a dplab module imports only modules of its own layer or earlier."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "dplab"

# Layer order of LAB_SPEC.md's module map. A new module must be given a layer here.
LAYERS = {
    "_checks": 0, "_progress": 0,
    "mechanisms": 1,
    "composition": 2, "sensitivity": 2, "inference": 2,
    "datasets": 3, "data": 3, "bmi": 3, "range_queries": 3, "sparse_vector": 3,
    "net_mechanism": 3, "filters": 3, "contingency": 3, "range_optimization": 3,
    "simulate": 4, "audit": 4, "report": 4,
    "plots": 5, "widgets": 5,
    "lessons": 6, "exercises": 6,
    "figures": 7, "bench": 7, "browser": 7, "__main__": 7,
}


def _dplab_imports(tree: ast.AST) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "dplab":
            parts = node.module.split(".")
            if len(parts) > 1:
                found.add(parts[1])
            else:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "dplab" and len(parts) > 1:
                    found.add(parts[1])
    return found


def test_every_module_has_a_layer_and_imports_only_earlier_layers():
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).parts
        top = rel[0].removesuffix(".py")
        if top == "__init__":  # the facade re-exports every layer
            continue
        assert top in LAYERS, f"dplab/{'/'.join(rel)}: give module {top!r} a layer in this test"
        for imported in _dplab_imports(ast.parse(path.read_text(encoding="utf-8"))):
            assert imported in LAYERS, f"{path.name} imports unknown dplab.{imported}"
            if LAYERS[imported] > LAYERS[top]:
                problems.append(f"dplab/{'/'.join(rel)} (layer {LAYERS[top]}) imports "
                                f"dplab.{imported} (layer {LAYERS[imported]})")
    assert not problems, "\n".join(problems)


def test_the_checker_sees_a_violation():
    tree = ast.parse("from dplab.widgets import SliderPanel\nimport dplab.figures\n")
    assert _dplab_imports(tree) == {"widgets", "figures"}
