"""The one exception root of Credence and its families.

Services raise these; the API maps them to HTTP statuses in ``app/api/errors.py`` and the CLI
prints them. Each carries a stable ``code`` and the ids/details a caller needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypedDict


class CredenceError(Exception):
    """Root of every error Credence raises on purpose."""

    code = "credence_error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = details


# --- input -------------------------------------------------------------------------------------


class InvalidInput(CredenceError):
    """A request or file was malformed; ``details["errors"]`` lists every problem, each an
    :class:`ErrorEntry` (see :func:`error_entry`)."""

    code = "invalid_input"


# --- the entries of details["errors"] (docs/api.md, "Error entries") -----------------------------

Location = list[str | int]


class ErrorEntry(TypedDict):
    """One problem of an error: where (``location``, a list of path parts as FastAPI's request
    validation gives them: ``["body", "episodes", 1, "about"]``; a file's content starts
    ``["file", <name>]``, then ``"line", <n>`` where the problem is on a line, then the field),
    what (``message``, for people) and which kind (``type``, a short snake_case code: pydantic's
    where pydantic found it). Every entry has exactly these keys, whoever produced it."""

    location: Location
    message: str
    type: str


def error_entry(
    location: Sequence[str | int], message: str, type: str = "value_error"
) -> ErrorEntry:
    """One entry of ``details["errors"]``."""
    return {"location": list(location), "message": message, "type": type}


def validation_entries(
    problems: Iterable[Mapping[str, Any]], prefix: Sequence[str | int] = ()
) -> list[ErrorEntry]:
    """The entries of a pydantic ``ValidationError.errors()`` (never its input: it may be long
    or secret), each location under ``prefix``."""
    return [
        error_entry(
            [*prefix, *item["loc"]],
            str(item["msg"]).removeprefix("Value error, "),
            str(item["type"]),
        )
        for item in problems
    ]


def file_location(file: str, *parts: str | int, line: int = 0) -> Location:
    """Where in a file: ``["file", file, "line", line, *parts]`` (no line part for 0: the file
    as a whole, or a field of a YAML document)."""
    location: Location = ["file", file]
    if line:
        location += ["line", line]
    return [*location, *parts]


def field_path(parts: Sequence[str | int]) -> str:
    """Path parts as a field path, ``skill.vocabulary[0].verb`` (empty for none)."""
    path = ""
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path


def location_text(location: Sequence[str | int]) -> str:
    """A location for people: ``corpus.jsonl line 3: title``, ``pack.yaml: beliefs[0].key``,
    ``body.episodes[1].about`` (empty for the input as a whole)."""
    if len(location) >= 2 and location[0] == "file":
        file, rest = str(location[1]), location[2:]
        if len(rest) >= 2 and rest[0] == "line" and isinstance(rest[1], int):
            file, rest = f"{file} line {rest[1]}", rest[2:]
        return f"{file}: {field_path(rest)}" if rest else file
    return field_path(location)


class InvalidIdentifier(InvalidInput):
    """A label, relationship type or property name failed the identifier check. Its one entry is
    located where the caller took the name from, else at the kind (``["relationship_type"]``)."""

    code = "invalid_identifier"

    def __init__(self, kind: str, value: str, location: Sequence[str | int] | None = None) -> None:
        why = "use letters, digits and _ (start with a letter)"
        super().__init__(
            f"invalid {kind} {value!r}: {why}",
            kind=kind,
            value=value,
            errors=[
                error_entry(
                    location if location is not None else [kind.replace(" ", "_")],
                    f"invalid {kind} {value!r}: {why}",
                    "invalid_identifier",
                )
            ],
        )


# --- not found / conflict ----------------------------------------------------------------------


class NotFound(CredenceError):
    """Something named in the request does not exist."""

    code = "not_found"


class AgentNotFound(NotFound):
    """No such agent (or it is being deleted)."""

    code = "agent_not_found"

    def __init__(self, agent_id: str) -> None:
        super().__init__(f"agent {agent_id!r} does not exist", agent_id=agent_id)


class AgentItemNotFound(NotFound):
    """No such item in this agent: the message names the item and the agent, and the details
    carry the item's id under ``id_field`` beside ``agent_id``."""

    item = "item"
    id_field = "item_id"

    def __init__(self, item_id: str, agent_id: str) -> None:
        super().__init__(
            f"{self.item} {item_id!r} does not exist for agent {agent_id!r}",
            **{self.id_field: item_id},
            agent_id=agent_id,
        )


