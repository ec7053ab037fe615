"""Reading requests without a model: is it a request, how urgent, how face-threatening, which
high-risk kinds it touches, and the work unit (verb, entities, constraints) it asks for. The verb
is the domain skill's (the agent's: a pack may bring one, docs/packs.md §5; else the shipped
``seeds/skills/accounting.yaml``: "record the invoice" is ``process_invoice``) when its
vocabulary maps the request, else the request's own word. A sentence opening with a word a
pack's skill maps is a request too."""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.seeds.skill_schema import DomainSkill
from app.seeds.skills import load_skill
from app.text.claims import is_question, split_sentences
from app.text.patterns import occurs_bounded
from app.text.stopwords import word_set
from app.text.words import normalise, tokens

# Verbs a request in the agent's line of work starts with (the imperative is the first word).
REQUEST_VERBS = word_set(
    """reconcile prepare send delete pay post create update schedule book file submit approve
    reject review check draft write email call remind cancel transfer move copy archive remove
    add record close open run compute calculate summarise summarize list show find fetch
    generate export import upload download forward share invite notify escalate assign
    reverse refund invoice bill allocate accrue reclassify adjust correct fix set change
    rename merge split sort clean verify validate audit investigate analyse analyze compare
    reset rotate grant revoke publish sign print order buy sell renew extend plan organise
    organize arrange confirm tell explain translate attach sync backup restore deploy install
    start stop restart migrate draft flag mark tag label match clear void wipe purge drop
    make do help give get put use take request process extract forecast"""
)

_POLITE_OPENERS = re.compile(
    r"^(?:(?:ok(?:ay)?|so|now|hey|hi|hello|right|alright|also|and|then|next)[,!]?\s+)*"
    r"(?:please\s+|kindly\s+|(?:can|could|would|will) you(?: please)?\s+|"
    r"i (?:need|want|would like) you to\s+|i'd like you to\s+|go ahead and\s+|let's\s+|"
    r"(?:you )?(?:need|have) to\s+)*",
    re.IGNORECASE,
)
_REQUEST_MARKERS = re.compile(
    r"\b(please|can you|could you|would you|will you|i need you to|i want you to|"
    r"i'd like you to|go ahead and|let's)\b",
    re.IGNORECASE,
)

URGENCY_CUES: dict[str, float] = {
    "urgent": 0.9, "urgently": 0.9, "asap": 0.9, "immediately": 0.9, "right away": 0.85,
    "right now": 0.85, "emergency": 0.9, "critical": 0.7, "deadline": 0.6, "today": 0.6,
    "tonight": 0.6, "end of day": 0.7, "eod": 0.7, "now": 0.5, "quickly": 0.5, "soon": 0.4,
    "tomorrow": 0.4, "this week": 0.3, "overdue": 0.7, "late": 0.4,
}  # fmt: skip

FACE_THREAT_CUES: dict[str, float] = {
    "wrong": 0.35, "mistake": 0.35, "mistakes": 0.35, "error": 0.25, "again": 0.2,
    "you always": 0.4, "you never": 0.4, "frustrated": 0.5, "frustrating": 0.5,
    "annoyed": 0.5, "annoying": 0.5, "ridiculous": 0.5, "terrible": 0.5, "useless": 0.6,
    "stupid": 0.6, "unacceptable": 0.6, "disappointed": 0.5, "disappointing": 0.5,
    "how many times": 0.6, "not what i asked": 0.5, "careless": 0.5, "sloppy": 0.5,
    "embarrassing": 0.5, "i told you": 0.5, "incompetent": 0.7, "waste of time": 0.5,
    "doesn't work": 0.3, "broken": 0.3, "failed": 0.25, "!!": 0.2,
}  # fmt: skip

# High-risk kinds (tier 3: docs/loop.md §5) and the words that reveal them.
RISK_CUES: dict[str, tuple[str, ...]] = {
    "delete": ("delete", "deleting", "remove", "erase", "wipe", "purge", "drop table",
               "destroy", "shred", "rm -rf", "truncate", "void", "write off", "format"),
    "payment": ("pay", "payment", "payments", "wire", "transfer", "refund", "remit",
                "disburse", "payroll", "invoice payment", "bank transfer", "ach", "swift",
               "send money", "purchase", "withdraw", "withdrawal"),
    "credentials": ("password", "passwords", "credential", "credentials", "api key",
                    "secret", "token", "private key", "ssh key", "login details", "2fa",
                    "mfa", "access key"),
    "external_communication": ("send", "email", "e-mail", "mail", "post", "publish",
                               "tweet", "announce", "forward", "share with", "notify",
                               "broadcast",
                               "press release", "external", "client", "customer",
                               "vendor", "auditor", "regulator"),
}  # fmt: skip

