"""Censors of an agent: listing, adding by hand, learning during turns, and removing.

Sources: ``default`` (shipped in ``seeds/censors.yaml``, applied in-process to every agent),
``pack`` (from a knowledge pack), ``learned`` (auto-created by a turn) and ``manual`` (added by
a person). Removing a censor deactivates it (nothing is hard-deleted); absolute censors and the
shipped defaults can never be removed.

Learned censors are validated, de-duplicated against every censor of the agent (same normalised
pattern: the existing one is returned) and capped at ``max_learned_per_session`` per session,
counted in the graph under the agent lock so concurrent turns cannot exceed the cap.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass
from functools import partial
from typing import Any

from app.errors import AgentNotFound, ErrorEntry, InvalidInput, error_entry
from app.graph.agent_scope import lock_agent, require_agent
from app.graph.client import GraphClient, Transaction
from app.guardian.errors import CensorKeyTaken, CensorNotFound, CensorProtected
from app.guardian.models import (
    Censor,
    CensorAction,
    CensorAdded,
    CensorCreate,
    CensorPage,
    CensorRule,
    CensorSource,
)
from app.guardian.patterns import (
    DEFAULT_ID_PREFIX,
    normalise_pattern,
    shipped_censors,
    shipped_keys,
    validate_pattern,
)
from app.guardian.settings import GuardianSettings

_ACTIONS = ("warn", "block", "absolute")
_LEARNED_ACTIONS = ("warn", "block")


def _default_censor(rule: CensorRule) -> Censor:
    return Censor(
        id=rule.id,
        key=rule.key,
        pattern=rule.pattern,
        reason=rule.reason,
        action=rule.action,
        source="default",
        pack_name="default",
    )


def _shipped_by_pattern(normalised: str) -> Censor | None:
    for rule in shipped_censors():
        if normalise_pattern(rule.pattern) == normalised:
            return _default_censor(rule)
    return None


def _shipped_by_id(censor_id: str) -> Censor | None:
    for rule in shipped_censors():
        if rule.id == censor_id:
            return _default_censor(rule)
    return None


def _is_default_copy(row: dict[str, Any]) -> bool:
    return row.get("pack_name") == "default" and row.get("key") in shipped_keys()


async def list_censors(
    graph: GraphClient,
    agent_id: str,
    *,
    action: CensorAction | None = None,
    source: CensorSource | None = None,
    include_inactive: bool = False,
) -> CensorPage:
    """The censors the agent's turns are checked against: the shipped defaults first, then the
    stored ones, oldest first (graph copies of the shipped defaults are shown once, as the file's).

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read(
        "guardian/censors/list_censors",
        agent_id=agent_id,
        action=action,
        source=source,
        include_inactive=include_inactive,
    )
    if not rows:
        raise AgentNotFound(agent_id)
    defaults = [
        _default_censor(rule)
        for rule in shipped_censors()
        if (action is None or rule.action == action) and source in (None, "default")
    ]
    stored = [Censor.model_validate(row) for row in rows[0]["censors"] if not _is_default_copy(row)]
    data = [*defaults, *stored]
    return CensorPage(data=data, count=len(data))


async def get_censor(graph: GraphClient, agent_id: str, censor_id: str) -> Censor:
    """One censor (a shipped default by its ``default:<key>`` id, or a stored one).

    Raises:
        AgentNotFound, CensorNotFound.
    """
    await require_agent(graph, agent_id)
    shipped = _shipped_by_id(censor_id)
    if shipped is not None:
        return shipped
    rows = await graph.read("guardian/censors/get_censor", agent_id=agent_id, censor_id=censor_id)
    if not rows:
        raise CensorNotFound(censor_id, agent_id)
    return Censor.model_validate(rows[0]["censor"])


async def add_censor(
    graph: GraphClient,
    agent_id: str,
    data: CensorCreate,
    *,
    settings: GuardianSettings | None = None,
) -> CensorAdded:
    """Adds a censor by hand (source ``manual``; any action, absolute included, which then can
    never be removed). The same pattern already present returns that censor (``duplicate``), or
    reactivates it if it had been removed (``reactivated``). A new pattern under a ``key`` the
    agent already has (a shipped default's, a pack's, another stored censor's) is refused.

    Raises:
        AgentNotFound, CensorPatternInvalid (nothing written; also for a pattern that
        backtracks on the adversarial probes within ``settings.pattern_probe_seconds``),
        CensorKeyTaken (a new pattern under a key the agent already has; nothing written).
    """
    return await _add(
        graph,
        agent_id,
        pattern=data.pattern,
        reason=data.reason,
        action=data.action,
        key=data.key,
        session_key=None,
        cap=None,
        settings=settings or GuardianSettings(),
        action_given="action" in data.model_fields_set,
    )


async def learn_censor(
    graph: GraphClient,
    agent_id: str,
    session_key: str,
    pattern: str,
    reason: str,
    action: str = "warn",
    *,
    settings: GuardianSettings | None = None,
) -> CensorAdded:
    """Auto-creates a censor learned during a turn of ``session_key``.

    Args:
        action: ``warn`` or ``block`` (a learned censor is never absolute: a person must be able
            to remove it).

    Returns:
        ``created``; ``duplicate`` with the censor already holding the pattern (also a shipped
        default); or ``capped`` (nothing written) when the session already auto-created
        ``max_learned_per_session`` censors.

    Raises:
        AgentNotFound, CensorPatternInvalid, InvalidInput (blank reason or session, bad action);
        nothing is written on any of them.
    """
    if action not in _LEARNED_ACTIONS:
        raise InvalidInput(
            f"a learned censor's action must be warn or block, not {action!r}",
            errors=[error_entry(["body", "action"], "must be warn or block", "literal_error")],
        )
    if not session_key.strip() or len(session_key) > 200:
        raise InvalidInput(
            "a learned censor needs a session key (1 to 200 characters)",
            errors=[_length_problem("session_key", session_key.strip(), 200)],
        )
    settings = settings or GuardianSettings()
    return await _add(
        graph,
        agent_id,
        pattern=pattern,
        reason=reason,
        action=action,
        key=None,
        session_key=session_key,
        cap=settings.max_learned_per_session,
        settings=settings,
    )


def _length_problem(field: str, value: str, most: int) -> ErrorEntry:
    """The entry of a text that is blank or longer than ``most`` characters."""
    if not value:
        return error_entry(["body", field], "must not be blank", "string_too_short")
    return error_entry(["body", field], f"at most {most} characters", "string_too_long")


@dataclass(frozen=True)
class _NewCensor:
    """A censor to add, validated: its pattern normalised, its reason stripped."""

    agent_id: str
    pattern: str
    reason: str
    action: str
    key: str | None
    # The session that learned it; None for a censor added by hand.
    session_key: str | None
    # The most censors one session may learn; None for a censor added by hand.
    cap: int | None
    # Whether the person named the action (else it is the default, warn).
    action_given: bool = False

    @property
    def learned(self) -> bool:
        """Learned during a turn, not added by hand."""
        return self.session_key is not None


async def _add(
    graph: GraphClient,
    agent_id: str,
    *,
    pattern: str,
    reason: str,
    action: str,
    key: str | None,
    session_key: str | None,
    cap: int | None,
    settings: GuardianSettings,
    action_given: bool = False,
) -> CensorAdded:
    """Adds a manual censor (``session_key`` None) or a learned one, under the agent lock."""
    # The adversarial probes take up to a second or two for a bad pattern: off the event loop.
    normalised = await asyncio.to_thread(
        validate_pattern, pattern, probe_limit_seconds=settings.pattern_probe_seconds
    )
    reason = reason.strip()
    if not reason or len(reason) > 2000:
        raise InvalidInput(
            "a censor needs a reason (1 to 2000 characters) saying what it prevents",
            errors=[_length_problem("reason", reason, 2000)],
        )
    if action not in _ACTIONS:
        raise InvalidInput(
            f"a censor's action must be warn, block or absolute, not {action!r}",
            errors=[
                error_entry(["body", "action"], "must be warn, block or absolute", "literal_error")
            ],
        )
    censor = _NewCensor(agent_id, normalised, reason, action, key, session_key, cap, action_given)
    return await graph.write_transaction(partial(_add_in, censor), action="adding a censor")


async def _add_in(censor: _NewCensor, tx: Transaction) -> CensorAdded:
    """The adding transaction: a pattern already held answers with its censor (or brings a
    removed one back), a session at its cap gets nothing, else the censor is created."""
    await lock_agent(tx, censor.agent_id)
    shipped = _shipped_by_pattern(censor.pattern)
    if shipped is not None:
        return CensorAdded(
            status="duplicate",
            censor=shipped,
            message=f"the shipped default censor {shipped.key} already has this pattern; "
            "nothing written",
        )
    state = (
        await tx.run(
            "guardian/censors/get_learning_state",
            agent_id=censor.agent_id,
            pattern=censor.pattern,
            session_key=censor.session_key,
        )
    )[0]
    if state["existing_id"] is not None:
        return await _same_pattern(tx, censor, state["existing_id"])
    if censor.key is not None:
        await _refuse_a_held_key(tx, censor.agent_id, censor.key)
    learned_in_session: int = state["learned_in_session"]
    if censor.cap is not None and learned_in_session >= censor.cap:
        return CensorAdded(
            status="capped",
            censor=None,
            message=f"skipped: session {censor.session_key!r} already auto-created "
            f"{learned_in_session} censors, the cap (guardian.max_learned_per_session"
            f" = {censor.cap}); nothing written",
        )
    return await _create(tx, censor, learned_in_session)


async def _refuse_a_held_key(tx: Transaction, agent_id: str, key: str) -> None:
    """Raises CensorKeyTaken when a shipped default or a stored censor of the agent (a pack's,
    removed ones included) already has ``key``: a key names one censor."""
    if key in shipped_keys():
        raise CensorKeyTaken(key, agent_id, f"the shipped default {DEFAULT_ID_PREFIX}{key}")
    rows = await tx.run("guardian/censors/get_censor_by_key", agent_id=agent_id, key=key)
    if rows:
        holder = rows[0]
        origin = f" of pack {holder['pack_name']}" if holder["pack_name"] else ""
        removed = "" if holder["is_active"] else ", removed"
        raise CensorKeyTaken(key, agent_id, f"censor {holder['id']}{origin}{removed}")


async def _same_pattern(tx: Transaction, censor: _NewCensor, existing_id: str) -> CensorAdded:
    """The stored censor ``existing_id`` already has the pattern: a person adding it again
    reactivates it if it had been removed, with their reason and the action they name (it keeps
    its own when they name none); otherwise (or when learned) it is a duplicate, and the answer
    says when it acts otherwise than asked."""
    existing = await _stored(tx, censor.agent_id, existing_id)
    if existing.is_active or censor.learned:
        note = (
            ""
            if existing.is_active
            else " (it was removed; a learned duplicate does not bring it back)"
        )
        if censor.action_given and existing.action != censor.action:
            note += (
                f"; it acts {existing.action}, not {censor.action} as asked"
                " (remove it and add it again to change that)"
            )
        return CensorAdded(
            status="duplicate",
            censor=existing,
            message=f"censor {existing.id} already has this pattern{note}; nothing written",
        )
    await tx.run(
        "guardian/censors/reactivate_censor",
        agent_id=censor.agent_id,
        censor_id=existing.id,
        reason=censor.reason,
        action=censor.action if censor.action_given else None,
    )
    revived = await _stored(tx, censor.agent_id, existing.id)
    return CensorAdded(
        status="reactivated",
        censor=revived,
        message=f"censor {existing.id} had this pattern and had been removed; active again "
        f"({revived.action})",
    )


async def _create(tx: Transaction, censor: _NewCensor, learned_in_session: int) -> CensorAdded:
    censor_id = str(uuid.uuid4())
    await tx.run(
        "guardian/censors/create_censor",
        agent_id=censor.agent_id,
        censor={
            "id": censor_id,
            "key": censor.key,
            "pattern": censor.pattern,
            "reason": censor.reason,
            "action": censor.action,
            "source": "learned" if censor.learned else "manual",
            "auto_created": censor.learned,
            "session_key": censor.session_key,
        },
    )
    count = f" ({learned_in_session + 1} of {censor.cap} this session)" if censor.learned else ""
    return CensorAdded(
        status="created",
        censor=await _stored(tx, censor.agent_id, censor_id),
        message=f"censor {censor_id} created{count}",
    )


async def _stored(tx: Transaction, agent_id: str, censor_id: str) -> Censor:
    rows = await tx.run("guardian/censors/get_censor", agent_id=agent_id, censor_id=censor_id)
    if not rows:
        raise CensorNotFound(censor_id, agent_id)
    return Censor.model_validate(rows[0]["censor"])


async def remove_censor(graph: GraphClient, agent_id: str, censor_id: str) -> Censor:
    """Removes a censor by deactivating it (it stays in the graph, ``is_active`` false).

    Returns:
        The censor as it is now (removing an already removed one changes nothing).

    Raises:
        AgentNotFound, CensorNotFound, CensorProtected (absolute, or a shipped default).
    """
    if censor_id.startswith(DEFAULT_ID_PREFIX):
        await require_agent(graph, agent_id)
        if _shipped_by_id(censor_id) is None:
            raise CensorNotFound(censor_id, agent_id)
        raise CensorProtected(censor_id, "it is a shipped default (seeds/censors.yaml)")

    async def work(tx: Transaction) -> Censor:
        await lock_agent(tx, agent_id)
        censor = await _stored(tx, agent_id, censor_id)
        if censor.source == "default":
            raise CensorProtected(censor_id, "it is a shipped default (seeds/censors.yaml)")
        if censor.action == "absolute":
            raise CensorProtected(censor_id, "absolute censors can never be removed")
        if censor.is_active:
            await tx.run(
                "guardian/censors/set_censor_active",
                agent_id=agent_id,
                censor_id=censor_id,
                active=False,
            )
            censor = await _stored(tx, agent_id, censor_id)
        return censor

    return await graph.write_transaction(work, action="removing a censor")
