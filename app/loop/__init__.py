"""The cognitive loop: one turn through activate → appraise → route → execute → verify → learn →
respond (docs/loop.md)."""
