"""neomodel descriptions of the node types of docs/graph-model.md §2 (documentation: no module
of ``app/`` imports this file, and neomodel is a development dependency only; graph-model.md §6).

They document the persisted shape of each label and are kept in agreement with ``schema/`` by an
integration test (every ``unique_index``/``index``/fulltext/vector property here has its
constraint or index in the migrated database, and every single-property index there is declared
here). Queries are written in ``cypher/``; these classes are never returned from the API, and the
schema is created by the migrations, never by neomodel's ``install_labels``.
"""

from __future__ import annotations

from neomodel import (
    ArrayProperty,
    BooleanProperty,
    DateProperty,
    DateTimeNeo4jFormatProperty,
    FloatProperty,
    FulltextIndex,
    IntegerProperty,
    JSONProperty,
    StringProperty,
    StructuredNode,
    VectorIndex,
)

EMBEDDING_DIMENSIONS = 384


def _embedding() -> ArrayProperty:
    return ArrayProperty(FloatProperty(), vector_index=VectorIndex(EMBEDDING_DIMENSIONS, "cosine"))


def _fulltext(required: bool = False) -> StringProperty:
    return StringProperty(fulltext_index=FulltextIndex(), required=required)


class AgentScoped(StructuredNode):
    """Every node: a UUID ``id`` (unique per label) and the ``agent_id`` of its mind."""

    __abstract_node__ = True
    # Stored as `id`; named `uid` here because StructuredNode.id is neomodel's own node id.
    uid = StringProperty(unique_index=True, required=True, db_property="id")
    agent_id = StringProperty(index=True, required=True)


class Agent(AgentScoped):
    name = StringProperty(required=True)
    event_seq = IntegerProperty(default=0)
    evidence_seq = IntegerProperty(default=0)
    # The last number given to a pack's skill (docs/packs.md §5).
    skill_seq = IntegerProperty()
    high_dissatisfaction_streak = IntegerProperty(default=0)
    # Running sums over active beliefs for dissatisfaction in constant time:
    # Σ importance, Σ importance·degree, Σ tension·importance, Σ tension·importance·degree.
    d_imp = FloatProperty(default=0.0)
    d_imp_deg = FloatProperty(default=0.0)
    d_t_imp = FloatProperty(default=0.0)
    d_t_imp_deg = FloatProperty(default=0.0)
    d_max_degree = IntegerProperty(default=0)
    identity_goal = StringProperty()
    terminal_creed = ArrayProperty(StringProperty())
    birth_source = StringProperty(choices={"full": "full", "micro": "micro", "api": "api"})
    created_at = DateTimeNeo4jFormatProperty()
    # What the agent knows it does not know yet (app/memory/self_model.py).
    knowledge_gaps = ArrayProperty(StringProperty())
    suggested_goals = ArrayProperty(StringProperty())
    last_introspection_at = DateTimeNeo4jFormatProperty()


class Belief(AgentScoped):
    statement = _fulltext(required=True)
    # The words the lexical search scores it by (app/text/lexical.py scored_words): the counted
    # tokens of its statement, in order, and every token's count.
    lexical_terms = ArrayProperty(StringProperty())
    token_count = IntegerProperty()
    category = StringProperty(index=True)
    domain = StringProperty()
    strength = FloatProperty()
    tension = FloatProperty()
    importance = FloatProperty()
    is_core = BooleanProperty(default=False)
    is_immutable = BooleanProperty(default=False)
    is_active = BooleanProperty(default=True)
    is_invalidated = BooleanProperty(default=False)
    is_distrusted = BooleanProperty(default=False)
    reinforcement_count = IntegerProperty(default=0)
    # SUPPORTS and CONTRADICTS edges to other active beliefs (kept by the write paths).
    degree = IntegerProperty(default=0)
    source = StringProperty()
    created_at = DateTimeNeo4jFormatProperty()
    last_reinforced = DateTimeNeo4jFormatProperty()
    last_challenged = DateTimeNeo4jFormatProperty()
    revised_at = DateTimeNeo4jFormatProperty()
    # An explicitly set supervision mode overrides the one derived from strength.
    supervision_mode = StringProperty()
    embedding = _embedding()
    # The model that made the vector (app/embeddings/bundled.py); a reindex stores the new
    # one beside it (embedding_next, embedding_next_model) until the swap.
    embedding_model = StringProperty()
    # True from the write until the vector is stored (app/embeddings/store.py).
    embedding_pending = BooleanProperty()


