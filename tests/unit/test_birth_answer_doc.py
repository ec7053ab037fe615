"""docs/api.md describes the birth answer's enrichment report whole: every field of
``EnrichmentReport`` is named in its "Enrichment at birth" paragraph (``ignored`` was added to the
answer and not to the doc)."""

from __future__ import annotations

from pathlib import Path

from app.agents.models import EnrichmentReport

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_enrichment_paragraph_names_every_field_of_the_report() -> None:
    paragraph = API_DOC.read_text().split("**Enrichment at birth**", 1)[1].split("```", 1)[0]

    missing = [name for name in EnrichmentReport.model_fields if f"`{name}`" not in paragraph]

    assert missing == []
