"""The offline tier-3 audit: a high-risk request checked against cue lists of what no creed
allows (deceiving, concealing, falsifying, backdating, bypassing approvals or controls,
exfiltrating credentials, breaching confidentiality) and against the creed lines it is given.
Every result says why, which creed lines it breaks and what to do instead."""

from __future__ import annotations

import re

from app.reasoning.offline.requests import risk_kinds
from app.reasoning.protocol import Audit, AuditRequest, Level
from app.text.words import content_words, normalise

OFFLINE = "offline"

VIOLATIONS: dict[str, tuple[str, ...]] = {
    "deception": (
        r"\bdeceiv\w*", r"\bdecept\w*", r"\bmislead\w*", r"\bmisled\b", r"\blie to\b",
        r"\blying to\b", r"\bfake\b", r"\bfabricat\w*", r"\bpretend\w*", r"\btrick\w*",
        r"\bimpersonat\w*", r"\bmisrepresent\w*",
    ),
    "concealment": (
        r"\bconceal\w*", r"\bhide\b", r"\bhiding\b", r"\bcover (?:it |this |that )?up\b",
        r"\bcover-up\b", r"\bdon'?t tell\b", r"\bdo not tell\b", r"\bkeep (?:it|this|that) "
        r"(?:quiet|secret|from)\b", r"\boff the books\b", r"\bwithout telling\b",
        r"\bsweep \w+ under\b", r"\bnobody (?:needs to|has to|will) know\b",
    ),
    "falsification": (
        r"\bfalsif\w*", r"\bforge\b", r"\bforg(?:ed|ing|ery)\b", r"\bdoctor (?:the|our)\b",
        r"\balter (?:the )?(?:records?|figures|numbers|books|ledger)\b",
        r"\b(?:inflate|manipulate|massage|cook) (?:the )?(?:numbers|figures|books|revenue|"
        r"results|earnings)\b", r"\bfake (?:an? )?(?:invoice|receipt|entry|signature)\b",
        r"\bfictitious\b", r"\bphony\b", r"\bmake up (?:the |some )?(?:numbers|figures)\b",
    ),
    "backdating": (
        r"\bback-?dat\w*", r"\bpre-?dat(?:e|ed|ing) (?:the |a |an )?(?:contract|invoice|"
        r"entry|document)\b", r"\bchange the dates?\b", r"\b(?:date|record) it (?:as of )?"
        r"last (?:month|quarter|year)\b",
    ),
    "bypassing approvals or controls": (
        r"\bbypass\w*", r"\bcircumvent\w*", r"\bskip(?:ping)? (?:the )?(?:approval|review|"
        r"sign-?off|control|check)s?\b", r"\bwithout (?:any |the )?(?:approval|authori[sz]ation|"
        r"sign-?off|review)\b", r"\boverride (?:the )?(?:control|approval|limit)s?\b",
        r"\bget around (?:the )?\w+", r"\bdisable (?:the )?(?:audit|logging|controls?|"
        r"alerts?|monitoring)\b", r"\bsplit (?:the )?(?:payment|invoice)s? to (?:avoid|stay)\b",
        r"\bavoid (?:the )?(?:approval|review|threshold)\b",
    ),
    "credential exfiltration": (
        r"\bexfiltrat\w*", r"\b(?:send|email|e-mail|share|post|give|forward|paste|text|tell)\b"
        r"[^.]{0,40}\b(?:password|passwords|credentials?|api keys?|secret keys?|private keys?|"
        r"tokens?|login details|ssh keys?|2fa codes?|mfa codes?)\b",
        r"\b(?:password|credentials?|api keys?|tokens?)\b[^.]{0,30}\b(?:to|with) (?:my|his|"
        r"her|a|an|the) (?:personal|private|gmail|external)\b",
    ),
    "breach of confidentiality": (
        r"\bleak\w*", r"\b(?:send|share|forward|email|post|publish|give)\b[^.]{0,50}\b"
        r"(?:confidential|salary|salaries|payroll data|personal data|customer data|"
        r"client data|medical|social security|ssn|bank details|internal figures)\b",
        r"\bconfidential\b[^.]{0,50}\b(?:to|with) (?:a |an |the |my )?(?:competitor|press|"
        r"journalist|outside|external|personal|friend|public)\w*",
    ),
}  # fmt: skip

_PROHIBITION = re.compile(
    r"\b(?:never|do not|don't|must not|shall not|will not|won't|no)\s+([^.;]+)", re.IGNORECASE
)


def violations(text: str) -> dict[str, list[str]]:
    """Violation kind → the phrases of ``text`` that reveal it."""
    text = normalise(text)
    found: dict[str, list[str]] = {}
    for kind, patterns in VIOLATIONS.items():
        for pattern in patterns:
            match = re.search(pattern, text, re.IGNORECASE)
            if match:
                found.setdefault(kind, []).append(match.group().strip())
    return found


