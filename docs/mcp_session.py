"""Drives `credence mcp` with the official MCP SDK client over stdio and writes the exchange
as Markdown (docs/mcp-session.md was produced with it).

    .venv/bin/python docs/mcp_session.py --agent <agent id> > docs/mcp-session.md

Each step is what an MCP client (Claude Desktop, Claude Code) sends; answers are trimmed to
the fields a reader needs (the full answers are JSON, as the tools' output schemas say).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters, stdio_client

out = sys.stdout.write


def show(title: str, request: dict[str, Any], answer: Any) -> None:
    shown = json.dumps(answer, indent=2, ensure_ascii=False)
    out(f"\n**{title}**\n\n```\n→ {json.dumps(request)}\n← {shown}\n```\n")


def short(text: str, limit: int = 90) -> str:
    """Statements cut for reading (the answers carry them whole)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def structured(result: Any) -> dict[str, Any]:
    if result.is_error:
        raise SystemExit(f"tool error: {result.content[0].text}")
    content: dict[str, Any] = result.structured_content
    return content


async def session(agent: str) -> None:
    credence = str(Path(sys.executable).parent / "credence")
    # A client passes the server only a few variables of its own environment (PATH, HOME...):
    # hand on Credence's settings, as a client configuration's "env" does.
    env = {k: v for k, v in os.environ.items() if k.startswith("CREDENCE_") or k == "PYTHONPATH"}
    params = StdioServerParameters(command=credence, args=["mcp", "--agent", agent], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        init = await client.initialize()
        out(f"Server: {init.server_info.name} {init.server_info.version}\n")
        tools = (await client.list_tools()).tools
        show("tools/list", {"method": "tools/list"}, [tool.name for tool in tools])

        query = {"query": "When is SaaS subscription revenue recognised?", "k": 3}
        found = structured(await client.call_tool("search_beliefs", query))
        items = found["sections"]["beliefs"]["items"]
        show(
            "tools/call search_beliefs",
            query,
            [
                {
                    "id": item["id"],
                    "statement": short(item["statement"]),
                    "strength": round(item["strength"], 3),
                    "score": round(item["score"], 4),
                }
                for item in items[:3]
            ],
        )
        target = items[0]["id"]

        why = structured(await client.call_tool("explain_belief", {"belief_id": target}))
        show(
            "tools/call explain_belief",
            {"belief_id": target},
            {
                "summary": why["summary"],
                "support_chain": [
                    {
                        "statement": short(s["statement"]),
                        "depth": s["depth"],
                        "weight": s["weight"],
                        "path_weight": s["path_weight"],
                    }
                    for s in why["support_chain"][:3]
                ],
                "open_contradictions": [short(c["statement"]) for c in why["open_contradictions"]],
            },
        )

        revision = None
        for number in range(1, 6):
            request = {
                "belief_id": target,
                "text": f"Customer #{number}'s annual plan was booked as revenue on signing",
                "stance": "contradicting",
            }
            outcome = structured(await client.call_tool("record_evidence", request))
            moved = outcome["results"][0]
            revisions = outcome["revision"]["revisions"]
            show(
                f"tools/call record_evidence ({number})",
                request,
                {
                    "tension": [round(moved["old_tension"], 3), round(moved["new_tension"], 3)],
                    "revisions": [
                        {
                            "old_statement": short(r["old_statement"]),
                            "new_statement": short(r["new_statement"]),
                            "trigger_tension": round(r["trigger_tension"], 3),
                        }
                        for r in revisions
                    ],
                },
            )
            if revisions:
                revision = revisions[0]
                break

        if revision is not None:
            new = revision["new_belief_id"]
            why = structured(await client.call_tool("explain_belief", {"belief_id": new}))
            show(
                "tools/call explain_belief (the revised belief)",
                {"belief_id": new},
                {
                    "summary": why["summary"],
                    "evidence_against": len(why["evidence_against"]),
                    "revisions": [
                        {k: r[k] for k in ("mode", "trigger_tension", "reasoner")}
                        for r in why["revisions"]
                    ],
                },
            )

        overview = structured(await client.call_tool("agent_overview", {"top": 3}))
        show(
            "tools/call agent_overview",
            {"top": 3},
            {
                "dissatisfaction": {
                    "value": round(overview["dissatisfaction"]["value"], 4),
                    "band": overview["dissatisfaction"]["band"],
                    "beliefs": overview["dissatisfaction"]["beliefs"],
                },
                "most_tense": [
                    {"statement": short(b["statement"]), "tension": round(b["tension"], 3)}
                    for b in overview["most_tense"]
                ],
            },
        )

        uri = f"credence://agents/{agent}/self"
        me = json.loads((await client.read_resource(uri)).contents[0].text)  # type: ignore[union-attr]
        show(
            "resources/read",
            {"uri": uri},
            {"identity": {k: me["identity"][k] for k in ("name", "identity_goal")}},
        )

        prompt = await client.get_prompt("review_tensions", {})
        show(
            "prompts/get review_tensions",
            {"name": "review_tensions"},
            prompt.messages[0].content.text,  # type: ignore[union-attr]
        )

        bad = await client.call_tool("explain_belief", {"belief_id": "no-such-belief"})
        show(
            "tools/call explain_belief (an unknown belief)",
            {"belief_id": "no-such-belief"},
            {"isError": bad.is_error, "text": bad.content[0].text},  # type: ignore[union-attr]
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agent", required=True)
    asyncio.run(session(parser.parse_args().agent))


if __name__ == "__main__":
    main()
