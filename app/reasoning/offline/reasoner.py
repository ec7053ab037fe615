"""The offline reasoner: deterministic, always available, no network. Its answers say so
(``reasoner="offline"``, no token usage).

Stance comes from topic similarity (embedding cosine, or token overlap without an embedder) and
contradiction cues (denial, negation mismatch, antonyms, number mismatch); the other judgements
from cue lists and templates. Claude does every one of these better; this keeps each feature
working without a key, and answers any call Claude fails.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from app.embeddings.embedder import Embedder, embedder_for_model
from app.reasoning.offline import research
from app.reasoning.offline.audit import audit_offline
from app.reasoning.offline.interlocutor import interlocutor_approach
from app.reasoning.offline.replies import compose
from app.reasoning.offline.requests import face_threat, is_request, parse_work, risk_kinds, urgency
from app.reasoning.offline.rules import draft_rule
from app.reasoning.offline.stance import TOKEN_TOPIC_SIMILARITY, StanceDecision
from app.reasoning.offline.stance_judge import judge_stance
from app.reasoning.offline.stance_model import LoadedJudge, shared_judge
from app.reasoning.offline.tool_choice import choose_tool
from app.reasoning.protocol import (
    AbstractedRule,
    Appraisal,
    AppraisalRequest,
    Audit,
    AuditRequest,
    BeliefBrief,
    ConflictRequest,
    ConflictResolution,
    EvidenceItem,
    EvidenceRequest,
    ExtractedEvidence,
    HistoryTurn,
    HypothesesRequest,
    LearnedClaim,
    PassageJudgement,
    PassageRequest,
    PersonBrief,
    ProposedHypotheses,
    Reply,
    ResponseRequest,
    RevisedBelief,
    RevisionRequest,
    RuleRequest,
    StanceJudgement,
    StanceRequest,
    Synthesis,
    SynthesisRequest,
    ToolChoice,
    ToolChoiceRequest,
    Verification,
    VerificationIssue,
    VerifyRequest,
    WorkRequest,
    WorkSpec,
    WorkUnit,
)
from app.reasoning.settings import ReasonerSettings
from app.text.claims import clip_statement, is_courtesy, split_claims
from app.text.references import resolve_references
from app.text.words import content_words, token_similarity, tokens

OFFLINE = "offline"
EvidenceKind = Literal["factual", "feedback", "outcome"]
# Beliefs under at least this tension are named as uncertainty areas by appraise.
UNCERTAIN_TENSION = 0.3
# verify: attempts up to this many are retried, later ones escalated (the loop's retry budget).
RETRY_BUDGET = 2
# A person present decides when their authority is at least this (manager and above).
DECIDING_AUTHORITY = 0.7
# A speaker this stressed is answered briefly and calmly.
STRESSED = 0.5
_SURPRISE_CUES = (
    "unexpected", "unexpectedly", "surprise", "surprised", "surprising", "didn't expect",
    "did not expect", "suddenly", "strange", "weird", "odd", "out of nowhere", "for some reason",
)  # fmt: skip
_FEEDBACK_MARKERS = frozenset(
    {"wrong", "right", "correct", "incorrect", "mistake", "exactly", "agree", "disagree"}
)
_OUTCOME_MARKERS = frozenset(
    {"worked", "failed", "succeeded", "success", "failure", "resulted", "outcome", "bounced"}
)


_DENIAL_LEAD = re.compile(
    r"^\s*(?:(?:no|nope|actually|well|wrong|not true|not so|incorrect|that'?s (?:wrong|not "
    r"(?:right|true|correct))|that is (?:wrong|incorrect|not (?:right|true|correct))|you'?re wrong)"
    r"\s*[:,;.!—-]+\s*)+",
    re.IGNORECASE,
)


def _without_denial(claim: str) -> str:
    """The claim without a leading "That's wrong:" / "No," (the claim itself carries the
    contradiction; the preamble would read oddly as a belief)."""
    stripped = _DENIAL_LEAD.sub("", claim).strip()
    return stripped or claim


def _sentence(text: str) -> str:
    text = " ".join(text.split()).rstrip(" .")
    return text[:1].upper() + text[1:] + "." if text else text


def _resolved(message: str, history: list[HistoryTurn]) -> str:
    """The message with "it" / "that" read as the subject of the person's earlier turns."""
    return resolve_references(message, [turn.message for turn in history]) if history else message


