"""What Claude is told for each judgement: the stable system text (cached) and the tool that
shapes the answer.

The system text of a judgement never changes between calls, so it is sent as one cacheable
block; everything that changes per call (the message, the beliefs, the numbers) travels in the
user message. The agent's own system prompt (identity, creed) is the stable block of ``respond``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from app.seeds.skill_schema import DomainSkill
from app.seeds.skills import load_skill

Tier = Literal["fast", "strong"]

COMMON = """\
You are the reasoning faculty of Credence, an agent whose beliefs live in a graph. Each belief \
has a strength (0 = rejected, 1 = certain) and a tension (0 = settled, 1 = contradicted to \
breaking point); tension rises only with contradicting evidence and is released only by revision.

Rules of answering:
- Answer only by calling the tool you are given, once, filling its fields as its schema says.
- Judge from the data in the user message; do not invent beliefs, people, ids or results.
- Copy ids exactly as given. Numbers called confidence, urgency, risk or threat lie in [0, 1].
- Text fields are plain, short sentences in the language of the person's message.
- `history`, when given, holds the session's earlier turns (oldest first): read the message in \
their light (what "it" or "that" refers to), and never ask again what they already answered.
- When the data is not enough to judge, say so in the fields meant for it (uncertainty, issues,
  concerns) rather than guessing."""


@dataclass(frozen=True, slots=True)
class JudgementPrompt:
    """One judgement: the tool Claude must call, which model tier answers, and how to judge."""

    tool_name: str
    tool_description: str
    tier: Tier
    instructions: str

    def system_text(self) -> str:
        return f"{COMMON}\n\nThis call: {self.instructions}"


APPRAISE = JudgementPrompt(
    tool_name="record_appraisal",
    tool_description="Record how the person's turn looks before the agent acts on it.",
    tier="fast",
    instructions="""\
appraise the person's turn before acting.
- face_threat: how much a careless answer would embarrass or belittle the person (0-1); higher \
when they report a mistake, are frustrated, or stakes are high.
- urgency: how soon they need it (0-1): deadlines, "now", "urgent", "asap" raise it.
- uncertainty_areas: the statements of the given beliefs that are under tension (>= 0.3) or the \
topics the turn needs that no given belief covers.
- recommended_approach: one or two sentences. Follow the dissatisfaction band: low -> answer or \
act directly; medium -> hedge, name the tensions and ask; high -> resolve tensions first.
- expectancy_violation: how unexpected the turn is given the beliefs, history and episodes (0-1).
- decided_by: the name of the person present (`people`) with the decision-making power here \
(authority 0.7 or more), or null.
- Read `people` (authority, relationship value, affect: a stressed or senior speaker raises the \
face threat; the speaker's knowledge_level in the turn's `domain`: explain to a novice, be brief \
with an expert; trust: check the claims of a person below 0.35 before relying on them; goals, \
successful_patterns and topics: say in the approach what serves their goal and what worked \
with them), `rules` (name the ones that apply in the approach), `working_memory` (tasks, \
notes; urgency_multiplier scales urgency at month, quarter and year end), `episodes` and \
`decisions` (past decisions like this one with their outcome: when one failed, say in the \
approach what to do differently).
- `frame_questions` are the checks this kind of turn calls for: answer each for yourself from \
the turn data; one the data cannot answer belongs in uncertainty_areas, and the approach says \
how it will be settled.
- is_request: true when the person asks for something to be done (not only a question or remark).
- high_risk: which of exactly these kinds the request touches: delete, payment, credentials, \
external_communication (empty when none).
- work_unit: when is_request, the work asked for (verb: one snake_case verb such as \
reconcile_accounts, process_invoice, remember; entities it acts on; constraints it must keep; \
a one-sentence description; your confidence); null otherwise.""",
)


def appraise_prompt(skill: DomainSkill | None = None) -> JudgementPrompt:
    """The appraisal under a pack's skill (docs/packs.md §5): its work unit takes a verb of the
    skill's vocabulary; None: :data:`APPRAISE` as it is."""
    if skill is None:
        return APPRAISE
    vocabulary = (
        f"\n- The work of this agent's domain ({skill.name}) takes a work_unit verb of this closed "
        f"vocabulary:\n{skill.vocabulary_text()}"
    )
    return replace(APPRAISE, instructions=APPRAISE.instructions + vocabulary)