class Conflict(CredenceError):
    """The request conflicts with the graph's state."""

    code = "conflict"


class DefaultAgentProtected(Conflict):
    """The default agent (CREDENCE_DEFAULT_AGENT) is only deleted when the caller forces it."""

    code = "default_agent_protected"

    def __init__(self, agent_id: str, name: str) -> None:
        super().__init__(
            f"agent {agent_id!r} is the default agent {name!r}: delete it with force=true",
            agent_id=agent_id,
            name=name,
        )


class ConstraintViolation(Conflict):
    """The graph refused a write because it would break a uniqueness constraint."""

    code = "constraint_violation"


# --- settings ------------------------------------------------------------------------------------


class InvalidSettings(CredenceError):
    """A setting read at start (environment or ``.env``) is invalid; ``details["variables"]``
    names each environment variable at fault. The process stops before it serves."""

    code = "invalid_settings"


# --- auth ----------------------------------------------------------------------------------------


class AuthenticationRequired(CredenceError):
    """An API key is required (keys are configured), or the key sent is unknown."""

    code = "authentication_required"


class AgentForbidden(CredenceError):
    """The API key may not access this agent."""

    code = "agent_forbidden"

    def __init__(self, agent_id: str) -> None:
        super().__init__(f"this API key may not access agent {agent_id!r}", agent_id=agent_id)


# --- graph ---------------------------------------------------------------------------------------


class GraphError(CredenceError):
    """A database call failed for a reason that is not the caller's input."""

    code = "graph_error"


class GraphUnavailable(GraphError):
    """Neo4j could not be reached (or authentication against it failed)."""

    code = "graph_unavailable"


class GraphBusy(GraphUnavailable):
    """Neo4j kept answering with a transient error (deadlock, lock timeout) after retries, or no
    connection of the pool was free in time."""

    code = "graph_busy"


class UnknownQuery(GraphError):
    """A query name has no ``cypher/<name>.cypher`` file."""

    code = "unknown_query"

    def __init__(self, name: str, close_matches: list[str]) -> None:
        hint = f" (did you mean {', '.join(close_matches)}?)" if close_matches else ""
        super().__init__(
            f"no query named {name!r} in cypher/{hint}", name=name, close_matches=close_matches
        )


# --- migrations ----------------------------------------------------------------------------------


class MigrationError(CredenceError):
    """Applying the schema migrations failed (start-up and `credence db migrate`)."""

    code = "migration_error"


class MigrationFileInvalid(MigrationError):
    """A file in schema/ is misnamed or cannot be split into statements."""

    code = "migration_file_invalid"


class MigrationChecksumMismatch(MigrationError):
    """An applied migration file was edited afterwards."""

    code = "migration_checksum_mismatch"

    def __init__(self, file: str, recorded: str, current: str) -> None:
        super().__init__(
            f"migration {file} was changed after it was applied (recorded checksum "
            f"{recorded[:12]}…, file now {current[:12]}…). Applied migrations are never "
            "edited: restore the file and put the change in a new migration.",
            file=file,
            recorded_checksum=recorded,
            current_checksum=current,
        )


class MigrationMissing(MigrationError):
    """The graph records a migration that schema/ no longer has."""

    code = "migration_missing"


class MigrationLockHeld(MigrationError):
    """Another process held the migration lock for longer than the wait."""

    code = "migration_lock_held"


class MigrationFailed(MigrationError):
    """A migration statement failed; the migrations before it stay applied."""

    code = "migration_failed"


class NotReady(CredenceError):
    """Neo4j is reachable but the schema is not (fully) migrated, or Neo4j is not reachable."""

    code = "not_ready"


# --- beliefs -------------------------------------------------------------------------------------


class BeliefNotFound(AgentItemNotFound):
    """No such belief in this agent."""

    code = "belief_not_found"
    item = "belief"
    id_field = "belief_id"


class EdgeNotFound(NotFound):
    """No such SUPPORTS edge between these two beliefs of this agent."""

    code = "edge_not_found"

    def __init__(self, source_id: str, target_id: str, agent_id: str) -> None:
        super().__init__(
            f"belief {source_id!r} does not support {target_id!r} for agent {agent_id!r}",
            source_id=source_id,
            target_id=target_id,
            agent_id=agent_id,
        )


