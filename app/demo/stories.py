"""The demo's stories, each played through the real services on the stage (docs/demo.md has
one section each). A story checks that the loop did what the script expects of it and stops
the demo otherwise (:class:`app.demo.models.DemoFailed`): a demo that only looks lived-in
would show analytics of nothing."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from app.beliefs.edges import create_edge
from app.beliefs.models import EdgeCreate
from app.beliefs.store import get_belief
from app.demo import script
from app.demo.models import StoryReport
from app.demo.stage import DemoStage, expect
from app.loop.approvals import list_approvals
from app.loop.models import LearnedBelief, TurnResult
from app.memory.people.models import PersonCreate
from app.memory.people.store import create_person
from app.memory.rules import get_rule
from app.packs.loader import load_pack
from app.research import investigations
from app.research import store as research_store
from app.research.runner import run_investigation
from app.research.sources.corpus import load_corpus_files
from app.research.sources.documents import CorpusFile
from app.scenarios.driver import start_fresh_file
from app.seeds.files import find_pack


def _short(text: str, width: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


async def settle_approval(stage: DemoStage, turn: TurnResult, speaker: str) -> TurnResult:
    """The person's answer when the turn asked for one: approve a proposal, guide a question;
    the demo leaves nothing pending."""
    if turn.approval is None or turn.approval.status != "pending":
        return turn
    if turn.approval.kind == "guidance":
        return await stage.answer(turn.approval.id, "answer", speaker, script.GUIDANCE)
    return await stage.answer(turn.approval.id, "approve", speaker)


async def meet_people(stage: DemoStage) -> StoryReport:
    """The people around the close, of different authority (docs/memory.md §2)."""
    story = StoryReport(key="people", title="People of different authority")
    graph, memory = stage.runtime.graph, stage.runtime.settings.memory
    for character in script.PEOPLE:
        person = await create_person(
            graph,
            stage.agent_id,
            PersonCreate.model_validate(
                {
                    "name": character.name,
                    "email": character.email,
                    "role": character.role,
                    "seniority": character.seniority,
                    "interaction_frequency": character.interaction_frequency,
                    "context_relevance": character.context_relevance,
                }
            ),
            mechanics=memory,
            now=stage.clock.now(),
        )
        story.ids[character.name] = person.id
        story.lines.append(
            f"{person.name}, {person.role} ({person.seniority}): authority {person.authority:.2f}, "
            f"relationship value {person.relationship_value:.2f}"
        )
    return story


async def load_pack_after_birth(stage: DemoStage) -> StoryReport:
    """A knowledge pack loaded into the agent after its birth (docs/packs.md §2)."""
    story = StoryReport(key="pack", title="A knowledge pack loaded after birth")
    runtime = stage.runtime
    report = await load_pack(
        runtime.graph,
        runtime.embedder,
        runtime.settings.mechanics,
        stage.agent_id,
        find_pack(script.PACK),
    )
    expect(story, report.created > 0, f"pack {script.PACK} created no beliefs")
    story.lines.append(
        f"{report.pack} v{report.version}: {report.created} beliefs, "
        f"{report.supports_created} SUPPORTS and {report.contradicts_created} CONTRADICTS edges, "
        f"{report.rules} rules (each belief starts at most at strength 0.5)"
    )
    return story


async def close_the_books(stage: DemoStage, ledger: Path, sqlite_server: Path) -> StoryReport:
    """The month-end close with the ledger connected: approvals earn autonomy, a person rejects
    one call, the guardian refuses a destructive one (docs/loop.md §13)."""
    story = StoryReport(key="ledger", title="Month-end close with a ledger connected")
    session = script.LEDGER_SESSION
    story.ids["session"] = session
    await _connect_ledger(stage, ledger, sqlite_server)
    story.lines.append(f"connected {script.LEDGER}: mcp-server-sqlite on {ledger}")
    controller, clerk = script.CONTROLLER.name, script.CLERK.name
    created = await _approved_call(
        stage, controller, "create_table", {"query": script.CREATE_INVOICES}, session
    )
    expect(story, created.execution is not None, "create_table did not run once approved")
    modes: list[str] = []
    warned = 0
    for number, (invoice, supplier, amount) in enumerate(script.INVOICES):
        if number == 2:
            await _rejected_delete(stage, story)
        query = script.insert_invoice(invoice, supplier, amount)
        turn = await stage.call(clerk, "write_query", {"query": query}, session)
        modes.append(turn.mode)
        warned += turn.guardian.action == "warn"
        if turn.approval is not None:
            turn = await stage.answer(turn.approval.id, "approve", controller)
        expect(
            story,
            turn.execution is not None and turn.execution.status == "executed",
            f"recording {invoice} did not run: {turn.response}",
        )
    expect(story, "autonomous" in modes, f"write_query never earned autonomy: {modes}")
    story.lines.append(
        f"{len(script.INVOICES)} invoices recorded by ledger.write_query, modes {', '.join(modes)}"
    )
    if warned:
        story.lines.append(
            f"her 'never' taught a warn censor: the guardian flagged the next {warned} calls"
        )
    refused = await stage.call(clerk, "write_query", {"query": script.DROP_INVOICES}, session)
    expect(story, refused.mode == "blocked", f"DROP TABLE was not refused: {refused.mode}")
    story.lines.append(
        f"{clerk}: {script.DROP_INVOICES!r} refused by the guardian ({refused.guardian.action})"
    )
    totals = await _approved_call(
        stage, controller, "read_query", {"query": script.TOTALS}, session
    )
    expect(story, totals.execution is not None, "the totals query did not run")
    closed = await stage.close(session)
    story.lines.append(f"session {session} closed: {_short(closed.summary, 90)}")
    story.lines += await _rules_learned(stage, story, closed.reflection.rules)
    return story


async def _rules_learned(stage: DemoStage, story: StoryReport, rule_ids: list[str]) -> list[str]:
    """A line for each rule reflection learned when a session closed."""
    lines = []
    for rule_id in rule_ids:
        rule = await get_rule(stage.runtime.graph, stage.agent_id, rule_id, now=stage.clock.now())
        story.ids.setdefault("rule", rule_id)
        lines.append(f"reflection learned a rule: {_short(rule.content, 90)}")
    return lines


async def _connect_ledger(stage: DemoStage, ledger: Path, sqlite_server: Path) -> None:
    await start_fresh_file(ledger)
    await stage.connect_sqlite_ledger(ledger, sqlite_server, name=script.LEDGER)


async def _approved_call(
    stage: DemoStage, speaker: str, tool: str, arguments: dict[str, object], session: str
) -> TurnResult:
    """A call the controller asks for and, when the agent asks, approves."""
    turn = await stage.call(speaker, tool, dict(arguments), session)
    if turn.approval is not None:
        turn = await stage.answer(turn.approval.id, "approve", speaker)
    return turn


async def _rejected_delete(stage: DemoStage, story: StoryReport) -> None:
    turn = await stage.call(
        script.CLERK.name, "write_query", {"query": script.DELETE_INVOICE}, script.LEDGER_SESSION
    )
    expect(story, turn.approval is not None, f"the DELETE was not proposed: {turn.mode}")
    assert turn.approval is not None
    rejected = await stage.answer(
        turn.approval.id, "reject", script.CONTROLLER.name, script.REJECTION
    )
    expect(story, rejected.execution is None, "the rejected DELETE ran")
    story.lines.append(f"{script.CONTROLLER.name} rejected {script.DELETE_INVOICE!r}")


async def revise_under_pressure(stage: DemoStage) -> StoryReport:
    """A person's correction and new evidence raise a pack belief's tension (resistance) until
    it is revised (breakthrough), leaving a SUPERSEDED_BY lineage (docs/beliefs.md §4, §8)."""
    story = StoryReport(key="revision", title="Resistance, then breakthrough")
    session = script.ADJUSTMENTS_SESSION
    story.ids["session"] = session
    rows = await stage.runtime.graph.read(
        "demo/find_pack_belief",
        agent_id=stage.agent_id,
        pack=script.PACK,
        key=script.REVISED_KEY,
    )
    expect(story, bool(rows), f"no belief {script.REVISED_KEY} from {script.PACK}")
    old_id = str(rows[0]["id"])
    story.ids["old_belief"] = old_id
    revised: TurnResult | None = None
    for speaker, message in script.ADJUSTMENT_TURNS:
        turn = await stage.say(speaker, message, session)
        moved = [move for move in turn.tension_changes if move.id == old_id]
        if turn.revisions:
            revised = turn
            break
        if moved:
            story.lines.append(
                f"{speaker}: tension {moved[0].old:.2f} → {moved[0].new:.2f} (resists)"
            )
    expect(story, revised is not None, "the pack belief was never revised")
    assert revised is not None
    revision = revised.revisions[0]
    story.ids["revision"] = revision.id
    story.ids["new_belief"] = revision.new_belief_id or ""
    story.lines.append(
        f"breakthrough at tension {revision.trigger_tension:.2f}: "
        f"{_short(revision.old_statement)} → {_short(revision.new_statement or '')}"
    )
    speaker, question = script.ADJUSTMENT_QUESTION
    answer = await stage.say(speaker, question, session)
    story.lines.append(f"asked again, it answers: {_short(answer.response, 90)}")
    await stage.close(session)
    return story


async def weigh_people(stage: DemoStage) -> StoryReport:
    """The same claim from people of different authority weighs differently (docs/beliefs.md
    §4); the CFO's is learned and stays an open contradiction (docs/loop.md §9)."""
    story = StoryReport(key="authority", title="Who says it matters")
    session = script.OPINIONS_SESSION
    story.ids["session"] = session
    for speaker, message in script.OPINION_TURNS:
        turn = await stage.say(speaker, message, session)
        rises = [move.new - move.old for move in turn.tension_changes]
        learned = [item for item in turn.learned if not item.reinforced]
        story.lines.append(
            f"{speaker}: {message!r} → tension +{max(rises, default=0.0):.2f}"
            + (_learned_line(learned[0]) if learned else "")
        )
        if learned:
            story.ids["learned_belief"] = learned[0].id
    await stage.close(session)
    return story


