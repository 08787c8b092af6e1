# benchgate: every target runs with a stock python3; dev tools go into a throwaway venv.
PYTHON ?= python3
VENV ?= .venv
DEV = $(VENV)/bin/python

CLAIM ?=  # the number about to be quoted, for `make gate CLAIM=72.5%`

.PHONY: help gate test check dev properties fuzz bench bench-quick mutation ci

# The first target is the default: `make` alone lists the targets from their `##` comments.
help:  ## list the targets
	@echo 'make TARGET, one of:'
	@awk -F ':.*## ' '/^[A-Za-z0-9_.-]+:.*## / { printf "  %-12s %s\n", $$1, $$2 }' Makefile

gate:  ## gate the shipped example; CLAIM=72.5% also checks the number to quote (exit 0 PUBLISHABLE, 1 BLOCKED, 2 input error)
	claim='$(CLAIM)'; $(PYTHON) gate.py --manifest bench.manifest.json --runs runs.jsonl $${claim:+--claim "$$claim"}

test:  ## the unit tests, no install needed
	$(PYTHON) -m unittest

$(DEV):
	$(PYTHON) -m venv $(VENV)
	$(DEV) -m pip install --quiet ruff mypy vermin hypothesis

dev: $(DEV)  ## the dev tools (ruff, mypy, vermin, hypothesis) in .venv (or VENV=...)

check: $(DEV)  ## lint, strict types, and the Python 3.9 floor
	$(VENV)/bin/ruff check gate.py tests bench examples
	$(VENV)/bin/mypy --strict gate.py
	$(VENV)/bin/vermin --target=3.9- --no-tips --violations gate.py

properties: $(DEV)  ## hypothesis property tests (skipped by plain `make test` when hypothesis is missing)
	$(DEV) -m unittest tests.test_properties -v

fuzz: $(DEV)  ## bounded fuzz run: 60 s or 100,000 executions, whichever first
	$(DEV) tests/fuzz_gate.py --seconds 60 --max-runs 100000

bench:  ## speed and memory against a per-line json.loads floor (see docs/developing.md, Performance)
	$(PYTHON) bench/bench.py

bench-quick:  ## a shorter bench run
	$(PYTHON) bench/bench.py --quick

mutation:  ## mutation testing with cosmic-ray, a seeded sample by mutant identity (slow; not part of CI)
	bash tests/mutation/run.sh

ci:  ## what CI runs (.ci/run)
	bash .ci/run
