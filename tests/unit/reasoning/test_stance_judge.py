"""The learned offline stance judge: shipped weights that match their manifest, the fallback to
the cue judge when they are missing or altered (and /health saying so), the model deciding
``classify_stance``, and hand-written edits the cue judge missed."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from app.embeddings.embedder import Embedder, shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.offline.stance_features import TEXT_FEATURES, name_swap
from app.reasoning.offline.stance_model import (
    CLASSES,
    MANIFEST_PATH,
    MODEL_VERSION,
    WEIGHTS_PATH,
    LoadedJudge,
    TreeEnsemble,
    load_judge,
)
from app.reasoning.protocol import PassageRequest, StanceRequest
from app.reasoning.settings import ReasonerSettings


def _embedder() -> Embedder:
    embedder = shared_embedder(EmbeddingSettings(cache_path=""))
    if not embedder.available:
        pytest.fail(f"embedding model unavailable: {embedder.status().reason}")
    return embedder


def _cue_judge() -> LoadedJudge:
    return LoadedJudge(None, None, "cue judge for comparison")


# --- the shipped weights -----------------------------------------------------------------------


def test_shipped_weights_match_their_manifest() -> None:
    manifest = json.loads(MANIFEST_PATH.read_text(encoding="utf-8"))
    assert hashlib.sha256(WEIGHTS_PATH.read_bytes()).hexdigest() == manifest["sha256"]
    assert manifest["version"] == MODEL_VERSION
    assert manifest["text_features"] == list(TEXT_FEATURES)
    assert manifest["classes"] == list(CLASSES)
    assert WEIGHTS_PATH.stat().st_size < 3_000_000
    judge = load_judge()
    assert judge.model is not None, judge.reason
    assert judge.kind == "learned" and judge.version == MODEL_VERSION
    assert judge.model.features == len(TEXT_FEATURES)
    # The held-out figures the training printed meet the targets and beat the cue judge's on
    # the same rows (accuracy 0.503, contradiction F1 0.422: bench/README.md).
    assert manifest["held_out"]["accuracy"] >= 0.60
    assert manifest["held_out"]["contradiction_f1"] >= 0.60
    assert manifest["hyper_parameters"]["max_iter"] * len(CLASSES) == manifest["trees"]


def manifest_trees() -> int:
    trees: int = json.loads(MANIFEST_PATH.read_text(encoding="utf-8"))["trees"]
    return trees


def test_weights_round_trip_byte_for_byte() -> None:
    model = TreeEnsemble.from_bytes(WEIGHTS_PATH.read_bytes())
    assert model.to_bytes() == WEIGHTS_PATH.read_bytes()
    assert model.trees == manifest_trees() and model.depth >= 1


# --- fallback ------------------------------------------------------------------------------------


def test_missing_weights_fall_back_to_the_cue_judge(tmp_path: Path) -> None:
    judge = load_judge(tmp_path / "stance_judge.npz", MANIFEST_PATH)
    assert judge.model is None and judge.kind == "cues"
    assert judge.reason is not None and "missing" in judge.reason
    no_manifest = load_judge(WEIGHTS_PATH, tmp_path / "stance_judge.json")
    assert no_manifest.model is None and "manifest" in (no_manifest.reason or "")


def test_checksum_mismatch_falls_back_to_the_cue_judge(tmp_path: Path) -> None:
    weights = tmp_path / "stance_judge.npz"
    shutil.copy(WEIGHTS_PATH, weights)
    payload = bytearray(weights.read_bytes())
    payload[len(payload) // 2] ^= 0xFF
    weights.write_bytes(bytes(payload))
    judge = load_judge(weights, MANIFEST_PATH)
    assert judge.model is None and judge.kind == "cues"
    assert "checksum mismatch" in (judge.reason or "")
    assert judge.version == MODEL_VERSION  # the manifest is there: it says what was expected


async def test_without_weights_the_reasoner_judges_as_the_cue_judge(tmp_path: Path) -> None:
    embedder = _embedder()
    missing = OfflineReasoner(embedder, judge=load_judge(tmp_path / "none.npz", MANIFEST_PATH))
    cues = OfflineReasoner(embedder, judge=_cue_judge())
    for claim, statement, _ in PAIRS:
        request = StanceRequest(claim=claim, statement=statement)
        fallback, before = (
            await missing.classify_stance(request),
            await cues.classify_stance(request),
        )
        assert (fallback.stance, fallback.confidence, fallback.cues) == (
            before.stance,
            before.confidence,
            before.cues,
        )
        assert not any(cue.startswith("stance model") for cue in fallback.cues)


def test_switched_off_by_the_settings() -> None:
    reasoner = OfflineReasoner(None, ReasonerSettings(offline_stance_model=False))
    assert reasoner.judge.model is None and "switched off" in (reasoner.judge.reason or "")


def _health(reasoner: object | None) -> dict[str, object]:
    settings = Settings(
        _env_file=None,
        neo4j_uri="bolt://127.0.0.1:1",
        neo4j_connection_timeout_s=1,
        migrate_on_start=False,
        api_keys={},
    )
    app = create_app(settings)
    with TestClient(app, raise_server_exceptions=False) as client:
        if reasoner is not None:
            app.state.runtime.use_reasoner(reasoner)
        response = client.get("/health")
    assert response.status_code == 200
    body: dict[str, object] = response.json()
    return body


def test_health_says_which_judge_runs(tmp_path: Path) -> None:
    learned = _health(OfflineReasoner(None, judge=load_judge()))
    assert learned == {
        "status": "ok",
        "embedding_model": "e5-small-v2-q",
        "stance_judge": {"kind": "learned", "version": MODEL_VERSION, "reason": None},
    }
    fallback = _health(OfflineReasoner(None, judge=load_judge(tmp_path / "gone.npz")))
    judge = fallback["stance_judge"]
    assert isinstance(judge, dict)
    assert judge["kind"] == "cues" and "missing" in judge["reason"]


# --- the model decides -------------------------------------------------------------------------


def _always(stance: str) -> LoadedJudge:
    """A model without trees whose answer is fixed by its baseline: proves the reasoner asks
    the model."""
    scores = np.zeros(len(CLASSES))
    scores[CLASSES.index(stance)] = 5.0
    return LoadedJudge(TreeEnsemble.constant(scores, len(TEXT_FEATURES)), "test-model")


async def test_classify_stance_and_the_research_judge_use_the_model() -> None:
    embedder = _embedder()
    claim = "The month-end close takes 5 working days"
    statement = "The month-end close takes 5 working days at most"
    for stance in CLASSES:
        reasoner = OfflineReasoner(embedder, judge=_always(stance))
        judgement = await reasoner.classify_stance(StanceRequest(claim=claim, statement=statement))
        assert judgement.stance == stance
        assert judgement.cues[0].startswith("stance model test-model")
        assert judgement.confidence == pytest.approx(np.exp(5) / (np.exp(5) + 2), abs=1e-3)
    passage = await OfflineReasoner(embedder, judge=_always("contradicting")).judge_passage(
        PassageRequest(hypothesis=statement, passage=claim, title="Close")
    )
    assert passage.stance == "contradicts" and "stance model" in passage.reason
    # The research judgement carries the cosine it was judged at (research's relevance margin);
    # without embeddings there is none.
    assert passage.similarity is not None and 0.5 < passage.similarity <= 1.0
    no_vectors = await OfflineReasoner(None).judge_passage(
        PassageRequest(hypothesis=statement, passage=claim, title="Close")
    )
    assert no_vectors.similarity is None
    # Unrelated texts stay novel: the model never saw such pairs.
    unrelated = await OfflineReasoner(embedder, judge=_always("contradicting")).classify_stance(
        StanceRequest(claim="The canteen serves lunch at noon", statement=statement)
    )
    assert unrelated.stance == "novel"
    # Without embeddings (token overlap) the cue judge decides, model or not.
    tokens_only = await OfflineReasoner(None, judge=_always("contradicting")).classify_stance(
        StanceRequest(claim=claim, statement=statement)
    )
    assert not tokens_only.cues[0].startswith("stance model")


# --- edits the cue judge missed ----------------------------------------------------------------

# (new text, belief, the right stance): number, date, name and antonym edits of the kind a
# knowledge base meets; each one the cue judge gets wrong (asserted below, so the set stays
# honest) and the shipped judge gets right.
PAIRS: list[tuple[str, str, str]] = [
    # numbers: a bound the other text breaks
    (
        "The film grossed $93.4 million worldwide against a $10 million budget.",
        "The film earned less than $91 million globally",
        "contradicting",
    ),
    (
        "The population of the town was 24,500 at the 2011 census.",
        "The town has a population of over 30,000",
        "contradicting",
    ),
    # dates
    (
        "The festival has been held every summer since 1998.",
        "The festival was first held in 2003",
        "contradicting",
    ),
    # names: the texts differ only in who (stance-judge-1 said reinforcing to all three)
    (
        "The audit committee is chaired by Maria Lopez.",
        "The audit committee is chaired by John Smith",
        "contradicting",
    ),
    (
        "The novel was written by Charles Dickens.",
        "The novel was written by Jane Austen",
        "contradicting",
    ),
    (
        "The project is led by Anna Becker from the finance team.",
        "The project is led by Tom Weber from the finance team",
        "contradicting",
    ),
    # antonyms: up against down
    (
        "Sales in the northern region fell by 8 percent last quarter.",
        "Sales in the northern region grew last quarter",
        "contradicting",
    ),
    (
        "Customer complaints declined sharply after the new returns policy.",
        "Customer complaints increased after the new returns policy",
        "contradicting",
    ),
    ("Warehouse costs increased in 2023.", "Warehouse costs fell in 2023", "contradicting"),
    (
        "Staff turnover dropped to 9 percent this year.",
        "Staff turnover rose this year",
        "contradicting",
    ),
]


@pytest.mark.parametrize(("claim", "statement", "expected"), PAIRS)
async def test_edits_the_cue_judge_missed(claim: str, statement: str, expected: str) -> None:
    embedder = _embedder()
    request = StanceRequest(claim=claim, statement=statement)
    before = await OfflineReasoner(embedder, judge=_cue_judge()).classify_stance(request)
    after = await OfflineReasoner(embedder, judge=load_judge()).classify_stance(request)
    assert before.stance != expected, before.cues
    assert after.stance == expected, after.cues


def test_a_name_swap_is_only_names() -> None:
    assert name_swap(
        "The novel was written by Charles Dickens.", "The novel was written by Jane Austen"
    ) == ("charles dickens", "austen jane")
    # Other words differ too: not a swap (the model judges it).
    assert name_swap("Maria Lopez chairs the audit committee.", "John Smith leads sales") is None
    # One text adds a name, the other drops none: "Bob too" is no contradiction.
    assert name_swap("Alice approves invoices", "Alice and Bob approve invoices") is None
    # Months are dates (the month rule, with its bounds), not names.
    assert name_swap("The report is due in March.", "The report is due in June") is None
