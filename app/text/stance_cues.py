"""Cues that a claim contradicts a statement it is about: negation mismatch, denial, antonyms
and number mismatch. Pure functions over text; the offline reasoner decides with them once it
knows the two texts share a topic.

Each cue has a name (shown to people as the reason for a stance) and a strength in [0, 1].
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from app.text.stopwords import CLAIM_STOP_WORDS
from app.text.words import content_words, normalise, stem, tokens

NEGATORS = frozenset(
    {"not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "nowhere", "cannot",
     "without"}
)  # fmt: skip

# Phrases by which a person rejects what was said ("That's wrong: ...").
_DENIAL = re.compile(
    r"\b(that'?s|this is|it'?s|that is|you'?re|you are) (wrong|incorrect|false|untrue|not true|"
    r"not right|not correct|mistaken)\b|\b(is|are|was|were) (false|untrue|incorrect|wrong)\b|"
    r"\bnot the case\b|\bi disagree\b|\bno longer\b|^\s*no\b[,!.:]",
    re.IGNORECASE,
)

ANTONYM_PAIRS: tuple[tuple[str, str], ...] = (
    ("increase", "decrease"), ("increase", "reduce"), ("increase", "cut"), ("increase", "drop"),
    ("higher", "lower"), ("high", "low"), ("more", "less"), ("more", "fewer"),
    ("most", "least"), ("larger", "smaller"), ("large", "small"), ("big", "small"),
    ("bigger", "smaller"), ("largest", "smallest"), ("highest", "lowest"), ("best", "worst"),
    ("better", "worse"), ("good", "bad"), ("before", "after"), ("earlier", "later"),
    ("first", "last"), ("early", "late"), ("allowed", "prohibited"), ("allowed", "forbidden"),
    ("permitted", "prohibited"), ("permitted", "forbidden"), ("allow", "prohibit"),
    ("allow", "forbid"), ("required", "optional"), ("mandatory", "optional"),
    ("true", "false"), ("correct", "incorrect"), ("valid", "invalid"), ("rise", "fall"),
    ("rose", "fell"), ("risen", "fallen"), ("gain", "loss"), ("gained", "lost"),
    ("profit", "loss"), ("win", "lose"), ("won", "lost"), ("up", "down"),
    ("accept", "reject"), ("accepted", "rejected"), ("approve", "reject"),
    ("approved", "rejected"), ("always", "never"), ("always", "sometimes"),
    ("all", "none"), ("everyone", "nobody"), ("include", "exclude"), ("included", "excluded"),
    ("inside", "outside"), ("above", "below"), ("maximum", "minimum"),
    ("max", "min"), ("open", "closed"), ("start", "end"), ("begin", "end"),
    ("success", "failure"), ("succeeded", "failed"), ("pass", "fail"), ("passed", "failed"),
    ("positive", "negative"), ("credit", "debit"), ("asset", "liability"),
    ("income", "expense"), ("expensed", "capitalised"), ("expensed", "capitalized"),
    ("public", "private"), ("legal", "illegal"), ("possible", "impossible"),
    ("likely", "unlikely"), ("safe", "unsafe"), ("same", "different"), ("alive", "dead"),
    ("born", "died"), ("male", "female"), ("men", "women"), ("north", "south"),
    ("east", "west"), ("buy", "sell"), ("bought", "sold"), ("enable", "disable"),
    ("enabled", "disabled"), ("add", "remove"), ("added", "removed"),
    ("cheaper", "dearer"), ("cheap", "expensive"), ("fast", "slow"), ("faster", "slower"),
    ("full", "empty"), ("older", "newer"), ("older", "younger"), ("oldest", "youngest"),
    ("majority", "minority"), ("agree", "disagree"), ("support", "oppose"),
    ("supported", "opposed"), ("present", "absent"), ("success", "failure"),
    ("strong", "weak"), ("stronger", "weaker"), ("guilty", "innocent"),
)  # fmt: skip

# Stems map to the stems of their antonyms; stems keep "increased" ~ "increase" together.
_ANTONYMS: dict[str, set[str]] = {}
for _first, _second in ANTONYM_PAIRS:
    _ANTONYMS.setdefault(stem(_first), set()).add(stem(_second))
    _ANTONYMS.setdefault(stem(_second), set()).add(stem(_first))

_MULTIPLIERS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_WORD_NUMBERS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    "hundred": 100,
}  # fmt: skip
_GREATER = (
    "more than", "over", "above", "greater than", "exceeding", "in excess of", "at least",
    "after", "later than", "since",
)  # fmt: skip
_LESS = (
    "less than", "fewer than", "under", "below", "at most", "up to", "no more than", "before",
    "earlier than", "prior to",
)  # fmt: skip
_MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec",
)  # fmt: skip
_APPROX = ("about", "around", "approximately", "roughly", "nearly", "almost", "some", "circa")

_NUMBER = re.compile(
    r"(?<![\w./-])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s*(%|percent\b|per cent\b))?"
    r"(?:\s+(thousand|million|billion|trillion)\b)?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Cue:
    """One reason to think the claim contradicts the statement."""

    name: str
    strength: float


@dataclass(frozen=True)
class Quantity:
    """A number found in a text, with what it counts and how it is qualified."""

    value: float
    kind: str  # "year", "percent" or "count"
    unit: str | None  # the content word after the number ("reviews"), stemmed
    label: str | None  # the content word before it ("season", "top"), stemmed
    comparator: str | None  # ">", "<" or "~" from "more than", "less than", "about"
    decimals: int
    text: str


def negation_count(text: str) -> int:
    """Syntactic negators: not, no, never, ..., and every ``n't`` contraction."""
    return sum(1 for token in tokens(text) if token in NEGATORS or token.endswith("n't"))


