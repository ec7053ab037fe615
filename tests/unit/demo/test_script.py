"""The demo's script (app/demo/script.py) holds together: every speaker is one of its people, the
corpus reads as a research corpus, the ledger's statements are the SQL they say, and the demo
runs offline whatever the settings ask for."""

from __future__ import annotations

import json

from pydantic import SecretStr

from app.config import Settings
from app.demo import DEMO_AGENT_NAME, script
from app.demo.runner import demo_settings
from app.reasoning.settings import ReasonerSettings
from app.research.sources.documents import CorpusFile, read_corpus_files


def test_every_speaker_is_one_of_the_demo_people() -> None:
    people = {script.CONTROLLER.name} | {person.name for person in script.PEOPLE}
    turns = (
        script.ADJUSTMENT_TURNS
        + script.OPINION_TURNS
        + script.NOTE_TURNS
        + (script.ADJUSTMENT_QUESTION,)
    )
    assert {speaker for speaker, _ in turns} <= people
    assert DEMO_AGENT_NAME == "Credence demo"


def test_the_corpus_reads_as_dated_documents() -> None:
    content = "\n".join(
        json.dumps({"id": d.id, "title": d.title, "published": d.published, "text": d.text})
        for d in script.CORPUS
    )
    [documents] = read_corpus_files(
        [CorpusFile(name=script.CORPUS_FILE, format="jsonl", content=content)]
    )
    assert [d.document_id for d in documents] == [d.id for d in script.CORPUS]
    assert all(d.published is not None for d in documents)


def test_an_invoice_is_one_insert_of_its_values() -> None:
    assert script.insert_invoice("INV-1", "Acme", 12.5) == (
        "INSERT INTO invoices (number, supplier, amount, currency, period) "
        "VALUES ('INV-1', 'Acme', 12.50, 'EUR', '2026-10')"
    )


def test_the_demo_is_built_offline_whatever_the_settings_say() -> None:
    settings = Settings(
        _env_file=None,
        neo4j_password=SecretStr("x"),
        reasoner=ReasonerSettings(provider="claude"),
    )
    assert demo_settings(settings).reasoner.provider == "offline"
    assert settings.reasoner.provider == "claude"