class Context(AgentScoped):
    name = StringProperty(required=True)


class BeliefEvent(AgentScoped):
    belief_id = StringProperty(index=True, required=True)
    kind = StringProperty(required=True)
    action = StringProperty()
    weight = FloatProperty()
    delta = FloatProperty()
    origin_belief_ids = ArrayProperty(StringProperty())
    weights = ArrayProperty(FloatProperty())
    evidence_ids = ArrayProperty(StringProperty())
    hops = IntegerProperty()
    revision_id = StringProperty()
    note = StringProperty()
    context_names = ArrayProperty(StringProperty())
    context_strengths = ArrayProperty(FloatProperty())
    outcome = StringProperty()
    moral_valence = StringProperty()
    severity = FloatProperty()
    multiplier = FloatProperty()
    old_strength = FloatProperty()
    new_strength = FloatProperty()
    old_tension = FloatProperty()
    new_tension = FloatProperty()
    context = StringProperty()
    at = DateTimeNeo4jFormatProperty()
    seq = IntegerProperty()


class Evidence(AgentScoped):
    belief_id = StringProperty()
    episode_id = StringProperty()
    text = StringProperty()
    kind = StringProperty()
    stance = StringProperty()
    weight = FloatProperty()
    tension_delta = FloatProperty()
    source_person = StringProperty()
    at = DateTimeNeo4jFormatProperty()
    seq = IntegerProperty()


class Revision(AgentScoped):
    trigger_tension = FloatProperty()
    old_statement = StringProperty()
    new_statement = StringProperty()
    evidence_summary = StringProperty()
    reasoning = StringProperty()
    behavioral_changes = ArrayProperty(StringProperty())
    depth = IntegerProperty()
    mode = StringProperty()
    reasoner = StringProperty()
    at = DateTimeNeo4jFormatProperty()


class Episode(AgentScoped):
    user_message = _fulltext()
    response = _fulltext()
    text = StringProperty()
    # "<speaker>: <text>" (the speaker left out when a role): what the fulltext index holds.
    search_text = _fulltext()
    speaker = StringProperty()
    # The speaker in lower case (V0031): the episode vector index filters by it.
    speaker_key = StringProperty()
    external_id = StringProperty()
    occurred_at = DateTimeNeo4jFormatProperty(index=True)
    outcome = StringProperty()
    emotional_valence = FloatProperty()
    is_peak = BooleanProperty(default=False)
    is_end = BooleanProperty(default=False)
    surprise = FloatProperty()
    coherence_penalty = FloatProperty()
    interference = IntegerProperty(default=0)
    frame = StringProperty()
    supervision_mode = StringProperty()
    dissatisfaction = FloatProperty()
    revision_triggered = BooleanProperty(default=False)
    trivial = BooleanProperty(default=False)
    consolidated = BooleanProperty(default=False)
    embedding = _embedding()
    # The model that made the vector (app/embeddings/bundled.py); a reindex stores the new
    # one beside it (embedding_next, embedding_next_model) until the swap.
    embedding_model = StringProperty()
    # Peak-end salience (2.0 peak, 1.5 end, 1.0 otherwise; set when the session ends).
    salience = FloatProperty(default=1.0)
    actions = IntegerProperty(default=0)
    session_key = StringProperty()
    # The dates the text mentions, resolved against occurred_at (app/text/dates.py): ISO
    # strings, "2023-05-07" (a day), "2023-05" (a month), "2023" (a year).
    mentioned_dates = ArrayProperty(StringProperty())
    # The words the lexical search scores it by (app/memory/lexical_stats.py): the counted tokens
    # of its search text, message and response, in order, repeats kept; and every token's count.
    lexical_terms = ArrayProperty(StringProperty())
    token_count = IntegerProperty()
    # Order of arrival in the session (ties of occurred_at); the session's chain is NEXT edges.
    seq = IntegerProperty()
    # What the vector embeds: 2 = previous turn + search text (app/embeddings/store.py).
    embedding_scheme = IntegerProperty()
    created_at = DateTimeNeo4jFormatProperty()


class LexicalCorpus(AgentScoped):
    """An agent's episodes as a lexical corpus (``id`` = the agent id): how many are counted and
    their total length in tokens (app/text/lexical.py), for the per-agent BM25 of the episode
    search."""

    docs = IntegerProperty(default=0)
    length = IntegerProperty(default=0)