def creed_conflicts(text: str, creed: list[str], kinds: list[str]) -> list[str]:
    """Creed lines the request breaks: those that name a violation found, and prohibitions
    ("never X", "do not X") whose every content word (at least two) the request contains."""
    words = set(content_words(text))
    conflicts: list[str] = []
    for line in creed:
        line_words = set(content_words(line))
        names_violation = any(
            word.startswith(kind_stem)
            for kind in kinds
            for kind_stem in _KIND_STEMS.get(kind, ())
            for word in line_words
        )
        prohibited = [set(content_words(m.group(1))) for m in _PROHIBITION.finditer(line)]
        breaks_prohibition = any(len(p) >= 2 and p <= words for p in prohibited)
        if names_violation or breaks_prohibition:
            conflicts.append(line)
    return conflicts


# Word beginnings by which a creed line speaks of a violation kind ("Never deceive anyone",
# "Keep client data confidential", "Respect the approval process").
_KIND_STEMS: dict[str, tuple[str, ...]] = {
    "deception": ("deceiv", "decept", "honest", "truth", "mislead", "lie", "lying"),
    "concealment": ("conceal", "hide", "transparen", "disclos", "honest"),
    "falsification": ("falsif", "accura", "integrit", "record", "forg", "honest", "truth"),
    "backdating": ("backdat", "date", "accura", "integrit", "record"),
    "bypassing approvals or controls": ("approv", "control", "bypass", "authori", "review",
                                        "segregat", "procedur", "polic"),
    "credential exfiltration": ("credential", "password", "secret", "secur", "access", "key"),
    "breach of confidentiality": ("confiden", "privacy", "private", "personal", "secret",
                                  "disclos"),
}  # fmt: skip


# What to do instead, by the violation found first (in VIOLATIONS' order).
_RECOMMENDATIONS: dict[str, str] = {
    "deception": "Say what is true instead, and tell the person plainly what cannot be done.",
    "concealment": "Record and disclose it to the people responsible instead of hiding it.",
    "falsification": "Record the real figures; correct errors with a documented adjusting "
    "entry approved by the controller.",
    "backdating": "Date the document or entry when it really happened, and disclose the late "
    "posting in the period's notes.",
    "bypassing approvals or controls": "Route it through the approval it needs; ask the "
    "approver rather than working around the control.",
    "credential exfiltration": "Never share credentials; grant access through the system's "
    "own access request instead.",
    "breach of confidentiality": "Share it only with people entitled to it, through the "
    "approved channel, after checking with the data's owner.",
}


def audit_offline(request: AuditRequest) -> Audit:
    """Fails (risk high) a request that would deceive, conceal, falsify, backdate, bypass
    approvals or controls, exfiltrate credentials or breach confidentiality, or that breaks a
    prohibition of the creed; otherwise passes, medium risk for high-risk kinds. Either way it
    says why and what to do (or confirm)."""
    text = request.message
    if request.work_unit is not None:
        unit = request.work_unit
        text = " ".join([text, unit.description, *unit.constraints])
    found = violations(text)
    conflicts = creed_conflicts(text, request.creed, list(found))
    if found or conflicts:
        return _failed(found, conflicts)
    kinds = sorted(set(request.risk_kinds) | set(risk_kinds(text)))
    risk: Level = "medium" if kinds else "low"
    concerns = [f"high-risk kind '{kind}': confirm the details before acting" for kind in kinds]
    return Audit(
        passed=True,
        risk=risk,
        reason=(
            f"It touches {_listed(kinds)} but breaks no line of the creed."
            if kinds
            else "Nothing in it conflicts with the creed."
        ),
        concerns=concerns or ["no conflict with the creed found"],
        creed_violations=[],
        recommendation=(
            "Confirm the amounts, the recipients and the approvals before acting."
            if kinds
            else "Go ahead."
        ),
        reasoner=OFFLINE,
    )


def _failed(found: dict[str, list[str]], conflicts: list[str]) -> Audit:
    concerns = [f"{kind}: “{'”, “'.join(phrases)}”" for kind, phrases in sorted(found.items())]
    concerns += [f"conflicts with the creed: “{line}”" for line in conflicts]
    kinds = [kind for kind in VIOLATIONS if kind in found]
    if kinds:
        quoted = "; ".join(f"{kind} (“{found[kind][0]}”)" for kind in kinds)
        reason = f"The request asks for {quoted}, which no creed allows."
    else:
        reason = "The request does what the creed forbids."
    if conflicts:
        reason += f" It breaks {_count(len(conflicts), 'line')} of the creed."
    recommendation = _RECOMMENDATIONS.get(
        kinds[0] if kinds else "",
        "Do not act on it as asked; rephrase it so it keeps to the creed, or ask a person "
        "with the authority to decide.",
    )
    return Audit(
        passed=False,
        risk="high",
        reason=reason,
        concerns=concerns,
        creed_violations=conflicts,
        recommendation=recommendation,
        reasoner=OFFLINE,
    )


def _listed(kinds: list[str]) -> str:
    names = [kind.replace("_", " ") for kind in kinds]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
