# One-command entry points; each creates .venv first when needed.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba-cache

.PHONY: venv demo test lint bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/crewsim missions list --game planet-nine
	$(BIN)/crewsim simulate pn-1..10 --players 3,4,5 -n 20000 --seed 1 --out runs/demo
	$(BIN)/crewsim simulate pn-3 --players 4 --seed 1 --trace
	@echo "run written to runs/demo (summary.csv, summary.parquet, chunks/)"

lint: $(STAMP)
	$(BIN)/ruff check crewsim tests
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -q

bench: $(STAMP)
	$(BIN)/python -m crewsim.bench

clean:
	rm -rf $(VENV) .numba-cache .pytest_cache .mypy_cache
