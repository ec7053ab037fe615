"""``credence chat``: an interactive REPL over the cognitive loop (docs/loop.md).

Each message is one turn of :func:`app.loop.turn.run_turn`, run in this process (no API server).
The turn's events are printed as they happen (phases, tension moving, revisions, the guardian,
approvals), then the response and a meter line (dissatisfaction after the turn, mode, frame).
Lines that start with a backslash are commands (``\\help`` lists them).

The REPL is a plain ``input()`` loop so that it works on any terminal and can be driven through a
pseudo-terminal in tests; one asyncio runner is kept for the whole session because the Neo4j
driver's connections belong to the event loop that opened them.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import uuid
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import typer
from pydantic import ValidationError
from rich.markup import escape
from rich.table import Table

from app.agents.store import get_agent
from app.beliefs import history, store
from app.beliefs.dissatisfaction import compute_dissatisfaction
from app.beliefs.models import Dissatisfaction
from app.cli.common import agent_id_of, bar, console, err_console, meter
from app.config import Settings, get_settings
from app.embeddings.store import embed_pending
from app.errors import CredenceError
from app.graph.client import GraphClient
from app.loop.approvals import list_approvals
from app.loop.models import ApprovalAnswer, ApprovalPublic, ChatRequest, TurnEvent, TurnResult
from app.loop.resume_turn import resume_approval
from app.loop.services import LoopServices
from app.loop.sessions import close_session
from app.loop.turn import run_turn
from app.memory.episodes import list_episodes
from app.runtime import Runtime

PROMPT = "you› "
AnswerAction = Literal["approve", "reject", "answer"]
GRAPH_NODES = 25
GRAPH_EDGES = 40
SHORT = 60
EXECUTION_LABELS = {"recorded_not_executed": "recorded, not executed"}


def short(text: str | None, width: int = SHORT) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis."""
    flat = " ".join((text or "").split())
    return flat if len(flat) <= width else flat[: width - 1].rstrip() + "…"


def tag(belief_id: str) -> str:
    """A belief's short id in brackets, escaped so rich does not read it as markup."""
    return escape(f"[{belief_id[:8]}]")


def tension_colour(value: float, threshold: float) -> str:
    """Red at the revision threshold, yellow from half of it, green below (as `credence
    tension` colours its bars)."""
    return "red" if value >= threshold else ("yellow" if value >= threshold / 2 else "green")


@dataclass(slots=True)
class EventPrinter:
    """The turn's ``emit`` callback: prints each event as it arrives.

    Phases go on one dim line (``· activate · appraise …``); any other event closes that line
    first, so tension moves and revisions appear in the order they happened.
    """

    chat: ChatSession
    phase_line_open: bool = False

    def close_line(self) -> None:
        if self.phase_line_open:
            console.print()
            self.phase_line_open = False

    async def __call__(self, event: TurnEvent) -> None:
        if event.type == "phase":
            if not self.phase_line_open:
                console.print("  ", end="")
                self.phase_line_open = True
            console.print(f"[dim]· {escape(event.phase or '')} [/]", end="")
            return
        if event.type in ("done", "response", "error"):
            # The response comes with the turn's result; an error comes back as the exception.
            self.close_line()
            return
        self.close_line()
        data = event.data
        if event.type == "tension":
            await self.chat.print_tension(data)
        elif event.type == "revision":
            self.chat.remember(data.get("new_belief_id"), data.get("new_statement"))
            cascade = f", cascade depth {data['depth']}" if data.get("depth") else ""
            console.print(
                f"  [bold magenta]⟳ REVISED:[/] {escape(str(data.get('old_statement')))} "
                f"[bold magenta]→[/] [bold]{escape(str(data.get('new_statement')))}[/] "
                f"(tension {float(data.get('trigger_tension', 0.0)):.2f}{cascade})"
            )
        elif event.type == "guardian":
            action = str(data.get("action"))
            colour = "yellow" if action == "warn" else "bold red"
            reason = data.get("reason") or "a censor matched"
            console.print(f"  [{colour}]⛔ guardian {action}[/]: {escape(str(reason))}")
        elif event.type == "approval":
            print_approval(ApprovalPublic.model_validate(data))


