#!/usr/bin/env bash
# Times the local Neo4j launcher: cold (empty jar cache: Maven download + first start with a new
# data folder), warm with a new data folder, and warm restart of existing data. Uses its own
# home, cache and ports, so a running development server is untouched. Prints one line a figure.
#
#   bench/startup_times.sh            # all three
#   SKIP_COLD=1 bench/startup_times.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work=$(mktemp -d)
trap 'CREDENCE_NEO4J_HOME=$work/home bash tools/neo4j/neo4j-local stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
export CREDENCE_NEO4J_HOME=$work/home CREDENCE_NEO4J_BOLT_PORT=17687 CREDENCE_NEO4J_HTTP_PORT=17474

seconds() { local start=$SECONDS; "$@" >/dev/null; echo $((SECONDS - start)); }

if [ -z "${SKIP_COLD:-}" ]; then
  # An empty Maven repository too, so every jar really comes from Maven Central.
  cold=$(MAVEN_OPTS="-Dmaven.repo.local=$work/m2" CREDENCE_NEO4J_CACHE=$work/cache \
    seconds bash tools/neo4j/neo4j-local start)
  echo "neo4j cold start (Maven download + new data): ${cold}s"
  bash tools/neo4j/neo4j-local wipe >/dev/null
fi
fresh=$(seconds bash tools/neo4j/neo4j-local start)
echo "neo4j warm start, new data folder: ${fresh}s"
bash tools/neo4j/neo4j-local stop >/dev/null
restart=$(seconds bash tools/neo4j/neo4j-local start)
echo "neo4j warm restart, existing data: ${restart}s"