def _negated_words(text: str, window: int = 4) -> set[str]:
    """Content-word stems within ``window`` tokens after each negator: what is negated."""
    words = tokens(text)
    negated: set[str] = set()
    for index, token in enumerate(words):
        if token in NEGATORS or token.endswith("n't"):
            negated.update(
                stem(word)
                for word in words[index + 1 : index + 1 + window]
                if word not in CLAIM_STOP_WORDS
            )
    return negated


def is_denial(text: str) -> bool:
    """The text rejects something said: "that's wrong", "is false", "not the case", "No, ..."."""
    return bool(_DENIAL.search(normalise(text)))


def negation_mismatch(claim: str, statement: str) -> bool:
    """One text negates and the other does not (by parity of negators), and what is negated
    is shared with the other text, so the negation is about the common topic."""
    claim_negations, statement_negations = negation_count(claim), negation_count(statement)
    if claim_negations % 2 == statement_negations % 2:
        return False
    negated_text, other = (claim, statement) if claim_negations % 2 else (statement, claim)
    # Content words only: sharing "a" or "the" does not put the negation on the common topic.
    other_words = set(content_words(other))
    return bool(_negated_words(negated_text) & other_words)


def _plain_words(text: str) -> dict[str, str]:
    """Stem → word, leaving out words that only qualify a number ("more than 20", "before
    2010", "over 5"): the number cue judges those comparisons."""
    words = tokens(text)
    plain: dict[str, str] = {}
    for index, word in enumerate(words):
        ahead = words[index + 1 : index + 3]
        if any(next_word[:1].isdigit() for next_word in ahead) or (ahead and ahead[0] == "than"):
            continue
        plain[stem(word)] = word
    return plain


def antonyms(claim: str, statement: str) -> list[tuple[str, str]]:
    """(claim word, statement word) pairs of opposites, where each text lacks the other's word."""
    claim_words, statement_words = _plain_words(claim), _plain_words(statement)
    pairs: list[tuple[str, str]] = []
    for word_stem, word in claim_words.items():
        if word_stem in statement_words:
            continue
        for opposite in _ANTONYMS.get(word_stem, ()):
            if opposite in statement_words and opposite not in claim_words:
                pairs.append((word, statement_words[opposite]))
    return sorted(set(pairs))


