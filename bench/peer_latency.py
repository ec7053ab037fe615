"""``/context`` beside neo4j-agent-memory, side by side on one machine (issue 38): the same LoCoMo
development conversations loaded into both, the same questions asked of both, interleaved.

- **The peer** is neo4j-agent-memory (``PEER_PACKAGE``, pinned), installed from PyPI into its own
  virtual environment (``--peer-venv``, built with python3.11 on the first run; never inside
  ``.venv``), with the same versions of the Neo4j driver, ONNX Runtime, tokenizers and numpy as
  ``.venv``. It runs on its own Neo4j (``--peer-uri``, or a second server this script starts
  with ``tools/neo4j/neo4j-local`` on ports 7688 / 7475 under ``--peer-home``), driven by
  ``bench/peer_worker.py`` in its environment: no extraction, no resolver, no enrichment, and an
  embedder object backed by Credence's bundled ONNX model (the one Credence runs, unless
  ``--peer-model``), run by Credence's own encoder. Each conversation is a session of the peer,
  its turns bulk-loaded as messages (``"<speaker>: <text>"``, metadata ``dia_id``); its
  ``short_term.search_messages`` (query embedding, one vector index query, top k) ignores the
  session, so the peer holds one conversation at a time: the previous one is cleared before the
  next is loaded.
- **Credence** answers ``GET /v1/agents/{id}/context`` (the episodes section, k = 10, unless
  ``--section``) of a real ``credence serve`` on a free port (scheduler off, its own empty vector
  cache, so every question is embedded as the peer embeds it), against the project's Neo4j (the
  settings' URI; ``--credence-uri own``: a server of its own like the peer's, on ports 7690 /
  7477, migrated by this script, so neither system shares its Neo4j with other work; a URI: that
  server, migrated). One agent per conversation (``peer-bench-<sample_id>``), its turns imported
  through the real import path as ``bench/retrieval_locomo.py`` imports them; found again by name
  on the next run.
- **The floor**: Credence's query embedding (its embedder, no cache) plus one search of the
  episode vector index scoped to the agent (``bench/cypher/peer/floor_vector_search.cypher``),
  in this process, measured in the same run.

Per conversation, after ``--warmup`` queries (turn texts, not questions, so no question is ever
asked twice) through all three, every question goes to the peer, to Credence and to the floor in
a rotating order (each first a third of the time); with ``--order blocks``, each system gets all
of the conversation's questions back to back instead (which goes first rotating with the
conversation), as if it ran alone. Latency is wall time: the peer's call in its
process, Credence's HTTP request at the client (response parsed; the standard library's
``http.client`` on a keep-alive connection, unless ``--client httpx``), the floor's two steps.
Recall@k is scored as ``bench/retrieval_locomo.py`` scores it (gold evidence turns in the top k).
Beside the ratios of the p50s and p95s, a 95% interval of each over the questions (resampled,
paired): how far the run's own questions move the ratio, not how far the next run may drift.

    .venv/bin/python bench/peer_latency.py                        # all 495 questions, ~5 min
    .venv/bin/python bench/peer_latency.py --questions 150 --conversations conv-26
    .venv/bin/python bench/peer_latency.py --peer-uri bolt://127.0.0.1:7688 --keep
    .venv/bin/python bench/peer_latency.py --peer-model all-minilm-l6-v2   # the peer's own model
    .venv/bin/python bench/peer_latency.py --credence-uri own --mode vector --questions 150

``--keep`` keeps what the run made for the next one: the Credence agents and the Neo4j servers
it started (left running); without it, the agents this run created are deleted and the servers
it started are stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import IO, Any, Protocol, cast
from urllib.parse import urlencode, urlsplit

import httpx
import numpy as np

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT))

from retrieval_locomo import (  # noqa: E402
    CATEGORIES,
    DEFAULT_DATA,
    MODES,
    Conversation,
    Question,
    find_agent,
    import_turns,
    load_conversations,
)
from retrieval_madial import KS, TOP, Result, delete_agent, score  # noqa: E402

from app.agents.models import AgentCreate  # noqa: E402
from app.agents.store import create_agent  # noqa: E402
from app.config import Settings, get_settings  # noqa: E402
from app.embeddings.embedder import Embedder, shared_embedder  # noqa: E402
from app.graph.catalog import QueryCatalog  # noqa: E402
from app.graph.client import GraphClient  # noqa: E402
from app.graph.migrations import MigrationRunner  # noqa: E402
from app.retrieval.models import ALL_SECTIONS  # noqa: E402
from tools.serve.api_process import running_api, server_env  # noqa: E402

PEER_PACKAGE = "neo4j-agent-memory==0.8.0"
# The peer's environment gets the versions .venv runs, so driver and runtime do not differ.
SHARED_PACKAGES = ("neo4j", "neo4j-rust-ext", "onnxruntime", "tokenizers", "numpy")
DEFAULT_PEER_VENV = Path("~/.cache/credence/bench/peer-venv").expanduser()
DEFAULT_PEER_HOME = Path(tempfile.gettempdir()) / "peer-neo4j"
PEER_BOLT_PORT, PEER_HTTP_PORT = 7688, 7475
OWN_BOLT_PORT, OWN_HTTP_PORT = 7690, 7477  # --credence-uri own
DEFAULT_CREDENCE_HOME = Path(tempfile.gettempdir()) / "peer-bench-credence-neo4j"
LAUNCHER = ROOT / "tools" / "neo4j" / "neo4j-local"
AGENT_PREFIX = "peer-bench-"
SYSTEMS = ("peer", "credence", "floor")
# Issue 38 (docs/performance.md §2): /context p50 and p95 at most this many times the peer's.
TARGET_RATIO = 1.0


# ---------------------------------------------------------------------------------------------
# The peer: its environment, its Neo4j, its worker


def peer_requirements() -> list[str]:
    return [PEER_PACKAGE, *(f"{name}=={metadata.version(name)}" for name in SHARED_PACKAGES)]


def ensure_peer_venv(venv: Path) -> Path:
    """The peer environment's python, built (python3.11 -m venv, pip from PyPI) unless it holds
    exactly ``peer_requirements()`` already."""
    python = venv / "bin" / "python"
    stamp = venv / "credence-bench-requirements.txt"
    wanted = "\n".join(peer_requirements()) + "\n"
    if python.is_file() and stamp.is_file() and stamp.read_text() == wanted:
        return python
    print(f"peer: installing {' '.join(peer_requirements())} into {venv}")
    if not python.is_file():
        subprocess.run(["python3.11", "-m", "venv", str(venv)], check=True)
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, *peer_requirements()], check=True)
    stamp.write_text(wanted)
    return python


def launcher_env(home: Path, bolt: int, http: int) -> dict[str, str]:
    return {
        **os.environ,
        "CREDENCE_NEO4J_HOME": str(home),
        "CREDENCE_NEO4J_BOLT_PORT": str(bolt),
        "CREDENCE_NEO4J_HTTP_PORT": str(http),
        "CREDENCE_NEO4J_HEAP": "2g",
        "CREDENCE_NEO4J_PAGECACHE": "1g",
    }


@contextmanager
def local_neo4j(home: Path, bolt: int, http: int, keep: bool) -> Iterator[str]:
    """A Neo4j of the project's launcher under ``home`` (2 GB heap, 1 GB page cache), started
    unless it runs already; stopped after when this started it, unless ``keep``."""
    env = launcher_env(home, bolt, http)
    status = subprocess.run(
        ["bash", str(LAUNCHER), "status"], env=env, capture_output=True, text=True, check=False
    )
    was_running = status.returncode == 0
    if not was_running:
        print(f"starting a Neo4j under {home} (bolt {bolt})")
        subprocess.run(["bash", str(LAUNCHER), "start"], env=env, check=True)
    try:
        yield f"bolt://127.0.0.1:{bolt}"
    finally:
        if not was_running and not keep:
            subprocess.run(["bash", str(LAUNCHER), "stop"], env=env, check=False)


@contextmanager
def peer_neo4j(args: argparse.Namespace) -> Iterator[str]:
    """The peer's Bolt URI: ``--peer-uri`` as given, else a second server under ``--peer-home``."""
    if args.peer_uri:
        yield args.peer_uri
        return
    with local_neo4j(args.peer_home, PEER_BOLT_PORT, PEER_HTTP_PORT, args.keep) as uri:
        yield uri