def _learned_line(item: LearnedBelief) -> str:
    against = f" against {len(item.contradicts)} held belief(s)" if item.contradicts else ""
    return f"; learned ({item.kind}){against}"


async def settle_contradictions(stage: DemoStage, revision: StoryReport) -> StoryReport:
    """The controller settles the contradictions the revised belief carried over; the others
    stay open: the pack's own and the CFO's claim against the bank-reconciliation belief
    (docs/beliefs.md §8, docs/graph-model.md)."""
    story = StoryReport(key="contradictions", title="Contradictions, open and resolved")
    runtime = stage.runtime
    mechanics = runtime.settings.mechanics
    new_belief_id = revision.ids["new_belief"]
    detail = await get_belief(runtime.graph, mechanics, stage.agent_id, new_belief_id)
    settled = sorted(
        (c for c in detail.contradictions if c.status != "resolved"), key=lambda c: c.statement
    )
    expect(story, bool(settled), "the revised belief carries no contradiction to settle")
    for contradiction in settled:
        await create_edge(
            runtime.graph,
            mechanics,
            stage.agent_id,
            EdgeCreate(
                type="CONTRADICTS",
                source_id=new_belief_id,
                target_id=contradiction.id,
                status="resolved",
                resolution=script.RESOLUTION,
            ),
        )
        story.lines.append(f"resolved: {_short(contradiction.statement)}")
    still = await runtime.graph.read("demo/list_open_contradictions", agent_id=stage.agent_id)
    expect(story, bool(still), "no contradiction is left open")
    for row in still:
        story.lines.append(f"open: {_short(row['source'], 45)} ↔ {_short(row['target'], 45)}")
    return story