def _comparator(before: str) -> str | None:
    words = [word for word in before.lower().split() if word not in ("$", "€", "£", "us$")]
    before = " " + " ".join(words[-3:])
    for phrase in _GREATER:
        if before.endswith(" " + phrase):
            return ">"
    for phrase in _LESS:
        if before.endswith(" " + phrase):
            return "<"
    for phrase in _APPROX:
        if before.endswith(" " + phrase):
            return "~"
    return None


def quantities(text: str) -> list[Quantity]:
    """The numbers of ``text``: digits (with thousands separators, decimals, %, "million")
    and number words from two to a hundred."""
    return list(_quantities(text))


@lru_cache(maxsize=4096)
def _quantities(text: str) -> tuple[Quantity, ...]:
    text = normalise(text)
    found: list[Quantity] = []
    for match in _NUMBER.finditer(text):
        whole, fraction, percent, multiplier = match.groups()
        if _is_day_of_month(text, match):
            continue  # "4 April", "March 21": the year beside it carries the comparison
        value = float(whole.replace(",", "") + ("." + fraction if fraction else ""))
        if multiplier:
            value *= _MULTIPLIERS[multiplier.lower()]
        is_year = (
            not percent
            and not multiplier
            and not fraction
            and "," not in whole
            and len(whole) == 4
            and 1000 <= value <= 2100
        )
        kind = "percent" if percent else "year" if is_year else "count"
        found.append(
            Quantity(
                value=value,
                kind=kind,
                unit=_unit_after(text[match.end() :]),
                label=_label_before(text[: match.start()]),
                comparator=_comparator(text[: match.start()]),
                decimals=len(fraction or ""),
                text=match.group().strip(),
            )
        )
    for match in re.finditer(r"\b(" + "|".join(_WORD_NUMBERS) + r")\b", text, re.IGNORECASE):
        following = text[match.end() :].lstrip()
        if following.lower().startswith(("of ", "or ")):
            continue  # "two of the", "two or more": not a count of a thing
        # "ten thousand dollars" is 10,000 (not 10).
        multiplier = next(
            (v for word, v in _MULTIPLIERS.items() if following.lower().startswith(word)), 1.0
        )
        found.append(
            Quantity(
                value=float(_WORD_NUMBERS[match.group().lower()]) * multiplier,
                kind="count",
                unit=_unit_after(text[match.end() :]),
                label=_label_before(text[: match.start()]),
                comparator=_comparator(text[: match.start()]),
                decimals=0,
                text=match.group(),
            )
        )
    return tuple(found)


def _is_day_of_month(text: str, match: re.Match[str]) -> bool:
    if match.group(2) or match.group(3) or len(match.group(1)) > 2:
        return False
    before = tokens(text[: match.start()])[-1:]
    after = tokens(text[match.end() :])[:1]
    return any(word in _MONTHS for word in before + after)


def _unit_after(rest: str) -> str | None:
    for token in tokens(rest)[:2]:
        if token in ("percent", "per", "cent", *_MULTIPLIERS):
            continue
        if token[:1].isalpha() and token not in ("and", "or", "the", "of", "in", "to", "a"):
            return stem(token)
        return None
    return None


def _label_before(before: str) -> str | None:
    words = tokens(before)
    if not words or not words[-1][:1].isalpha() or words[-1] in CLAIM_STOP_WORDS:
        return None
    return stem(words[-1])


def _agrees(claimed: Quantity, found: Quantity) -> bool:
    """Whether ``found`` in the other text bears out ``claimed`` (its comparator included)."""
    if claimed.comparator in (">", "<") and found.comparator == claimed.comparator:
        return True  # two bounds the same way ("up to 800", "less than 825") never clash
    if claimed.comparator == ">":
        return found.value > claimed.value or (
            found.comparator == ">" and found.value >= claimed.value
        )
    if claimed.comparator == "<":
        return found.value < claimed.value or (
            found.comparator == "<" and found.value <= claimed.value
        )
    if found.comparator in (">", "<"):
        return _agrees(found, claimed)
    if claimed.comparator == "~" or found.comparator == "~":
        return abs(found.value - claimed.value) <= 0.1 * max(abs(claimed.value), 1.0)
    # "7.5" bears out "7.46" and "7" bears out "7.0": compare at the coarser precision.
    precision = min(claimed.decimals, found.decimals)
    return round(found.value, precision) == round(claimed.value, precision)


