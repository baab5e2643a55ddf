# dplab: everything runs from here. A fresh clone needs only Python >= 3.11 and pip.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
PIP    := $(PY) -m pip install --disable-pip-version-check -q -c constraints.txt
ROOT_FLAG := $(shell [ "$$(id -u)" = "0" ] && echo --allow-root)
# NB: a notebook's number (03) or path, for make voila / make bench
NB ?=
export MPLBACKEND := Agg
# Python keeps compiled modules (and pytest its rewritten test modules) in __pycache__: these machines set
# PYTHONDONTWRITEBYTECODE=1, which made every run recompile them (make test-fast: 76 s, 51 s with the cache)
unexport PYTHONDONTWRITEBYTECODE
# PROJECTOR=1 (make present, make voila, make lab): the projector style, larger text and thicker lines
# (only for these: stored outputs and figures/ are always made in the plain style)
PROJECTOR ?=
ifneq ($(filter-out 0,$(PROJECTOR)),)
present voila lab: export DPLAB_PROJECTOR := 1
endif

.PHONY: lab present test test-fast figures optimise notebooks bench mutants voila html lint clean

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

# Test processes: one per core (pytest-xdist); --dist loadfile keeps a file's tests, and a notebook's
# cells, on one worker, in order.
XDIST := -n auto --dist loadfile
# each xdist worker computes on one thread: two workers whose OpenBLAS spins a thread per core fight over
# the two cores (two mutation-run children side by side: 224 s each, 20 s on one thread each)
ONE_THREAD := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1

# Everything: ruff, unit tests, report rows and figures, every notebook (nbval), the browser tests.
test: $(VENV)/.test-installed
	$(BIN)/ruff check dplab tests notebooks
	$(ONE_THREAD) DPLAB_PROJECTOR=0 $(BIN)/pytest $(XDIST) --nbval-lax --nbval-current-env --nbval-cell-timeout=120 notebooks tests

# The inner loop (under a minute): closed forms, brute force, bad input, the layers; no Monte Carlo
# checks (statistical), no notebooks, report rows or figures (slow), no browser.
test-fast: $(VENV)/.test-installed
	$(BIN)/ruff check dplab tests notebooks
	$(ONE_THREAD) DPLAB_PROJECTOR=0 $(BIN)/pytest -q $(XDIST) -m "not slow and not browser and not statistical" tests

figures: $(VENV)/.lab-installed
	DPLAB_PROJECTOR=0 $(PY) -m dplab figures

# Re-optimise the shipped k = 256 p-Identity strategy (a minute or two); commit the result,
# then run make figures notebooks. make figures itself only reads it.
optimise: $(VENV)/.lab-installed
	$(PY) -m dplab optimise

notebooks: $(VENV)/.test-installed
	$(ONE_THREAD) DPLAB_PROGRESS=0 DPLAB_PROJECTOR=0 $(BIN)/jupyter nbconvert --to notebook --execute --inplace notebooks/*.ipynb
	$(BIN)/nbstripout --keep-output --keep-count --extra-keys "metadata.widgets" notebooks/*.ipynb
	$(PY) -m dplab stamp notebooks/*.ipynb

# The mutation run: every declared mutant (dplab/lab/lessons/*/mutants.py) applied to a copy, the checks
# that name it run there; fails on a survivor. ONLY=id1,id2 or NB=07 for a subset.
mutants: $(VENV)/.test-installed
	DPLAB_PROJECTOR=0 $(PY) -m dplab mutants $(if $(ONLY),--only $(ONLY)) $(if $(NB),--notebook $(NB))

bench: $(VENV)/.test-installed
	DPLAB_PROJECTOR=0 $(PY) -m dplab bench $(if $(NB),--notebook $(NB))

# In front of a class: every lesson as a Voila app from an index (127.0.0.1, a token, preheated
# kernels, offline). exec: the server replaces the recipe's shell, so Ctrl-C reaches it and it shuts
# its kernels down. VOILA_ARGS: options for Voila (e.g. --Voila.port=8866).
VOILA_ARGS ?=
present: $(VENV)/.lab-installed
	exec $(PY) -m dplab present $(VOILA_ARGS)

# One notebook (by number or path; default 01), the same way.
voila: $(VENV)/.lab-installed
	exec $(PY) -m dplab present $(or $(NB),01) $(VOILA_ARGS)

# Every notebook with its stored outputs as static HTML, with an index (html/index.html): no server, no network.
html: $(VENV)/.lab-installed
	$(PY) -m dplab html

lint: $(VENV)/.test-installed
	$(BIN)/ruff check dplab tests notebooks

clean:
	rm -rf $(VENV) .pytest_cache