class LexicalTerm(AgentScoped):
    """How many of the agent's episodes hold ``term`` (``id`` = "<agent id>|<term>")."""

    term = StringProperty()
    df = IntegerProperty(default=0)


class Subject(AgentScoped):
    """What episodes are about (``id`` = "<agent id>|<key>"): a name or a topic found offline
    (app/text/entities.py), linked from each episode that mentions it by ``MENTIONS`` (a
    topic's edge keeps ``surface``, the word's form in that episode); ``episodes`` counts them."""

    key = StringProperty()
    kind = StringProperty()
    episodes = IntegerProperty(default=0)


class Session(AgentScoped):
    key = StringProperty(required=True)
    started_at = DateTimeNeo4jFormatProperty()
    ended_at = DateTimeNeo4jFormatProperty()
    summary = StringProperty()
    lessons = ArrayProperty(StringProperty())


class Person(AgentScoped):
    name = _fulltext(required=True)
    # Lower-cased name, whitespace collapsed: case-insensitive look-ups (micro-birth, mentions).
    name_key = StringProperty()
    email = StringProperty()
    role = StringProperty()
    # entry/junior/senior/manager/director/vp/c_suite/unknown; authority follows from it.
    seniority = StringProperty()
    authority = FloatProperty()
    interaction_frequency = FloatProperty()
    interaction_count = IntegerProperty(default=0)
    context_relevance = FloatProperty()
    # 0.6·authority + 0.2·interaction_frequency + 0.2·context_relevance, rewritten on every write.
    relationship_value = FloatProperty()
    trust = FloatProperty()
    # Affect as flat numbers (sortable, filterable): valence −1..1, arousal and stress 0..1.
    affect_valence = FloatProperty()
    affect_arousal = FloatProperty()
    affect_stress = FloatProperty()
    knowledge_level = StringProperty()
    # Open-ended keys, always read and written whole: one JSON string.
    preferences = JSONProperty()
    # The person model the loop keeps (docs/memory.md §2), each one JSON string read and written
    # whole: domain -> {level, score, signals, updated_at}; the latest trust changes (cause,
    # before, after, delta, reason, ref, at); inferred goals and successful patterns, latest first.
    knowledge = JSONProperty()
    trust_history = JSONProperty()
    inferred_goals = JSONProperty()
    successful_patterns = JSONProperty()
    birth_source = StringProperty(
        choices={"full": "full", "micro": "micro", "api": "api", "enrichment": "enrichment"}
    )
    created_at = DateTimeNeo4jFormatProperty()
    last_seen = DateTimeNeo4jFormatProperty()
    # Other names that mean the person (docs/memory.md §2: a merged person's, or given by hand):
    # their name_keys (what look-ups match; no index serves a list) and, in the same order, the
    # names as written (shown; absent for aliases stored before they were kept).
    alias_keys = ArrayProperty(StringProperty())
    alias_names = ArrayProperty(StringProperty())


class Frame(AgentScoped):
    key = StringProperty(required=True)
    name = StringProperty()
    description = StringProperty()
    activation_patterns = ArrayProperty(StringProperty())
    default_category = StringProperty()
    default_stakes = StringProperty()
    questions_to_ask = ArrayProperty(StringProperty())
    context_budget = IntegerProperty()
    position = IntegerProperty()
    # "seed", or "pack:<name>" for a pack's frames.
    source = StringProperty()
    installed_at = DateTimeNeo4jFormatProperty()
    updated_at = DateTimeNeo4jFormatProperty()
    # False once a version of its pack dropped it (docs/packs.md §3): no frame choice reads it.
    is_active = BooleanProperty(default=True)
    deactivated_at = DateTimeNeo4jFormatProperty()
    retired_by_pack = BooleanProperty()
    retired_in_version = IntegerProperty()


_TASK_STATES = (
    "planning",
    "executing",
    "awaiting_input",
    "blocked",
    "completed",
    "cancelled",
    "evicted",
)


class Task(AgentScoped):
    description = StringProperty()
    state = StringProperty(choices={state: state for state in _TASK_STATES})
    source = StringProperty()
    # A turn's task: its work unit's verb, and the approval it waited on.
    verb = StringProperty()
    approval_id = StringProperty()
    started_at = DateTimeNeo4jFormatProperty()
    ended_at = DateTimeNeo4jFormatProperty()
    # Each transition (parallel lists, oldest first): the state entered, when, and why.
    history_states = ArrayProperty(StringProperty())
    history_at = ArrayProperty(DateTimeNeo4jFormatProperty())
    history_causes = ArrayProperty(StringProperty())


