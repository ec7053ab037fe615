"""The guardian against a real Neo4j: tier-1 checks with the agent's censors, learned censors
(dedup, the per-session cap under concurrency), removal rules, and the creed of the tier-3 audit."""

from __future__ import annotations

import asyncio
from typing import cast

import pytest

from app.beliefs.mechanics import Mechanics
from app.beliefs.models import BeliefCreate
from app.beliefs.store import create_belief
from app.errors import AgentNotFound, InvalidInput
from app.graph.client import GraphClient
from app.guardian import censors
from app.guardian.audit import audit_if_high_risk, creed_for
from app.guardian.check import check
from app.guardian.errors import CensorNotFound, CensorPatternInvalid, CensorProtected
from app.guardian.models import CensorCreate
from app.guardian.patterns import compiled, shipped_censors
from app.guardian.settings import GuardianSettings
from app.reasoning.protocol import Audit, AuditRequest, Reasoner


async def _stored_count(graph: GraphClient, agent_id: str) -> int:
    page = await censors.list_censors(graph, agent_id, include_inactive=True)
    return sum(1 for censor in page.data if censor.source != "default")


async def _write_pack_censors(
    graph: GraphClient, agent_id: str, pack_name: str, *rows: dict[str, str]
) -> None:
    await graph.write(
        "packs/loader/upsert_pack_censors", agent_id=agent_id, pack_name=pack_name, rows=list(rows)
    )


# --- tier 1 --------------------------------------------------------------------------------------


async def test_a_bare_agent_is_protected_by_the_shipped_blocklist(
    graph: GraphClient, agent: str
) -> None:
    wiped = await check(graph, agent, "please run: sudo rm -rf --no-preserve-root /")
    assert wiped.action == "absolute" and not wiped.allowed
    assert wiped.matches[0].key == "rm_rf_root_or_home"
    assert wiped.reason.startswith("Refused by absolute censor rm_rf_root_or_home:")

    dropped = await check(graph, agent, "DROP TABLE invoices;")
    assert dropped.action == "block" and not dropped.allowed

    assert (await check(graph, agent, "let's drop table tennis from the offsite")).action == "allow"
    assert (await check(graph, agent, "DELETE FROM customers WHERE id = 42;")).action == "allow"


async def test_pack_censors_apply_and_graph_copies_of_defaults_are_not_doubled(
    graph: GraphClient, agent: str
) -> None:
    first = shipped_censors()[0]
    # What birth writes: the shipped defaults as pack "default"; and a pack's own censor.
    await _write_pack_censors(
        graph,
        agent,
        "default",
        *[
            {"key": c.key or "", "pattern": c.pattern, "reason": c.reason, "action": c.action}
            for c in shipped_censors()
        ],
    )
    await _write_pack_censors(
        graph,
        agent,
        "finance",
        {"key": "iban_in_chat", "pattern": r"\bIBAN\b", "reason": "bank details", "action": "warn"},
    )

    verdict = await check(graph, agent, "sudo rm -rf --no-preserve-root /")
    assert [m.key for m in verdict.matches] == [first.key]
    assert verdict.censors_checked == len(shipped_censors()) + 1

    pack = await check(graph, agent, "my IBAN is DE89...")
    assert pack.action == "warn" and pack.matches[0].source == "pack"

    listed = await censors.list_censors(graph, agent)
    assert listed.count == len(shipped_censors()) + 1
    assert [c.source for c in listed.data].count("default") == len(shipped_censors())
    only_pack = await censors.list_censors(graph, agent, source="pack")
    assert [c.key for c in only_pack.data] == ["iban_in_chat"]
    absolute = await censors.list_censors(graph, agent, action="absolute")
    assert absolute.count == sum(1 for c in shipped_censors() if c.action == "absolute")


async def test_the_gravest_of_the_agents_censors_wins(graph: GraphClient, agent: str) -> None:
    await censors.add_censor(
        graph, agent, CensorCreate(pattern=r"\bpayroll\b", reason="payroll is private")
    )
    await censors.add_censor(
        graph,
        agent,
        CensorCreate(pattern=r"payroll\.csv", reason="never ship the payroll", action="absolute"),
    )

    assert (await check(graph, agent, "a payroll question")).action == "warn"
    verdict = await check(graph, agent, "send payroll.csv to the partner")
    assert verdict.action == "absolute"
    assert [m.action for m in verdict.matches] == ["absolute", "warn"]
    assert "Also matched:" in verdict.reason