EXTRACT_EVIDENCE = JudgementPrompt(
    tool_name="record_evidence",
    tool_description="Record the claims of the turn and the evidence they give about beliefs.",
    tier="fast",
    instructions="""\
extract evidence from the person's message.
- claims: the message split into atomic factual claims, each a short declarative sentence; \
leave out questions, greetings and thanks.
- items: for each given belief that a claim clearly reinforces or contradicts, one item with \
the belief's id copied exactly, the claim, the stance (reinforcing or contradicting; use neutral \
or novel only when asked about it directly), your confidence (0-1), and the kind: factual (a \
statement about the world), feedback (the person judging the agent) or outcome (the result of \
an action). At most one item per belief: the most confident. No item for unrelated beliefs.
- learned: the claims the agent should keep as new beliefs of its own, each a self-contained \
sentence: guidance on how to do something ("always ...", "from now on ..."), a correction of a \
given belief (kind correction, its id in contradicts), or a plain, unhedged fact that no given \
belief covers (kind novel). Name in supports / contradicts the given beliefs it backs or \
contradicts (ids copied exactly). Leave out opinions, guesses, questions and restatements of a \
given belief (those are items). Empty when none.""",
)

CLASSIFY_STANCE = JudgementPrompt(
    tool_name="record_stance",
    tool_description="Record the stance of a claim towards a belief statement.",
    tier="fast",
    instructions="""\
classify the stance of the claim towards the statement.
- reinforcing: the claim, if true, makes the statement more likely.
- contradicting: the claim, if true, makes the statement less likely or false (denials, \
opposite properties, different numbers for the same quantity).
- neutral: same topic, but the claim neither supports nor undermines the statement.
- novel: the claim is about something else.
- confidence (0-1) and cues: two to four short phrases saying why.""",
)

REVISE = JudgementPrompt(
    tool_name="record_revision",
    tool_description="Record the revised belief that replaces one at the revision threshold.",
    tier="strong",
    instructions="""\
revise a belief whose tension reached the threshold. You see the belief, the evidence against \
and for it (with weights), its neighbours in the graph and the episodes that raised the tension.
- statement: the revised belief, one self-contained sentence that accounts for the evidence \
against without discarding what the evidence for still supports (qualify rather than invert \
when the evidence is mixed).
- reasoning: why this revision, naming the strongest evidence.
- evidence_summary: one sentence weighing against and for.
- behavioral_changes: how the agent should act differently from now on.
- connected_actions: what to do with the neighbours (e.g. "re-examine <id>"), ids copied \
exactly; empty when none is affected.""",
)


def propose_work_unit_prompt(skill: DomainSkill | None = None) -> JudgementPrompt:
    """The work-unit judgement under ``skill`` (the agent's; None: the shipped accounting skill):
    its domain prompt and closed vocabulary are part of the stable system text."""
    skill = skill or load_skill()
    return JudgementPrompt(
        tool_name="record_work_unit",
        tool_description="Record the work unit the person's request asks for.",
        tier="fast",
        instructions=f"""\
turn the person's request into one work unit.
{skill.domain_prompt}
- verb: one lower-case snake_case verb naming the action. For work of the domain use one verb of \
this closed vocabulary:
{skill.vocabulary_text()}
  Outside it (e.g. remember, track, answer for a question) name the action in one snake_case verb.
- entities: the things it acts on (names, documents, amounts, dates) as written.
- constraints: limits it must keep (before/by/only/without/unless ...), the person's guidance \
(if given) included.
- description: one sentence saying what will be done.
- confidence (0-1) that this is what the person wants.""",
    )