# The brief's markers (without / before / by / only / unless / except) and a few that read the
# same way (within, no later than, never, do not, but not).
_CONSTRAINT_MARKER = re.compile(
    r"\b(without|before|by|only|unless|except(?: for)?|within|no later than|never|"
    r"do not|don't|but not)\b",
    re.IGNORECASE,
)
_STOP_OBJECT = word_set(
    """for to in on at from with without before by only unless except within after and or
    but so that which who when where until via per as into onto using"""
)
_DETERMINERS = word_set("the a an this that these those my our your their its all every")


def _phrase_matches(text: str, phrase: str) -> bool:
    return occurs_bounded(phrase, text, hyphen_bounds=True)


def request_sentence(message: str, skill: DomainSkill | None = None) -> str | None:
    """The sentence of ``message`` that asks for something to be done, if any: one that opens
    with a request verb (or a word ``skill``, a pack's, maps) or asks politely."""
    words_of_skill = skill.request_words if skill is not None else frozenset()
    for sentence in split_sentences(message) or [message]:
        stripped = _POLITE_OPENERS.sub("", sentence.strip())
        words = tokens(stripped)
        opens = bool(words) and (words[0] in REQUEST_VERBS or words[0] in words_of_skill)
        if _REQUEST_MARKERS.search(sentence) or opens:
            return sentence
    return None


def is_request(message: str, skill: DomainSkill | None = None) -> bool:
    """Imperatives ("reconcile ...", "send ..." and the words ``skill`` maps) and polite forms
    ("please", "can you")."""
    return request_sentence(message, skill) is not None


def urgency(message: str) -> tuple[float, list[str]]:
    """The strongest urgency cue, raised a little by each further one; with the cues found."""
    text = normalise(message).lower()
    found = sorted(
        (weight, cue) for cue, weight in URGENCY_CUES.items() if _phrase_matches(text, cue)
    )
    if not found:
        return 0.0, []
    score = found[-1][0] + 0.05 * (len(found) - 1) + (0.1 if "!" in message else 0.0)
    return min(1.0, score), [cue for _, cue in found]


def face_threat(message: str, stakes: str) -> tuple[float, list[str]]:
    """How likely a careless answer embarrasses the person: criticism and frustration cues,
    and more so when the stakes are high."""
    text = normalise(message).lower()
    found = [cue for cue in FACE_THREAT_CUES if _phrase_matches(text, cue) or cue in text]
    found = [cue for cue in found if cue != "!!" or "!!" in text]
    score = sum(FACE_THREAT_CUES[cue] for cue in found)
    score += {"low": 0.0, "medium": 0.1, "high": 0.2}.get(stakes, 0.0)
    if message.isupper() and len(message) > 8:
        score += 0.2  # shouting
    return min(1.0, score), found


def risk_kinds(message: str) -> list[str]:
    """High-risk kinds (delete, payment, credentials, external_communication) the text touches.
    External communication counts only when something is sent out, not for the word "client"
    on its own."""
    text = normalise(message).lower()
    kinds: list[str] = []
    for kind, cues in RISK_CUES.items():
        hits = [cue for cue in cues if _phrase_matches(text, cue)]
        if kind == "external_communication":
            outward = {"send", "email", "e-mail", "mail", "post", "publish", "tweet",
                       "announce", "forward", "share with", "notify", "press release",
                       "broadcast"}  # fmt: skip
            hits = [cue for cue in hits if cue in outward]
        if hits:
            kinds.append(kind)
    return kinds


@dataclass(frozen=True)
class ParsedWork:
    verb: str
    entities: list[str]
    constraints: list[str]
    description: str
    known_verb: bool


def _capitalised_names(text: str, skip_first: bool) -> list[str]:
    names: list[str] = []
    words = text.split()
    current: list[str] = []
    for index, raw in enumerate(words):
        word = raw.strip(",.;:!?()[]\"'")
        capitalised = word[:1].isupper() and not (skip_first and index == 0)
        if capitalised and word.lower() not in ("i", "please"):
            current.append(word)
        else:
            if current:
                names.append(" ".join(current))
            current = []
        if raw[-1:] in ",.;:!?)":
            if current:
                names.append(" ".join(current))
            current = []
    if current:
        names.append(" ".join(current))
    return names