@contextmanager
def credence_neo4j(args: argparse.Namespace, settings: Settings) -> Iterator[Settings]:
    """Credence's settings: the project's Neo4j (the settings' URI) unless ``--credence-uri``
    names another, or ``own``: a server of its own like the peer's (``--credence-home``)."""
    if not args.credence_uri:
        yield settings
        return
    if args.credence_uri != "own":
        yield settings.model_copy(update={"neo4j_uri": args.credence_uri})
        return
    with local_neo4j(args.credence_home, OWN_BOLT_PORT, OWN_HTTP_PORT, args.keep) as uri:
        yield settings.model_copy(update={"neo4j_uri": uri})


class PeerWorker:
    """``bench/peer_worker.py`` in the peer's environment, one JSON request and answer a line."""

    def __init__(self, python: Path, uri: str, password: str, model: str, log: IO[bytes]) -> None:
        self._log = log
        self._process = subprocess.Popen(
            [str(python), str(BENCH / "peer_worker.py"), "--uri", uri,
             "--password", password, "--model", model],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
            # Its own working folder: the peer's settings read a .env file from there.
            cwd=tempfile.gettempdir(), env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        self._request({})  # the first line says it is ready

    def _request(self, request: dict[str, Any]) -> dict[str, Any]:
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        if request:
            stdin.write((json.dumps(request) + "\n").encode())
            stdin.flush()
        line = stdout.readline()
        if not line:
            code = self._process.wait()
            self._log.seek(0)
            tail = self._log.read().decode(errors="replace")[-3000:]
            raise SystemExit(f"the peer worker exited ({code}):\n{tail}")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise SystemExit(f"the peer failed: {reply['error']}")
        return reply

    def load(self, conversation: Conversation, clear: Sequence[str]) -> float:
        speakers: list[str] = []
        for turn in conversation.turns:
            if turn.speaker not in speakers:
                speakers.append(turn.speaker)
        messages = [
            {
                "role": "user" if turn.speaker == speakers[0] else "assistant",
                "content": f"{turn.speaker}: {turn.text}",
                "metadata": {"dia_id": turn.dia_id, "session": turn.session},
                "timestamp": turn.occurred_at.isoformat(),
            }
            for turn in conversation.turns
        ]
        reply = self._request({"op": "load", "session": peer_session(conversation),
                               "clear": list(clear), "messages": messages})  # fmt: skip
        return float(reply["seconds"])

    def search(self, text: str, k: int, threshold: float) -> tuple[list[str], float]:
        reply = self._request({"op": "search", "q": text, "k": k, "threshold": threshold})
        return [str(i) for i in reply["ids"]], float(reply["ms"])

    def close(self) -> None:
        if self._process.poll() is None and self._process.stdin is not None:
            self._process.stdin.write(b'{"op": "quit"}\n')
            self._process.stdin.close()
            try:
                self._process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._process.kill()


def peer_session(conversation: Conversation) -> str:
    return f"locomo-{conversation.sample_id}"


# ---------------------------------------------------------------------------------------------
# Credence: agents, the API, the floor


async def credence_agents(
    graph: GraphClient, settings: Settings, conversations: Sequence[Conversation]
) -> tuple[dict[str, str], list[str]]:
    """One agent per conversation (found by name, else created), its turns imported."""
    embedder = shared_embedder(settings.embeddings)
    agents: dict[str, str] = {}
    created: list[str] = []
    for conversation in conversations:
        name = f"{AGENT_PREFIX}{conversation.sample_id}"
        agent_id = await find_agent(settings, name)
        if agent_id is None:
            agent_id = (await create_agent(graph, AgentCreate(name=name))).id
            created.append(agent_id)
        agents[conversation.sample_id] = agent_id
        report = await import_turns(graph, embedder, settings.retrieval, agent_id, conversation)
        print(f"credence: {conversation.sample_id}: agent {agent_id}: {report}")
    return agents, created


Params = list[tuple[str, str | int | float | bool | None]]


class ApiClient(Protocol):
    """What the bench asks Credence's API with: a GET, its status and parsed JSON body."""

    name: str

    async def get(self, path: str, params: Params) -> tuple[int, Any]: ...

    async def close(self) -> None: ...


class StdlibClient:
    """One keep-alive connection of the standard library's ``http.client`` (the default).

    It blocks the bench's event loop while it waits, on purpose: nothing else runs in that loop
    meanwhile (the three systems are asked one after another), and a thread hop would add its
    own cost. Measured against a raw socket client, it adds ~0.2 ms; httpx's ``AsyncClient``
    adds ~2.6 ms at p50 and ~4 ms at p95 of its own CPU (bench/README.md), which is the
    client's, not the server's."""

    name = "http.client"

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self._connection = http.client.HTTPConnection(
            parts.hostname or "127.0.0.1", parts.port, timeout=60
        )

    async def get(self, path: str, params: Params) -> tuple[int, Any]:
        try:
            return self._get(path, params)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed the idle connection (uvicorn's keep-alive timeout, 5 s: the
            # peer loads a conversation meanwhile): a new one, once (a GET).
            self._connection.close()
            return self._get(path, params)

    def _get(self, path: str, params: Params) -> tuple[int, Any]:
        self._connection.request("GET", f"{path}?{urlencode(params)}")
        response = self._connection.getresponse()
        return response.status, json.loads(response.read())

    async def close(self) -> None:
        self._connection.close()


class HttpxClient:
    """httpx's ``AsyncClient`` (``--client httpx``: the bench's client before the sixth round)."""

    name = "httpx"

    def __init__(self, base: str) -> None:
        self._client = httpx.AsyncClient(base_url=base, timeout=60)

    async def get(self, path: str, params: Params) -> tuple[int, Any]:
        response = await self._client.get(path, params=params)
        return response.status_code, response.json()

    async def close(self) -> None:
        await self._client.aclose()


CLIENTS: dict[str, type[StdlibClient] | type[HttpxClient]] = {
    "stdlib": StdlibClient,
    "httpx": HttpxClient,
}


@dataclass
class Credence:
    http: ApiClient
    sections: list[str]
    mode: str
    recording: bool = False
    server_ms: list[float] = field(default_factory=list)
    server_embed_ms: list[float] = field(default_factory=list)

    async def search(self, agent_id: str, text: str, k: int) -> tuple[list[str], float]:
        params: Params = [("q", text), ("k", k), ("mode", self.mode)]
        params += [("section", name) for name in self.sections]
        started = time.perf_counter()
        status, body = await self.http.get(f"/v1/agents/{agent_id}/context", params)
        ms = (time.perf_counter() - started) * 1000
        if status != 200:
            raise SystemExit(f"/context answered {status}: {body}")
        if self.recording:
            self.server_ms.append(float(body["timings_ms"]["total"]))
            self.server_embed_ms.append(float(body["timings_ms"].get("embed", 0.0)))
        episodes = body["sections"].get("episodes", {"items": []})
        return [str(item["external_id"]) for item in episodes["items"]], ms


@dataclass
class Floor:
    embedder: Embedder
    graph: GraphClient
    recording: bool = False
    embed_ms: list[float] = field(default_factory=list)

    async def search(self, agent_id: str, text: str, k: int) -> tuple[list[str], float]:
        started = time.perf_counter()
        vector = await self.embedder.embed_one(text, "query")
        embedded = time.perf_counter()
        rows = await self.graph.read(
            "peer/floor_vector_search", agent_id=agent_id, embedding=vector, k=k
        )
        ms = (time.perf_counter() - started) * 1000
        if self.recording:
            self.embed_ms.append((embedded - started) * 1000)
        return [str(row["external_id"]) for row in rows], ms


# ---------------------------------------------------------------------------------------------
# The run


@dataclass
class Measured:
    rankings: dict[str, list[list[str]]] = field(
        default_factory=lambda: {name: [] for name in SYSTEMS}
    )
    latency: dict[str, list[float]] = field(default_factory=lambda: {name: [] for name in SYSTEMS})
    questions: list[Question] = field(default_factory=list)
    load: list[float] = field(default_factory=list)
    peer_load_s: dict[str, float] = field(default_factory=dict)


def chosen_questions(conversations: Sequence[Conversation], limit: int) -> set[tuple[str, int]]:
    """``limit`` questions spread evenly over all of them (0: all), as (conversation, index)."""
    everything = [(c.sample_id, q.index) for c in conversations for q in c.questions]
    if limit <= 0 or limit >= len(everything):
        return set(everything)
    return {everything[i * len(everything) // limit] for i in range(limit)}


def warmup_texts(conversation: Conversation, count: int) -> list[str]:
    turns = conversation.turns
    return [turns[i * len(turns) // count].text for i in range(count)] if count else []


async def ask_all(
    peer: PeerWorker, credence: Credence, floor: Floor, agent_id: str, text: str, turn: int,
    threshold: float,
) -> dict[str, tuple[list[str], float]]:  # fmt: skip
    """The three in a rotating order (``turn`` % 3 decides which goes first)."""
    found: dict[str, tuple[list[str], float]] = {}
    for name in SYSTEMS[turn % 3 :] + SYSTEMS[: turn % 3]:
        found[name] = await ask_one(name, (peer, credence, floor), agent_id, text, threshold)
    return found


async def ask_one(
    name: str, parts: tuple[PeerWorker, Credence, Floor], agent_id: str, text: str,
    threshold: float,
) -> tuple[list[str], float]:  # fmt: skip
    """One system's ranking of ``text`` and its latency."""
    peer, credence, floor = parts
    if name == "peer":
        return await asyncio.to_thread(peer.search, text, TOP, threshold)
    if name == "credence":
        return await credence.search(agent_id, text, TOP)
    return await floor.search(agent_id, text, TOP)


async def run_conversation(
    conversation: Conversation, agent_id: str, parts: tuple[PeerWorker, Credence, Floor],
    args: argparse.Namespace, keep: set[tuple[str, int]], measured: Measured,
) -> None:  # fmt: skip
    peer, credence, floor = parts
    credence.recording = floor.recording = False
    for i, text in enumerate(warmup_texts(conversation, args.warmup)):
        await ask_all(peer, credence, floor, agent_id, text, i, args.peer_threshold)
    credence.recording = floor.recording = True
    asked = [q for q in conversation.questions if (conversation.sample_id, q.index) in keep]
    if args.order == "blocks":
        await run_blocks(asked, agent_id, parts, args, measured)
        return
    for i, question in enumerate(asked):
        found = await ask_all(
            peer, credence, floor, agent_id, question.text, i, args.peer_threshold
        )
        for name, (ranking, ms) in found.items():
            measured.rankings[name].append(ranking)
            measured.latency[name].append(ms)
        measured.questions.append(question)
        if i % 50 == 0:
            measured.load.append(os.getloadavg()[0])


async def run_blocks(
    asked: Sequence[Question], agent_id: str, parts: tuple[PeerWorker, Credence, Floor],
    args: argparse.Namespace, measured: Measured,
) -> None:  # fmt: skip
    """``--order blocks``: every question to one system, then to the next (the first system
    rotating with each conversation), so each runs back to back, as it would alone."""
    first = len(measured.questions) % len(SYSTEMS)
    for name in SYSTEMS[first:] + SYSTEMS[:first]:
        for i, question in enumerate(asked):
            ranking, ms = await ask_one(name, parts, agent_id, question.text, args.peer_threshold)
            measured.rankings[name].append(ranking)
            measured.latency[name].append(ms)
            if i % 50 == 0:
                measured.load.append(os.getloadavg()[0])
    measured.questions.extend(asked)


def pct(values: Sequence[float], q: int) -> float:
    """The q-th percentile (``statistics.quantiles``, as bench/retrieval_locomo.py's p95)."""
    return statistics.quantiles(values, n=100)[q - 1] if len(values) >= 2 else values[0]


def ratio_interval(
    credence: Sequence[float], peer: Sequence[float], q: int, rounds: int = 2000
) -> tuple[float, float]:
    """A 95% interval of the ratio of the two systems' q-th percentiles, the questions
    resampled with replacement (``rounds`` times, seeded: the same interval for the same run).
    The two lists are paired (the same question at each index); only the spread between
    questions is in it, not a run's drift (the machine's load, a server's warmth)."""
    rng = np.random.default_rng(0)
    picks = rng.integers(0, len(credence), size=(rounds, len(credence)))
    mine, theirs = np.asarray(credence)[picks], np.asarray(peer)[picks]
    ratios = np.percentile(mine, q, axis=1) / np.percentile(theirs, q, axis=1)
    low, high = np.percentile(ratios, [2.5, 97.5])
    return float(low), float(high)


def scored(name: str, questions: Sequence[Question], rankings: Sequence[Sequence[str]]) -> Result:
    """``retrieval_madial.score`` (it reads ``relevant`` of each question, as LoCoMo's do)."""
    return score(name, "question", cast(Any, questions), rankings)


def results(measured: Measured) -> dict[str, Result]:
    out = {}
    for name in SYSTEMS:
        result = scored(name, measured.questions, measured.rankings[name])
        result.latency_ms = measured.latency[name]
        out[name] = result
    return out


def report(
    args: argparse.Namespace,
    settings: Settings,
    measured: Measured,
    credence: Credence,
    floor: Floor,
) -> str:
    found = results(measured)
    labels = {
        "peer": f"peer ({PEER_PACKAGE}, {args.peer_model})",
        "credence": f"credence /context ({'+'.join(credence.sections)}, {credence.mode}, "
        f"HTTP, {credence.http.name})",
        "floor": "floor (embedding + 1 vector index search)",
    }
    lines = [
        f"{len(measured.questions)} questions, {args.order}; latency in ms (wall); Credence on "
        f"{settings.neo4j_uri}, the peer on its own Neo4j"
    ]
    header = ["system", "p50", "p95", "mean", *(f"R@{k}" for k in KS), "MRR@10"]
    rows = [header]
    for name in SYSTEMS:
        values = found[name].latency_ms
        rows.append(
            [
                labels[name],
                f"{statistics.median(values):.1f}",
                f"{pct(values, 95):.1f}",
                f"{statistics.fmean(values):.1f}",
                *(f"{found[name].recall[k]:.3f}" for k in KS),
                f"{found[name].mrr:.3f}",
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines += [
        "  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows
    ]
    peer, cred, flo = (found[n].latency_ms for n in SYSTEMS)
    ratios = (statistics.median(cred) / statistics.median(peer), pct(cred, 95) / pct(peer, 95))
    lines.append(
        f"credence / peer: p50 {ratios[0]:.2f}x, p95 {ratios[1]:.2f}x "
        f"(target <= {TARGET_RATIO:.1f}x: {'met' if max(ratios) <= TARGET_RATIO else 'not met'});"
        f"  credence / floor: p50 "
        f"{statistics.median(cred) / statistics.median(flo):.2f}x, "
        f"p95 {pct(cred, 95) / pct(flo, 95):.2f}x;  peer / floor: p50 "
        f"{statistics.median(peer) / statistics.median(flo):.2f}x"
    )
    p50_low, p50_high = ratio_interval(cred, peer, 50)
    p95_low, p95_high = ratio_interval(cred, peer, 95)
    lines.append(
        f"  95% interval over the questions (resampled; not the run's drift): p50 "
        f"{p50_low:.2f}–{p50_high:.2f}x, p95 {p95_low:.2f}–{p95_high:.2f}x"
    )
    lines.append(
        f"credence server-side (timings_ms.total) p50 {statistics.median(credence.server_ms):.1f} "
        f"p95 {pct(credence.server_ms, 95):.1f}, of which embed p50 "
        f"{statistics.median(credence.server_embed_ms):.1f};  floor embed p50 "
        f"{statistics.median(floor.embed_ms):.1f}"
    )
    lines.append(by_category(measured, found))
    lines.append(
        f"load average (1 min): {min(measured.load):.2f}–{max(measured.load):.2f} while measuring "
        f"(5/15 min at the end: {os.getloadavg()[1]:.2f} / {os.getloadavg()[2]:.2f}); "
        f"{os.cpu_count()} CPUs; peer loads: "
        + ", ".join(f"{k} {v:.1f} s" for k, v in measured.peer_load_s.items())
    )
    return "\n".join(lines)


def by_category(measured: Measured, found: dict[str, Result]) -> str:
    parts = []
    for category, label in CATEGORIES.items():
        keep = [i for i, q in enumerate(measured.questions) if q.category == category]
        if not keep:
            continue
        chosen = [measured.questions[i] for i in keep]
        recall = {
            name: scored(name, chosen, [measured.rankings[name][i] for i in keep]).recall[TOP]
            for name in SYSTEMS
        }
        parts.append(
            f"{label} ({len(keep)}) "
            + " / ".join(f"{recall[name]:.3f}" for name in ("peer", "credence", "floor"))
        )
    return "R@10 by category, peer / credence / floor: " + "; ".join(parts)


async def measure(
    args: argparse.Namespace, settings: Settings, conversations: Sequence[Conversation],
    agents: dict[str, str], peer: PeerWorker,
) -> tuple[Measured, Credence, Floor]:  # fmt: skip
    keep = chosen_questions(conversations, args.questions)
    measured = Measured()
    floor_embedder = Embedder(settings.embeddings.model_copy(update={"cache_path": ""}))
    probe = GraphClient.from_settings(settings.neo4j, QueryCatalog(BENCH / "cypher"))
    with tempfile.TemporaryDirectory(prefix="peer-bench-api-") as workdir:
        env = server_env(
            settings,
            CREDENCE_EMBEDDINGS__CACHE_PATH=str(Path(workdir) / "vectors.sqlite3"),
            CREDENCE_LOG_LEVEL="WARNING",
        )
        with running_api(env, wait_for="/ready") as base:
            client = CLIENTS[args.client](base)
            credence = Credence(client, args.section or ["episodes"], args.mode)
            floor = Floor(floor_embedder, probe)
            try:
                for conversation in conversations:
                    clear = [peer_session(c) for c in conversations]
                    measured.peer_load_s[conversation.sample_id] = peer.load(conversation, clear)
                    await run_conversation(
                        conversation, agents[conversation.sample_id],
                        (peer, credence, floor), args, keep, measured,
                    )  # fmt: skip
                    print(f"measured {conversation.sample_id}: {len(measured.questions)} so far")
            finally:
                await client.close()
                await probe.close()
    return measured, credence, floor


async def main(args: argparse.Namespace) -> int:
    conversations = [
        c
        for c in load_conversations(args.data)
        if not args.conversations or c.sample_id in args.conversations
    ]
    if not conversations:
        raise SystemExit(f"--conversations {args.conversations}: none of them is in {args.data}")
    python = ensure_peer_venv(args.peer_venv)
    print(f"load average at the start: {os.getloadavg()[0]:.2f}; commit {commit()}")
    with credence_neo4j(args, get_settings()) as settings:
        graph = GraphClient.from_settings(settings.neo4j)
        created: list[str] = []
        try:
            if args.credence_uri:
                await MigrationRunner(graph).migrate()
            agents, created = await credence_agents(graph, settings, conversations)
            with (
                peer_neo4j(args) as uri,
                tempfile.NamedTemporaryFile(prefix="peer-worker-", suffix=".log") as log,
            ):
                peer = PeerWorker(python, uri, args.peer_password, args.peer_model, log)
                try:
                    measured, credence, floor = await measure(
                        args, settings, conversations, agents, peer
                    )
                finally:
                    peer.close()
            text = report(args, settings, measured, credence, floor)
            print(text)
            if args.output:
                args.output.write_text(text + "\n")
        finally:
            if not args.keep:
                for agent_id in created:
                    await delete_agent(graph, agent_id)
            await graph.close()
    return 0


def commit() -> str:
    found = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--", "app", "cypher"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return found.stdout.strip() + (" (app/ or cypher/ modified)" if dirty.stdout.strip() else "")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="locomo_dev.json")
    parser.add_argument("--questions", type=int, default=0, help="how many (spread; 0: all)")
    parser.add_argument("--conversations", nargs="+", metavar="SAMPLE_ID", help="default: all")
    parser.add_argument("--warmup", type=int, default=20, help="warm-up queries per conversation")
    parser.add_argument(
        "--section",
        action="append",
        choices=ALL_SECTIONS,
        help="Credence's sections (repeatable; default: episodes)",
    )
    parser.add_argument("--mode", choices=MODES, default="fused", help="Credence's mode")
    parser.add_argument(
        "--order",
        choices=("interleaved", "blocks"),
        default="interleaved",
        help="each question to the three in turn (the target's measure), or each system's "
        "questions back to back (as alone: no other process's work between two requests)",
    )
    parser.add_argument(
        "--client",
        choices=sorted(CLIENTS),
        default="stdlib",
        help="the HTTP client that asks Credence (httpx: ~2.6 ms more of its own per request)",
    )
    parser.add_argument(
        "--keep",
        action="store_true",
        help="keep the Credence agents and leave the peer's Neo4j running",
    )
    parser.add_argument("--peer-uri", help="a running Neo4j for the peer (else one is started)")
    parser.add_argument("--peer-password", default="credence-dev")
    parser.add_argument(
        "--credence-uri",
        help="Credence's Neo4j (default: the settings'); own: a second server like the peer's",
    )
    parser.add_argument("--credence-home", type=Path, default=DEFAULT_CREDENCE_HOME)
    parser.add_argument("--peer-home", type=Path, default=DEFAULT_PEER_HOME)
    parser.add_argument("--peer-venv", type=Path, default=DEFAULT_PEER_VENV)
    parser.add_argument(
        "--peer-model",
        default=get_settings().embeddings.model,
        help="the bundled model the peer embeds with (default: Credence's)",
    )
    parser.add_argument(
        "--peer-threshold",
        type=float,
        default=0.0,
        help="search_messages' similarity floor (its own default, 0.7, drops hits)",
    )
    parser.add_argument("--output", type=Path, help="also write the report here")
    return parser.parse_args(argv)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(parse_args())))