class Note(AgentScoped):
    content = StringProperty()
    # 0..10, higher first.
    priority = IntegerProperty()
    created_at = DateTimeNeo4jFormatProperty()
    expires_at = DateTimeNeo4jFormatProperty()
    source = StringProperty()


class Entity(AgentScoped):
    name = StringProperty()
    name_key = StringProperty()
    kind = StringProperty()
    mention_count = IntegerProperty(default=0)
    first_seen = DateTimeNeo4jFormatProperty()
    last_seen = DateTimeNeo4jFormatProperty()


class Rule(AgentScoped):
    trigger_concept = StringProperty()
    content = _fulltext(required=True)
    # The words the lexical search scores its content by (as a belief's).
    lexical_terms = ArrayProperty(StringProperty())
    token_count = IntegerProperty()
    source = StringProperty(
        choices={
            "reflection": "reflection",
            "manual": "manual",
            "consolidation": "consolidation",
            "pack": "pack",
        }
    )
    confidence = FloatProperty()
    validation_count = IntegerProperty(default=0)
    last_validated = DateTimeNeo4jFormatProperty()
    created_at = DateTimeNeo4jFormatProperty()
    # The decayed confidence the scheduler's monthly pass recorded, and when (docs/loop.md §14).
    decayed_confidence = FloatProperty()
    decayed_at = DateTimeNeo4jFormatProperty()
    embedding = _embedding()
    # The model that made the vector (app/embeddings/bundled.py); a reindex stores the new
    # one beside it (embedding_next, embedding_next_model) until the swap.
    embedding_model = StringProperty()
    embedding_pending = BooleanProperty()
    # A pack's rule: the pack and its key there (docs/packs.md §3).
    pack_name = StringProperty()
    pack_key = StringProperty()
    # False once a version of its pack dropped it (kept for history; every reader skips it).
    is_active = BooleanProperty(default=True)
    deactivated_at = DateTimeNeo4jFormatProperty()
    retired_by_pack = BooleanProperty()
    retired_in_version = IntegerProperty()


class Capability(AgentScoped):
    domain = StringProperty()
    proficiency = FloatProperty()
    experience_count = IntegerProperty(default=0)
    success_rate = FloatProperty()
    last_refined = DateTimeNeo4jFormatProperty()


class Censor(AgentScoped):
    pattern = StringProperty(required=True)
    reason = StringProperty()
    action = StringProperty()
    auto_created = BooleanProperty(default=False)
    key = StringProperty()
    pack_name = StringProperty()
    pack_key = StringProperty()
    source = StringProperty()
    session_key = StringProperty()
    is_active = BooleanProperty(default=True)
    # Set while a pack's censor is retired by a version that dropped its key (docs/packs.md §3),
    # with that version.
    retired_by_pack = BooleanProperty()
    retired_in_version = IntegerProperty()
    created_at = DateTimeNeo4jFormatProperty()
    deactivated_at = DateTimeNeo4jFormatProperty()


class Decision(AgentScoped):
    description = StringProperty()
    confidence = FloatProperty()
    proposed_confidence = FloatProperty()
    stakes = StringProperty()
    work_unit = JSONProperty()
    outcome = StringProperty()
    # Set when a person modified the unit: what was proposed (description, work_unit: what ran).
    proposed_description = StringProperty()
    proposed_work_unit = JSONProperty()


class Reason(AgentScoped):
    text = StringProperty()
    weight = FloatProperty()


class Approval(AgentScoped):
    kind = StringProperty()
    belief_id = StringProperty()
    proposed_statement = StringProperty()
    status = StringProperty()
    payload = JSONProperty()
    work_unit = JSONProperty()
    # What a `modify` answer ran instead of work_unit (a tool call's tool and arguments).
    modified_work_unit = JSONProperty()
    response = JSONProperty()
    turn_state = JSONProperty()
    created_at = DateTimeNeo4jFormatProperty()
    expires_at = DateTimeNeo4jFormatProperty()


class Connection(AgentScoped):
    """An MCP server connected to the agent (app/tools): how to reach it, secret names only."""

    name = StringProperty(required=True)
    transport = StringProperty()
    command = StringProperty()
    args = ArrayProperty(StringProperty())
    cwd = StringProperty()
    url = StringProperty()
    env_names = ArrayProperty(StringProperty())
    header_names = ArrayProperty(StringProperty())


