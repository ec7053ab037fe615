"""The offline answer to the person: a template chosen by the dissatisfaction band and the
supervision mode. The most relevant belief's statement is quoted verbatim, so the answer shows
what the agent now believes (a revised belief included)."""

from __future__ import annotations

from app.reasoning.protocol import BeliefBrief, ResponseRequest
from app.text.words import content_words

# Working-memory items the answer mentions, at most.
MEMORY_MENTIONS = 2


def _quoted(statement: str) -> str:
    """The statement as it is, with a full stop only when it has no closing punctuation."""
    statement = statement.strip()
    return statement if statement[-1:] in ".!?)" else statement + "."


def _clause(statement: str) -> str:
    """The statement verbatim, for use inside a sentence."""
    return statement.strip()


def tensest(request: ResponseRequest) -> BeliefBrief | None:
    pool = request.tensions or [belief for belief in request.beliefs if belief.tension > 0]
    return max(pool, key=lambda belief: belief.tension) if pool else None


def tension_summary(request: ResponseRequest) -> str:
    tense = [b for b in (request.tensions or request.beliefs) if b.tension > 0]
    if not tense:
        return f"my overall dissatisfaction is {request.dissatisfaction:.2f}"
    top = max(tense, key=lambda belief: belief.tension)
    others = len(tense) - 1
    more = f" and {others} other belief(s) are under tension" if others else ""
    return f"“{_clause(top.statement)}” is under tension ({top.tension:.2f}){more}"


def compose(request: ResponseRequest) -> tuple[str, list[str]]:
    """The answer's text and the questions it asks."""
    parts: list[str] = []
    top = request.beliefs[0] if request.beliefs else None
    if request.revision:
        parts.append(f"I have revised my belief: {_quoted(request.revision)}")
    if request.refusal or request.mode == "blocked":
        return " ".join(parts + _refusal(request, top)), []
    said, questions = _stance(request, top)
    parts += said
    parts += _remembered(request)
    # A question the agent asked earlier in the session has had the person's reply since:
    # it is not asked again.
    asked = " ".join(turn.response or "" for turn in request.history)
    questions = [question for question in questions if question not in asked]
    acting, first_question = _next_step(request)
    parts += acting
    if first_question is not None:
        questions.insert(0, first_question)
    # A question the text does not already ask is added at the end, so the person sees it.
    for question in questions:
        if question not in " ".join(parts):
            parts.append(question)
    return " ".join(parts), questions


def _remembered(request: ResponseRequest) -> list[str]:
    """The rules that apply (named, so the answer shows what it followed) and the tasks and
    notes of working memory that share a word of substance with the message."""
    said = [f"A rule I follow here: {_quoted(rule.content)}" for rule in request.rules[:2]]
    words = set(content_words(request.message))
    lead = {"task": "On my task list", "note": "From my notes"}
    related = [
        item
        for item in request.working_memory
        if item.kind in lead and words & set(content_words(item.content))
    ]
    said += [f"{lead[item.kind]}: {_quoted(item.content)}" for item in related[:MEMORY_MENTIONS]]
    return said


def _refusal(request: ResponseRequest, top: BeliefBrief | None) -> list[str]:
    why = request.refusal or "the request conflicts with my guardrails"
    parts = [f"I can't do that: {_quoted(why)}"]
    if top:
        parts.append(f"What I hold here: {_quoted(top.statement)}")
    return parts


def _stance(request: ResponseRequest, top: BeliefBrief | None) -> tuple[list[str], list[str]]:
    """What the answer says it believes, by dissatisfaction band, and what it asks about it."""
    if request.band == "high":
        return _unsettled(request, top)
    if request.band == "medium":
        return _uncertain(request, top)
    if top:
        return [f"I'm confident that {_quoted(top.statement)}"], []
    return ["I don't hold a belief about this yet; tell me more and I'll learn it."], []


def _unsettled(request: ResponseRequest, top: BeliefBrief | None) -> tuple[list[str], list[str]]:
    """High band: the tensions come first (the three worst named), the belief only for now."""
    names = "; ".join(
        f"“{_clause(belief.statement)}” ({belief.tension:.2f})"
        for belief in sorted(
            request.tensions or [b for b in request.beliefs if b.tension > 0],
            key=lambda belief: -belief.tension,
        )[:3]
    )
    parts = [
        "Before anything else I need to resolve the tensions in what I believe"
        + (f": {names}." if names else f" (dissatisfaction {request.dissatisfaction:.2f}).")
    ]
    if top:
        parts.append(f"For now, my working belief is: {_quoted(top.statement)}")
    tense = tensest(request)
    questions = [f"Can you help me settle whether {_clause(tense.statement)}?"] if tense else []
    return parts, questions


def _uncertain(request: ResponseRequest, top: BeliefBrief | None) -> tuple[list[str], list[str]]:
    """Medium band: the belief with its doubt, and a question about the tensest belief."""
    if top:
        said = (
            f"I think {_clause(top.statement)}, but I'm not certain — {tension_summary(request)}."
        )
    else:
        said = f"I'm not certain here — {tension_summary(request)}."
    subject = tensest(request) or top
    if subject:
        return [said], [f"Is it still true that {_clause(subject.statement)}?"]
    return [said], ["What should I know before I answer this?"]


def _next_step(request: ResponseRequest) -> tuple[list[str], str | None]:
    """What the answer says about acting, and the question that then comes first (approval,
    guidance, or going ahead with a proposal), if any."""
    parts: list[str] = []
    if request.tool_request:
        parts.append(request.tool_request)
    if request.execution:
        parts.append(_quoted(request.execution))
    if request.approval_question:
        parts.append(_quoted(request.approval_question))
        return parts, request.approval_question
    if request.mode == "guidance":
        question = "How would you like me to proceed?"
        parts.append(f"I'm not sure enough to act on this alone. {question}")
        return parts, question
    if request.mode == "proposal" and not request.execution:
        question = "Shall I go ahead?"
        parts.append(f"I propose to act on this. {question}")
        return parts, question
    return parts, None