def _candidates(quantity: Quantity, others: list[Quantity]) -> list[Quantity]:
    """The numbers of the other text that talk about the same thing as ``quantity``: those with
    the same unit word after them ("288 reviews") or label before them ("season 8") if any;
    else the same kind for years and percentages; else, for plain counts, the other text's only
    unlabelled count."""
    aligned = [
        other
        for other in others
        if (quantity.unit and other.unit == quantity.unit)
        or (quantity.label and other.label == quantity.label)
    ]
    if aligned:
        return aligned
    same_kind = [other for other in others if other.kind == quantity.kind]
    if quantity.kind in ("year", "percent"):
        return same_kind
    return same_kind if len(same_kind) == 1 and not same_kind[0].unit else []


def aligned_numbers(quantity: Quantity, others: list[Quantity]) -> list[Quantity]:
    """The numbers of the other text that talk about the same thing as ``quantity`` (see
    :func:`_candidates`)."""
    return _candidates(quantity, others)


def number_mismatches(claim: str, statement: str) -> list[str]:
    """Numbers of the shorter text that the longer one contradicts ("288 reviews" against "289
    reviews", "more than 288" against "288", "1998" against "1999"), as short descriptions.

    Only the shorter text's numbers are checked (both ways when the two are about as long): a
    long text states many facts, and its other numbers are not claims about the short one.
    """
    claim_quantities, statement_quantities = quantities(claim), quantities(statement)
    if not claim_quantities or not statement_quantities:
        return []
    claim_length, statement_length = len(tokens(claim)), len(tokens(statement))
    directions = []
    if statement_length <= 1.25 * claim_length:
        directions.append((statement_quantities, claim_quantities, "claim"))
    if claim_length <= 1.25 * statement_length:
        directions.append((claim_quantities, statement_quantities, "statement"))
    mismatches: list[str] = []
    for mine, theirs, label in directions:
        for quantity in mine:
            candidates = _candidates(quantity, theirs)
            if candidates and not any(_agrees(quantity, other) for other in candidates):
                shown = ", ".join(sorted({other.text for other in candidates}))
                mismatches.append(f"{quantity.text} against {shown} in the {label}")
    return mismatches


def _names(text: str) -> set[str]:
    """Capitalised words not opening a sentence ("Alice", "Canadian"), lower-cased."""
    names: set[str] = set()
    opening = True
    for raw in normalise(text).split():
        word = raw.strip(",.;:()[]'\"")
        if word[:1].isupper() and word.isalpha() and not opening and len(word) > 1:
            names.add(word.lower())
        opening = raw[-1:] in ".!?:" or raw in ("``", '"')
    return names


def capitalised_names(text: str) -> set[str]:
    """The names of a text: capitalised words not opening a sentence, lower-cased."""
    return _names(text)


def name_mismatches(claim: str, statement: str) -> list[tuple[str, str]]:
    """A name of the shorter text missing from the longer one, while the longer one names
    something the shorter does not ("Alice approves invoices" / "Bob approves invoices"):
    (missing name, the other text's names) pairs."""
    claim_length, statement_length = len(tokens(claim)), len(tokens(statement))
    directions = []
    if statement_length <= 1.25 * claim_length:
        directions.append((statement, claim))
    if claim_length <= 1.25 * statement_length:
        directions.append((claim, statement))
    found: list[tuple[str, str]] = []
    for shorter, longer in directions:
        mine, theirs = _names(shorter), _names(longer)
        longer_stems = {stem(token) for token in tokens(longer)}
        missing = sorted(name for name in mine if stem(name) not in longer_stems)
        others = sorted(theirs - mine)
        if missing and others:
            found.append((missing[0], ", ".join(others[:3])))
    return found


