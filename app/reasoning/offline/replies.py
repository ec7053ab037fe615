"""The offline answer to the person, chosen by the dissatisfaction band and the supervision
mode, written to read as an assistant's: the most relevant belief is quoted as a clause of the
answer's own sentence ("From what I know, revenue is recognised when …"), so the answer shows
what the agent now believes (a revised belief included); a courtesy gets a courtesy back, a
question the agent holds no belief about is answered as such, and the only questions it asks
are about the message (an approval, guidance, a belief under tension, a tool's arguments)."""

from __future__ import annotations

import re

from app.reasoning.offline.requests import is_request
from app.reasoning.protocol import BeliefBrief, ResponseRequest
from app.text.claims import GREETINGS, is_courtesy, is_question, split_sentences
from app.text.words import content_words, tokens

# Working-memory items the answer mentions, at most.
MEMORY_MENTIONS = 2
# Related beliefs a detailed answer gives as background, at most.
BACKGROUND_BELIEFS = 1
# How the answer introduces a belief, by its strength.
CONFIDENT_FROM = 0.8
KNOWN_FROM = 0.6

_GREETING_WORDS = frozenset({"hi", "hello", "hey", "hiya", "howdy", "morning", "afternoon"})
_THANKS_WORDS = frozenset({"thanks", "thank", "cheers", "appreciate", "appreciated", "thx"})
# "… satisfied. (Revised from the earlier belief: ….)": brackets of whole sentences at the end.
_TRAILING_REMARK = re.compile(r"\s*\([^()]*[.!?]\)$")
_ASKING_AFTER = ("how are you", "how's it going", "how are things", "how is it going")


def _quoted(statement: str) -> str:
    """The statement as a sentence of its own: a full stop only when it has no closing
    punctuation."""
    statement = statement.strip()
    return statement if statement[-1:] in ".!?)" else statement + "."


def clause(statement: str, names: frozenset[str] = frozenset()) -> str:
    """The statement for use inside a sentence: a closing remark of whole sentences in brackets
    ("… (Revised from the earlier belief: ….)") and its closing full stop dropped, and its first
    word lower-cased, unless that word is a name (one of ``names``, the people present), an
    acronym ("ASC 606", "IFRS"), "I" or a code-like token (``ledger.write_query``). Word
    frequencies cannot tell a company's name from a rare noun ("Acme" and "invoices" are
    equally rare in English), so any other first word is read as an ordinary one."""
    text = _TRAILING_REMARK.sub("", statement.strip()).rstrip(".").rstrip()
    first, _, rest = text.partition(" ")
    if _keeps_capital(first, names):
        return text
    return f"{first[:1].lower()}{first[1:]} {rest}".rstrip()


def _keeps_capital(word: str, names: frozenset[str]) -> bool:
    bare = word.strip(",;:()\"'“”")
    if not bare[:1].isupper() or bare in names or bare == "I":
        return True
    return any(ch.isupper() or ch.isdigit() or ch in "._-/" for ch in bare[1:])


def _names(request: ResponseRequest) -> frozenset[str]:
    return frozenset(word for person in request.people for word in person.name.split())


def tensest(request: ResponseRequest) -> BeliefBrief | None:
    pool = request.tensions or [belief for belief in request.beliefs if belief.tension > 0]
    return max(pool, key=lambda belief: belief.tension) if pool else None


def tension_summary(request: ResponseRequest) -> str:
    tense = [b for b in (request.tensions or request.beliefs) if b.tension > 0]
    if not tense:
        return f"my overall dissatisfaction is {request.dissatisfaction:.2f}"
    top = max(tense, key=lambda belief: belief.tension)
    others = len(tense) - 1
    more = ""
    if others:
        more = f", and {others} other belief{' is' if others == 1 else 's are'} under tension too"
    return (
        f"my belief that {clause(top.statement, _names(request))} is under tension "
        f"({top.tension:.2f}){more}"
    )


def compose(request: ResponseRequest) -> tuple[str, list[str]]:
    """The answer's text and the questions it asks."""
    parts: list[str] = []
    top = request.beliefs[0] if request.beliefs else None
    parts += _revisited(request)
    if request.revision:
        parts.append(f"I have revised my belief: {_quoted(request.revision)}")
    if request.refusal or request.mode == "blocked":
        return " ".join(parts + _refusal(request, top)), []
    said, questions = _stance(request, top)
    parts += said
    parts += _background(request, top, said)
    # A brief answer (to an expert in the turn's domain) says what it holds and what it does.
    parts += _remembered(request) if request.depth != "brief" else []
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
    if not parts:
        parts.append("Noted.")
    return " ".join(parts), questions


def _revisited(request: ResponseRequest) -> list[str]:
    """Seed 001's "revisits past outputs": each belief an earlier answer to this person rested
    on, revised since, named before the answer."""
    names = frozenset(person.name for person in request.people)
    return [
        f"Since we last spoke I have changed my mind: I told you that "
        f"{clause(item.old_statement, names)}; I now hold that {clause(item.new_statement, names)}."
        for item in request.revisited
    ]


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