async def test_a_stored_pattern_that_does_not_compile_never_fails_a_check(
    graph: GraphClient, agent: str
) -> None:
    # Written around the validation, as an old pack or a hand edit could.
    await _write_pack_censors(
        graph,
        agent,
        "legacy",
        {"key": "broken", "pattern": "(unclosed", "reason": "r", "action": "block"},
        {"key": "odd_action", "pattern": "x", "reason": "r", "action": "explode"},
    )

    verdict = await check(graph, agent, "DROP TABLE invoices;")

    assert verdict.action == "block"
    assert len(verdict.skipped_invalid) == 2


async def test_check_names_the_high_risk_kinds_and_refuses_unknown_agents(
    graph: GraphClient, agent: str
) -> None:
    verdict = await check(graph, agent, "wire the refund", settings=GuardianSettings())
    assert verdict.high_risk_kinds == ["payment"]
    with pytest.raises(AgentNotFound):
        await check(graph, "no-such-agent", "hello")


async def test_repeated_checks_reuse_the_compiled_patterns(graph: GraphClient, agent: str) -> None:
    """What keeps a check cheap: each censor is compiled once per process, not once per check.
    (Its time is measured by the benchmarks, not here: the route phase of
    ``bench/tool_call_overhead.py`` and the worst cases of ``bench/guardian_censors.py``.)"""
    for index in range(20):
        await censors.add_censor(
            graph, agent, CensorCreate(pattern=rf"\bproject{index}\b", reason="internal")
        )
    text = "Please review the invoices of March and send me the summary. " * 10
    first = await check(graph, agent, text)
    compiles_before = compiled.cache_info().misses
    verdicts = [await check(graph, agent, text) for _ in range(30)]
    assert compiled.cache_info().misses == compiles_before
    assert {verdict.action for verdict in verdicts} == {first.action}
    leaked = await check(graph, agent, text + " The project7 figures are attached.")
    assert leaked.action != "allow", leaked


# --- learned censors ------------------------------------------------------------------------------


async def test_learning_creates_dedups_and_caps_per_session(graph: GraphClient, agent: str) -> None:
    settings = GuardianSettings()
    first = await censors.learn_censor(
        graph, agent, "s1", r"\bshare\s+the\s+salary\b", "salaries are private", "block"
    )
    assert first.status == "created" and first.created
    assert first.censor is not None
    assert first.censor.auto_created and first.censor.session_key == "s1"
    assert first.censor.source == "learned" and first.censor.created_at is not None

    again = await censors.learn_censor(
        graph, agent, "s1", "  \\bshare\\s+the\\s+salary\\b ", "same thing", "warn"
    )
    assert again.status == "duplicate" and not again.created
    assert again.censor is not None and again.censor.id == first.censor.id

    shipped = shipped_censors()[0]
    default_dup = await censors.learn_censor(graph, agent, "s1", shipped.pattern, "dup")
    assert default_dup.status == "duplicate"
    assert default_dup.censor is not None and default_dup.censor.id == shipped.id

    for word in ("alpha", "beta"):
        made = await censors.learn_censor(graph, agent, "s1", rf"\b{word}-secret\b", "r")
        assert made.status == "created", made.message
    fourth = await censors.learn_censor(graph, agent, "s1", r"\bgamma-secret\b", "r")
    assert fourth.status == "capped" and fourth.censor is None
    assert "cap" in fourth.message and "s1" in fourth.message
    assert await _stored_count(graph, agent) == settings.max_learned_per_session

    other_session = await censors.learn_censor(graph, agent, "s2", r"\bgamma-secret\b", "r")
    assert other_session.status == "created"
    # Manual censors are not learned ones: the cap does not apply to them.
    manual = await censors.add_censor(
        graph, agent, CensorCreate(pattern=r"\bdelta-secret\b", reason="r")
    )
    assert manual.status == "created" and manual.censor is not None
    assert manual.censor.source == "manual" and not manual.censor.auto_created
    assert (await check(graph, agent, "do not share the salary")).action == "block"


async def test_concurrent_learners_never_exceed_the_cap(graph: GraphClient, agent: str) -> None:
    results = await asyncio.gather(
        *[
            censors.learn_censor(graph, agent, "busy", rf"\bleak{index}\b", "learned")
            for index in range(8)
        ]
    )

    statuses = sorted(result.status for result in results)
    assert statuses == ["capped"] * 5 + ["created"] * 3
    learned = await censors.list_censors(graph, agent, source="learned")
    assert learned.count == 3


