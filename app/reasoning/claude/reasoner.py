"""The Claude reasoner: every judgement is one Messages API call whose answer is forced through a
tool, so it arrives as JSON that pydantic validates.

A routine judgement goes to the fast model, a weighty one (revise, audit, abstract_rule) to the
strong one. The stable system text of each judgement is one cached block; per-call data travels
in the user message. Anything that goes wrong (timeout, connection, an API error after the SDK's
retries, a refusal, no tool call, an answer that fails validation) is logged and that one call
is answered by the fallback reasoner instead, marked ``offline (fallback: <why>)``: a malformed
answer is never returned as data.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anthropic
from anthropic import AsyncAnthropic
from anthropic.types import Message
from pydantic import BaseModel, ValidationError

from app.metrics import count_reasoner_call
from app.reasoning.claude import prompts
from app.reasoning.claude.key import ReasonerNotConfigured, api_key
from app.reasoning.claude.prompts import JudgementPrompt
from app.reasoning.protocol import (
    AbstractedRule,
    Appraisal,
    AppraisalRequest,
    Audit,
    AuditRequest,
    ConflictRequest,
    ConflictResolution,
    EvidenceRequest,
    ExtractedEvidence,
    HypothesesRequest,
    Judgement,
    PassageJudgement,
    PassageRequest,
    ProposedHypotheses,
    Reasoner,
    Reply,
    ResponseRequest,
    RevisedBelief,
    RevisionRequest,
    RuleRequest,
    StanceJudgement,
    StanceRequest,
    Synthesis,
    SynthesisRequest,
    TokenUsage,
    ToolCall,
    ToolChoice,
    ToolChoiceRequest,
    ToolOffer,
    Verification,
    VerifyRequest,
    WorkRequest,
    WorkUnit,
)
from app.reasoning.settings import ReasonerSettings
from app.reasoning.tool_arguments import SchemaRefusal, schema_refusal

log = logging.getLogger(__name__)

A = TypeVar("A", bound=Judgement)
# Fields the reasoner sets itself; Claude neither sees nor fills them.
JUDGEMENT_FIELDS = frozenset(Judgement.model_fields)
# Schema keywords whose values are data, not sub-schemas.
_DATA_KEYWORDS = frozenset({"default", "examples", "const", "enum"})
# A "why" longer than this is cut in the fallback's reasoner label (the log keeps it whole).
_WHY_LABEL_CHARS = 80


def answer_schema(answer_type: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of the fields Claude must fill: the answer model's schema without the
    fields every judgement carries (``reasoner``, ``usage``), every field required, references
    inlined and titles dropped: the tool's ``input_schema``, one self-contained object schema."""
    schema = answer_type.model_json_schema()
    definitions: dict[str, Any] = schema.pop("$defs", {})
    properties: dict[str, Any] = schema.get("properties", {})
    for field in JUDGEMENT_FIELDS:
        properties.pop(field, None)
    inlined: dict[str, Any] = _inline(schema, definitions, ())
    return inlined