def print_approval(approval: ApprovalPublic) -> None:
    if approval.work_unit is not None and approval.work_unit.call is not None:
        # A tool call, guidance or proposal: no answer's text changes its arguments.
        how = r"\approve to make the call, \reject [why]"
    elif approval.kind == "proposal":
        how = r"\approve to go ahead, \reject [why], \answer <text>"
    elif approval.kind == "guidance":
        how = r"\answer <text> to guide me, \reject [why]"
    else:
        how = r"\reject [why] (a revision of an immutable belief)"
    console.print(
        f"  [bold cyan]? approval {approval.id[:8]} {approval.status}[/] ({approval.kind}): "
        f"{escape(approval.question)} [dim]— {escape(how)}[/]"
    )


@dataclass(slots=True)
class ChatSession:
    """One REPL run: the loop's services, who speaks, the session key, and the statements of
    beliefs seen so far (tension events carry ids only)."""

    runtime: Runtime
    agent_id: str
    agent_name: str
    session: str
    speaker: str | None
    context: str | None
    turns: int = 0
    statements: dict[str, str] = field(default_factory=dict)

    @property
    def services(self) -> LoopServices:
        return self.runtime.loop

    @property
    def graph(self) -> GraphClient:
        return self.runtime.graph

    @property
    def threshold(self) -> float:
        return self.services.settings.mechanics.revision_threshold

    def remember(self, belief_id: object, statement: object) -> None:
        if isinstance(belief_id, str) and isinstance(statement, str):
            self.statements[belief_id] = statement

    async def statement_of(self, belief_id: str) -> str:
        if belief_id not in self.statements:
            try:
                detail = await store.get_belief(
                    self.graph, self.services.settings.mechanics, self.agent_id, belief_id
                )
                self.statements[belief_id] = detail.belief.statement
            except CredenceError:
                return belief_id[:8]
        return self.statements[belief_id]

    async def print_tension(self, move: dict[str, Any]) -> None:
        old, new = float(move["old"]), float(move["new"])
        arrow = "▲" if new >= old else "▼"
        colour = tension_colour(new, self.threshold)
        statement = short(await self.statement_of(str(move["id"])), 48)
        console.print(
            f"  [{colour}]tension {arrow}[/] {escape(statement)} "
            f"{old:.2f} → [{colour}]{new:.2f}[/] [{colour}]{bar(new)}[/]"
        )

    # --- turns ---------------------------------------------------------------------------

    async def say(self, message: str) -> None:
        request = ChatRequest(
            message=message, speaker=self.speaker, session=self.session, context=self.context
        )
        printer = EventPrinter(self)
        try:
            result = await run_turn(self.services, self.agent_id, request, printer)
        finally:
            printer.close_line()
        self.turns += 1
        await self.print_result(result)

    async def answer_approval(
        self, action: AnswerAction, prefix: str | None, text: str | None
    ) -> None:
        approval = await self.pending_approval(prefix)
        if approval is None:
            return
        console.print(f"  [dim]{action} → approval {approval.id[:8]} ({approval.kind})[/]")
        printer = EventPrinter(self)
        try:
            result = await resume_approval(
                self.services,
                self.agent_id,
                approval.id,
                ApprovalAnswer(action=action, text=text, speaker=self.speaker),
                printer,
            )
        finally:
            printer.close_line()
        self.turns += 1
        if result.approval is not None:
            console.print(f"  approval {result.approval.id[:8]} [bold]{result.approval.status}[/]")
        await self.print_result(result)

    async def pending_approval(self, prefix: str | None) -> ApprovalPublic | None:
        """The newest pending approval, or the one whose id starts with ``prefix``."""
        pending = (await list_approvals(self.graph, self.agent_id, status="pending")).data
        if prefix:
            pending = [a for a in pending if a.id.startswith(prefix)]
            if len(pending) > 1:
                ids = ", ".join(a.id[:8] for a in pending)
                console.print(
                    f"[yellow]{len(pending)} pending approvals start with {escape(repr(prefix))}"
                    f"[/] ({ids}): give more of the id"
                )
                return None
        if not pending:
            where = f" with an id starting {escape(repr(prefix))}" if prefix else ""
            console.print(f"[yellow]no pending approval{where}[/]")
            return None
        return pending[0]

    async def print_result(self, result: TurnResult) -> None:
        if result.execution is not None:
            status = EXECUTION_LABELS.get(result.execution.status, result.execution.status)
            message = result.execution.message or ""
            console.print(f"  [cyan]execution[/] {status}: {escape(message)}")
        console.print(f"[bold green]{escape(self.agent_name)}›[/] {escape(result.response)}")
        for question in result.questions:
            console.print(f"  [cyan]?[/] {escape(question)}")
        current = await compute_dissatisfaction(
            self.graph, self.services.settings.mechanics, self.agent_id, count_beliefs=False
        )
        console.print(
            f"[dim]──[/] {meter(current)} [dim]·[/] mode [bold]{result.mode}[/] "
            f"[dim]·[/] frame {escape(str(result.frame))}"
        )

    # --- commands ------------------------------------------------------------------------

    async def show_beliefs(self, _: str) -> None:
        page = await store.list_beliefs(self.graph, self.agent_id, active=None, limit=30)
        table = Table(title=f"{len(page.data)} of {page.count} beliefs (newest first)")
        for column in ("id", "statement", "strength", "tension", "", "active"):
            table.add_column(column, overflow="fold")
        for belief in page.data:
            self.remember(belief.id, belief.statement)
            colour = tension_colour(belief.tension, self.threshold)
            table.add_row(
                belief.id[:8],
                escape(belief.statement),
                f"{belief.strength:.2f}",
                f"[{colour}]{bar(belief.tension, 15)}[/]",
                f"{belief.tension:.2f}",
                "yes" if belief.is_active else "[dim]no[/]",
            )
        console.print(table)

    async def show_graph(self, _: str) -> None:
        view = await history.graph_view(self.graph, self.agent_id, limit=GRAPH_NODES)
        console.print(f"[bold]graph[/]: {len(view.nodes)} beliefs (most important first)")
        for node in view.nodes:
            self.remember(node["id"], node["statement"])
            console.print(
                f"  {tag(node['id'])} {escape(short(node['statement'], 90))} "
                f"[dim]s {float(node['strength']):.2f} t {float(node['tension']):.2f}[/]"
            )
        edges = [e for e in view.edges if e["type"] in ("SUPPORTS", "CONTRADICTS")]
        if not edges:
            console.print("  [dim](no SUPPORTS / CONTRADICTS edges among them)[/]")
        for edge in edges[:GRAPH_EDGES]:
            colour = "green" if edge["type"] == "SUPPORTS" else "red"
            weight = edge.get("weight") if edge["type"] == "SUPPORTS" else edge.get("status")
            label = f"{edge['type']} {weight}" if weight is not None else edge["type"]
            source, target = str(edge["source"]), str(edge["target"])
            console.print(
                f"  {tag(source)} {escape(short(self.statements.get(source), 40))} "
                f"[{colour}]─{escape(label)}→[/] "
                f"{tag(target)} {escape(short(self.statements.get(target), 40))}"
            )
        if len(edges) > GRAPH_EDGES:
            console.print(f"  [dim]… {len(edges) - GRAPH_EDGES} more edges[/]")

    async def show_history(self, _: str) -> None:
        episodes = await list_episodes(self.graph, self.agent_id, session=self.session, limit=100)
        console.print(f"[bold]session {escape(self.session)}[/]: {len(episodes)} turn(s)")
        for number, episode in enumerate(reversed(episodes), start=1):
            revised = " [bold magenta]⟳ revised[/]" if episode.get("revision_triggered") else ""
            console.print(
                f"  {number}. {escape(short(episode.get('user_message') or episode.get('text')))}"
                f" [dim]→[/] {escape(short(episode.get('response'), 80))} "
                f"[dim]({episode.get('supervision_mode')})[/]{revised}"
            )
        revisions = await history.list_revisions(self.graph, self.agent_id, 0, 5)
        if revisions.data:
            console.print(f"[bold]recent revisions[/] ({revisions.count} in all)")
        for revision in revisions.data:
            when = f"{revision.at:%H:%M:%S} " if revision.at else ""
            console.print(
                f"  {when}{escape(short(revision.old_statement))} [magenta]→[/] "
                f"{escape(short(revision.new_statement))} "
                f"[dim](tension {revision.trigger_tension:.2f}, {revision.mode})[/]"
            )

    async def show_dissatisfaction(self, _: str) -> None:
        current = await compute_dissatisfaction(
            self.graph, self.services.settings.mechanics, self.agent_id
        )
        print_dissatisfaction(current)

    async def approve(self, argument: str) -> None:
        await self.answer_approval("approve", argument or None, None)

    async def reject(self, argument: str) -> None:
        await self.answer_approval("reject", None, argument or None)

    async def answer(self, argument: str) -> None:
        if not argument:
            console.print(r"[yellow]\answer needs the text of your answer[/]")
            return
        await self.answer_approval("answer", None, argument)

    async def close(self) -> None:
        """Closes the session when it had turns: peak-end salience, its summary, lessons and
        learned items, and reflection when enough episodes wait."""
        if self.turns:
            try:
                closed = await close_session(self.services, self.agent_id, self.session)
                console.print(
                    f"[dim]session {escape(self.session)} ended: {closed.episodes} episode(s)[/]"
                )
                console.print(f"[dim]{escape(closed.summary)}[/]")
                for item in closed.learned:
                    console.print(f"[dim]{escape(item)}[/]")
                if closed.reflection.ran:
                    console.print(
                        f"[dim]reflection: {len(closed.reflection.rules)} rule(s) learned[/]"
                    )
            except CredenceError as error:
                err_console.print(f"[yellow]could not end the session[/]: {escape(error.message)}")
        await self.runtime.aclose()


