"""What a chat turn costs with Claude: model calls and (estimated) tokens per turn kind.

Claude cannot be reached from the development machines, so this runs the real loop (the real
API in-process, the real Neo4j, the real ``ClaudeReasoner`` and ``anthropic`` SDK) against a
mocked Messages API that answers each tool call with what the offline reasoner answers for the
same data (so the turn follows a realistic path). It counts the model calls each turn kind
makes and measures every request the SDK sends: system, tools and user message in characters;
tokens are **estimated** as characters / 4 (the real tokenizer is not available offline) and
the answers' output tokens as their JSON characters / 4.

    .venv/bin/python bench/claude_turn_cost.py [--session]

``--session`` sends every turn in one conversation session, so each request also carries the
session's earlier turns (the history) as a real conversation would.

Neo4j is the one the settings name (the local launcher's by default), migrated. The agent it
creates is named "bench claude cost" and is left in place (small).
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from typing import Any

import httpx2
from anthropic import AsyncAnthropic
from fastapi.testclient import TestClient
from pydantic import BaseModel

from app.api.app import create_app
from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.reasoning import protocol
from app.reasoning.claude.reasoner import ClaudeReasoner
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.settings import ReasonerSettings

# tool name -> (the request model, the offline method answering it)
TOOLS: dict[str, tuple[type[BaseModel], str]] = {
    "record_appraisal": (protocol.AppraisalRequest, "appraise"),
    "record_evidence": (protocol.EvidenceRequest, "extract_evidence"),
    "record_stance": (protocol.StanceRequest, "classify_stance"),
    "record_revision": (protocol.RevisionRequest, "revise"),
    "record_work_unit": (protocol.WorkRequest, "propose_work_unit"),
    "record_verification": (protocol.VerifyRequest, "verify"),
    "record_audit": (protocol.AuditRequest, "audit"),
    "record_rule": (protocol.RuleRequest, "abstract_rule"),
    "record_reply": (protocol.ResponseRequest, "respond"),
}

TURNS: list[tuple[str, str]] = [
    ("question", "When are bank accounts reconciled?"),
    ("question", "How is revenue recognised for a subscription?"),
    ("claim", "Bank accounts are reconciled on the last business day of the month."),
    ("claim", "That's wrong: revenue is not recognised when the obligation is satisfied."),
    ("request", "Please reconcile the Chase bank account before the books are closed"),
    ("request", "Please remember that the audit starts on 3 March"),
    ("greeting", "Thanks, that helps!"),
]
BELIEFS = [
    ("Bank accounts are reconciled at month end before the books are closed", 0.55),
    ("Revenue is recognised when the performance obligation is satisfied", 0.8),
    ("Dates the person asks me to remember, such as when an audit starts, are noted", 0.85),
]


class MockedClaude:
    """The Messages API, answering each tool call as the offline reasoner would."""

    def __init__(self, offline: OfflineReasoner) -> None:
        self.offline = offline
        self.requests: list[dict[str, Any]] = []

    async def __call__(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        tool = body["tool_choice"]["name"]
        user = body["messages"][0]["content"]
        data = json.loads(user.split("(JSON):\n", 1)[1])
        request_type, method = TOOLS[tool]
        if request_type is protocol.ResponseRequest:
            # respond sends its stable part (the agent's system prompt) as the cached system block.
            data.setdefault("system_prompt", body["system"][0]["text"])
        answer = await getattr(self.offline, method)(request_type.model_validate(data))
        tool_input = answer.model_dump(mode="json", exclude={"reasoner", "usage"})
        system = sum(len(block["text"]) for block in body["system"])
        tools = len(json.dumps(body["tools"]))
        output = len(json.dumps(tool_input))
        self.requests.append(
            {
                "tool": tool,
                "model": body["model"],
                "system": system,
                "tools": tools,
                "user": len(user),
                "output": output,
            }
        )
        return httpx2.Response(
            200,
            json={
                "id": f"msg_{len(self.requests)}",
                "type": "message",
                "role": "assistant",
                "model": body["model"],
                "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": tool, "input": tool_input}
                ],
                "stop_reason": "tool_use",
                "stop_sequence": None,
                "usage": {
                    "input_tokens": (system + tools + len(user)) // 4,
                    "output_tokens": output // 4,
                    "cache_read_input_tokens": 0,
                    "cache_creation_input_tokens": 0,
                },
            },
        )


def main() -> None:
    session = "bench-session" if "--session" in sys.argv[1:] else None
    settings = Settings(default_agent="", reasoner=ReasonerSettings(provider="offline"))
    app = create_app(settings)
    offline = OfflineReasoner(shared_embedder(settings.embeddings), settings.reasoner)
    mocked = MockedClaude(offline)
    client = AsyncAnthropic(
        api_key="bench",
        base_url="https://api.invalid",
        max_retries=0,
        http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(mocked)),
    )
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with TestClient(app) as http:
        # The process's runtime is built by the lifespan: its reasoner becomes the mocked Claude.
        app.state.runtime.use_reasoner(
            ClaudeReasoner(settings.reasoner, fallback=offline, client=client)
        )
        agent = http.post("/v1/agents", json={"name": "bench claude cost"}).json()["id"]
        for statement, strength in BELIEFS:
            created = http.post(
                f"/v1/agents/{agent}/beliefs",
                json={"statement": statement, "strength": strength, "category": "aesthetic"},
            )
            assert created.status_code == 201, created.text
        for kind, message in TURNS * 2:
            mocked.requests.clear()
            body = (
                {"message": message}
                if session is None
                else {"message": message, "session": session}
            )
            response = http.post(f"/v1/agents/{agent}/chat", json=body)
            assert response.status_code == 200, response.text
            turn = response.json()
            fallbacks = [c for c in turn["reasoners"]["calls"] if "fallback" in c]
            by_kind[kind].append(
                {
                    "mode": turn["mode"],
                    "calls": [r["tool"].removeprefix("record_") for r in mocked.requests],
                    "models": sorted({r["model"] for r in mocked.requests}),
                    "input": sum(r["system"] + r["tools"] + r["user"] for r in mocked.requests)
                    // 4,
                    "output": sum(r["output"] for r in mocked.requests) // 4,
                    "reported": turn["reasoners"],
                    "fallbacks": fallbacks,
                }
            )
    print("Chat turns with ClaudeReasoner over a mocked Messages API (tokens ESTIMATED: chars/4)")
    print(
        f"{'turn kind':<10} {'mode':<11} {'calls':>5}  {'input tok':>9} {'output tok':>10}",
        " judgements",
    )
    for kind, turns in by_kind.items():
        for turn in turns[: len(turns) // 2]:
            print(
                f"{kind:<10} {turn['mode']:<11} {len(turn['calls']):>5}  {turn['input']:>9} "
                f"{turn['output']:>10}  {', '.join(turn['calls'])}"
            )
    every = [t for turns in by_kind.values() for t in turns]
    print(
        f"\nall turns: calls per turn max {max(len(t['calls']) for t in every)}, mean "
        f"{statistics.mean(len(t['calls']) for t in every):.2f}; input tokens per turn mean "
        f"{statistics.mean(t['input'] for t in every):.0f}; output mean "
        f"{statistics.mean(t['output'] for t in every):.0f}"
    )
    over = [t for t in every if len(t["calls"]) > 3]
    print(f"turns over 3 calls: {len(over)}" + (f" ({over[0]['calls']})" if over else ""))
    print(f"fallbacks to the offline reasoner: {sum(len(t['fallbacks']) for t in every)}")
    mismatched = [t for t in every if t["reported"]["model_calls"] != len(t["calls"])]
    print(f"turns whose reported model_calls differ from the requests sent: {len(mismatched)}")


if __name__ == "__main__":
    main()
