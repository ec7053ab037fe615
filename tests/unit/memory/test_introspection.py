"""Introspection's pure part (gaps and goals from a track record) and the capability map."""

from __future__ import annotations

from app.memory.capability_map import capability_for, shipped_capability_map
from app.memory.introspection import findings
from app.memory.self_model import Capability
from app.memory.settings import MemoryMechanics
from app.seeds.files import read_self

M = MemoryMechanics()


def _capability(domain: str, proficiency: float, success_rate: float, count: int) -> Capability:
    return Capability(
        id=domain,
        domain=domain,
        proficiency=proficiency,
        success_rate=success_rate,
        experience_count=count,
    )


def test_weak_capabilities_are_gaps_and_strong_ones_invite_more_work() -> None:
    found = findings(
        [
            _capability("reconciliation", 0.42, 0.38, 6),  # fails more than it succeeds
            _capability("debugging", 0.30, 0.60, 4),  # low proficiency
            _capability("report_drafting", 0.78, 0.86, 9),  # strong
            _capability("variance_analysis", 0.10, 0.10, 2),  # too few outcomes to judge
            _capability("question_answering", 0.55, 0.60, 8),  # ordinary
        ],
        M,
    )
    assert found.judged == 4
    assert found.gaps == [
        "reconciliation (my outcomes there mostly fall short)",
        "debugging (my outcomes there mostly fall short)",
    ]
    assert found.goals[0].startswith("Improve reconciliation: 38% success over 6 tasks")
    assert found.goals[1].startswith("Improve debugging: 60% success over 4 tasks")
    assert found.goals[2].startswith("Take on more report drafting with less supervision")
    assert len(found.goals) == 3


def test_nothing_to_say_without_a_track_record() -> None:
    found = findings([_capability("reconciliation", 0.1, 0.0, 2)], M)
    assert found.gaps == [] and found.goals == [] and found.judged == 0


def test_the_capability_a_turn_exercises() -> None:
    assert capability_for("reconcile", "task") == "reconciliation"
    assert capability_for("reconcile_bank_account", "task") == "reconciliation"
    assert capability_for("remember", "task") == "scheduling_and_follow_up"
    assert capability_for(None, "question") == "question_answering"
    assert capability_for("unheard_of", "task") == "task_execution"
    assert capability_for(None, "conversation") is None
    assert capability_for(None, "a_new_frame") == "a_new_frame"
    assert capability_for("call_tool", "conversation") == "tool_use"


def test_every_mapped_seeded_domain_is_a_seeded_capability_or_new() -> None:
    """The map names the seeded capabilities by their exact domain (a typo would start a new
    capability that the seeded one never hears of)."""
    seeded = {c.domain for c in read_self().capabilities}
    mapping = shipped_capability_map()
    targets = set(mapping.verbs.values()) | {v for v in mapping.frames.values() if v}
    assert seeded <= targets
    assert targets - seeded == {"task_execution", "decision_support", "tool_use"}
