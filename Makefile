# dplab: everything runs from here. A fresh clone needs only Python >= 3.10 and pip.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
PIP    := $(PY) -m pip install --disable-pip-version-check -q -c constraints.txt
ROOT_FLAG := $(shell [ "$$(id -u)" = "0" ] && echo --allow-root)
NB ?= notebooks/01_laplace_vs_gaussian.ipynb
export MPLBACKEND := Agg

.PHONY: lab test figures notebooks bench voila lint clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# Stamps: re-install only when pyproject.toml or constraints.txt change.
$(VENV)/.lab-installed: pyproject.toml constraints.txt | $(PY)
	$(PIP) -e ".[lab]"
	touch $@

$(VENV)/.test-installed: pyproject.toml constraints.txt | $(PY)
	$(PIP) -e ".[lab,test]"
	touch $@ $(VENV)/.lab-installed

lab: $(VENV)/.lab-installed
	$(BIN)/jupyter lab notebooks --no-browser --ServerApp.ip=127.0.0.1 $(ROOT_FLAG)

test: $(VENV)/.test-installed
	$(BIN)/ruff check dplab tests notebooks
	$(BIN)/pytest --nbval-lax --nbval-current-env --nbval-cell-timeout=120 notebooks tests

figures: $(VENV)/.lab-installed
	$(PY) -m dplab figures

notebooks: $(VENV)/.test-installed
	DPLAB_PROGRESS=0 $(BIN)/jupyter nbconvert --to notebook --execute --inplace notebooks/*.ipynb
	$(BIN)/nbstripout --keep-output --keep-count --extra-keys "metadata.widgets" notebooks/*.ipynb

bench: $(VENV)/.test-installed
	$(PY) -m dplab bench

voila: $(VENV)/.lab-installed
	$(BIN)/voila $(NB) --no-browser --Voila.ip=127.0.0.1

clean:
	rm -rf $(VENV) .pytest_cache
