"""The reasoner's answers a turn's write transaction uses, asked before it.

A write transaction is run again on a transient error (a deadlock), so it must not call the
reasoner: a retry would ask Claude again, stream the turn's events twice and count its tokens
twice. The turn's transaction takes its revised statements and its response from
:class:`TurnAnswers` instead. When it finds a question not answered yet (a belief its own
evidence pushed over the threshold, a response that must mention a revision) it raises
:class:`AnswersNeeded`, which rolls it back; the turn asks the reasoner outside any transaction
and runs it again. The last round settles: what is still unanswered is left (the belief stays at
the threshold and the next turn revises it), and the latest response is used.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.beliefs.revision import AnsweredRevision
from app.loop.recording import TurnRecorder
from app.reasoning.protocol import Reasoner, Reply, ResponseRequest, RevisionRequest

# Rounds of the turn's transaction: the first with the response asked for the turn without a
# revision; a second when its evidence made a belief tense (its revisions asked); a third for
# the response that says so; one more in case another turn of the agent moved the state
# between them. The last one settles.
ROUNDS = 4


class AnswersNeeded(Exception):
    """The transaction met questions the reasoner has not answered: it rolls back, and the
    turn asks them outside it."""

    def __init__(
        self, revisions: list[RevisionRequest], response: ResponseRequest | None = None
    ) -> None:
        super().__init__("the reasoner must answer before the transaction runs again")
        self.revisions = revisions
        self.response = response


def _key(request: RevisionRequest) -> tuple[str, str, str]:
    # The same belief, with the same statement, at the same place in a cascade: its proposal
    # still holds when the evidence around it moved a little between two rounds.
    return request.belief_id, request.statement, request.mode


@dataclass(slots=True)
class TurnAnswers:
    """What the reasoner answered for a turn so far (outside any transaction)."""

    proposals: dict[tuple[str, str, str], AnsweredRevision] = field(default_factory=dict)
    # The latest response and the request it answered.
    response: tuple[ResponseRequest, Reply] | None = None
    # The last round: take what is here, ask nothing more.
    settle: bool = False

    def proposal_for(self, request: RevisionRequest) -> AnsweredRevision | None:
        return self.proposals.get(_key(request))

    def reply_for(self, request: ResponseRequest) -> Reply:
        """The response to ``request``, or (settling) the latest one.

        Raises:
            AnswersNeeded: not answered yet.
        """
        if self.response is not None and (self.settle or self.response[0] == request):
            return self.response[1]
        raise AnswersNeeded([], request)

    async def respond(
        self, reasoner: Reasoner, recorder: TurnRecorder, request: ResponseRequest
    ) -> None:
        reply = await recorder.judge("respond", reasoner.respond(request))
        self.response = (request, reply)

    async def answer(
        self, reasoner: Reasoner, recorder: TurnRecorder, needed: AnswersNeeded
    ) -> None:
        """Asks the reasoner what the transaction needed (outside it)."""
        for request in needed.revisions:
            if self.proposal_for(request) is None:
                proposal = await recorder.judge("revise", reasoner.revise(request))
                self.proposals[_key(request)] = AnsweredRevision(proposal)
        if needed.response is not None:
            await self.respond(reasoner, recorder, needed.response)
