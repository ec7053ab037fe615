"""Agent birth (docs/packs.md §4).

``POST /v1/agents`` with just a name creates an empty agent (birth source ``api``). With a
``profile`` it is a **full birth**: the agent with its terminal creed (``seeds/creed.yaml``) and
identity (``seeds/self.yaml``), the principal as a Person (authority from seniority), the creed
as immutable beliefs, the ethical core, the self-beliefs, role beliefs drawn from the profile, the
knowledge packs for the industry, the default frames and censors, capabilities and knowledge gaps.
Everything is validated (request, seed files, packs) before anything is written, and all texts
are embedded in one batch. With ``enrich`` an :class:`~app.agents.enrichment.EnrichmentProvider`
(a directory server) is asked first, outside any transaction, and fills in the profile and the
people around the principal (app/agents/enrichment.py); without one it is a 422.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from typing import Any

from app.agents.enrichment import (
    EnrichmentPlan,
    EnrichmentProvider,
    plan_enrichment,
    write_enrichment,
)
from app.agents.models import (
    Agent,
    AgentCreate,
    BirthDetails,
    BirthProfile,
    BornAgent,
    EnrichmentReport,
)
from app.agents.store import (
    agent_params,
    create_agent,
    delete_agent,
    find_default_agent,
    get_agent,
)
from app.beliefs.mechanics import Mechanics
from app.embeddings.embedder import Embedder
from app.errors import (
    AgentNotFound,
    EnrichmentNotConfigured,
    InvalidInput,
    PackCensorKeyTaken,
    PackFrameKeyTaken,
    PackNotFound,
    error_entry,
)
from app.graph.client import GraphClient
from app.memory.frames import install_frames
from app.memory.people.formulas import authority_for
from app.memory.people.models import Person, PersonCreate
from app.memory.people.store import create_person
from app.memory.self_model import CapabilitySeed, add_capabilities, add_knowledge_gaps
from app.memory.settings import MemoryMechanics
from app.packs.loader import (
    PackLoadReport,
    install_censors,
    load_pack,
    refuse_birth_pack_name,
)
from app.seeds.file_schemas import CensorsFile, CreedFile, SelfFile
from app.seeds.files import read_all_packs, read_censors, read_creed, read_self, shipped_frame_keys
from app.seeds.pack_schema import KnowledgePack, PackBelief

log = logging.getLogger(__name__)

SELF_DOMAIN = "self"


def packs_for(profile: BirthProfile, names: list[str] | None) -> list[KnowledgePack]:
    """The packs a birth loads: those named (a name given twice loads its pack once, in its
    first place), or the base packs and the industry's.

    Raises:
        PackNotFound: a named pack does not exist.
        SeedFileInvalid: a pack file is invalid.
    """
    available = read_all_packs()
    if names is None:
        return [pack for pack in available if pack.serves(profile.industry)]
    by_name = {pack.name: pack for pack in available}
    chosen: list[KnowledgePack] = []
    for name in dict.fromkeys(names):
        if name not in by_name:
            raise PackNotFound(name, sorted(by_name))
        chosen.append(by_name[name])
    return chosen


def every_pack_for(industry: str) -> list[KnowledgePack]:
    """Every shipped pack, but those that bring the skill of a domain other than ``industry``:
    the skill of the pack loaded last is the agent's (docs/packs.md §5), so loading "every pack"
    never turns an accounting agent into a procurement one."""
    return [pack for pack in read_all_packs() if pack.skill is None or pack.serves(industry)]


def known_industries() -> list[str]:
    """The industries the shipped packs serve (each pack's ``industry`` and ``industries``),
    sorted: a birth in any other industry is refused (:func:`refuse_unknown_industry`)."""
    return sorted(
        {industry for pack in read_all_packs() for industry in (pack.industry, *pack.industries)}
    )


def refuse_unknown_industry(profile: BirthProfile) -> None:
    """Refuses a profile whose industry no installed pack serves: such a birth would load the
    base packs alone, and an industry typed wrong (``fintch``) would go unnoticed.

    Raises:
        InvalidInput: naming ``profile.industry`` and listing the known industries.
    """
    known = known_industries()
    if profile.industry in known:
        return
    problem = (
        f"no installed pack serves {profile.industry!r}; the industries are {', '.join(known)}"
    )
    raise InvalidInput(
        f"unknown industry: {problem}",
        industries=known,
        errors=[error_entry(["body", "profile", "industry"], problem, "unknown_industry")],
    )


def keep_a_known_industry(enriched: EnrichmentPlan, given: BirthProfile) -> EnrichmentPlan:
    """The enrichment without an industry the directory filled in that no installed pack serves:
    the profile keeps its own (the default ``accounting`` when the request named none), and the
    answer says so (``enrichment.ignored``). The person asking did not type the directory's value,
    so it does not refuse their birth; nor is the agent born with the base packs alone."""
    industry = enriched.profile.industry
    if "industry" not in enriched.filled or industry in (known := known_industries()):
        return enriched
    note = (
        f"industry: the directory's {industry!r} is served by no installed pack (the industries "
        f"are {', '.join(known)}); the birth kept {given.industry!r}"
    )
    log.warning("enrichment by %s: %s", enriched.provider, note)
    return replace(
        enriched,
        profile=enriched.profile.model_copy(update={"industry": given.industry}),
        filled=[name for name in enriched.filled if name != "industry"],
        ignored=[*enriched.ignored, note],
    )


def creed_pack(creed: CreedFile) -> tuple[KnowledgePack, frozenset[str]]:
    """The terminal creed (immutable) and the ethical core as the agent's ``creed`` pack."""
    beliefs = [
        PackBelief(
            key=f"terminal-creed-{index + 1}",
            statement=statement,
            category="ethical",
            domain="creed",
            strength=1.0,
            importance=1.0,
            is_core=True,
        )
        for index, statement in enumerate(creed.terminal_creed)
    ]
    immutable = frozenset(belief.key for belief in beliefs)
    beliefs += [
        PackBelief(
            key=seed.key,
            statement=seed.statement,
            category=seed.category,
            domain=seed.domain or "ethics",
            strength=seed.strength,
            importance=seed.importance,
            is_core=seed.is_core,
        )
        for seed in creed.ethical_core
    ]
    pack = KnowledgePack(
        name="creed",
        version=1,
        industry="self",
        description="Terminal creed (immutable) and ethical core, from seeds/creed.yaml.",
        beliefs=beliefs,
    )
    return pack, immutable


def self_pack(self_file: SelfFile) -> KnowledgePack:
    beliefs = [
        PackBelief(
            key=seed.key,
            statement=seed.statement,
            category=seed.category,
            domain=SELF_DOMAIN,
            strength=seed.strength,
            importance=seed.importance,
            is_core=seed.is_core,
        )
        for seed in self_file.self_beliefs
    ]
    return KnowledgePack(
        name="self",
        version=1,
        industry="self",
        description="The agent's initial self-beliefs, from seeds/self.yaml.",
        beliefs=beliefs,
    )


def role_pack(profile: BirthProfile, authority: float) -> KnowledgePack:
    """Beliefs about the principal and the work, from the profile."""
    company = profile.company or "the organisation"
    role = profile.role if profile.role != "unknown" else "my principal"
    beliefs = [
        PackBelief(
            key="principal",
            statement=(
                f"{profile.name} ({role} at {company}, seniority {profile.seniority}) is the "
                f"person I work for; their requests carry authority {authority:.2f}."
            ),
            category="relational",
            domain="role",
            strength=0.9,
            importance=0.9,
            is_core=True,
        ),
        PackBelief(
            key="industry-practice",
            statement=(
                f"{company} works in {profile.industry.replace('_', ' ')}; its own policies and "
                "the industry's rules come before general guidance when they differ."
            ),
            category="contextual",
            domain="role",
            strength=0.8,
            importance=0.7,
        ),
        PackBelief(
            key="approval-before-irreversible",
            statement=(
                f"Before anything irreversible is done for {company}, {profile.name} or someone "
                "they delegate approves it."
            ),
            category="relational",
            domain="role",
            strength=0.9,
            importance=0.9,
        ),
    ]
    return KnowledgePack(
        name="role",
        version=1,
        industry="self",
        description=f"Role beliefs from the birth profile of {profile.name}.",
        beliefs=beliefs,
    )


def _texts(packs: list[KnowledgePack]) -> list[tuple[str, str]]:
    """(pack/key, text) of every belief and rule, for one embedding batch."""
    out: list[tuple[str, str]] = []
    for pack in packs:
        out += [(f"{pack.name}/{b.key}", b.statement) for b in pack.beliefs]
        out += [(f"{pack.name}/rule:{r.key}", r.content) for r in pack.rules]
    return out


@dataclass(frozen=True)
class _Plan:
    """A full birth, read and validated whole before anything is written."""

    data: AgentCreate
    # The profile after enrichment.
    profile: BirthProfile
    creed: CreedFile
    self_file: SelfFile
    censors: CensorsFile
    principal: PersonCreate
    memory: MemoryMechanics
    # The creed pack, whose ``immutable`` beliefs are the terminal creed.
    creed_pack: KnowledgePack
    immutable: frozenset[str]
    # The creed, self and role packs (source ``birth``), then the industry's (source ``pack``).
    own_packs: list[KnowledgePack]
    industry_packs: list[KnowledgePack]


@dataclass(frozen=True)
class _Vectors:
    """The embeddings of every text of the birth packs, by ``pack/key``."""

    by_key: dict[str, list[float]]
    embedded: bool
    degraded: str | None
    # The model that made them (app/embeddings/embedder.py model_id).
    model: str | None = None

    def of(self, pack: KnowledgePack) -> dict[str, list[float]]:
        """The pack's own vectors, by belief key (and ``rule:<key>``)."""
        prefix = f"{pack.name}/"
        return {
            key.split("/", 1)[1]: vector
            for key, vector in self.by_key.items()
            if key.startswith(prefix)
        }


@dataclass(frozen=True)
class _Installed:
    """What a birth installed beside the packs, counted for its details."""

    frames: int
    capabilities: int
    knowledge_gaps: int


async def birth(
    graph: GraphClient,
    embedder: Embedder,
    mechanics: Mechanics,
    data: AgentCreate,
    *,
    enrichment: EnrichmentProvider | None = None,
    memory_mechanics: MemoryMechanics | None = None,
) -> BornAgent:
    """Creates an agent: full birth with a profile, else an empty agent.

    Args:
        enrichment: the directory a birth with ``data.enrich`` asks first (the request's
            ``enrichment`` server, else the settings'); None when there is none.

    Raises:
        EnrichmentNotConfigured: ``enrich`` without a provider or without a profile.
        EnrichmentFailed, EnrichmentTimedOut: the directory failed (nothing written).
        SeedFileInvalid: a seed file or pack is invalid (nothing written).
        PackNotFound: a named pack does not exist (nothing written).
        InvalidInput: the profile's industry is one no installed pack serves (nothing written,
            no directory asked).
    """
    started = time.perf_counter()
    if data.enrich and data.profile is None:
        raise EnrichmentNotConfigured("enrichment needs a profile (the principal to look up)")
    if data.enrich and enrichment is None:
        raise EnrichmentNotConfigured("no enrichment provider is configured")
    if data.profile is None:
        agent = await create_agent(graph, data)
        return BornAgent(**agent.model_dump())

    refuse_unknown_industry(data.profile)
    memory = memory_mechanics or MemoryMechanics()
    enriched = await _enrich(enrichment, data.profile) if data.enrich else None
    if enriched is not None:
        enriched = keep_a_known_industry(enriched, data.profile)
    plan = _plan(data, enriched.profile if enriched else data.profile, memory)
    vectors = await _embed_packs(embedder, plan.own_packs + plan.industry_packs)

    params = _agent_params(plan)
    agent_id: str = params["id"]
    try:
        principal = await _create_agent_and_principal(graph, plan, params)
        report = await _write_enrichment(graph, agent_id, principal, enriched, memory)
        reports = await _load_packs(graph, mechanics, agent_id, plan, vectors)
        installed = await _install_the_rest(graph, agent_id, plan)
        agent = await get_agent(graph, agent_id)
    except BaseException:
        # All or nothing: what the birth wrote goes with the agent it made (docs/packs.md §4).
        await _undo_birth(graph, agent_id)
        raise
    details = BirthDetails(
        principal=principal,
        packs=reports,
        frames=installed.frames,
        censors=len(plan.censors.censors) + sum(len(p.censors) for p in plan.industry_packs),
        capabilities=installed.capabilities,
        knowledge_gaps=installed.knowledge_gaps,
        embedded=vectors.embedded,
        degraded=vectors.degraded,
        enriched_by=enriched.provider if enriched else None,
        enrichment=report,
        ms=(time.perf_counter() - started) * 1000,
    )
    return BornAgent(**agent.model_dump(), birth=details)


async def _enrich(provider: EnrichmentProvider | None, profile: BirthProfile) -> EnrichmentPlan:
    """Asks the directory (before any write, outside any transaction) and validates its answer.

    Raises:
        EnrichmentFailed, EnrichmentTimedOut.
    """
    assert provider is not None  # birth() refuses enrich without a provider first
    started = time.perf_counter()
    answer = await provider.lookup(profile)
    plan = plan_enrichment(provider.name, profile, answer)
    return replace(plan, lookup_ms=(time.perf_counter() - started) * 1000)


async def _write_enrichment(
    graph: GraphClient,
    agent_id: str,
    principal: Person,
    enriched: EnrichmentPlan | None,
    memory: MemoryMechanics,
) -> EnrichmentReport | None:
    """The people around the principal and their reporting lines, right after the principal."""
    if enriched is None:
        return None
    started = time.perf_counter()
    written = await write_enrichment(graph, agent_id, principal, enriched, mechanics=memory)
    return EnrichmentReport(
        provider=enriched.provider,
        found=enriched.found,
        filled=enriched.filled,
        people=written.people,
        reporting_lines=written.reporting_lines,
        ignored=enriched.ignored,
        ms=enriched.lookup_ms + (time.perf_counter() - started) * 1000,
    )


def _plan(data: AgentCreate, profile: BirthProfile, memory: MemoryMechanics) -> _Plan:
    """Reads and validates everything a full birth needs, so that nothing wrong with the input
    is found after the first write.

    Raises:
        SeedFileInvalid, PackNotFound, InvalidInput (a pack named as a birth's own).
    """
    creed = read_creed()
    self_file = read_self()
    censors = read_censors()
    industry_packs = packs_for(profile, data.packs)
    for pack in industry_packs:
        refuse_birth_pack_name(pack, _packs_location(data, pack))
    _refuse_shared_censor_keys(censors, industry_packs)
    _refuse_shared_frame_keys(industry_packs)
    principal = PersonCreate.model_validate(
        {
            "name": profile.name,
            "email": profile.email,
            "role": profile.role,
            "seniority": profile.seniority,
            "context_relevance": 1.0,
            "interaction_frequency": 0.5,
            "trust": 0.8,
        }
    )
    authority = authority_for(profile.seniority, memory)
    creed_beliefs, immutable = creed_pack(creed)
    return _Plan(
        data=data,
        profile=profile,
        creed=creed,
        self_file=self_file,
        censors=censors,
        principal=principal,
        memory=memory,
        creed_pack=creed_beliefs,
        immutable=immutable,
        own_packs=[creed_beliefs, self_pack(self_file), role_pack(profile, authority)],
        industry_packs=industry_packs,
    )


def _refuse_shared_censor_keys(censors: CensorsFile, packs: list[KnowledgePack]) -> None:
    """Refuses, before anything is written, a birth whose packs bring a censor key a shipped
    default or an earlier pack of the birth holds (the load would refuse it: docs/packs.md §2).

    Raises:
        PackCensorKeyTaken: naming the pack, each key and its holder.
    """
    held = {
        censor.key: "the shipped default censor (seeds/censors.yaml)" for censor in censors.censors
    }
    for pack in packs:
        taken = {c.key: held[c.key] for c in pack.censors if c.key in held}
        if taken:
            raise PackCensorKeyTaken(pack.name, "(being born)", taken)
        held |= {c.key: f"the censor of pack {pack.name}" for c in pack.censors}


def _refuse_shared_frame_keys(packs: list[KnowledgePack]) -> None:
    """Refuses, before anything is written, a birth whose packs bring a frame key a shipped
    default frame or an earlier pack of the birth holds (the load would refuse it:
    docs/packs.md §2).

    Raises:
        PackFrameKeyTaken: naming the pack, each key and its holder.
    """
    held = {key: "the shipped default frame (seeds/frames.yaml)" for key in shipped_frame_keys()}
    for pack in packs:
        taken = {f.key: held[f.key] for f in pack.frames if f.key in held}
        if taken:
            raise PackFrameKeyTaken(pack.name, "(being born)", taken)
        held |= {f.key: f"the frame of pack {pack.name}" for f in pack.frames}


def _packs_location(data: AgentCreate, pack: KnowledgePack) -> list[str | int]:
    """Where a birth's pack comes from: the request's ``packs``, else the profile's industry."""
    if data.packs is not None and pack.name in data.packs:
        return ["body", "packs", data.packs.index(pack.name)]
    return ["body", "profile", "industry"]


async def _embed_packs(embedder: Embedder, packs: list[KnowledgePack]) -> _Vectors:
    """Every belief and rule of the packs embedded in one batch (none when embeddings fail)."""
    texts = _texts(packs)
    found = await embedder.embed([text for _, text in texts])
    return _Vectors(
        by_key=dict(zip((key for key, _ in texts), found, strict=True)) if found else {},
        embedded=found is not None,
        degraded=None if found is not None else embedder.status().reason,
        model=embedder.model_id,
    )


def _agent_params(plan: _Plan) -> dict[str, Any]:
    """The new agent's node (birth source ``full``), its id chosen before anything is written."""
    return agent_params(
        plan.data.name,
        plan.data.identity_goal or plan.self_file.identity_goal,
        list(plan.creed.terminal_creed),
        "full",
        plan.profile.industry,
    )


async def _create_agent_and_principal(
    graph: GraphClient, plan: _Plan, params: dict[str, Any]
) -> Person:
    """Creates the agent and its principal; returns the principal."""
    await graph.write("agents/store/create_agent", agent=params)
    agent_id: str = params["id"]
    principal = await create_person(
        graph, agent_id, plan.principal, birth_source="full", mechanics=plan.memory
    )
    await graph.write("agents/birth/set_principal", agent_id=agent_id, person_id=principal.id)
    return principal


async def _undo_birth(graph: GraphClient, agent_id: str) -> None:
    """Deletes what a failed birth wrote, through the agent-deletion path (the agent and every
    node of its mind); a birth that failed before the agent existed has nothing to undo. The
    birth's own error is what the caller gets: a failure here is logged."""
    try:
        await delete_agent(graph, agent_id, default_agent_name="", force=True)
    except AgentNotFound:
        return
    except Exception:
        log.exception("a failed birth left agent %s behind: deleting it failed", agent_id)
        return
    log.warning("birth of agent %s failed part-way: what it wrote was deleted", agent_id)


async def _load_packs(
    graph: GraphClient, mechanics: Mechanics, agent_id: str, plan: _Plan, vectors: _Vectors
) -> list[PackLoadReport]:
    """Loads the birth's own packs, then the industry's, each in its own transaction."""
    reports: list[PackLoadReport] = []
    for pack in plan.own_packs + plan.industry_packs:
        reports.append(
            await load_pack(
                graph,
                None,
                mechanics,
                agent_id,
                pack,
                vectors=vectors.of(pack),
                vectors_model=vectors.model,
                immutable_keys=plan.immutable if pack is plan.creed_pack else frozenset(),
                source="birth" if pack in plan.own_packs else "pack",
                # The birth strength policy: an industry pack's knowledge starts uncertain.
                strength_cap=None if pack in plan.own_packs else mechanics.birth_strength_cap,
            )
        )
    return reports


async def _install_the_rest(graph: GraphClient, agent_id: str, plan: _Plan) -> _Installed:
    """The default frames (each pack's own were installed with it: app/packs/loader.py), the
    default censors, capabilities and knowledge gaps."""
    frames = await install_frames(graph, agent_id, None)
    await install_censors(
        graph, agent_id, "default", [censor.model_dump() for censor in plan.censors.censors]
    )
    capabilities = await add_capabilities(
        graph,
        agent_id,
        [
            CapabilitySeed(domain=c.domain, proficiency=c.proficiency)
            for c in plan.self_file.capabilities
        ],
    )
    gaps = await add_knowledge_gaps(
        graph, agent_id, list(plan.self_file.knowledge_gaps), mechanics=plan.memory
    )
    return _Installed(frames=len(frames), capabilities=len(capabilities), knowledge_gaps=len(gaps))


async def ensure_default_agent(
    graph: GraphClient,
    embedder: Embedder,
    mechanics: Mechanics,
    name: str,
    industry: str,
    *,
    memory_mechanics: MemoryMechanics | None = None,
) -> tuple[Agent, bool]:
    """The agent called ``name``, born (full birth with every shipped pack of its industry's
    skill: :func:`every_pack_for`) if none exists yet.
    Returns the agent and whether it was born now."""
    existing = await find_default_agent(graph, name)
    if existing is not None:
        return await get_agent(graph, existing), False
    data = AgentCreate(
        name=name,
        profile=BirthProfile(name="Operator", role="operator", industry=industry),
        packs=[pack.name for pack in every_pack_for(industry)],
    )
    born = await birth(graph, embedder, mechanics, data, memory_mechanics=memory_mechanics)
    return born, True
