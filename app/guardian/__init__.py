"""The guardian: censors on input and proposed actions, and the tier-3 audit (docs/loop.md §5)."""