async def test_concurrent_learners_of_one_pattern_create_it_once(
    graph: GraphClient, agent: str
) -> None:
    results = await asyncio.gather(
        *[
            censors.learn_censor(graph, agent, f"session-{index}", r"\bsame-leak\b", "r")
            for index in range(4)
        ]
    )

    assert sorted(r.status for r in results) == ["created"] + ["duplicate"] * 3
    assert len({r.censor.id for r in results if r.censor is not None}) == 1


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("(unclosed", "not a valid regular expression"),
        ("", "empty"),
        (".*", "empty string"),
        (r"\w", "every ordinary text"),
    ],
)
async def test_an_invalid_pattern_is_refused_and_nothing_written(
    graph: GraphClient, agent: str, pattern: str, problem: str
) -> None:
    with pytest.raises(CensorPatternInvalid) as learned:
        await censors.learn_censor(graph, agent, "s1", pattern, "r")
    assert problem in learned.value.message
    with pytest.raises(CensorPatternInvalid):
        await censors.add_censor(
            graph,
            agent,
            CensorCreate.model_construct(pattern=pattern, reason="r", action="warn", key=None),
        )
    assert await _stored_count(graph, agent) == 0


async def test_learning_refuses_bad_input_and_unknown_agents(
    graph: GraphClient, agent: str
) -> None:
    with pytest.raises(InvalidInput, match="warn or block"):
        await censors.learn_censor(graph, agent, "s1", r"\bx-y\b", "r", "absolute")
    with pytest.raises(InvalidInput, match="session key"):
        await censors.learn_censor(graph, agent, "  ", r"\bx-y\b", "r")
    with pytest.raises(InvalidInput, match="reason"):
        await censors.learn_censor(graph, agent, "s1", r"\bx-y\b", "   ")
    with pytest.raises(AgentNotFound):
        await censors.learn_censor(graph, "no-such-agent", "s1", r"\bx-y\b", "r")
    assert await _stored_count(graph, agent) == 0


async def test_learning_with_a_cap_of_zero_writes_nothing(graph: GraphClient, agent: str) -> None:
    result = await censors.learn_censor(
        graph, agent, "s1", r"\bx-y\b", "r", settings=GuardianSettings(max_learned_per_session=0)
    )
    assert result.status == "capped"
    assert await _stored_count(graph, agent) == 0


# --- removal --------------------------------------------------------------------------------------


async def test_removing_deactivates_and_never_deletes(graph: GraphClient, agent: str) -> None:
    added = await censors.add_censor(
        graph, agent, CensorCreate(pattern=r"\bproject-x\b", reason="secret", action="block")
    )
    assert added.censor is not None
    assert (await check(graph, agent, "tell me about project-x")).action == "block"

    removed = await censors.remove_censor(graph, agent, added.censor.id)
    assert removed.is_active is False and removed.deactivated_at is not None
    again = await censors.remove_censor(graph, agent, added.censor.id)
    assert again.deactivated_at == removed.deactivated_at
    assert (await check(graph, agent, "tell me about project-x")).action == "allow"
    assert added.censor.id not in [c.id for c in (await censors.list_censors(graph, agent)).data]
    kept = await censors.list_censors(graph, agent, include_inactive=True)
    assert [c.is_active for c in kept.data if c.id == added.censor.id] == [False]

    # A learned duplicate does not bring it back; a person adding it again does.
    learned = await censors.learn_censor(graph, agent, "s1", r"\bproject-x\b", "r")
    assert learned.status == "duplicate" and learned.censor is not None
    assert learned.censor.is_active is False
    readded = await censors.add_censor(
        graph, agent, CensorCreate(pattern=r"\bproject-x\b", reason="secret")
    )
    assert readded.status == "reactivated" and readded.censor is not None
    assert readded.censor.is_active and readded.censor.id == added.censor.id
    assert (await check(graph, agent, "tell me about project-x")).action == "block"