class RevisionNotFound(NotFound):
    """No such revision in this agent."""

    code = "revision_not_found"

    def __init__(self, revision_id: str) -> None:
        super().__init__(f"revision {revision_id!r} does not exist", revision_id=revision_id)


class CycleRefused(Conflict):
    """A SUPPORTS edge would close a cycle; ``details["cycle"]`` names it."""

    code = "cycle_refused"

    def __init__(self, source_id: str, target_id: str, cycle: list[str]) -> None:
        super().__init__(
            f"{source_id} SUPPORTS {target_id} would close a cycle: {' -> '.join(cycle)} -> "
            f"{target_id}",
            source_id=source_id,
            target_id=target_id,
            cycle=cycle,
        )


class BeliefImmutable(Conflict):
    """The belief is part of the terminal creed: it is never edited or revised automatically."""

    code = "belief_immutable"

    def __init__(self, belief_id: str, action: str) -> None:
        super().__init__(
            f"belief {belief_id!r} is immutable (creed): cannot {action}",
            belief_id=belief_id,
            action=action,
        )


class BeliefInactive(Conflict):
    """The belief was revised away (inactive): it takes no more evidence or edits."""

    code = "belief_inactive"

    def __init__(self, belief_id: str) -> None:
        super().__init__(
            f"belief {belief_id!r} is inactive (deactivated or superseded)", belief_id=belief_id
        )


class UnknownAnalytics(NotFound):
    """No analytics query of that name."""

    code = "unknown_analytics"

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(
            f"no analytics query named {name!r}; known: {', '.join(known)}", name=name, known=known
        )


# --- memory and packs --------------------------------------------------------------------------


class SeedFileInvalid(InvalidInput):
    """A knowledge pack or seed file failed validation; every problem is listed with where it is.

    ``details["file"]`` names the file; each entry of ``details["errors"]`` is located
    ``["file", <file>, ...]``, or ``["body", ...]`` for a pack sent as a request's body."""

    code = "seed_file_invalid"

    def __init__(self, file: str, errors: list[ErrorEntry]) -> None:
        first = errors[0] if errors else error_entry(file_location(file), "invalid")
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        location = first["location"]
        within = location[2:] if location[:1] == ["file"] else location[1:]
        super().__init__(
            f"{file}: {_yaml_place(within) or '(top)'}: {first['message']}{more}",
            file=file,
            errors=errors,
        )


def _yaml_place(parts: Sequence[str | int]) -> str:
    """A place in a YAML document: ``line 3`` or ``skill.vocabulary[0].verb``."""
    if len(parts) >= 2 and parts[0] == "line":
        return f"line {parts[1]}" + (f": {field_path(parts[2:])}" if parts[2:] else "")
    return field_path(parts)


class PackNotFound(NotFound):
    """No knowledge pack of that name is installed."""

    code = "pack_not_found"

    def __init__(self, name: str, available: list[str]) -> None:
        super().__init__(
            f"no knowledge pack named {name!r}; available: {', '.join(available) or 'none'}",
            name=name,
            available=available,
        )


class PackCensorKeyTaken(Conflict):
    """A pack brings a censor key another censor of the agent already holds (a shipped default's,
    another pack's, a manual or learned one's, removed ones included): keys name one censor
    each, so the pack is refused whole (docs/packs.md §2)."""

    code = "censor_key_taken"

    def __init__(self, pack: str, agent_id: str, holders: dict[str, str]) -> None:
        named = "; ".join(f"{key!r}: {holder}" for key, holder in sorted(holders.items()))
        super().__init__(
            f"pack {pack!r} brings censor keys agent {agent_id!r} already has ({named}); "
            "rename the pack's censors; nothing of the pack written",
            pack=pack,
            agent_id=agent_id,
            keys=sorted(holders),
            holders=holders,
        )