async def investigate(stage: DemoStage) -> StoryReport:
    """A research investigation over a corpus whose sources disagree (docs/research.md)."""
    story = StoryReport(key="research", title="An investigation with conflicting sources")
    runtime = stage.runtime
    content = "\n".join(
        json.dumps({"id": doc.id, "title": doc.title, "published": doc.published, "text": doc.text})
        for doc in script.CORPUS
    )
    await load_corpus_files(
        runtime.graph,
        runtime.embedder,
        stage.agent_id,
        [CorpusFile(name=script.CORPUS_FILE, format="jsonl", content=content)],
        now=stage.clock.now(),
    )
    started = await investigations.start_investigation(
        runtime.research, None, stage.agent_id, script.RESEARCH_QUESTION, started_by="demo"
    )
    story.ids["investigation"] = started.id
    finished = await run_investigation(runtime.research, stage.agent_id, started.id)
    expect(story, finished.status == "finished", f"the investigation {finished.status}")
    detail = await research_store.load_detail(runtime.graph, stage.agent_id, started.id)
    expect(story, bool(detail.conflicts), "the sources raised no conflict")
    story.lines.append(f"{len(detail.sources)} sources judged against the hypothesis")
    for conflict in detail.conflicts:
        first = detail.source(conflict.first_source_id)
        second = detail.source(conflict.second_source_id)
        story.lines.append(
            f"conflict: [{first.number}] {first.title} supports, [{second.number}] "
            f"{second.title} contradicts → {conflict.status} by {conflict.basis}"
        )
    story.lines.append(f"verdict: {finished.verdict}")
    return story


async def keep_the_checklist(stage: DemoStage) -> StoryReport:
    """A session of similar requests, closed: its summary, and a rule reflection learned from
    it (docs/memory.md §7, docs/loop.md §11)."""
    story = StoryReport(key="reflection", title="A closed session and a rule learned")
    session = script.NOTES_SESSION
    story.ids["session"] = session
    modes = []
    for speaker, message in script.NOTE_TURNS:
        turn = await stage.say(speaker, message, session)
        modes.append(turn.mode)
        await settle_approval(stage, turn, speaker)
    story.lines.append(f"{len(modes)} notes asked for, modes {', '.join(modes)}")
    closed = await stage.close(session)
    story.lines.append(f"session {session} closed: {_short(closed.summary, 90)}")
    expect(story, bool(closed.reflection.rules), f"no rule learned: {closed.reflection.why}")
    story.lines += await _rules_learned(stage, story, closed.reflection.rules)
    return story


async def sign_off(stage: DemoStage) -> StoryReport:
    """The last step: the controller signs the close off and the session is closed (a demo
    agent with this session closed is complete: app/demo/runner.py)."""
    story = StoryReport(key="sign-off", title="Sign-off")
    stage.at(stage.clock.now() + timedelta(hours=1))
    speaker = script.CONTROLLER.name
    await settle_approval(
        stage, await stage.say(speaker, script.SIGN_OFF, script.SIGN_OFF_SESSION), speaker
    )
    closed = await stage.close(script.SIGN_OFF_SESSION)
    story.ids["session"] = script.SIGN_OFF_SESSION
    pending = await list_approvals(stage.runtime.graph, stage.agent_id, status="pending")
    expect(story, pending.count == 0, f"{pending.count} approval(s) left pending")
    story.lines.append(f"session {closed.session} closed; no approval left pending")
    return story