def _background(request: ResponseRequest, top: BeliefBrief | None, said: list[str]) -> list[str]:
    """A detailed answer (to a novice in the turn's domain) gives the next related belief as
    background after the one it rests on, and invites questions about the terms."""
    if request.depth != "detailed" or top is None or not said:
        return []
    others = [
        belief for belief in request.beliefs[1 : BACKGROUND_BELIEFS + 1] if belief.id != top.id
    ]
    names = _names(request)
    parts = [f"For background: {clause(belief.statement, names)}." for belief in others]
    return [*parts, "Ask me about any term here that is new to you, and I'll explain it."]


def _refusal(request: ResponseRequest, top: BeliefBrief | None) -> list[str]:
    why = request.refusal or "the request conflicts with my guardrails"
    parts = [f"I can't do that: {_quoted(clause(why))}"]
    if top:
        parts.append(f"What I hold here is that {clause(top.statement, _names(request))}.")
    return parts


def _stance(request: ResponseRequest, top: BeliefBrief | None) -> tuple[list[str], list[str]]:
    """What the answer says it believes, by dissatisfaction band, and what it asks about it."""
    if request.band == "high":
        return _unsettled(request, top)
    if request.band == "medium":
        return _uncertain(request, top)
    courtesy = _courtesy(request.message)
    if courtesy is not None:
        return [courtesy], []
    if request.tool_request:
        # The answer is about the tool that could do it; a belief retrieved beside it is not.
        return [], []
    if top:
        return [_belief_sentence(top, _names(request))], []
    return _without_belief(request), []


def _belief_sentence(belief: BeliefBrief, names: frozenset[str]) -> str:
    """The belief in a sentence whose opening says how firmly it is held."""
    said = clause(belief.statement, names)
    if belief.strength >= CONFIDENT_FROM:
        return f"I'm confident that {said}."
    if belief.strength >= KNOWN_FROM:
        return f"From what I know, {said}."
    return f"From what I know so far, {said}."


def _courtesy(message: str) -> str | None:
    """A greeting or thanks returned in kind; None for a message that says or asks more."""
    sentences = split_sentences(message) or [message]
    words = tokens(message)
    greeting = bool(words) and (
        words[0] in _GREETING_WORDS or " ".join(words[:2]) in ("good morning", "good afternoon")
    )
    asks_after = any(_asks_after_me(s) for s in sentences)
    if (greeting or asks_after) and all(is_courtesy(s) or _asks_after_me(s) for s in sentences):
        hello = "Hello! " if greeting else ""
        well = "I'm well, thanks. " if asks_after else ""
        return f"{hello}{well}What can I help you with?"
    thanked = bool(set(words) & _THANKS_WORDS)
    if thanked and not any(is_question(s) or is_request(s) for s in sentences):
        return "You're welcome."
    return None


def _asks_after_me(sentence: str) -> bool:
    """ "How are you (today)?", after any greeting words."""
    words = tokens(sentence)
    while words and words[0] in GREETINGS:
        words = words[1:]
    return " ".join(words).startswith(_ASKING_AFTER) and len(words) <= 5


def _without_belief(request: ResponseRequest) -> list[str]:
    """An answer with no belief to rest on: a question is answered honestly, a request is left
    to what the turn does about it (an approval, guidance), a statement is acknowledged."""
    sentences = split_sentences(request.message) or [request.message]
    if request.approval_question or request.execution or request.mode != "autonomous":
        return []
    if any(is_question(sentence) for sentence in sentences):
        return [
            "I don't know yet: nothing I believe covers this. If you tell me, I'll remember it."
        ]
    return ["Noted. I hold no belief about this yet, so I'll go by what you've told me."]


def _unsettled(request: ResponseRequest, top: BeliefBrief | None) -> tuple[list[str], list[str]]:
    """High band: the tensions come first (the three worst named), the belief only for now."""
    names = _names(request)
    listed = "; ".join(
        f"“{belief.statement.strip().rstrip('.')}” ({belief.tension:.2f})"
        for belief in sorted(
            request.tensions or [b for b in request.beliefs if b.tension > 0],
            key=lambda belief: -belief.tension,
        )[:3]
    )
    parts = [
        "Before anything else I need to resolve the tensions in what I believe"
        + (f": {listed}." if listed else f" (dissatisfaction {request.dissatisfaction:.2f}).")
    ]
    if top:
        parts.append(f"For now, I'm working from the belief that {clause(top.statement, names)}.")
    tense = tensest(request)
    questions = (
        [f"Can you help me settle whether {clause(tense.statement, names)}?"] if tense else []
    )
    return parts, questions


def _uncertain(request: ResponseRequest, top: BeliefBrief | None) -> tuple[list[str], list[str]]:
    """Medium band: the belief with its doubt, and a question about the tensest belief."""
    names = _names(request)
    if top:
        said = (
            f"I think {clause(top.statement, names)}, but I'm not certain: "
            f"{tension_summary(request)}."
        )
    else:
        said = f"I'm not certain here: {tension_summary(request)}."
    subject = tensest(request) or top
    if subject:
        return [said], [f"Is it still true that {clause(subject.statement, names)}?"]
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