class PackFrameKeyTaken(Conflict):
    """A pack brings a frame key a shipped default frame or another pack's frame already holds
    (a retired one included): a key names one frame of an agent, so the pack is refused whole
    rather than replacing that frame's content or source (docs/packs.md §2)."""

    code = "frame_key_taken"

    def __init__(self, pack: str, agent_id: str, holders: dict[str, str]) -> None:
        named = "; ".join(f"{key!r}: {holder}" for key, holder in sorted(holders.items()))
        super().__init__(
            f"pack {pack!r} brings frame keys agent {agent_id!r} already has ({named}); "
            "rename the pack's frames; nothing of the pack written",
            pack=pack,
            agent_id=agent_id,
            keys=sorted(holders),
            holders=holders,
        )


class PackVersionOlder(Conflict):
    """A pack's version is lower than the one the agent holds: loading it would take the agent
    back to older knowledge as if it were an upgrade (docs/packs.md §3), so it is refused."""

    code = "pack_version_older"

    def __init__(self, pack: str, agent_id: str, version: int, loaded_version: int) -> None:
        super().__init__(
            f"pack {pack!r} version {version} is older than version {loaded_version}, which "
            f"agent {agent_id!r} holds; load version {loaded_version} or a later one; nothing "
            "of the pack written",
            pack=pack,
            agent_id=agent_id,
            version=version,
            loaded_version=loaded_version,
        )


# --- people, frames, working memory, self ---------------------------------------------------------


class PersonNotFound(AgentItemNotFound):
    """No such person in this agent."""

    code = "person_not_found"
    item = "person"
    id_field = "person_id"


class AliasTaken(Conflict):
    """A name given as a person's alias is already another person's name or alias in the agent
    (one name means one person: docs/memory.md §2); names them (``details.holders``)."""

    code = "alias_taken"

    def __init__(
        self, name: str, person_id: str, agent_id: str, holders: list[dict[str, str]]
    ) -> None:
        named = ", ".join(f"{holder['name']} ({holder['id']})" for holder in holders)
        super().__init__(
            f"{name!r} already means {named} in agent {agent_id!r}: remove it there first",
            name=name,
            person_id=person_id,
            agent_id=agent_id,
            holders=holders,
        )


class AliasNotFound(NotFound):
    """The person has no such alias (compared without case)."""

    code = "alias_not_found"

    def __init__(self, name: str, person_id: str, agent_id: str) -> None:
        super().__init__(
            f"person {person_id!r} of agent {agent_id!r} has no alias {name!r}",
            name=name,
            person_id=person_id,
            agent_id=agent_id,
        )


class TaskNotFound(AgentItemNotFound):
    """No such task in this agent's working memory."""

    code = "task_not_found"
    item = "task"
    id_field = "task_id"


class RuleNotFound(AgentItemNotFound):
    """No such rule in this agent."""

    code = "rule_not_found"
    item = "rule"
    id_field = "rule_id"


class RuleRetired(Conflict):
    """A pack version dropped the rule (docs/packs.md §3): it is kept for history, acts no more,
    and takes no validation."""

    code = "rule_retired"

    def __init__(self, rule_id: str, agent_id: str) -> None:
        super().__init__(
            f"rule {rule_id!r} of agent {agent_id!r} is retired (its pack's version dropped it)",
            rule_id=rule_id,
            agent_id=agent_id,
        )


class CreedImmutable(Conflict):
    """The terminal creed is fixed when the agent is created; nothing may change it afterwards."""

    code = "creed_immutable"

    def __init__(self, agent_id: str) -> None:
        super().__init__(
            f"the terminal creed of agent {agent_id!r} is immutable: it is set when the agent is "
            "created and never changed",
            agent_id=agent_id,
        )


# --- the cognitive loop ------------------------------------------------------------------------


class ApprovalNotFound(AgentItemNotFound):
    """No such approval in this agent."""

    code = "approval_not_found"
    item = "approval"
    id_field = "approval_id"


class TaskClosed(Conflict):
    """The task is no longer open (evicted or cancelled): it cannot be completed."""

    code = "task_closed"

    def __init__(self, task_id: str, agent_id: str, state: str) -> None:
        super().__init__(
            f"task {task_id!r} is no longer open: it was {state}; only an open task (planning, "
            "executing, awaiting input or blocked) can be completed",
            agent_id=agent_id,
            task_id=task_id,
            state=state,
        )


class ApprovalClosed(Conflict):
    """The approval is no longer pending: answered before, or expired."""

    code = "approval_closed"

    def __init__(self, approval_id: str, status: str) -> None:
        reason = {
            "expired": "it expired before anyone answered it",
            "resuming": "another answer to it is being carried out",
        }.get(status, f"it was already {status}")
        super().__init__(
            f"approval {approval_id!r} cannot be answered: {reason}",
            approval_id=approval_id,
            status=status,
        )