def _cosine(first: Sequence[float], second: Sequence[float]) -> float:
    # The embedder's vectors are L2-normalised; the norms guard any other vectors.
    a, b = np.asarray(first, dtype=np.float64), np.asarray(second, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"vectors of {a.shape[0]} and {b.shape[0]} dimensions")
    norms = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(a @ b) / norms if norms else 0.0


@dataclass(frozen=True)
class _Similarities:
    matrix: list[list[float]]
    measure: str
    threshold: float
    claim_vectors: list[list[float]] | None = None
    statement_vectors: list[list[float]] | None = None


class OfflineReasoner:
    """Deterministic judgements from embeddings, cue lists and templates.

    Args:
        embedder: sentence embeddings for topic similarity and the learned stance judge;
            without one (or when it is unavailable) token overlap and the cue judge are used.
        settings: ``offline_topic_similarity`` is the cosine at which a claim is about a belief;
            ``offline_stance_model`` switches the learned judge on (the default) or off.
        judge: the learned stance judge (default: the weights shipped in the package, loaded
            once per process); without a model the cue judge decides alone.
    """

    name = OFFLINE

    def __init__(
        self,
        embedder: Embedder | None = None,
        settings: ReasonerSettings | None = None,
        judge: LoadedJudge | None = None,
    ) -> None:
        self.settings = settings or ReasonerSettings()
        self.embedder = embedder_for_model(embedder, self.settings.offline_stance_embedding_model)
        if judge is None:
            judge = (
                shared_judge()
                if self.settings.offline_stance_model
                else LoadedJudge(None, None, "switched off (offline_stance_model=false)")
            )
        self.judge = judge

    # --- stance and evidence ----------------------------------------------------------------

    async def _similarities(self, claims: list[str], statements: list[str]) -> _Similarities:
        """claims × statements similarity, the measure's name and its topic threshold, and the
        embeddings when there are any."""
        if self.embedder is not None and claims and statements and self.embedder.available:
            vectors = await self.embedder.embed([*claims, *statements])
            if vectors is not None:
                claim_vectors, statement_vectors = vectors[: len(claims)], vectors[len(claims) :]
                # On all-MiniLM-L6-v2's scale: the topic threshold's and the stance model's.
                scale = self.embedder.reference_cosine
                matrix = [[scale(_cosine(c, s)) for s in statement_vectors] for c in claim_vectors]
                return _Similarities(
                    matrix,
                    "cosine",
                    self.settings.offline_topic_similarity,
                    claim_vectors,
                    statement_vectors,
                )
        matrix = [[token_similarity(c, s) for s in statements] for c in claims]
        return _Similarities(matrix, "token overlap", TOKEN_TOPIC_SIMILARITY)

    def _judge(
        self, similarities: _Similarities, claim: str, row: int, statement: str, column: int
    ) -> StanceDecision:
        vectors = None
        if similarities.claim_vectors and similarities.statement_vectors:
            vectors = (similarities.claim_vectors[row], similarities.statement_vectors[column])
        return judge_stance(
            claim,
            statement,
            similarities.matrix[row][column],
            similarities.threshold,
            similarities.measure,
            self.judge,
            vectors,
        )

    async def classify_stance(self, request: StanceRequest) -> StanceJudgement:
        """Unrelated → novel, weakly related → neutral; about the topic → the learned judge's
        stance (with embeddings and the shipped model), else contradicting when a cue says so
        (denial, negation mismatch, antonyms, number mismatch), else reinforcing."""
        similarities = await self._similarities([request.claim], [request.statement])
        decision = self._judge(similarities, request.claim, 0, request.statement, 0)
        return StanceJudgement(
            stance=decision.stance,
            confidence=decision.confidence,
            cues=decision.cues,
            reasoner=OFFLINE,
        )

    async def extract_evidence(self, request: EvidenceRequest) -> ExtractedEvidence:
        """The turn's claims (questions and courtesy dropped), each judged against each belief;
        one item per belief that a claim reinforces or contradicts: the most confident."""
        claims = split_claims(_resolved(request.message, request.history))
        if not claims or not request.beliefs:
            learned = learned_claims(claims, [], {})
            return ExtractedEvidence(claims=claims, items=[], learned=learned, reasoner=OFFLINE)
        statements = [belief.statement for belief in request.beliefs]
        similarities = await self._similarities(claims, statements)
        items: list[EvidenceItem] = []
        # Per claim: the stance it takes towards each belief it is about (for learning).
        stances: dict[str, list[tuple[str, str]]] = {claim: [] for claim in claims}
        for column, belief in enumerate(request.beliefs):
            best: tuple[StanceDecision, str] | None = None
            for row, claim in enumerate(claims):
                decision = self._judge(similarities, claim, row, belief.statement, column)
                if decision.stance == "neutral":
                    stances[claim].append((belief.id, "neutral"))
                if decision.stance not in ("reinforcing", "contradicting"):
                    continue
                stances[claim].append((belief.id, decision.stance))
                if best is None or decision.confidence > best[0].confidence:
                    best = (decision, claim)
            if best is not None:
                decision, claim = best
                items.append(
                    EvidenceItem(
                        belief_id=belief.id,
                        claim=claim,
                        stance=decision.stance,
                        confidence=decision.confidence,
                        kind=_evidence_kind(claim),
                    )
                )
        learned = learned_claims(claims, request.beliefs, stances)
        return ExtractedEvidence(claims=claims, items=items, learned=learned, reasoner=OFFLINE)

    # --- appraisal, work units, verification, audit ----------------------------------------

    async def appraise(self, request: AppraisalRequest) -> Appraisal:
        """Request or not, urgency (raised by working memory's temporal urgency) and face threat
        (raised by a stressed or senior speaker) from cue lists, expectancy from surprise cues
        and tense beliefs, who decides (the person present with most authority), tense beliefs
        as the areas of uncertainty, high-risk kinds from keywords, and an approach that
        follows the band and names the rules that apply."""
        requested = is_request(request.message, request.skill)
        urgency_score, urgency_cues = urgency(request.message)
        if urgency_cues:
            urgency_score = min(1.0, urgency_score * request.urgency_multiplier)
        threat, threat_cues = face_threat(request.message, request.stakes)
        speaker = next((person for person in request.people if person.speaker), None)
        if speaker is not None:
            threat = min(1.0, threat + 0.3 * speaker.affect_stress)
            threat = min(1.0, threat + max(0.0, speaker.authority - 0.6) * 0.5)
        uncertain = [
            belief.statement for belief in request.beliefs if belief.tension >= UNCERTAIN_TENSION
        ]
        risky = risk_kinds(request.message)
        approach = {
            "low": "Act or answer directly from what I believe.",
            "medium": "Hedge: say what I think, name the tensions, and ask before relying on "
            "the uncertain beliefs.",
            "high": "Resolve the tensions in my beliefs first; act only on what is settled, "
            "and ask the person to help settle the rest.",
        }[request.band]
        if uncertain and request.band == "low":
            approach += f" Check first: {len(uncertain)} relevant belief(s) are under tension."
        if risky:
            approach += f" High-risk ({', '.join(risky)}): confirm before acting."
        if urgency_cues:
            approach += f" Urgent ({', '.join(urgency_cues)}): answer promptly."
        if threat_cues:
            approach += " Acknowledge the concern plainly before anything else."
        decider = _decider(request)
        if decider is not None:
            approach += f" {decider.name} (authority {decider.authority:.2f}) decides here."
        if speaker is not None and speaker.affect_stress >= STRESSED:
            approach += f" {speaker.name} is under stress: be brief and calm."
        approach += interlocutor_approach(request)
        approach += _past_decision_approach(request)
        for rule in request.rules:
            approach += f" Rule: {rule.content}"
        work = (
            WorkSpec.model_validate(
                (
                    await self.propose_work_unit(
                        WorkRequest(
                            message=request.message,
                            frame=request.frame,
                            history=request.history,
                            skill=request.skill,
                        )
                    )
                ).model_dump(exclude={"reasoner", "usage"})
            )
            if requested
            else None
        )
        return Appraisal(
            face_threat=round(threat, 3),
            urgency=round(urgency_score, 3),
            uncertainty_areas=uncertain,
            recommended_approach=approach,
            expectancy_violation=_expectancy_violation(request),
            decided_by=decider.name if decider is not None else None,
            is_request=requested,
            high_risk=risky,
            work_unit=work,
            reasoner=OFFLINE,
        )

    async def propose_work_unit(self, request: WorkRequest) -> WorkUnit:
        """The main imperative verb, the things it acts on (its object, capitalised names,
        numbers, quoted strings) and the constraints (without / before / by / only / unless /
        except ..., the person's guidance included); a question becomes ``answer``."""
        parsed = parse_work(
            _resolved(request.message, request.history), request.guidance, request.skill
        )
        confidence = 0.7 if parsed.known_verb else 0.45
        if request.guidance:
            confidence = round(min(0.9, confidence + 0.1), 3)
        return WorkUnit(
            verb=parsed.verb,
            entities=parsed.entities,
            constraints=parsed.constraints,
            description=parsed.description,
            confidence=confidence,
            reasoner=OFFLINE,
        )

    async def verify(self, request: VerifyRequest) -> Verification:
        """Executed without an error → proceed; failed (or an error in the output) → retry
        within the retry budget, else escalate; recorded, not executed → proceed, noting it."""
        result = request.result
        error = result.output.get("error") if isinstance(result.output, dict) else None
        if result.status == "recorded_not_executed":
            return Verification(
                is_valid=True,
                issues=[
                    VerificationIssue(
                        description=f"'{request.work_unit.verb}' was only recorded, not "
                        "executed: no executor is registered for it.",
                        severity="low",
                    )
                ],
                action="proceed",
                reasoner=OFFLINE,
            )
        if result.status == "executed" and not error:
            return Verification(is_valid=True, issues=[], action="proceed", reasoner=OFFLINE)
        why = str(error or result.message or "the executor reported a failure")
        action = "retry" if request.attempt <= RETRY_BUDGET else "escalate"
        return Verification(
            is_valid=False,
            issues=[
                VerificationIssue(
                    description=f"'{request.work_unit.verb}' failed on attempt "
                    f"{request.attempt}: {why}",
                    severity="high" if action == "escalate" else "medium",
                )
            ],
            action=action,
            reasoner=OFFLINE,
        )

    async def audit(self, request: AuditRequest) -> Audit:
        """The cue-list audit of app/reasoning/offline/audit.py: fails (risk high) what no creed
        allows or what breaks a prohibition of the creed, with the reason, the creed lines
        broken and what to do instead."""
        return audit_offline(request)

    # --- reflection and response -------------------------------------------------------------

    async def abstract_rule(self, request: RuleRequest) -> AbstractedRule:
        """ "When <shared concept> comes up: what worked / what failed", confidence growing with
        the cluster's size and share of successes (below 1), never an existing rule's text."""
        draft = draft_rule(request.episodes, request.existing_rules)
        return AbstractedRule(
            trigger_concept=draft.trigger_concept,
            content=draft.content,
            confidence=draft.confidence,
            reasoner=OFFLINE,
        )

    async def choose_tool(self, request: ToolChoiceRequest) -> ToolChoice:
        """The deterministic route (app/reasoning/offline/tool_choice.py): the tool whose
        description is closest to the message, with the arguments the message states."""
        return choose_tool(request)

    async def respond(self, request: ResponseRequest) -> Reply:
        """A template by band and mode quoting the most relevant belief verbatim: confident at
        low dissatisfaction, hedged with a question at medium, resolution first at high; a
        revision is announced first, a refusal says why, an approval question is asked."""
        text, questions = compose(request)
        return Reply(text=text, questions=questions, reasoner=OFFLINE)

    async def revise(self, request: RevisionRequest) -> RevisedBelief:
        """Adopts the strongest contradicting claim, qualified by what was believed before; a
        belief with no contradicting evidence of its own (tension that flowed up from below) is
        qualified instead."""
        # A statement revised before carries its predecessor; keep only the claim itself.
        old = _sentence(request.statement.split(" (Revised from the earlier belief:")[0])
        if request.against:
            strongest = max(request.against, key=lambda note: note.weight)
            statement = (
                f"{_sentence(_without_denial(strongest.text))} (Revised from the earlier "
                f"belief: {old.rstrip('.')}.)"
            )
            reasoning = (
                f"Tension reached {request.tension:.2f} after {len(request.against)} "
                f"contradicting piece(s) of evidence; the strongest (weight "
                f"{strongest.weight:.2f}) is adopted and the earlier belief is kept as "
                "context."
            )
        else:
            statement = f"Not always: {old.rstrip('.')} (under review)."
            reasoning = (
                f"Tension reached {request.tension:.2f} through the beliefs this one "
                "rests on; without contradicting evidence of its own, it is qualified "
                "rather than replaced."
            )
        summary = (
            f"{len(request.against)} against, {len(request.supporting)} for; "
            f"{len(request.neighbours)} connected belief(s) considered"
        )
        changes = [
            "Hold the revised statement with moderate confidence until it is confirmed.",
            "Ask before acting where the earlier belief used to decide.",
        ]
        tense_neighbours = [n.id for n in request.neighbours if n.tension >= 0.5]
        actions = [f"re-examine {belief_id}" for belief_id in tense_neighbours]
        return RevisedBelief(
            statement=statement,
            reasoning=f"[offline reasoner] {reasoning}",
            evidence_summary=summary,
            behavioral_changes=changes,
            connected_actions=actions,
            reasoner=OFFLINE,
        )

    # --- research (issue 16) -----------------------------------------------------------------

    async def propose_hypotheses(self, request: HypothesesRequest) -> ProposedHypotheses:
        """The question itself, as one statement (a claim is its own hypothesis)."""
        return ProposedHypotheses(
            hypotheses=[research.hypothesis_from(request.question)], reasoner=OFFLINE
        )

    async def judge_passage(self, request: PassageRequest) -> PassageJudgement:
        """The stance machinery of ``classify_stance``, with the passage as the claim; a
        passage is read with its title when the title adds words (a Wikipedia sentence says
        "the film" and means its page). With embeddings the judgement carries the cosine of
        passage and hypothesis (research counts only the passages closest to the hypothesis)."""
        passage = request.passage
        title = request.title.strip()
        if title and title.lower() not in passage.lower():
            passage = f"{title}: {passage}"
        similarities = await self._similarities([passage], [request.hypothesis])
        decision = self._judge(similarities, passage, 0, request.hypothesis, 0)
        stance, confidence, reason = research.passage_stance(decision)
        similarity = round(decision.similarity, 4) if similarities.measure == "cosine" else None
        return PassageJudgement(
            stance=stance,
            confidence=confidence,
            reason=reason,
            similarity=similarity,
            reasoner=OFFLINE,
        )

    async def resolve_conflict(self, request: ConflictRequest) -> ConflictResolution:
        """Newer source, else the clearly more authoritative kind, else the side the other
        sources agree with; otherwise unresolvable, saying why."""
        return research.resolve_conflict(request)

    async def synthesize(self, request: SynthesisRequest) -> Synthesis:
        """A templated markdown report citing the sources by number."""
        return Synthesis(report=research.report(request), reasoner=OFFLINE)