class Tool(AgentScoped):
    """A tool of a connected server, and the belief the agent holds about it."""

    qualified_name = StringProperty(required=True)
    name = StringProperty()
    connection = StringProperty()
    description = StringProperty()
    input_schema = JSONProperty()
    read_only = BooleanProperty()
    destructive = BooleanProperty()
    idempotent = BooleanProperty()
    embedding = ArrayProperty(FloatProperty())
    # The model that made the vector (app/embeddings/bundled.py); a reindex stores the new
    # one beside it (embedding_next, embedding_next_model) until the swap.
    embedding_model = StringProperty()
    belief_id = StringProperty()
    updated_at = DateTimeNeo4jFormatProperty()


class Action(AgentScoped):
    """One call of a tool: what was sent, what came back, linked to its turn."""

    qualified_name = StringProperty()
    connection = StringProperty()
    tool = StringProperty()
    arguments = JSONProperty()
    status = StringProperty()
    mode = StringProperty()
    duration_ms = FloatProperty()
    result = StringProperty()
    is_error = BooleanProperty()
    decision_id = StringProperty()
    episode_id = StringProperty()
    approval_id = StringProperty()
    created_at = DateTimeNeo4jFormatProperty()
    completed_at = DateTimeNeo4jFormatProperty()
    # The call's memory (JSON) until it is written, right after the answer
    # (app/loop/call_memory.py); absent once written.
    memory_pending = StringProperty()


class KnowledgePack(AgentScoped):
    name = StringProperty(required=True)
    version = StringProperty()
    industry = StringProperty()
    checksum = StringProperty()
    loaded_at = DateTimeNeo4jFormatProperty()
    # The skill the pack brought (docs/packs.md §5): its JSON, name and version, and its number
    # from the agent's skill_seq (the highest is in force).
    skill = StringProperty()
    skill_name = StringProperty()
    skill_version = IntegerProperty()
    skill_seq = IntegerProperty()


class DissatisfactionSample(AgentScoped):
    """One observed turn's dissatisfaction (for its history and the meditation streak)."""

    value = FloatProperty()
    band = StringProperty()
    at = DateTimeNeo4jFormatProperty()


class CorpusDocument(AgentScoped):
    """A document of the research corpus a user loaded (issue 16); ``id`` is derived from
    (agent_id, document_id), which is unique per agent."""

    document_id = StringProperty(required=True)
    name = StringProperty()
    title = StringProperty()
    origin = StringProperty()
    published = DateProperty()
    loaded_at = DateTimeNeo4jFormatProperty()
    checksum = StringProperty()
    passages = IntegerProperty(default=0)


class CorpusPassage(AgentScoped):
    """A passage of a corpus document, searched by vector and fulltext like an episode
    (``lexical_terms``: the counted tokens of its title and text, in order, the words the corpus
    search's BM25 scores it by; ``token_count``: every token, what it averages; both given on
    the first search to passages loaded before they were stored)."""

    document_id = StringProperty(required=True)
    ordinal = IntegerProperty()
    title = _fulltext()
    text = _fulltext(required=True)
    lexical_terms = ArrayProperty(StringProperty())
    token_count = IntegerProperty()
    embedding = _embedding()
    # The model that made the vector (app/embeddings/bundled.py); a reindex stores the new
    # one beside it (embedding_next, embedding_next_model) until the swap.
    embedding_model = StringProperty()


class Investigation(AgentScoped):
    """A research investigation (issue 16): a question tested step by step."""

    question = StringProperty(required=True)
    status = StringProperty(required=True)
    iteration = IntegerProperty(default=0)
    iteration_cap = IntegerProperty()
    started_by = StringProperty()
    sources = ArrayProperty(StringProperty())
    started_at = DateTimeNeo4jFormatProperty()
    finished_at = DateTimeNeo4jFormatProperty()
    verdict = StringProperty()
    report = StringProperty()
    error = StringProperty()


class Hypothesis(AgentScoped):
    """A statement an investigation tests."""

    investigation_id = StringProperty(required=True)
    ordinal = IntegerProperty()
    statement = StringProperty(required=True)
    status = StringProperty()
    confidence = FloatProperty()
    # Searches a source answered; those no source answered count apart (docs/research.md).
    searches = IntegerProperty(default=0)
    failed_searches = IntegerProperty(default=0)
    # The sources (or "<source>/<part>") that failed in its searches, not answered one since.
    failed_sources = ArrayProperty(StringProperty())
    last_query = StringProperty()
    embedding = ArrayProperty(FloatProperty())
    # The model that made the vector (app/embeddings/bundled.py); a reindex stores the new
    # one beside it (embedding_next, embedding_next_model) until the swap.
    embedding_model = StringProperty()


