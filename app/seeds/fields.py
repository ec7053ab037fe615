"""Field types shared by the seed and pack file models (``pack_schema``, ``skill_schema``,
``file_schemas``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictInt

# A sentence or a paragraph of prose: a statement, a description, a prompt.
Text = Annotated[str, Field(min_length=1, max_length=2000)]

# The version of a pack or a skill: a positive integer the graph stores (Neo4j's integers are
# 64-bit) and any JSON reader reads exactly (JavaScript's numbers hold 2**53); 2**31 - 1 leaves
# room for any numbering scheme, a date such as 20250131 included.
VERSION_MAX = 2**31 - 1
# Strict, as request bodies are: "1", 1.0 or true is refused, not read as 1.
Version = Annotated[StrictInt, Field(ge=1, le=VERSION_MAX)]