class ApprovalNotAuthorized(CredenceError):
    """The person answering an approval lacks the authority for it: only the agent's principal,
    or a known person with the authority the approval needs, may answer it."""

    code = "approval_not_authorized"

    def __init__(
        self,
        approval_id: str,
        speaker: str,
        authority: float | None,
        required_authority: float,
        principal: str,
    ) -> None:
        held = (
            f"{speaker}'s authority is {authority:.2f}"
            if authority is not None
            else f"{speaker} is not a known person of this agent"
        )
        super().__init__(
            f"{speaker} may not answer approval {approval_id!r}: it needs {principal} (the "
            f"principal) or a person with authority {required_authority:.2f} or more, and "
            f"{held}; the approval is still pending",
            approval_id=approval_id,
            speaker=speaker,
            authority=authority,
            required_authority=required_authority,
            principal=principal,
        )


class ApprovalAnswerInvalid(InvalidInput):
    """An approval answer was malformed (a decision the approval does not offer, or one missing
    what it needs). Its one entry is located at the answer's ``action`` unless the caller names
    the field."""

    code = "approval_answer_invalid"

    def __init__(
        self,
        approval_id: str,
        kind: str,
        action: str,
        why: str,
        location: Sequence[str | int] = ("body", "action"),
    ) -> None:
        super().__init__(
            f"approval {approval_id!r} ({kind}) cannot take {action!r}: {why}",
            approval_id=approval_id,
            kind=kind,
            action=action,
            errors=[error_entry(location, why, "approval_answer_invalid")],
        )


class TurnFailed(CredenceError):
    """A turn could not complete; nothing of it was written."""

    code = "turn_failed"

    def __init__(self, agent_id: str, phase: str, cause: str) -> None:
        super().__init__(
            f"the turn failed in {phase} and wrote nothing: {cause}",
            agent_id=agent_id,
            phase=phase,
            cause=cause,
        )


# --- research ------------------------------------------------------------------------------------


class CorpusFileInvalid(InvalidInput):
    """A corpus file failed validation; nothing of it was written. Every problem is listed with
    its file and line (``details["errors"]``, each location ``["file", <name>, "line", <n>,
    <field>]``, without the line part for the file as a whole)."""

    code = "corpus_file_invalid"

    def __init__(self, errors: list[ErrorEntry]) -> None:
        first = errors[0] if errors else error_entry([], "invalid")
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        where = location_text(first["location"])
        where = f"{where}: " if where else ""
        super().__init__(f"{where}{first['message']}{more}", errors=errors)


class PayloadTooLarge(CredenceError):
    """The request carries more than the server takes in one call."""

    code = "payload_too_large"

    def __init__(self, what: str, size: int, limit: int, advice: str = "") -> None:
        super().__init__(
            f"{what} is too large: {size} characters, at most {limit} in one request"
            + (f"; {advice}" if advice else ""),
            what=what,
            size=size,
            limit=limit,
        )


class BodyTooLarge(PayloadTooLarge):
    """The request body (or WebSocket message) is larger than CREDENCE_API__MAX_BODY_BYTES; it
    was refused before it was read."""

    code = "body_too_large"

    def __init__(self, limit: int, size: int | None = None) -> None:
        told = f" ({size} bytes)" if size is not None else ""
        CredenceError.__init__(
            self,
            f"the request body is too large{told}: at most {limit} bytes in one request",
            limit=limit,
            size=size,
        )


class CorpusDocumentNotFound(AgentItemNotFound):
    """No such corpus document in this agent."""

    code = "corpus_document_not_found"
    item = "corpus document"
    id_field = "document_id"


class UnknownResearchSource(InvalidInput):
    """A research source was asked for by a name no registered source has."""

    code = "unknown_research_source"

    def __init__(self, names: list[str], known: list[str]) -> None:
        super().__init__(
            f"sources: no research source named {', '.join(repr(n) for n in names)}; known: "
            f"{', '.join(known) or 'none'}",
            field="sources",
            names=names,
            known=known,
            errors=[
                error_entry(["body", "sources"], f"no research source named {name!r}", "not_found")
                for name in names
            ],
        )


