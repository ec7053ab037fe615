"""Graph access: the only layer that opens sessions or holds Cypher text."""