def _object_phrase(words: list[str]) -> str:
    """The noun phrase right after the verb, up to the first preposition or punctuation, with
    its determiners dropped: "the Chase account for October" → "Chase account"."""
    phrase: list[str] = []
    for raw in words:
        word = raw.strip("\"'")
        bare = word.rstrip(",.;:!?")
        if bare.lower() in _STOP_OBJECT:
            break
        if not (phrase == [] and bare.lower() in _DETERMINERS) and bare:
            phrase.append(bare)
        if bare != word:
            break
    while phrase and phrase[-1].lower() in _DETERMINERS:
        phrase.pop()
    return " ".join(phrase)


def constraints_in(text: str) -> list[str]:
    """Phrases after without / before / by / only / unless / except / within / never / do not,
    each up to the next marker or punctuation: "by Friday", "without posting adjustments"."""
    found: list[str] = []
    for clause in re.split(r"[,.;!?]", normalise(text)):
        markers = list(_CONSTRAINT_MARKER.finditer(clause))
        for index, match in enumerate(markers):
            end = markers[index + 1].start() if index + 1 < len(markers) else len(clause)
            marker, rest = match.group(1).lower(), clause[match.end() : end].strip()
            rest = re.sub(r"\s+(?:and|or|then)$", "", rest).strip()
            deadline = re.match(
                r"(?:the\s+)?(?:[A-Z0-9]|end|tomorrow|today|tonight|next|noon|midnight|close|eod)",
                rest,
                re.IGNORECASE,
            )
            if marker == "by" and not deadline:
                continue  # "by the bank" names an agent, not a deadline; keep "by Friday"
            phrase = f"{marker} {rest}"
            if rest and phrase not in found:
                found.append(phrase)
    return found


def parse_work(message: str, guidance: str | None, skill: DomainSkill | None = None) -> ParsedWork:
    """The work unit a message asks for (a question → ``answer``; no recognisable request →
    ``respond``), with the constraints a person's guidance adds; its verb is ``skill``'s (the
    agent's; None: the shipped accounting skill) when the vocabulary maps the request."""
    sentence = request_sentence(message, skill)
    skill = skill or load_skill()
    constraints = constraints_in(sentence or message)
    if guidance:
        guided = constraints_in(guidance)
        constraints.extend(item for item in guided if item not in constraints)
        if not guided and guidance.strip():
            constraints.append(f"as guided: {normalise(guidance).rstrip('.')}")
    if sentence is None:
        question = any(is_question(part) for part in split_sentences(message)) or is_question(
            message
        )
        verb = "answer" if question else "respond"
        topic = normalise(message).rstrip("?.! ")
        mentioned = _capitalised_names(topic, skip_first=True) + _numbers_and_quotes(topic)
        description = f"Answer the question: {topic}?" if question else f"Respond to: {topic}."
        return ParsedWork(verb, _unique(mentioned), constraints, description, known_verb=True)
    core = _POLITE_OPENERS.sub("", normalise(sentence)).rstrip("?.! ")
    words = core.split()
    verb_word = re.sub(r"[^a-z0-9_]", "", words[0].lower()) if words else ""
    if not verb_word or not verb_word[0].isalpha():
        verb_word = "respond"
    entities: list[str] = []
    object_phrase = _object_phrase(words[1:])
    mapped = skill.verb_for(verb_word, set(tokens(object_phrase)))
    if object_phrase:
        entities.append(object_phrase)
    for name in _capitalised_names(" ".join(words[1:]), skip_first=False):
        if not any(name in entity for entity in entities):
            entities.append(name)
    for item in _numbers_and_quotes(core):
        if not any(item in entity for entity in entities):
            entities.append(item)
    description = core[:1].upper() + core[1:] + "."
    if constraints:
        description += " Constraints: " + "; ".join(constraints) + "."
    return ParsedWork(
        mapped or verb_word[:64],
        _unique(entities),
        constraints,
        description,
        mapped is not None or verb_word in REQUEST_VERBS,
    )


def _numbers_and_quotes(text: str) -> list[str]:
    quoted = re.findall(r"\"([^\"]+)\"|'([^']{2,})'", text)
    found = [first or second for first, second in quoted]
    found += re.findall(r"[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?[kmb])?|\b\d[\d,]*(?:\.\d+)?%?", text)
    return [item.strip() for item in found if item.strip()]


def _unique(items: list[str]) -> list[str]:
    seen: list[str] = []
    for item in items:
        if item and item not in seen:
            seen.append(item)
    return seen