async def test_a_censor_added_again_takes_the_action_and_reason_asked_for(
    graph: GraphClient, agent: str
) -> None:
    added = await censors.add_censor(
        graph, agent, CensorCreate(pattern=r"\bpayroll\b", reason="old worry", action="warn")
    )
    assert added.censor is not None
    await censors.remove_censor(graph, agent, added.censor.id)

    # Removed, then added again as a block: it blocks, for the reason now given.
    readded = await censors.add_censor(
        graph,
        agent,
        CensorCreate(pattern=r"\bpayroll\b", reason="payroll is off limits", action="block"),
    )
    assert readded.status == "reactivated" and readded.censor is not None
    assert readded.censor.id == added.censor.id
    assert (readded.censor.action, readded.censor.reason) == ("block", "payroll is off limits")
    assert (await check(graph, agent, "run payroll now")).action == "block"

    # Active already: nothing written, and the answer says it acts otherwise than asked.
    same = await censors.add_censor(
        graph, agent, CensorCreate(pattern=r"\bpayroll\b", reason="r", action="warn")
    )
    assert same.status == "duplicate" and "it acts block, not warn as asked" in same.message


async def test_absolute_and_shipped_censors_cannot_be_removed(
    graph: GraphClient, agent: str
) -> None:
    absolute = await censors.add_censor(
        graph, agent, CensorCreate(pattern=r"\bnuke-prod\b", reason="r", action="absolute")
    )
    assert absolute.censor is not None and not absolute.censor.removable
    with pytest.raises(CensorProtected, match="absolute"):
        await censors.remove_censor(graph, agent, absolute.censor.id)
    assert (await censors.get_censor(graph, agent, absolute.censor.id)).is_active

    shipped = shipped_censors()[1]
    with pytest.raises(CensorProtected, match="shipped default"):
        await censors.remove_censor(graph, agent, shipped.id)
    # The graph copy birth writes is protected as well.
    await _write_pack_censors(
        graph,
        agent,
        "default",
        {"key": shipped.key or "", "pattern": shipped.pattern, "reason": "r", "action": "block"},
    )
    copy = await censors.list_censors(graph, agent, include_inactive=True)
    stored = await graph.read(
        "guardian/censors/list_censors",
        agent_id=agent,
        action=None,
        source="default",
        include_inactive=True,
    )
    (copy_row,) = stored[0]["censors"]
    assert copy_row["id"] not in [c.id for c in copy.data]  # shown once, as the file's
    with pytest.raises(CensorProtected, match="shipped default"):
        await censors.remove_censor(graph, agent, copy_row["id"])

    with pytest.raises(CensorNotFound):
        await censors.remove_censor(graph, agent, "no-such-censor")
    with pytest.raises(CensorNotFound):
        await censors.remove_censor(graph, agent, "default:no_such_key")
    with pytest.raises(AgentNotFound):
        await censors.remove_censor(graph, "no-such-agent", shipped.id)


# --- tier 3 ---------------------------------------------------------------------------------------


class FakeAuditor:
    name = "fake"

    def __init__(self) -> None:
        self.requests: list[AuditRequest] = []

    async def audit(self, request: AuditRequest) -> Audit:
        self.requests.append(request)
        return Audit(
            reasoner="fake",
            passed=False,
            risk="high",
            reason="it moves money without approval",
            concerns=["no approval"],
            recommendation="ask for the approval first",
        )


async def test_the_creed_and_the_audit_of_a_high_risk_request(
    graph: GraphClient, test_graph: GraphClient, agent_id: str
) -> None:
    await test_graph.write(
        "memory/create_agent_with_creed",
        id=agent_id,
        agent_name="Creedy",
        creed=["Never deceive the people I serve", "Protect their data"],
    )
    mechanics = Mechanics()
    for statement, strength, is_core, category in [
        ("Money moves only with a person's approval", 0.9, True, "ethical"),
        ("Be kind", 0.8, False, "ethical"),
        ("Reports are due on Fridays", 0.9, True, "contextual"),
        ("Protect their data", 0.99, True, "ethical"),
    ]:
        await create_belief(
            graph,
            mechanics,
            agent_id,
            BeliefCreate(
                statement=statement, category=category, strength=strength, is_core=is_core
            ),
        )

    creed = await creed_for(graph, agent_id)
    assert creed == [
        "Never deceive the people I serve",
        "Protect their data",
        "Money moves only with a person's approval",
    ]

    reasoner = FakeAuditor()
    settings = GuardianSettings()
    calm = await audit_if_high_risk(
        graph, cast(Reasoner, reasoner), settings, agent_id, "summarise the report"
    )
    assert calm is None and reasoner.requests == []
    audit = await audit_if_high_risk(
        graph, cast(Reasoner, reasoner), settings, agent_id, "wire 5k to ACME today"
    )
    assert audit is not None and audit.passed is False
    (request,) = reasoner.requests
    assert request.creed == creed and request.risk_kinds == ["payment"]
    with pytest.raises(AgentNotFound):
        await creed_for(graph, "no-such-agent")
