"""A text with its SQL comments taken out, for the censors to read as well as the text itself:
``DROP/**/TABLE ledger;`` or ``DROP -- note`` + newline + ``TABLE`` hide the keywords every
shipped SQL censor looks for behind a comment the database ignores.

Each ``/* … */`` (an unclosed one runs to the end) and each ``--`` to the end of its line becomes
one space. The scan is linear in the text (``str.find`` from left to right, no regular
expression), so a text of many unclosed comment openers costs no more than one pass.
"""

from __future__ import annotations


def without_comments(text: str) -> str:
    """``text`` with each SQL comment replaced by a space; ``text`` itself (the same object)
    when it holds none."""
    if "/*" not in text and "--" not in text:
        return text
    parts: list[str] = []
    at = 0
    while at < len(text):
        block, line = text.find("/*", at), text.find("--", at)
        starts = [found for found in (block, line) if found >= 0]
        if not starts:
            parts.append(text[at:])
            break
        start = min(starts)
        parts.append(text[at:start])
        parts.append(" ")
        if start == block:
            end = text.find("*/", start + 2)
            at = len(text) if end < 0 else end + 2
        else:
            end = text.find("\n", start + 2)
            at = len(text) if end < 0 else end
    return "".join(parts)