class Source(AgentScoped):
    """A passage an investigation found (unique per investigation, kind and ref)."""

    investigation_id = StringProperty(required=True)
    number = IntegerProperty()
    source_name = StringProperty()
    kind = StringProperty()
    ref = StringProperty()
    title = StringProperty()
    origin = StringProperty()
    text = StringProperty()
    published = DateProperty()
    score = FloatProperty()


class ResearchEvidence(AgentScoped):
    """The stance of a source on a hypothesis (unique per hypothesis and source)."""

    investigation_id = StringProperty(required=True)
    hypothesis_id = StringProperty(required=True)
    source_id = StringProperty(required=True)
    stance = StringProperty()
    confidence = FloatProperty()
    reason = StringProperty()
    reasoner = StringProperty()


class Conflict(AgentScoped):
    """Two sources that disagree about a hypothesis, and how that was settled."""

    investigation_id = StringProperty(required=True)
    hypothesis_id = StringProperty(required=True)
    pair = StringProperty()
    status = StringProperty()
    first_source_id = StringProperty()
    second_source_id = StringProperty()
    resolution = StringProperty()
    basis = StringProperty()
    winner_source_id = StringProperty()


class ResearchStep(AgentScoped):
    """One step an investigation took (unique per investigation and ordinal)."""

    investigation_id = StringProperty(required=True)
    ordinal = IntegerProperty()
    kind = StringProperty()
    started_at = DateTimeNeo4jFormatProperty()
    duration_ms = FloatProperty()
    model_calls = IntegerProperty()
    input_tokens = IntegerProperty()
    output_tokens = IntegerProperty()
    reasoners = ArrayProperty(StringProperty())
    summary = StringProperty()
    details = StringProperty()


class AgentLock(StructuredNode):
    """An agent's write lock: written only by ``graph/agent_scope/lock_agent`` (and the
    deletion's lock), so concurrent writers serialise on it without deadlocking on the Agent node
    they also update. Created on first use; deleted with the agent."""

    # Not agent_id: the lock is bookkeeping, not part of the agent's mind (nor counted with it).
    of_agent = StringProperty(unique_index=True, required=True)
    write_count = IntegerProperty(default=0)


class ScheduledJob(StructuredNode):
    """One background job of the scheduler (docs/loop.md §14): per job kind, and agent for the
    per-agent jobs; claimed with a lease so that one process runs it."""

    # "<job>" or "<job>:<agent id>"; no id: the key is its identity.
    key = StringProperty(unique_index=True, required=True)
    job = StringProperty(required=True)
    # Null for a job of the whole graph.
    agent_id = StringProperty(index=True)
    lease_owner = StringProperty()
    lease_until = DateTimeNeo4jFormatProperty()
    claimed_at = DateTimeNeo4jFormatProperty()
    claim_tried_at = DateTimeNeo4jFormatProperty()
    last_run_at = DateTimeNeo4jFormatProperty()
    last_outcome = StringProperty(
        choices={"ok": "ok", "skipped": "skipped", "failed": "failed", "timed_out": "timed_out"}
    )
    last_duration_ms = FloatProperty()
    last_detail = StringProperty()
    last_owner = StringProperty()
    runs = IntegerProperty(default=0)
    created_at = DateTimeNeo4jFormatProperty()


NODE_MODELS: tuple[type[StructuredNode], ...] = (
    AgentLock,
    ScheduledJob,
    Agent,
    Belief,
    Context,
    BeliefEvent,
    Evidence,
    Revision,
    Episode,
    LexicalCorpus,
    LexicalTerm,
    Subject,
    Session,
    Person,
    Frame,
    Task,
    Note,
    Entity,
    Rule,
    Capability,
    Censor,
    Decision,
    Reason,
    Approval,
    Connection,
    Tool,
    Action,
    KnowledgePack,
    DissatisfactionSample,
    CorpusDocument,
    CorpusPassage,
    Investigation,
    Hypothesis,
    Source,
    ResearchEvidence,
    Conflict,
    ResearchStep,
)
