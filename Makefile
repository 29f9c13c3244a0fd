# One-command entry points; each creates .venv first when needed.
# the Python to build .venv with: python3.11 when there is one, else python3 (3.11 or newer)
PY ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba-cache

.PHONY: venv demo test lint bench profile reports report-runs report-heuristic-runs \
	report-search-runs report-pages clean

$(STAMP): pyproject.toml
	@$(PY) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { \
		echo "crewsim needs Python 3.11 or newer; $(PY) is older: make PY=/path/to/python3.11"; \
		exit 2; }
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/crewsim missions list --game planet-nine
	rm -rf runs/demo
	$(BIN)/crewsim simulate pn-1..10 --players 3,4,5 -n 20000 --seed 1 --out runs/demo
	$(BIN)/crewsim simulate pn-3 --players 4 --seed 1 --trace
	@echo "run written to runs/demo (summary.csv, summary.parquet, chunks/)"
	$(BIN)/crewsim report runs/demo --out reports/demo

# The shipped results, seed 1, each report stamped with version, seed and date:
#   reports/planet-nine       every Planet Nine mission at 2/3/4/5 players, 100,000 games each
#                             (20 M games), and the perfect-information ceiling on the first
#                             CEILING_DEALS deals of each
#   reports/deep-sea          every Deep Sea mission (ds-1..32) at 2/3/4/5 players, 100,000 games
#                             each (12.8 M games: Deep Sea plays at about half the Planet Nine
#                             rate), and its ceiling the same way
#   reports/deep-sea-balance  the task-card balance fit on that same run: the first 25,000 games
#                             of each drawing mission at 3/4/5 players (BALANCE_FIT_GAMES; two
#                             players use the 3-player card values), so no extra simulation;
#                             beside it every card alone, BALANCE_CEILING_DEALS deals per card
#                             and crew size, and how many of those deals could be won (solver)
# and beside the heuristic crew in both campaign reports ("The crews side by side"), the search
# crew on the first SEARCH_GAMES deals of every cell (runs/planet-nine-search,
# runs/deep-sea-search): the same seed and distress setting, so the very same deals; and in
# both campaign reports "Why games are lost", the autopsy of the first AUTOPSY_LOST lost games
# of every cell (a few minutes), and of the search crew's first AUTOPSY_SEARCH_LOST at 4 players.
# Measured on 2026-12-07 on this 2-core machine while other work shared it: the heuristic
# runs with their ceilings and autopsies 57 min (Planet Nine 26, Deep Sea 31), the search
# crew's runs (report-search-runs) 54 min (28 and 25: it plays thousands of times slower than
# the heuristic crew), their autopsies 15-20 min (a replay of the search crew's games is as
# slow as playing them), then the pages and the balance fit.
REPORT_GAMES ?= 100000
REPORT_SEED ?= 1
CEILING_DEALS ?= 100
# CEILING_CONFLICTS: the SAT engine's budget per ceiling deal the search leaves open
CEILING_CONFLICTS ?= 200000
BALANCE_FIT_GAMES ?= 25000
BALANCE_CEILING_DEALS ?= 300
SEARCH_GAMES ?= 200
REPORT_DISTRESS ?= auto
AUTOPSY_LOST ?= 200
# the search crew's autopsy replays its games, as slow as playing them: one crew size only
AUTOPSY_SEARCH_PLAYERS ?= 4
AUTOPSY_SEARCH_LOST ?= 100
reports: report-runs report-pages

# the runs behind the reports (runs/), each autopsied right after it is played: an autopsy
# replays the games, which needs the kernel that played them
report-runs: report-heuristic-runs report-search-runs

report-heuristic-runs: $(STAMP)
	rm -rf runs/planet-nine runs/deep-sea
	$(BIN)/crewsim simulate planet-nine --players 2,3,4,5 -n $(REPORT_GAMES) --seed $(REPORT_SEED) \
		--distress $(REPORT_DISTRESS) --out runs/planet-nine --ceiling --ceiling-n $(CEILING_DEALS) \
		--ceiling-conflicts $(CEILING_CONFLICTS) --format json > /dev/null
	$(BIN)/crewsim autopsy runs/planet-nine --lost $(AUTOPSY_LOST) --format csv > /dev/null
	$(BIN)/crewsim simulate deep-sea --players 2,3,4,5 -n $(REPORT_GAMES) --seed $(REPORT_SEED) \
		--distress $(REPORT_DISTRESS) --out runs/deep-sea --ceiling --ceiling-n $(CEILING_DEALS) \
		--ceiling-conflicts $(CEILING_CONFLICTS) --format json > /dev/null
	$(BIN)/crewsim autopsy runs/deep-sea --lost $(AUTOPSY_LOST) --format csv > /dev/null

# the search crew's runs alone (after a change to it, then report-pages): the heuristic
# crew's deals, which the seed and distress setting fix
report-search-runs: $(STAMP)
	rm -rf runs/planet-nine-search runs/deep-sea-search
	$(BIN)/crewsim simulate planet-nine --players 2,3,4,5 -n $(SEARCH_GAMES) --seed $(REPORT_SEED) \
		--distress $(REPORT_DISTRESS) --bot search --out runs/planet-nine-search \
		--format json > /dev/null
	$(BIN)/crewsim simulate deep-sea --players 2,3,4,5 -n $(SEARCH_GAMES) --seed $(REPORT_SEED) \
		--distress $(REPORT_DISTRESS) --bot search --out runs/deep-sea-search \
		--format json > /dev/null
	$(BIN)/crewsim autopsy runs/planet-nine-search --players $(AUTOPSY_SEARCH_PLAYERS) \
		--lost $(AUTOPSY_SEARCH_LOST) --format csv > /dev/null
	$(BIN)/crewsim autopsy runs/deep-sea-search --players $(AUTOPSY_SEARCH_PLAYERS) \
		--lost $(AUTOPSY_SEARCH_LOST) --format csv > /dev/null

# the pages, from the runs report-runs made
report-pages: $(STAMP)
	rm -rf reports/planet-nine reports/deep-sea reports/deep-sea-balance
	$(BIN)/crewsim report runs/planet-nine --out reports/planet-nine \
		--beside runs/planet-nine-search
	$(BIN)/crewsim report runs/deep-sea --out reports/deep-sea --beside runs/deep-sea-search
	$(BIN)/crewsim balance --run runs/deep-sea --players 3,4,5 --fit-games $(BALANCE_FIT_GAMES) \
		--ceiling --ceiling-n $(BALANCE_CEILING_DEALS) --out reports/deep-sea-balance \
		--format csv > /dev/null

lint: $(STAMP)
	$(BIN)/ruff format --check crewsim tests benchmarks
	$(BIN)/ruff check crewsim tests benchmarks
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -q -n auto --dist loadfile  # a worker per core; a file stays on one

bench: $(STAMP)
	$(BIN)/python -m benchmarks.bench
	$(BIN)/python -m benchmarks.solver_bench

profile: $(STAMP)  # where the kernel's time goes, per function and line (needs Linux perf)
	$(BIN)/python -m benchmarks.kernel_profile

clean:
	rm -rf $(VENV) .numba-cache .pytest_cache .mypy_cache
