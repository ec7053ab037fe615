"""One form for the characters Python's ``re`` takes for the same letter under ``IGNORECASE``, so
that words can be looked up in a dictionary where a regular expression would match them.

``re`` matches a pattern's letter and a text's letter when their simple lower cases are equal, or
when both lower cases belong to one of a few sets of letters it treats as one (``ı`` and ``i``,
``ſ`` and ``s``, ``ς`` and ``σ``, Greek and old Cyrillic variants, ...). :func:`fold` maps every
character to such a set's one form, keeps the text's length (position ``i`` of the folded text is
position ``i`` of the text) and which characters are word characters (``\\w``) and whitespace
(``\\s``), so a text's tokens are at the same places in both. The one exception is ``U+0345``
(the combining iota subscript): ``re`` matches it with the letter iota, yet it is no word
character, so it keeps its own form; a caller that needs it handles it (``IOTA_SUBSCRIPT``).

:func:`literal_key` says when two literal texts are the same expression under IGNORECASE (any
case of a letter that ``re`` compiles to its lower case). ``tests/unit/text/test_case_fold.py``
checks both against the ``re`` of the running Python, character by character.
"""

from __future__ import annotations

# The sets of lower-case letters ``re`` matches with each other under IGNORECASE beyond their
# simple lower cases (CPython's ``re._casefix``, generated from Unicode's case folding), each
# written with its one form first. The iota subscript, U+0345, is left out: see the module doc.
_SAME_LETTERS = (
    "i\u0131",  # i, dotless i
    "s\u017f",  # s, long s
    "\u03bc\u00b5",  # mu, micro sign
    "\u03b9\u1fbe",  # iota, prosgegrammeni
    "\u0390\u1fd3",  # iota with dialytika and tonos
    "\u03b0\u1fe3",  # upsilon with dialytika and tonos
    "\u03b2\u03d0",  # beta, curled beta
    "\u03b5\u03f5",  # epsilon, lunate epsilon
    "\u03b8\u03d1",  # theta, script theta
    "\u03ba\u03f0",  # kappa, kappa symbol
    "\u03c0\u03d6",  # pi, pi symbol
    "\u03c1\u03f1",  # rho, rho symbol
    "\u03c3\u03c2",  # sigma, final sigma
    "\u03c6\u03d5",  # phi, phi symbol
    "\u0432\u1c80",  # Cyrillic ve, rounded ve
    "\u0434\u1c81",  # Cyrillic de, long-legged de
    "\u043e\u1c82",  # Cyrillic o, narrow o
    "\u0441\u1c83",  # Cyrillic es, wide es
    "\u0442\u1c84\u1c85",  # Cyrillic te, tall te, three-legged te
    "\u044a\u1c86",  # Cyrillic hard sign, tall hard sign
    "\u0463\u1c87",  # Cyrillic yat, tall yat
    "\ua64b\u1c88",  # Cyrillic monograph uk, unblended uk
    "\u1e61\u1e9b",  # s with dot above, long s with dot above
    "\ufb06\ufb05",  # ligature st, ligature long s t
)
_ONE_FORM = {ord(other): letters[0] for letters in _SAME_LETTERS for other in letters[1:]}
# The only character whose lower case is longer than itself ("i" + a combining dot): ``re``
# takes its simple lower case, "i".
_CAPITAL_DOTTED_I = "\u0130"
# Matched by ``re`` with iota (a word character) though it is no word character itself.
IOTA_SUBSCRIPT = "\u0345"
# The letters ``re`` matches with the iota subscript.
IOTA_LETTERS = frozenset("\u0345\u0399\u03b9\u1fbe")


def fold(text: str) -> str:
    """``text`` with each character in the one form of the letters ``re`` matches it with under
    IGNORECASE; as long as ``text``, with its word characters and whitespace where they were."""
    return text.replace(_CAPITAL_DOTTED_I, "i").lower().translate(_ONE_FORM)


def literal_key(text: str) -> str:
    """The same for two texts exactly when ``re`` compiles them, as literal characters under
    IGNORECASE, to the same expression (or, for a few rare letters, not known to: those keep
    their own key): a letter that has a simple lower case is compiled to it, one with no case
    is matched as itself."""
    if text.isascii():  # each letter compiled to its lower case, the rest as it is
        return "a" + text.lower()
    return "u" + "".join(_literal_key(character) for character in text)


def _literal_key(character: str) -> str:
    if character == _CAPITAL_DOTTED_I:
        return "~i"
    lower, upper = character.lower(), character.upper()
    if len(lower) == 1 and lower != character:
        return "~" + lower
    if len(upper) == 1:  # its own lower case: a letter when it has an upper case
        return ("~" if upper != character else "=") + character
    # Its upper case is longer ("ß": "SS"): whether re has a simple one is not known here.
    return "?" + character
