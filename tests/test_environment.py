"""environment.yml must list the same packages with the same lower bounds as pyproject.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def _pyproject_requirements() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        reqs += extra
    out: dict[str, str] = {}
    for text in reqs:
        r = Requirement(text)
        out[r.name.lower()] = str(r.specifier)
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


def test_every_place_that_names_the_python_version_says_3_11():
    """catches: one of pyproject, ruff, environment.yml, the README or the Makefile left at 3.10
    (the pinned numpy, scipy, matplotlib and ipython need 3.11)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["requires-python"] == ">=3.11"
    assert pyproject["tool"]["ruff"]["target-version"] == "py311"
    assert "python>=3.11" in (ROOT / "environment.yml").read_text()
    assert "Python >= 3.11" in (ROOT / "Makefile").read_text().splitlines()[0]
    readme = (ROOT / "README.md").read_text()
    assert "Python >= 3.11" in readme and "3.10 is not supported" in readme


def test_package_data_covers_every_file_the_package_ships():
    """catches: a data file or template under dplab/ that a wheel would leave out (the static-HTML
    template was missing from package-data)."""
    from fnmatch import fnmatch

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = setuptools["package-data"]["dplab"]
    package = ROOT / "dplab"
    missing = [str(path.relative_to(package)) for path in package.rglob("*")
               if path.is_file() and path.suffix not in (".py", ".pyc")
               and "__pycache__" not in path.parts
               and not any(fnmatch(str(path.relative_to(package)), pattern) for pattern in patterns)]
    assert not missing, missing