_GUIDANCE = re.compile(
    r"^(?:from now on,?\s+|in future,?\s+|going forward,?\s+)?(?:always|never|make sure|"
    r"be sure to|remember to|you should|you must|we always|we never|do it|do this|"
    r"the right way|the way to|only ever)\b|\b(?:from now on|should always|must always|"
    r"should never|must never)\b",
    re.IGNORECASE,
)
_HEDGES = re.compile(
    r"\b(?:maybe|perhaps|probably|possibly|i think|i guess|i believe|not sure|might|could be)\b",
    re.IGNORECASE,
)
# A novel fact needs at least this many content words to be worth a belief.
NOVEL_MIN_WORDS = 4


def learned_claims(
    claims: list[str], beliefs: Sequence[BeliefBrief], stances: dict[str, list[tuple[str, str]]]
) -> list[LearnedClaim]:
    """The claims worth a belief of their own: guidance ("always …", "from now on …"), a
    correction (a claim that contradicts a belief), or a novel fact (a plain, unhedged
    statement that no belief is about); each names the beliefs it backs or contradicts."""
    learned: list[LearnedClaim] = []
    for claim in claims:
        found = stances.get(claim, [])
        supports = [bid for bid, stance in found if stance == "reinforcing"]
        contradicts = [bid for bid, stance in found if stance == "contradicting"]
        statement = clip_statement(_sentence(_without_denial(claim)))
        if _GUIDANCE.search(claim):
            kind: Literal["guidance", "correction", "novel"] = "guidance"
        elif contradicts:
            kind = "correction"
        elif (
            not found
            and not _HEDGES.search(claim)
            and _evidence_kind(claim) == "factual"
            and len(content_words(claim)) >= NOVEL_MIN_WORDS
        ):
            kind = "novel"
        else:
            continue
        learned.append(
            LearnedClaim(statement=statement, kind=kind, supports=supports, contradicts=contradicts)
        )
    return learned


