"""How the offline tool route's threshold (``CREDENCE_TOOLS__ROUTE_SIMILARITY``, 0.45) was
chosen: the cosine between chat messages and the descriptions of real tools, as the route
computes it (the message's vector against that of ``"<tool>: <description>"``).

Tools: mcp-server-time and mcp-server-sqlite (listed from the real servers) and the four tools
of tests/support/mcp_http_server.py. Messages: requests that ask for one of these tools, and
ordinary chat messages taken from the test suites and README (none asks for a tool). For each
message: the best tool and its cosine, on all-MiniLM-L6-v2's scale as the route compares it
with the threshold (the running model's cosine mapped by ``Embedder.reference_cosine``; the
message embedded as a query, the descriptions as passages). ``--model`` picks the model.

    .venv/bin/python bench/tool_routing_threshold.py
    .venv/bin/python bench/tool_routing_threshold.py --model all-minilm-l6-v2
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

import numpy as np
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from app.embeddings.embedder import Embedder
from app.embeddings.settings import EmbeddingSettings

ROOT = Path(__file__).resolve().parents[1]
REQUESTS = [
    "What time is it now?",
    "What is the current time in Tokyo?",
    "Tell me the current time. timezone: Europe/Warsaw",
    "Convert 9:00 from New York time to London time",
    "What time is it in UTC?",
    "List the tables in the ledger database",
    "Create a table for invoices",
    "Run a query that reads all invoices",
    "Show me the schema of the invoices table",
    "Add 2 and 3",
    "Echo hello back to me",
    "Wait five seconds",
    "Record a business insight in the memo",
]
ORDINARY = [
    "Please reconcile the petty cash account.",
    "The API limit is 200 requests per minute now.",
    "Who has to approve wire transfers?",
    "Let's talk about wire transfers.",
    "Hello, how are you?",
    "Please remember that the audit meeting is on Monday",
    "No, supplier invoices are not approved by one person.",
    "Our fiscal year ends on the thirtieth of June.",
    "Send the report to Ana by Friday",
    "Please delete the old invoices now",
    "Thanks, that was helpful.",
    "Coffee raises blood pressure",
    "When do spring tides peak?",
    "Close the March books.",
    "Count the cash box and match it to the petty cash log.",
    "rm -rf ~/",
    "Is the invoice from Acme paid?",
    "What do you believe about the quarterly report?",
    "The meeting moved to three o'clock.",
    "How much time do we have before the deadline?",
]
TEST_SERVER = [
    ("echo", "Echoes the text back."),
    ("add", "Adds two integers."),
    ("fail", "Always fails with the reason given."),
    ("sleep", "Waits that many seconds, then answers."),
]


async def listed(command: str, *args: str) -> list[tuple[str, str]]:
    parameters = StdioServerParameters(command=command, args=list(args))
    async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return [(tool.name, tool.description or "") for tool in (await session.list_tools()).tools]


async def main() -> None:
    tools = [
        ("clock." + n, d)
        for n, d in await listed(str(Path(sys.executable).parent / "mcp-server-time"))
    ]
    with tempfile.TemporaryDirectory() as folder:
        sqlite = str(ROOT / ".venv-mcp" / "bin" / "mcp-server-sqlite")
        tools += [
            ("ledger." + n, d) for n, d in await listed(sqlite, "--db-path", f"{folder}/x.db")
        ]
    tools += [("test." + n, d) for n, d in TEST_SERVER]
    model = sys.argv[sys.argv.index("--model") + 1] if "--model" in sys.argv else None
    embedder = Embedder(EmbeddingSettings(model=model) if model else EmbeddingSettings())
    texts = [f"{name.split('.', 1)[1]}: {description}"[:2000] for name, description in tools]
    found = await embedder.embed(texts)
    asked = await embedder.embed(REQUESTS + ORDINARY, "query")
    assert found is not None and asked is not None, "embeddings are unavailable"
    described, messages = np.asarray(found), np.asarray(asked)
    print(f"model {embedder.model_id}")
    best: dict[str, list[float]] = {"request": [], "ordinary": []}
    for index, text in enumerate(REQUESTS + ORDINARY):
        kind = "request" if index < len(REQUESTS) else "ordinary"
        scores = np.array(
            [embedder.reference_cosine(float(c), "query") for c in described @ messages[index]]
        )
        top = int(scores.argmax())
        best[kind].append(float(scores[top]))
        print(f"{kind:8s} {scores[top]:.3f}  {tools[top][0]:24s} {text}")
    for kind, values in best.items():
        print(
            f"{kind}: min {min(values):.3f}  median {np.median(values):.3f}  max {max(values):.3f}"
        )


if __name__ == "__main__":
    asyncio.run(main())
