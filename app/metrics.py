"""The process's Prometheus metrics (prometheus-client), counted where things happen and served
by the API at ``/metrics``.

Labels are bounded on purpose: route templates (``/v1/agents/{agent_id}/chat``), never agent
or belief ids, so one busy agent cannot blow up the series count. Everything is counted after
the fact (a committed turn, an applied revision, a failed query), so counting never changes
what a request does; one count costs about a microsecond.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

# Request and turn latencies: 5 ms (a cached read) to 30 s (a turn waiting on Claude).
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

HTTP_REQUESTS = Counter(
    "credence_http_requests",
    "HTTP requests answered, by method, route template and status code",
    ["method", "route", "status"],
)
HTTP_LATENCY = Histogram(
    "credence_http_request_duration_seconds",
    "Time to answer an HTTP request, by method and route template",
    ["method", "route"],
    buckets=_LATENCY_BUCKETS,
)
TURNS = Counter("credence_turns", "Committed turns of the cognitive loop, by mode", ["mode"])
TURN_PHASES = Histogram(
    "credence_turn_phase_duration_seconds",
    "Time a committed turn spent in each phase (context.* are the activation's sections)",
    ["phase"],
    buckets=_LATENCY_BUCKETS,
)
REASONER_CALLS = Counter(
    "credence_reasoner_calls",
    "Calls to Claude, by judgement and outcome (ok, or fallback: the offline reasoner answered)",
    ["judgement", "outcome"],
)
REASONER_TOKENS = Counter(
    "credence_reasoner_tokens",
    "Tokens Claude calls cost, by judgement and kind (input, output, cache_read, cache_creation)",
    ["judgement", "kind"],
)
GUARDIAN_TIMEOUTS = Counter(
    "credence_guardian_timeouts",
    "Censors that ran out of the tier-1 check's time limit (each a warning in its verdict)",
)
REVISIONS = Counter(
    "credence_revisions",
    "Belief revisions committed, by mode (threshold, cascade, meditation, ...)",
    ["mode"],
)
MCP_TOOL_CALLS = Counter(
    "credence_mcp_tool_calls",
    "MCP tool calls, by tool and outcome (ok, tool_error: answered with isError, or failed)",
    ["tool", "outcome"],
)
MCP_TOOL_LATENCY = Histogram(
    "credence_mcp_tool_call_duration_seconds",
    "Time to answer an MCP tool call, by tool",
    ["tool"],
    buckets=_LATENCY_BUCKETS,
)
EMBEDDING_MODEL = Gauge(
    "credence_embedding_model",
    "The embedding model this process runs (1 on its series; backend empty until it loads)",
    ["model", "backend"],
)
STALE_VECTORS = Gauge(
    "credence_embedding_stale_vectors",
    "Stored vectors another model made, counted at start-up (0: no reindex needed)",
)
NEO4J_ERRORS = Counter(
    "credence_neo4j_errors",
    "Neo4j calls that failed, by the Credence error they became",
    ["code"],
)


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    HTTP_REQUESTS.labels(method, route, str(status)).inc()
    HTTP_LATENCY.labels(method, route).observe(seconds)


def observe_turn(mode: str, timings_ms: Mapping[str, float], revision_modes: Iterable[str]) -> None:
    """A committed turn: its mode, each phase's time and the revisions it made."""
    TURNS.labels(mode).inc()
    for phase, milliseconds in timings_ms.items():
        TURN_PHASES.labels(phase).observe(milliseconds / 1000)
    count_revisions(revision_modes)


def count_revisions(modes: Iterable[str]) -> None:
    for mode in modes:
        REVISIONS.labels(mode).inc()


def count_reasoner_call(judgement: str, outcome: str, tokens: Mapping[str, int]) -> None:
    """One call to a model; ``tokens`` by kind (input, output, cache_read, cache_creation)."""
    REASONER_CALLS.labels(judgement, outcome).inc()
    for kind, count in tokens.items():
        if count:
            REASONER_TOKENS.labels(judgement, kind).inc(count)


def observe_tool_call(tool: str, outcome: str, seconds: float) -> None:
    MCP_TOOL_CALLS.labels(tool, outcome).inc()
    MCP_TOOL_LATENCY.labels(tool).observe(seconds)


NEO4J_RETRIES = Counter(
    "credence_neo4j_transaction_retries",
    "Transaction attempts that failed with a transient Neo4j error (deadlock, lock timeout)"
    " and were run again, by code",
    ["code"],
)


def count_neo4j_retry(code: str) -> None:
    NEO4J_RETRIES.labels(code).inc()


def count_neo4j_error(code: str) -> None:
    NEO4J_ERRORS.labels(code).inc()


def set_embedding_model(model: str, backend: str | None) -> None:
    EMBEDDING_MODEL.clear()
    EMBEDDING_MODEL.labels(model=model, backend=backend or "").set(1)


def set_stale_vectors(count: int) -> None:
    STALE_VECTORS.set(count)


SCHEDULER_JOB_RUNS = Counter(
    "credence_scheduler_job_runs",
    "Runs of the scheduler's jobs in this process, by job and outcome (ok, skipped, failed,"
    " timed_out)",
    ["job", "outcome"],
)
# A job's run: a few ms (nothing waiting) to its timeout (120 s by default).
SCHEDULER_JOB_DURATION = Histogram(
    "credence_scheduler_job_duration_seconds",
    "Time one run of a scheduler job took, by job",
    ["job"],
    buckets=(0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0),
)


def observe_job_run(job: str, outcome: str, seconds: float) -> None:
    """One run of a scheduler job (app/scheduler): its outcome and how long it took."""
    SCHEDULER_JOB_RUNS.labels(job, outcome).inc()
    SCHEDULER_JOB_DURATION.labels(job).observe(seconds)


def exposition() -> tuple[bytes, str]:
    """Every metric of the process (these and prometheus-client's process and platform ones) in
    the Prometheus text format, with its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