def _decider(request: AppraisalRequest) -> PersonBrief | None:
    """The person present with the most authority, when that is enough to decide."""
    people = [person for person in request.people if person.authority >= DECIDING_AUTHORITY]
    return max(people, key=lambda person: person.authority) if people else None


def _expectancy_violation(request: AppraisalRequest) -> float:
    """Surprise cues in the words (0.6), beliefs under tension (up to 0.4)."""
    text = " ".join(tokens(request.message))
    cued = any(cue in text for cue in _SURPRISE_CUES)
    tense = max((belief.tension for belief in request.beliefs), default=0.0)
    return round(min(1.0, (0.6 if cued else 0.0) + 0.4 * tense), 3)


def _evidence_kind(claim: str) -> EvidenceKind:
    words = set(tokens(claim))
    if words & _OUTCOME_MARKERS:
        return "outcome"
    if words & _FEEDBACK_MARKERS or is_courtesy(claim):
        return "feedback"
    return "factual"


def _past_decision_approach(request: AppraisalRequest) -> str:
    """The most related past decision that did not succeed, named so it is not repeated blindly
    (seed 002: past decisions in the turn's context)."""
    failed = next((d for d in request.decisions if d.outcome in ("failure", "partial")), None)
    if failed is None:
        return ""
    told = failed.line.removeprefix("- ")
    return f" A past decision like this went wrong ({told}): check why first."