# Where a long statement's clauses part: a negation or an antonym in another clause is about
# something else ("... ; invoicing does not by itself make revenue earned").
_CLAUSE_BREAK = re.compile(
    r"\s*(?:[;:()]|\s[—–-]\s|,\s*(?:so|but|unless|while|whereas|although|because|and so)\b)\s*",
    re.IGNORECASE,
)


def focus_clauses(claim: str, statement: str) -> list[str]:
    """The clauses of ``statement`` the claim is about: those sharing the most content words
    with it (several on a tie); the whole statement when it has one clause or none shares any."""
    clauses = [part for part in _CLAUSE_BREAK.split(statement) if part and len(tokens(part)) >= 3]
    if len(clauses) < 2:
        return [statement]
    claim_words = set(content_words(claim))

    def shared(part: str) -> int:
        return len(claim_words & set(content_words(part)))

    best = max(shared(part) for part in clauses)
    if best == 0:
        return [statement]
    return [part for part in clauses if shared(part) == best]


def contradiction_cues(claim: str, statement: str) -> list[Cue]:
    """Every cue that ``claim`` contradicts ``statement``, strongest first — judged against the
    clause of the statement the claim is about (with a tie, a cue must hold for each)."""
    per_clause = [_cues(claim, clause) for clause in focus_clauses(claim, statement)]
    common = set.intersection(*({cue.name for cue in cues} for cues in per_clause))
    return [cue for cue in per_clause[0] if cue.name in common]


# A reply that opens by rejecting what was said, then says what holds instead: "No: X",
# "That's wrong: X". The rejection answers the conversation (an earlier answer), not
# necessarily the statement the claim is judged against.
_LEADING_DENIAL = re.compile(
    r"^\s*(?:no|nope|wrong|that'?s (?:wrong|incorrect|false|untrue|not true|not right|"
    r"not correct|mistaken)|(?:this|that|it) is (?:wrong|incorrect|false|untrue|not true|"
    r"not right|not correct)|you'?re (?:wrong|mistaken)|you are (?:wrong|mistaken))"
    r"\s*[,:;.!]+(?!\s*\d)\s*(?P<rest>\S.*)$",  # "No. 9 ..." is a number
    re.IGNORECASE,
)


def restated_after_denial(claim: str, statement: str) -> str | None:
    """What a claim opening with a denial says after it ("No: X" gives "X"), when X alone
    finds nothing in ``statement`` to contradict: the denial then rejects something else said,
    and X is what the claim holds about the statement ("No: they may not be left unadjusted"
    agrees with "They are not left unadjusted any more"; its "No" is no denial of it, nor a
    negation). None when the claim opens with no denial, X is under three words, or X
    contradicts the statement too (then the denial cue stands)."""
    match = _LEADING_DENIAL.match(normalise(claim))
    if match is None:
        return None
    rest = match.group("rest").strip()
    if len(tokens(rest)) < 3 or contradiction_cues(rest, statement):
        return None
    return rest


def _cues(claim: str, statement: str) -> list[Cue]:
    cues: list[Cue] = []
    if is_denial(claim) and not is_denial(statement):
        cues.append(Cue("the claim rejects it (denial)", 0.9))
    if negation_mismatch(claim, statement):
        cues.append(Cue("negation mismatch", 0.8))
    for claim_word, statement_word in antonyms(claim, statement):
        cues.append(Cue(f"antonym: {claim_word} / {statement_word}", 0.7))
    for mismatch in number_mismatches(claim, statement):
        cues.append(Cue(f"number mismatch: {mismatch}", 0.8))
    for missing, others in name_mismatches(claim, statement):
        cues.append(Cue(f"name mismatch: {missing} against {others}", 0.55))
    return sorted(cues, key=lambda cue: -cue.strength)