def print_dissatisfaction(current: Dissatisfaction) -> None:
    """The meter and its top contributors, as `credence tension` ends."""
    console.print(meter(current) + f" over {current.beliefs} active beliefs")
    for contributor in current.contributors:
        console.print(
            f"  {contributor.share:.3f} from {contributor.id[:8]} "
            f"{escape(contributor.statement)} [dim](tension {contributor.tension:.2f})[/]"
        )
    if not current.contributors:
        console.print("  [dim]no belief carries tension[/]")


Command = Callable[[ChatSession, str], Coroutine[Any, Any, None]]

COMMANDS: dict[str, tuple[Command, str]] = {
    "beliefs": (ChatSession.show_beliefs, "beliefs: statement, strength, tension bar, active"),
    "graph": (ChatSession.show_graph, "beliefs and their SUPPORTS / CONTRADICTS edges"),
    "history": (ChatSession.show_history, "this session's turns and recent revisions"),
    "dissatisfaction": (
        ChatSession.show_dissatisfaction,
        "the dissatisfaction meter and its top contributors",
    ),
    "approve": (
        ChatSession.approve,
        "[id] approve the newest pending approval (or the one whose id starts so)",
    ),
    "reject": (ChatSession.reject, "[reason] reject the newest pending approval"),
    "answer": (ChatSession.answer, "<text> answer the newest pending approval (guidance)"),
}


