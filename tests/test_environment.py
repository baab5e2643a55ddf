"""environment.yml must list the same packages with the same lower bounds as pyproject.toml."""

from __future__ import annotations

from pathlib import Path

import tomllib
import yaml
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
# conda-forge names that differ from PyPI names
CONDA_NAME = {"pyyaml": "pyyaml"}


def _pyproject_requirements() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        reqs += extra
    out: dict[str, str] = {}
    for text in reqs:
        r = Requirement(text)
        name = CONDA_NAME.get(r.name.lower(), r.name.lower())
        out[name] = str(r.specifier)
    return out


def _conda_requirements() -> tuple[dict[str, str], list]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert env["channels"] == ["conda-forge"]
    out: dict[str, str] = {}
    pip = []
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            pip = dep["pip"]
            continue
        r = Requirement(dep)
        out[r.name.lower()] = str(r.specifier)
    return out, pip


def test_environment_yml_matches_pyproject():
    conda, pip = _conda_requirements()
    python = conda.pop("python")
    conda.pop("pip")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert python == project["requires-python"]
    assert pip[0] == "-e ."
    for text in pip[1:]:  # packages conda-forge lacks come from PyPI through pip
        r = Requirement(text)
        conda[r.name.lower()] = str(r.specifier)
    assert conda == _pyproject_requirements()


def test_constraints_pin_every_dependency():
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[name.lower().replace("_", "-")] = version
    for name, spec in _pyproject_requirements().items():
        assert name in pins, f"{name} is not pinned in constraints.txt"
        assert Requirement(f"{name}{spec}").specifier.contains(pins[name]), (name, spec, pins[name])