class ResearchSourceNameTaken(Conflict):
    """A research source of that name is already registered."""

    code = "research_source_name_taken"

    def __init__(self, name: str) -> None:
        super().__init__(f"a research source named {name!r} is already registered", name=name)


class InvestigationNotFound(AgentItemNotFound):
    """No such investigation in this agent."""

    code = "investigation_not_found"
    item = "investigation"
    id_field = "investigation_id"


class InvestigationStateConflict(Conflict):
    """A pause, resume or cancel that the investigation's status does not allow."""

    code = "investigation_state_conflict"

    def __init__(self, investigation_id: str, action: str, status: str) -> None:
        super().__init__(
            f"investigation {investigation_id!r} cannot {action}: it is {status}",
            investigation_id=investigation_id,
            action=action,
            status=status,
        )


class ReportNotReady(NotFound):
    """The investigation has not synthesized its report (yet, or ever: it was cancelled)."""

    code = "report_not_ready"

    def __init__(self, investigation_id: str, status: str) -> None:
        super().__init__(
            f"investigation {investigation_id!r} has no report: it is {status}",
            investigation_id=investigation_id,
            status=status,
        )


# --- tools (MCP servers connected to an agent) --------------------------------------------------


class ConnectionNotFound(NotFound):
    """No connection of that name on this agent."""

    code = "connection_not_found"

    def __init__(self, name: str, agent_id: str) -> None:
        super().__init__(
            f"agent {agent_id!r} has no connection named {name!r}", name=name, agent_id=agent_id
        )


class ConnectionNameTaken(Conflict):
    """The agent already has a connection of that name."""

    code = "connection_name_taken"

    def __init__(self, name: str, agent_id: str) -> None:
        super().__init__(
            f"agent {agent_id!r} already has a connection named {name!r}; remove it first",
            name=name,
            agent_id=agent_id,
        )


class ToolNotFound(NotFound):
    """No tool of that name on that connection of this agent."""

    code = "tool_not_found"

    def __init__(self, connection: str, tool: str, agent_id: str) -> None:
        super().__init__(
            f"agent {agent_id!r} has no tool {tool!r} on connection {connection!r}",
            connection=connection,
            tool=tool,
            agent_id=agent_id,
        )


class ToolServerFailed(CredenceError):
    """An MCP server could not be started, listed or called in time (502 where a route waits on
    it; inside a turn it is a failed execution, never a failed turn)."""

    code = "tool_server_failed"

    def __init__(self, connection: str, what: str, cause: str) -> None:
        super().__init__(
            f"the MCP server of connection {connection!r} failed to {what}: {cause}",
            connection=connection,
            what=what,
        )


# --- enrichment at birth -------------------------------------------------------------------------


class EnrichmentNotConfigured(InvalidInput):
    """A birth asked for enrichment (``enrich: true``) and no directory server is named in the
    request (``enrichment``) or configured (``CREDENCE_ENRICHMENT__COMMAND`` / ``__URL``)."""

    code = "enrichment_not_configured"

    def __init__(self, reason: str) -> None:
        super().__init__(
            f"enrich: {reason}; name a directory MCP server in the request "
            '("enrichment": {"command": ..., "args": [...], "tool": "lookup_person"} or '
            '{"transport": "http", "url": ...}), configure one with CREDENCE_ENRICHMENT__COMMAND '
            "(or CREDENCE_ENRICHMENT__URL), or send enrich: false",
            errors=[error_entry(["body", "enrich"], reason, "enrichment_not_configured")],
        )


class EnrichmentFailed(CredenceError):
    """The directory server of a birth's enrichment failed (did not start, has no such tool,
    answered an error or an answer that does not validate): 502, and nothing of the birth is
    written."""

    code = "enrichment_failed"

    def __init__(self, provider: str, cause: str, errors: list[ErrorEntry] | None = None) -> None:
        super().__init__(
            f"enrichment through {provider} failed: {cause}; nothing was written",
            provider=provider,
            errors=errors or [],
        )


class EnrichmentTimedOut(EnrichmentFailed):
    """The directory server of a birth's enrichment did not answer within its limit
    (``CREDENCE_ENRICHMENT__TIMEOUT_S``): 504, and nothing of the birth is written."""

    code = "enrichment_timed_out"
