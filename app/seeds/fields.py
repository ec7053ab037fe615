"""Field types shared by the seed and pack file models (``pack_schema``, ``skill_schema``,
``file_schemas``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

# A sentence or a paragraph of prose: a statement, a description, a prompt.
Text = Annotated[str, Field(min_length=1, max_length=2000)]
