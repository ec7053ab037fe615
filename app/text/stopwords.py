"""The stop words: one list of English function words, and the two uses that drop a few
more, each named for its job (their differences are measured behaviour, kept on purpose)."""

from __future__ import annotations


def word_set(text: str) -> frozenset[str]:
    """The white-space separated words of a literal list (easier to read than quoted items)."""
    return frozenset(text.split())


# Articles, pronouns, auxiliaries, prepositions and conjunctions: no topic of their own.
STOP_WORDS = word_set(
    """a about above again all am an and any are as at be been being both but by can could did do
    does down each few for from had has have having he her here him his how i if in into is it
    its just me more most my no not of off on once only or other our out over own same she
    should so some such than that the their them then there these they this to too under up very
    was we what when where which who whom why will with would you your"""
)

# Contractions as the tokens leave them, without their apostrophe ("I'm" -> "im", "let's" ->
# "lets"): function words ("I am", "let us"), whose bare forms general English seldom writes.
CONTRACTIONS = word_set(
    """im ive youre youve youd youll hes shes theyre theyve theyd theyll weve thats theres
    whats wheres whos hows lets dont doesnt didnt isnt arent wasnt werent havent hasnt hadnt
    wont wouldnt shouldnt couldnt cant mustnt neednt aint yall itll thatll itd thatd"""
)

# A fulltext query also drops connectives of time and cause, and the contractions (Lucene terms
# lose their apostrophes before this check: a dialogue's "I'm" was the term "im"; dropping them
# lost no retrieval figure and raised MADial's R@1 0.364 -> 0.368, bench/README.md).
QUERY_STOP_WORDS = (
    STOP_WORDS
    | CONTRACTIONS
    | word_set("""after because before between done during further through until while""")
)

# Comparing claims also drops conversational filler, contractions and the weak quantifiers; it
# keeps "before" / "after" and "because" (antonym and reason cues read them).
CLAIM_STOP_WORDS = STOP_WORDS | word_set(
    """actually also aren't below can't cannot couldn't didn't doesn't doing don't else get got
    hadn't hasn't haven't he's hers i'd i'll i'm i've isn't it'll it's least less let's made
    make many may might mine much must mustn't never none nor oh ok okay onto please really
    right s shall she's shouldn't t thank thanks that's there's they're they've those us wasn't
    we're we've well were weren't what's whose won't wouldn't wrong yeah yes you're you've yours"""
)