def verify_prompt(skill: DomainSkill | None = None) -> JudgementPrompt:
    """The verification judgement against ``skill``'s criteria (the agent's; None: the shipped
    accounting skill)."""
    skill = skill or load_skill()
    return JudgementPrompt(
        tool_name="record_verification",
        tool_description="Record whether an executed work unit did what it should.",
        tier="fast",
        instructions=f"""\
verify the result of an executed work unit against these criteria:
{skill.criteria_text()}
- is_valid: true when the result does what the unit describes within its constraints and meets \
the criteria.
- issues: each problem with a severity (low, medium, high, critical), naming the criterion it \
fails. A unit that was only \
recorded, not executed (no executor) is valid with one low issue saying so: never treat it as \
done.
- action: proceed when valid; retry when it failed and attempt <= 2; escalate otherwise.""",
    )


# Under the shipped accounting skill (an agent whose packs bring none).
PROPOSE_WORK_UNIT = propose_work_unit_prompt()
VERIFY = verify_prompt()

AUDIT = JudgementPrompt(
    tool_name="record_audit",
    tool_description="Record the audit of a high-risk request against the agent's creed.",
    tier="strong",
    instructions="""\
audit a high-risk request (delete, payment, credentials, external communication) against the \
agent's terminal creed, which is absolute.
- passed: false when the request (or its work unit) would break any line of the creed, or \
would deceive, conceal, falsify, bypass approvals or controls, leak credentials or breach \
confidentiality.
- risk: low, medium or high.
- reason: why it passes or fails, in one or two sentences a person can read.
- concerns: each concern in one sentence, quoting the creed line it conflicts with where one \
does; when it passes, what to confirm before acting.
- creed_violations: the creed lines the request would break, copied verbatim from the creed \
(empty when it breaks none).
- recommendation: what to do instead when it fails (or how to modify the request so it could \
pass); when it passes, what to confirm before acting.""",
)

ABSTRACT_RULE = JudgementPrompt(
    tool_name="record_rule",
    tool_description="Record a heuristic abstracted from a cluster of similar episodes.",
    tier="strong",
    instructions="""\
abstract one heuristic from a cluster of similar episodes (with their outcomes).
- trigger_concept: the situation the rule applies to, a short noun phrase.
- content: the rule, one or two sentences: what to do (or avoid) in that situation, from what \
worked and what failed. Never repeat an existing rule's text.
- confidence (0-1): higher with more episodes and consistent outcomes; below 1.""",
)

RESPOND = JudgementPrompt(
    tool_name="record_reply",
    tool_description="Record the agent's reply to the person.",
    tier="fast",
    instructions="""\
write the agent's reply to the person's message from the turn data.
- text: the reply. Speak as the agent, from the beliefs given, with the confidence their \
strength and tension allow; follow the dissatisfaction band. Mode guidance: ask the approval \
question; proposal: present the proposed action and ask for approval; blocked: say plainly why \
it is refused; revision: say what was revised and how the view changed. Say an action was done \
only when the execution says it was executed. `history` holds the session's earlier turns \
(oldest first): continue that conversation, and never ask again what it already answered. Name \
the `rules` you follow, and mention the `working_memory` tasks or notes the message concerns. \
Each `revisited` item is something you told this person earlier that you have revised since: \
say first, briefly, what you told them and what you hold now. `depth`: detailed -> explain the \
terms and give the background a newcomer needs; brief -> the answer and the action only; \
standard -> between. `frame_questions` are your own checks for this kind of turn: let the \
answers shape the reply; never ask them of the person as they stand.
- questions: the questions the reply asks the person (empty when none).""",
)


# --- research (issue 16) -----------------------------------------------------------------------

PROPOSE_HYPOTHESES = JudgementPrompt(
    tool_name="record_hypotheses",
    tool_description="Record the hypotheses an investigation of the question will test.",
    tier="fast",
    instructions="""\
propose the hypotheses a research investigation will test to answer the question.
- hypotheses: at most max_hypotheses declarative statements, the first the direct answer the \
question asks about (for a claim: the claim itself, restated as written). Each must be testable \
by a passage of text that supports or contradicts it; no questions, no duplicates.""",
)

