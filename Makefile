# One-command entry points; each creates .venv first when needed.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba-cache

.PHONY: venv demo test lint bench reports clean

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
	$(BIN)/crewsim report runs/demo --out reports/demo

# The shipped results: every Planet Nine mission at 3/4/5 players, 100,000 games each (15 M
# games), seed 1; the report is stamped with version, seed and date.  (Deep Sea joins once the
# kernel plays it.)
REPORT_GAMES ?= 100000
REPORT_SEED ?= 1
reports: $(STAMP)
	rm -rf runs/planet-nine
	$(BIN)/crewsim simulate planet-nine --players 3,4,5 -n $(REPORT_GAMES) --seed $(REPORT_SEED) \
		--out runs/planet-nine --format json > /dev/null
	rm -rf reports/planet-nine
	$(BIN)/crewsim report runs/planet-nine --out reports/planet-nine

lint: $(STAMP)
	$(BIN)/ruff check crewsim tests
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -q

bench: $(STAMP)
	$(BIN)/python -m crewsim.bench
	$(BIN)/python -m crewsim.solver.bench

clean:
	rm -rf $(VENV) .numba-cache .pytest_cache .mypy_cache
