"""Which tool a turn's message asks for (docs/loop.md §13): the ``call`` syntax, else — for an
agent with connected tools — the reasoner's choice among them: Claude through native tool use,
offline the deterministic route (app/reasoning/offline/tool_choice.py) on the cosine between the
message and each tool's description, which this module computes from the vectors stored on the
Tool nodes, or, when the route reads another model than the running one
(``tools.route_embedding_model``), from that model's vectors of the descriptions (cached). A
routed call passes the check a ``POST /actions`` call passes (its tool's input schema) and then
runs exactly as one does; a call the schema refuses is not made, and the answer says why.

Reads and judges only: it runs before the turn's write transaction, never inside it.
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np

from app.embeddings.embedder import embedder_for_model
from app.loop.models import ChatRequest, ToolRoute
from app.loop.recording import TurnRecorder
from app.loop.services import LoopServices
from app.reasoning.protocol import HistoryTurn, ToolCall, ToolChoiceRequest, ToolOffer
from app.reasoning.tool_arguments import schema_refusal
from app.tools.offers import StoredTool

# The proposed arguments an answer quotes, at most (the route keeps them whole).
_PROPOSED_CHARS = 300


async def route_to_tool(
    services: LoopServices,
    recorder: TurnRecorder,
    agent_id: str,
    request: ChatRequest,
    call: ToolCall | None,
    history: list[HistoryTurn],
    identity: str | None,
) -> tuple[ToolCall | None, ToolRoute | None]:
    """The call the turn makes (None when it makes none) and how the turn came to a tool
    (None when the message asks for none).

    Raises:
        ReasonerFailed: the reasoner raised.
    """
    if call is not None:
        # Its arguments were checked with the tool's row (app/loop/tool_activation.py).
        return call, ToolRoute(
            tool=call.qualified_name, how="syntax", called=True, arguments=call.arguments
        )
    tools = await services.tool_offers.of(services.graph, agent_id, services.embedder.model_id)
    if not tools:
        return None, None
    similarities = await _similarities(services, request.message, tools)
    choice = await recorder.judge(
        "choose_tool",
        services.reasoner.choose_tool(
            ToolChoiceRequest(
                message=request.message,
                tools=[
                    ToolOffer(
                        qualified_name=tool.qualified_name,
                        description=tool.description,
                        input_schema=tool.input_schema,
                        similarity=similarity,
                    )
                    for tool, similarity in zip(tools, similarities, strict=True)
                ],
                threshold=services.settings.tools.route_similarity,
                history=history,
                identity=identity,
            )
        ),
    )
    known = {tool.qualified_name: tool for tool in tools}
    if choice.tool is None or choice.tool not in known:
        return None, None
    if choice.call is not None and choice.call.qualified_name != choice.tool:
        return None, None
    chosen = known[choice.tool]
    properties = chosen.input_schema.get("properties") or {}
    # A proposed call passes the check a call asked for passes (a 422 there): one its tool's
    # schema refuses is not made, so no server refuses it and no belief moves for it.
    refusal = (
        schema_refusal(chosen.input_schema, choice.call.arguments)
        if choice.call is not None
        else None
    )
    route = ToolRoute(
        tool=choice.tool,
        how=choice.reasoner,
        called=choice.call is not None and refusal is None,
        missing=list(choice.missing),
        similarity=choice.similarity,
        purpose=chosen.description,
        needs={name: _described(properties.get(name)) for name in choice.missing},
        arguments=choice.call.arguments if choice.call is not None else None,
        refused=str(refusal) if refusal is not None else None,
    )
    return (choice.call if refusal is None else None), route


def _described(spec: object) -> str:
    """An argument's description in a JSON schema ("" when it has none)."""
    if isinstance(spec, dict) and isinstance(spec.get("description"), str):
        return str(spec["description"]).strip()
    return ""


async def _similarities(
    services: LoopServices, message: str, tools: list[StoredTool]
) -> list[float | None]:
    """Cosine between the message (a query) and each tool's description vector (a passage) on
    all-MiniLM-L6-v2's scale, the route threshold's (None for a tool without one, or when there
    are no embeddings)."""
    embedder = embedder_for_model(services.embedder, services.settings.tools.route_embedding_model)
    if embedder is not services.embedder and embedder is not None:
        texts = [f"{t.qualified_name.split('.', 1)[-1]}: {t.description}"[:2000] for t in tools]
        described = await embedder.embed(texts)
        if described is not None:
            tools = [replace(t, embedding=v) for t, v in zip(tools, described, strict=True)]
    if embedder is None or not any(tool.embedding for tool in tools):
        return [None] * len(tools)
    vectors = await embedder.embed([message], "query")
    if vectors is None:
        return [None] * len(tools)
    query = np.asarray(vectors[0], dtype=np.float32)
    query_norm = float(np.linalg.norm(query)) or 1.0
    scores: list[float | None] = []
    for tool in tools:
        if not tool.embedding or len(tool.embedding) != len(query):
            scores.append(None)
            continue
        vector = np.asarray(tool.embedding, dtype=np.float32)
        norm = float(np.linalg.norm(vector)) or 1.0
        cosine = float(query @ vector) / (query_norm * norm)
        scores.append(round(embedder.reference_cosine(cosine, "query"), 4))
    return scores


def no_call_made(route: ToolRoute) -> str | None:
    """What the answer says when the message asked for a tool and no call was made: the
    arguments it still needs, or why its schema refused those proposed; None when the call
    was made."""
    if route.called:
        return None
    return call_refused(route) if route.refused is not None else arguments_needed(route)


def call_refused(route: ToolRoute) -> str:
    """What the answer says when the call proposed for the message failed its tool's input
    schema: which call, why, and that nothing was sent."""
    proposed = json.dumps(route.arguments or {}, ensure_ascii=False)
    if len(proposed) > _PROPOSED_CHARS:
        proposed = proposed[: _PROPOSED_CHARS - 1] + "…"
    return (
        f"I did not make the call {route.tool} {proposed}: the tool's input schema refuses "
        f"these arguments ({route.refused}), so nothing was sent to its server. Tell me the "
        f"right values, or write the call yourself: call {route.tool} {{…}}"
    )


def arguments_needed(route: ToolRoute) -> str:
    """What the answer says when the message asks for a tool without its required arguments:
    which connected tool could do it (with what its server says it does) and what it needs."""
    purpose = route.purpose.strip().rstrip(".")
    tool = f"{route.tool} (“{purpose}”)" if purpose else route.tool
    needs = "; ".join(
        f"{name} ({route.needs[name].rstrip('.')})" if route.needs.get(name) else name
        for name in route.missing
    )
    example = ", ".join(f'"{name}": "…"' for name in route.missing)
    return (
        f"I can't turn this into a call from your message alone. The connected tool for it is "
        f"{tool}, and it needs {needs}. Tell me, e.g. call {route.tool} {{{example}}}"
    )