def print_help() -> None:
    console.print("Type a message to talk to the agent. Commands:")
    for name, (_, description) in COMMANDS.items():
        console.print(f"  [bold]\\{name}[/] {escape(description)}")
    console.print(r"  [bold]\help[/] this list")
    console.print(r"  [bold]\quit[/] leave (also Ctrl-D)")


async def open_session(
    settings: Settings,
    agent_id: str,
    session: str,
    speaker: str | None,
    context: str | None,
) -> ChatSession:
    """Connects (the process's runtime), checks the agent and loads the embedder."""
    runtime = Runtime.open(settings)
    graph, services = runtime.graph, runtime.loop
    try:
        agent = await get_agent(graph, agent_id)
        status = await asyncio.to_thread(services.embedder.status)
        if status.available:
            await embed_pending(graph, services.embedder, agent_id)
        current = await compute_dissatisfaction(graph, settings.mechanics, agent_id)
    except BaseException:
        await runtime.aclose()
        raise
    embeddings = (
        status.model if status.available else f"unavailable ({status.reason}): degraded retrieval"
    )
    console.print(
        f"[bold]{escape(agent.name)}[/] {agent.id} · {agent.beliefs} active beliefs · "
        f"reasoner {services.reasoner.name} · embeddings {escape(embeddings)}"
    )
    console.print(
        f"session {escape(session)}"
        + (f" · speaker {escape(speaker)}" if speaker else "")
        + (f" · context {escape(context)}" if context else "")
        + r" · \help for commands, \quit to leave"
    )
    console.print(f"[dim]──[/] {meter(current)}")
    return ChatSession(
        runtime=runtime,
        agent_id=agent_id,
        agent_name=agent.name,
        session=session,
        speaker=speaker,
        context=context,
    )