def _inline(node: Any, definitions: dict[str, Any], seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_inline(item, definitions, seen) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = str(node["$ref"]).rsplit("/", 1)[-1]
        if name in seen:
            raise ValueError(f"recursive model {name!r} cannot be a tool schema")
        resolved = _inline(definitions[name], definitions, (*seen, name))
        rest = {key: value for key, value in node.items() if key != "$ref"}
        return {**resolved, **_inline(rest, definitions, seen)}
    cleaned: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title":
            continue
        if key == "properties":
            cleaned[key] = {name: _inline(sub, definitions, seen) for name, sub in value.items()}
            # Every field is asked for, defaults included: Claude fills the whole answer.
            cleaned["required"] = list(value)
        elif key == "required":
            continue
        elif key in _DATA_KEYWORDS:
            cleaned[key] = value
        else:
            cleaned[key] = _inline(value, definitions, seen)
    return cleaned


class _Unusable(Exception):
    """Claude answered, but the answer cannot be used; ``usage`` is what it still cost."""

    def __init__(self, why: str, usage: TokenUsage | None) -> None:
        super().__init__(why)
        self.why = why
        self.usage = usage


def _usage(message: Message) -> TokenUsage:
    usage = message.usage
    return TokenUsage(
        model=message.model,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cache_read_input_tokens=usage.cache_read_input_tokens or 0,
        cache_creation_input_tokens=usage.cache_creation_input_tokens or 0,
    )


def _token_counts(usage: TokenUsage | None) -> dict[str, int]:
    if usage is None:
        return {}
    return {
        "input": usage.input_tokens,
        "output": usage.output_tokens,
        "cache_read": usage.cache_read_input_tokens,
        "cache_creation": usage.cache_creation_input_tokens,
    }


def _validation_why(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "(top)"
    more = f" (+{error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"malformed answer: {where}: {first['msg']}{more}"


def _api_why(error: anthropic.AnthropicError) -> str:
    if isinstance(error, anthropic.APITimeoutError):
        return "timeout"
    if isinstance(error, anthropic.APIConnectionError):
        return "connection error"
    if isinstance(error, anthropic.APIStatusError):
        kind = ""
        body = error.body
        if isinstance(body, dict) and isinstance(body.get("error"), dict):
            kind = f" {body['error'].get('type', '')}".rstrip()
        return f"HTTP {error.status_code}{kind}"
    return type(error).__name__


class ClaudeReasoner:
    """Judgements by Claude through the Messages API, one forced tool call each.

    Args:
        settings: models (``fast_model`` for routine judgements, ``strong_model`` for revise,
            audit and abstract_rule), ``max_tokens``, ``timeout_s`` (the most one judgement
            waits, the SDK's retries included), ``max_retries`` (the SDK retries 408/409/429/5xx
            and 529 overloaded, honouring ``retry-after``), ``base_url`` and ``api_key``
            (else ``ANTHROPIC_API_KEY``).
        fallback: answers any call Claude fails (normally the offline reasoner).
        client: a ready client (tests pass one over a mocked transport); built from the
            settings when absent.

    Raises:
        ReasonerNotConfigured: no client was given and no API key is set.
    """

    name = "claude"

    def __init__(
        self,
        settings: ReasonerSettings,
        fallback: Reasoner,
        client: AsyncAnthropic | None = None,
    ) -> None:
        self.settings = settings
        self.fallback = fallback
        if client is None:
            key = api_key(settings)
            if key is None:
                raise ReasonerNotConfigured(
                    "the Claude reasoner needs an API key: set ANTHROPIC_API_KEY or "
                    "CREDENCE_REASONER__API_KEY (or use provider 'offline')"
                )
            client = AsyncAnthropic(
                api_key=key,
                base_url=settings.base_url,
                timeout=settings.timeout_s,
                max_retries=settings.max_retries,
            )
        self.client = client

    async def aclose(self) -> None:
        """Closes the HTTP client (at application shutdown)."""
        await self.client.close()

    def model_for(self, prompt: JudgementPrompt) -> str:
        return self.settings.strong_model if prompt.tier == "strong" else self.settings.fast_model

    # --- the judgements ---------------------------------------------------------------------

    async def appraise(self, request: AppraisalRequest) -> Appraisal:
        """Face threat, urgency, uncertainty and the recommended approach (fast model)."""
        prompt = prompts.appraise_prompt(request.skill)
        return await self._judge(
            "appraise",
            prompt,
            Appraisal,
            request.model_dump_json(indent=1, exclude={"identity", "skill"}),
            lambda: self.fallback.appraise(request),
            system_text=prompts.with_identity(request.identity, prompt),
        )

    async def extract_evidence(self, request: EvidenceRequest) -> ExtractedEvidence:
        """The turn's claims and their stance towards the given beliefs (fast model); an item
        naming a belief that was not given makes the answer unusable."""
        known = {belief.id for belief in request.beliefs}

        def check(answer: ExtractedEvidence) -> str | None:
            named = {item.belief_id for item in answer.items}
            named |= {bid for claim in answer.learned for bid in claim.supports + claim.contradicts}
            unknown = sorted(named - known)
            return f"items for unknown belief ids {unknown}" if unknown else None

        return await self._judge(
            "extract_evidence",
            prompts.EXTRACT_EVIDENCE,
            ExtractedEvidence,
            request.model_dump_json(indent=1, exclude={"identity"}),
            lambda: self.fallback.extract_evidence(request),
            check,
            system_text=prompts.with_identity(request.identity, prompts.EXTRACT_EVIDENCE),
        )

    async def classify_stance(self, request: StanceRequest) -> StanceJudgement:
        """Reinforcing, contradicting, neutral or novel (fast model)."""
        return await self._judge(
            "classify_stance",
            prompts.CLASSIFY_STANCE,
            StanceJudgement,
            request.model_dump_json(indent=1),
            lambda: self.fallback.classify_stance(request),
        )

    async def revise(self, request: RevisionRequest) -> RevisedBelief:
        """The revised belief for one at the threshold (strong model)."""
        return await self._judge(
            "revise",
            prompts.REVISE,
            RevisedBelief,
            request.model_dump_json(indent=1),
            lambda: self.fallback.revise(request),
        )

    async def propose_work_unit(self, request: WorkRequest) -> WorkUnit:
        """The work unit a request asks for (fast model)."""
        data = request.model_dump_json(
            indent=1,
            exclude={"appraisal": set(JUDGEMENT_FIELDS), "identity": True, "skill": True},
        )
        prompt = prompts.propose_work_unit_prompt(request.skill)
        return await self._judge(
            "propose_work_unit",
            prompt,
            WorkUnit,
            data,
            lambda: self.fallback.propose_work_unit(request),
            system_text=prompts.with_identity(request.identity, prompt),
        )

    async def verify(self, request: VerifyRequest) -> Verification:
        """Proceed, retry or escalate after execution (fast model)."""
        data = request.model_dump_json(
            indent=1, exclude={"work_unit": set(JUDGEMENT_FIELDS), "skill": True}
        )
        return await self._judge(
            "verify",
            prompts.verify_prompt(request.skill),
            Verification,
            data,
            lambda: self.fallback.verify(request),
        )

    async def audit(self, request: AuditRequest) -> Audit:
        """Tier-3 audit of a high-risk request against the creed (strong model)."""
        data = request.model_dump_json(indent=1, exclude={"work_unit": set(JUDGEMENT_FIELDS)})
        return await self._judge(
            "audit", prompts.AUDIT, Audit, data, lambda: self.fallback.audit(request)
        )

    async def abstract_rule(self, request: RuleRequest) -> AbstractedRule:
        """A heuristic from a cluster of similar episodes (strong model)."""
        return await self._judge(
            "abstract_rule",
            prompts.ABSTRACT_RULE,
            AbstractedRule,
            request.model_dump_json(indent=1),
            lambda: self.fallback.abstract_rule(request),
        )

    async def respond(self, request: ResponseRequest) -> Reply:
        """The turn's reply (fast model); the agent's system prompt is the cached block."""
        return await self._judge(
            "respond",
            prompts.RESPOND,
            Reply,
            request.model_dump_json(indent=1, exclude={"system_prompt"}),
            lambda: self.fallback.respond(request),
            system_text=prompts.respond_system_text(request.system_prompt),
        )

    # --- research (issue 16) -----------------------------------------------------------------

    async def propose_hypotheses(self, request: HypothesesRequest) -> ProposedHypotheses:
        """Hypotheses for a research question (fast model); more than asked for is unusable."""

        def check(answer: ProposedHypotheses) -> str | None:
            if len(answer.hypotheses) > request.max_hypotheses:
                return f"{len(answer.hypotheses)} hypotheses, at most {request.max_hypotheses}"
            return None

        return await self._judge(
            "propose_hypotheses",
            prompts.PROPOSE_HYPOTHESES,
            ProposedHypotheses,
            request.model_dump_json(indent=1),
            lambda: self.fallback.propose_hypotheses(request),
            check,
        )

    async def judge_passage(self, request: PassageRequest) -> PassageJudgement:
        """A passage's stance towards a hypothesis (fast model)."""
        return await self._judge(
            "judge_passage",
            prompts.JUDGE_PASSAGE,
            PassageJudgement,
            request.model_dump_json(indent=1),
            lambda: self.fallback.judge_passage(request),
        )

    async def resolve_conflict(self, request: ConflictRequest) -> ConflictResolution:
        """Which of two disagreeing sources to trust (strong model); an outcome that does not
        match its basis (unresolvable with a basis, or a side with none) is unusable."""

        def check(answer: ConflictResolution) -> str | None:
            if (answer.outcome == "unresolvable") != (answer.basis == "none"):
                return f"outcome {answer.outcome} with basis {answer.basis}"
            return None

        return await self._judge(
            "resolve_conflict",
            prompts.RESOLVE_CONFLICT,
            ConflictResolution,
            request.model_dump_json(indent=1),
            lambda: self.fallback.resolve_conflict(request),
            check,
        )

    async def synthesize(self, request: SynthesisRequest) -> Synthesis:
        """The investigation's report (strong model); citing a source number that was not
        given makes it unusable."""
        given = {source.number for source in request.sources}

        def check(answer: Synthesis) -> str | None:
            cited = {int(n) for n in re.findall(r"\[(\d+)\]", answer.report)}
            unknown = sorted(cited - given)
            return f"report cites unknown sources {unknown}" if unknown else None

        return await self._judge(
            "synthesize",
            prompts.SYNTHESIZE,
            Synthesis,
            request.model_dump_json(indent=1),
            lambda: self.fallback.synthesize(request),
            check,
        )

    # --- native tool use: the agent's connected tools --------------------------------------------

    async def choose_tool(self, request: ToolChoiceRequest) -> ToolChoice:
        """The tool call the message asks for (fast model): the agent's tools are offered as
        Claude's own (names made API-safe and mapped back, ``tool_choice`` auto); a ``tool_use``
        block is the call, a text answer is none. A call of a tool that was not offered is
        unusable (the fallback's deterministic route answers). A call whose arguments the tool's
        input schema refuses (app/reasoning/tool_arguments.py) is handed back once, as an
        ``is_error`` tool result naming the refusal, for Claude to correct: its second answer is
        the choice, and a call still refused is returned as it is (the loop refuses it and the
        turn says why). Runs before the turn's writes, never inside a transaction."""
        if not request.tools:
            return ToolChoice(reasoner="loop")
        names = api_tool_names([tool.qualified_name for tool in request.tools])
        offered = {tool.qualified_name: tool for tool in request.tools}
        model = self.settings.fast_model
        data = request.model_dump_json(indent=1, include={"message", "history"}, exclude_none=True)
        arguments: dict[str, Any] = {
            "model": model,
            "max_tokens": self.settings.max_tokens,
            "system": [
                {
                    "type": "text",
                    "text": prompts.choose_tool_system_text(request.identity),
                    "cache_control": {"type": "ephemeral"},
                }
            ],
            "messages": [{"role": "user", "content": f"The person's turn (JSON):\n{data}"}],
            "tools": [
                {
                    "name": api_name,
                    "description": offered[qualified].description[:4000] or qualified,
                    "input_schema": _object_schema(offered[qualified].input_schema),
                }
                for api_name, qualified in names.items()
            ],
            "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
        }
        answered: list[Message] = []  # Claude's answer, once parsed into the choice

        def parse(message: Message, usage: TokenUsage) -> ToolChoice:
            choice = _parse_tool_choice(message, names, offered, f"claude:{model}", usage)
            answered.append(message)
            return choice

        choice = await self._ask(
            "choose_tool", arguments, parse, lambda: self.fallback.choose_tool(request)
        )
        refusal = _refusal_of(choice, offered) if answered else None
        if refusal is None:
            return choice
        correction = _correction(arguments, answered[-1], refusal)
        try:
            corrected = await self._call("choose_tool", correction, parse)
        except _Unusable as failure:
            count_reasoner_call("choose_tool", "unusable", _token_counts(failure.usage))
            log.warning(
                "claude choose_tool: the correction of a call its schema refused failed (%s); "
                "the refused call stands",
                failure.why,
            )
            return choice.model_copy(update={"usage": _summed(choice.usage, failure.usage)})
        # No call the second time: the refused call stands, so the turn says why none was made.
        answer = corrected if corrected.call is not None else choice
        return answer.model_copy(update={"usage": _summed(choice.usage, corrected.usage)})

    # --- one call -------------------------------------------------------------------------------

    def request_for(
        self, prompt: JudgementPrompt, answer_type: type[BaseModel], data: str, system_text: str
    ) -> dict[str, Any]:
        """The keyword arguments of ``messages.create`` for one judgement."""
        return {
            "model": self.model_for(prompt),
            "max_tokens": self.settings.max_tokens,
            "system": [
                {"type": "text", "text": system_text, "cache_control": {"type": "ephemeral"}}
            ],
            "messages": [
                {"role": "user", "content": f"The data for this judgement (JSON):\n{data}"}
            ],
            "tools": [
                {
                    "name": prompt.tool_name,
                    "description": prompt.tool_description,
                    "input_schema": answer_schema(answer_type),
                }
            ],
            "tool_choice": {"type": "tool", "name": prompt.tool_name},
        }

    async def _judge(
        self,
        judgement: str,
        prompt: JudgementPrompt,
        answer_type: type[A],
        data: str,
        fallback: Callable[[], Awaitable[A]],
        check: Callable[[A], str | None] | None = None,
        system_text: str | None = None,
    ) -> A:
        model = self.model_for(prompt)
        arguments = self.request_for(prompt, answer_type, data, system_text or prompt.system_text())

        def parse(message: Message, usage: TokenUsage) -> A:
            answer = self._parse(message, prompt, answer_type, model, usage)
            why = check(answer) if check is not None else None
            if why is not None:
                raise _Unusable(why, usage)
            return answer

        return await self._ask(judgement, arguments, parse, fallback)

    async def _ask(
        self,
        judgement: str,
        arguments: dict[str, Any],
        parse: Callable[[Message, TokenUsage], A],
        fallback: Callable[[], Awaitable[A]],
    ) -> A:
        """One Messages call and its parsed answer; anything unusable is answered by
        ``fallback``, labelled with why."""
        try:
            return await self._call(judgement, arguments, parse)
        except _Unusable as failure:
            count_reasoner_call(judgement, "fallback", _token_counts(failure.usage))
            log.warning(
                "claude %s failed (%s); the fallback reasoner answers this call",
                judgement,
                failure.why,
            )
            answer = await fallback()
            label = failure.why
            if len(label) > _WHY_LABEL_CHARS:
                label = label[: _WHY_LABEL_CHARS - 1] + "…"
            # The failed call still cost tokens: keep them on the answer so the turn counts them.
            return answer.model_copy(
                update={"reasoner": f"offline (fallback: {label})", "usage": failure.usage}
            )

    async def _call(
        self,
        judgement: str,
        arguments: dict[str, Any],
        parse: Callable[[Message, TokenUsage], A],
    ) -> A:
        """One Messages call and its parsed answer, counted when it is used.

        Raises:
            _Unusable: no answer, or one that cannot be used (its cost kept on it).
        """
        try:
            async with asyncio.timeout(self.settings.timeout_s):
                message = await self.client.messages.create(**arguments)
        except TimeoutError as error:
            raise _Unusable("timeout", None) from error
        except anthropic.AnthropicError as error:
            raise _Unusable(_api_why(error), None) from error
        except Exception as error:  # the SDK failing in a way it does not wrap
            log.debug("unexpected error from the Anthropic SDK", exc_info=True)
            raise _Unusable(f"{type(error).__name__}: {error}", None) from error
        usage = _usage(message)
        answer = parse(message, usage)
        count_reasoner_call(judgement, "ok", _token_counts(usage))
        return answer

    @staticmethod
    def _parse(
        message: Message,
        prompt: JudgementPrompt,
        answer_type: type[A],
        model: str,
        usage: TokenUsage,
    ) -> A:
        if message.stop_reason == "refusal":
            raise _Unusable("refused", usage)
        if message.stop_reason == "max_tokens":
            raise _Unusable("answer cut at max_tokens", usage)
        tool_input: dict[str, Any] | None = None
        for block in message.content:
            if block.type == "tool_use" and block.name == prompt.tool_name:
                tool_input = dict(block.input)
                break
        if tool_input is None:
            raise _Unusable(f"no {prompt.tool_name} tool call in the answer", usage)
        fields = {key: value for key, value in tool_input.items() if key not in JUDGEMENT_FIELDS}
        try:
            return answer_type.model_validate(
                {**fields, "reasoner": f"claude:{model}", "usage": usage}
            )
        except ValidationError as error:
            raise _Unusable(_validation_why(error), usage) from error


_API_NAME = re.compile(r"[^A-Za-z0-9_-]")
_API_NAME_CHARS = 64


def api_tool_names(qualified_names: list[str]) -> dict[str, str]:
    """Tool names the Messages API accepts (``^[A-Za-z0-9_-]{1,64}$``) for qualified names
    (``ledger.write_query`` -> ``ledger__write_query``), each mapped back to its qualified name;
    a name cut or changed into one already taken gets a numbered suffix."""
    names: dict[str, str] = {}
    for qualified in qualified_names:
        connection, _, tool = qualified.partition(".")
        base = _API_NAME.sub("_", f"{connection}__{tool}")[:_API_NAME_CHARS]
        name, number = base, 1
        while name in names:
            number += 1
            suffix = f"_{number}"
            name = base[: _API_NAME_CHARS - len(suffix)] + suffix
        names[name] = qualified
    return names


def _object_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's input schema as the Messages API takes it: an object schema."""
    if schema.get("type") == "object":
        return schema
    return {"properties": {}, **schema, "type": "object"}


def _parse_tool_choice(
    message: Message,
    names: dict[str, str],
    offered: dict[str, ToolOffer],
    reasoner: str,
    usage: TokenUsage,
) -> ToolChoice:
    if message.stop_reason == "refusal":
        raise _Unusable("refused", usage)
    if message.stop_reason == "max_tokens":
        raise _Unusable("answer cut at max_tokens", usage)
    block = next((block for block in message.content if block.type == "tool_use"), None)
    if block is None:
        return ToolChoice(reasoner=reasoner, usage=usage)
    qualified = names.get(block.name)
    if qualified is None:
        raise _Unusable(f"a call of {block.name!r}, which is not one of the agent's tools", usage)
    arguments = dict(block.input) if isinstance(block.input, dict) else None
    if arguments is None:
        raise _Unusable(f"the arguments for {qualified} are not a JSON object", usage)
    connection, _, tool = qualified.partition(".")
    try:
        call = ToolCall(connection=connection, tool=tool, arguments=arguments)
    except ValidationError as error:
        raise _Unusable(_validation_why(error), usage) from error
    return ToolChoice(call=call, tool=qualified, reasoner=reasoner, usage=usage)


def _refusal_of(choice: ToolChoice, offered: dict[str, ToolOffer]) -> SchemaRefusal | None:
    """How the chosen call's arguments fail its tool's input schema (None: they pass, or no
    call was chosen)."""
    if choice.call is None or choice.call.qualified_name not in offered:
        return None
    return schema_refusal(offered[choice.call.qualified_name].input_schema, choice.call.arguments)


def _correction(
    arguments: dict[str, Any], answer: Message, refusal: SchemaRefusal
) -> dict[str, Any]:
    """The Messages call that hands a refused call back to Claude: its answer replayed (its text
    and the call), then the call's ``tool_result`` as an error naming the refusal."""
    replayed: list[dict[str, Any]] = []
    call_id = ""
    for block in answer.content:
        if block.type == "text" and block.text.strip():
            replayed.append({"type": "text", "text": block.text})
        elif block.type == "tool_use" and not call_id:
            call_id = block.id
            replayed.append(
                {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
            )
    result = {
        "type": "tool_result",
        "tool_use_id": call_id,
        "is_error": True,
        "content": prompts.schema_refused_text(str(refusal)),
    }
    messages = [
        *arguments["messages"],
        {"role": "assistant", "content": replayed},
        {"role": "user", "content": [result]},
    ]
    return {**arguments, "messages": messages}


def _summed(first: TokenUsage | None, second: TokenUsage | None) -> TokenUsage | None:
    """What two calls of one judgement cost together."""
    if first is None or second is None:
        return first or second
    return first.model_copy(
        update={
            "input_tokens": first.input_tokens + second.input_tokens,
            "output_tokens": first.output_tokens + second.output_tokens,
            "cache_read_input_tokens": first.cache_read_input_tokens
            + second.cache_read_input_tokens,
            "cache_creation_input_tokens": first.cache_creation_input_tokens
            + second.cache_creation_input_tokens,
        }
    )