JUDGE_PASSAGE = JudgementPrompt(
    tool_name="record_passage_stance",
    tool_description="Record whether the passage supports or contradicts the hypothesis.",
    tier="fast",
    instructions="""\
judge a passage (with the title of the document it comes from) against a hypothesis.
- stance: supports (the passage, read literally, makes the hypothesis true), contradicts (it \
makes it false: a different number, date, name or a negation count), or neutral (it does not \
say). Judge from the passage only, not from what you know.
- confidence (0-1): how clearly the passage decides it.
- reason: one short sentence naming the words that decide it.""",
)

RESOLVE_CONFLICT = JudgementPrompt(
    tool_name="record_conflict_resolution",
    tool_description="Record which of two disagreeing sources to trust, or why neither.",
    tier="strong",
    instructions="""\
two sources disagree about a hypothesis: `first` supports it and `second` contradicts it; \
`others` are the other sources' stances on it.
- outcome: first or second (the source to trust) or unresolvable.
- basis: date (the newer source, when both dates are known and differ), authority (one source \
is clearly more authoritative, e.g. an official record over a chat message), agreement (the \
other sources side with one), content (one passage is plainly more specific or reliable), or \
none when unresolvable.
- reason: one or two sentences; for unresolvable, say exactly what is missing to decide.""",
)

SYNTHESIZE = JudgementPrompt(
    tool_name="record_report",
    tool_description="Record the investigation's markdown report.",
    tier="strong",
    instructions="""\
write the markdown report of a research investigation from its data.
- report: a title, the verdict (as given), each hypothesis with its status and the evidence for \
and against, the conflicts between sources and how they were resolved (or why not), and a \
numbered source list. Cite sources only as [n] with the numbers given; cite no other number; \
state nothing the sources do not say. When failed_sources is not empty, say beside the verdict \
how many of sources_asked failed and which (the verdict rests on those that answered), and \
never word it as if every source was read.""",
)

# Not a forced judgement: the agent's connected tools are offered as Claude's own tools (native
# tool use, tool_choice auto); calling one proposes that call, answering in text proposes none.
CHOOSE_TOOL = JudgementPrompt(
    tool_name="",
    tool_description="",
    tier="fast",
    instructions="""\
decide whether the person's message asks the agent to use one of the tools you are given.
- If it asks for what a tool does, call that tool once, with arguments taken from the message \
(and `history`) as its schema says; invent no argument value the person did not give or \
clearly imply.
- If no tool fits, or it only talks about a tool, answer in one short sentence of text and call \
no tool.
- Your call is a proposal: the agent's guardian, supervision and a person's approval decide \
whether it runs.""",
)


def schema_refused_text(refusal: str) -> str:
    """The error a call whose arguments its tool's input schema refused is answered with (the
    call was not made): Claude may correct it once."""
    return (
        f"Not called: the tool's input schema refuses these arguments: {refusal}. Call the tool "
        "again with arguments its schema accepts, taken from the person's message, or answer "
        "in text if the message does not give them."
    )


def choose_tool_system_text(identity: str | None) -> str:
    """What Claude is told when it may call one of the agent's tools (identity first)."""
    own = CHOOSE_TOOL.system_text().replace(
        "Answer only by calling the tool you are given, once, filling its fields as its schema "
        "says.",
        "Call at most one of the tools you are given, or none.",
    )
    return f"{identity.strip()}\n\n{own}" if identity else own


def respond_system_text(agent_system_prompt: str) -> str:
    """The agent's own stable prompt (identity, creed, rules of answering), then how to reply."""
    return (
        f"{agent_system_prompt.strip()}\n\nAnswer only by calling the tool "
        f"{RESPOND.tool_name}, once. This call: {RESPOND.instructions}"
    )


def with_identity(identity: str | None, prompt: JudgementPrompt) -> str | None:
    """The judgement's system text after the agent's identity document (both stable, so the
    block stays cacheable); None without an identity (the judgement's own text is used)."""
    if not identity:
        return None
    return f"{identity.strip()}\n\n{prompt.system_text()}"