def handle_line(runner: asyncio.Runner, chat: ChatSession, line: str) -> bool:
    """Runs one line (a message or a command); False when the REPL should end."""
    if not line.startswith("\\"):
        runner.run(chat.say(line))
        return True
    name, _, argument = line[1:].partition(" ")
    name, argument = name.strip().lower(), argument.strip()
    if name in ("quit", "exit", "q"):
        return False
    if name in ("help", "h", "?"):
        print_help()
        return True
    command = COMMANDS.get(name)
    if command is None:
        console.print(
            f"[red]unknown command[/] \\{escape(name)}: the commands are "
            + ", ".join(f"\\{known}" for known in [*COMMANDS, "help", "quit"])
        )
        return True
    runner.run(command[0](chat, argument))
    return True


def repl(runner: asyncio.Runner, chat: ChatSession) -> None:
    while True:
        try:
            line = input(PROMPT).strip()
        except EOFError:
            console.print()
            return
        except KeyboardInterrupt:
            console.print("\n[dim](" + r"\quit or Ctrl-D to leave)[/]")
            continue
        if not line:
            continue
        try:
            if not handle_line(runner, chat, line):
                return
        except CredenceError as error:
            err_console.print(f"[bold red]error[/] ({error.code}): {escape(error.message)}")
        except ValidationError as error:  # e.g. a message over the length limit
            for item in error.errors():
                where = ".".join(map(str, item["loc"])) or "input"
                err_console.print(f"[red]invalid[/] {escape(where)}: {escape(item['msg'])}")
        except KeyboardInterrupt:
            console.print(
                "[yellow]interrupted[/]: a turn stopped before its transaction committed "
                "wrote nothing"
            )


def _block_interrupts() -> None:
    """In a worker thread: Ctrl-C is for the main thread (see chat_command)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def chat_command(
    agent: Annotated[
        str | None, typer.Option("--agent", "-a", help="Agent id (default: $CREDENCE_AGENT_ID)")
    ] = None,
    speaker: Annotated[
        str | None, typer.Option(help="Who speaks (a person's name; met or micro-born)")
    ] = None,
    session: Annotated[
        str | None, typer.Option(help="Session key (default: a new one per run)")
    ] = None,
    context: Annotated[
        str | None, typer.Option(help="Context for conditional strengths, e.g. month_end")
    ] = None,
) -> None:
    """Talk to the agent: one turn per message, with tension, revisions and approvals live."""
    agent_id = agent_id_of(agent)
    if sys.stdin.isatty():
        # Ctrl-C interrupts a turn or the line even when the shell that started us ignores
        # SIGINT (a background job of a non-interactive shell inherits SIG_IGN).
        signal.signal(signal.SIGINT, signal.default_int_handler)
    with contextlib.suppress(ImportError):  # line editing and history for input()
        import readline  # noqa: F401
    session_key = session or f"chat-{uuid.uuid4().hex[:12]}"
    try:  # the options are checked once, as each turn's request would check them
        ChatRequest(message="-", speaker=speaker, session=session_key, context=context)
    except ValidationError as error:
        for item in error.errors():
            err_console.print(f"[red]invalid[/] --{item['loc'][0]}: {escape(item['msg'])}")
        raise typer.Exit(code=2) from error
    settings = get_settings()
    with asyncio.Runner() as runner:
        # Only the main thread may take Ctrl-C: a SIGINT that lands on a worker thread (the
        # executor, the model's threads) would not wake input() and the prompt would ignore it.
        # Workers are made while SIGINT is blocked, and so keep it blocked.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            runner.get_loop().set_default_executor(
                ThreadPoolExecutor(thread_name_prefix="chat", initializer=_block_interrupts)
            )
            chat = runner.run(open_session(settings, agent_id, session_key, speaker, context))
        except CredenceError as error:
            err_console.print(f"[bold red]error[/] ({error.code}): {escape(error.message)}")
            raise typer.Exit(code=1) from error
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        try:
            repl(runner, chat)
        finally:
            runner.run(chat.close())
