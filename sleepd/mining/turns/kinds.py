"""The six kinds of user turn, what the classifier reads about a turn, and what it decides."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from sleepd.mining.commands import SlashCommand


class TurnKind(enum.StrEnum):
    NEW_TASK = "new_task"
    FOLLOW_UP = "follow_up"
    CORRECTION = "correction"
    APPROVAL = "approval"
    STEERING = "steering"
    HOUSEKEEPING = "housekeeping"


TURN_KINDS: tuple[str, ...] = tuple(k.value for k in TurnKind)


@dataclass(frozen=True, slots=True)
class TurnInput:
    """One typed user turn and where it sits."""

    text: str
    command: SlashCommand | None = None
    #: an episode is running (an earlier intent of this session exists)
    has_episode: bool = False
    #: the agent's last words since the previous user turn ("" when none)
    agent_text: str = ""
    #: the agent did anything (text, tool calls) since the previous user turn
    agent_worked: bool = False
    after_interrupt: bool = False
    #: typed while the agent ran and sent into its running turn (Claude's queue)
    queued: bool = False
    #: seconds since the previous event of the session
    gap_s: float | None = None
    #: what the previous typed turn of the session was read as
    previous: TurnKind | None = None
    #: the agent changed something or ran commands in the running episode (a complaint
    #: before that is about the code as it was, not about the agent's work)
    agent_acted: bool = True
    #: the agent was stopped mid-work: its last call was refused by the person
    after_refusal: bool = False
    #: the running episode's request and the agent's last words (topic of the turn)
    context: str = ""
    #: the running episode's request alone ("" when none is running)
    request: str = ""
    #: the agent's last act before the turn was its words (it ended its turn), not a call
    agent_ended: bool = True
    #: the agent changed something or ran commands earlier in the session, before the
    #: running episode ("still …" can only be about such work)
    acted_before: bool = False
    #: the agent's turn was cut short by its service (a usage limit, an API error) and
    #: the agent wrote nothing after it
    after_service_error: bool = False
    #: the session's previous typed turn that was addressed to the agent ("" when none)
    previous_text: str = ""
    #: a slash command that Claude Code answered itself (its next record is the local
    #: command's output): a built-in, whatever its name, that the model never saw
    answered_by_the_cli: bool = False
    #: the agent's last act was a call of its question tool (`agent_text` holds the
    #: questions): a turn typed then, with the dialog closed, is the person's reply to them
    put_question: bool = False
    #: the running episode has so far only had the agent look at the project ("阅读readme",
    #: "open M-Claude repo"; `requests.orients_only`): the work is still to be asked for
    orienting: bool = False
    #: the running episode's request, when Codex's rollback just took it back ("" when
    #: none): the person goes back to before it and types this turn in its place
    withdrawn_request: str = ""
    #: the person undid the agent's latest work (Codex's `/undo`) since their previous
    #: message: this one follows work they threw away
    after_undo: bool = False


@dataclass(frozen=True, slots=True)
class TurnDecision:
    kind: TurnKind
    confidence: float
    reasons: tuple[str, ...] = field(default_factory=tuple)
    #: close to another kind: a model may decide (model-assisted mining)
    hard: bool = False
    #: the turn accepts the previous work: a new request that opens with a verdict on it
    #: ("thanks! now …"), or a closing step asked for after the done claim ("commit")
    approves_previous: bool = False
    #: the miner model read this hard turn (model-assisted mining), agreeing with the
    #: rules or not: its kind no longer rests on the rules' unsure reading
    by_model: bool = False


def opens_session(turn: TurnInput) -> bool:
    """A session's first request with nothing before it: no episode yet, and none of the
    agent's words for it to answer."""
    return not turn.has_episode and not (turn.agent_worked and turn.agent_text.strip())


#: A turn the model decided is trusted this much (the rules' firm readings go higher).
MODEL_CONFIDENCE = 0.8


def decided_by_model(decision: TurnDecision, kind: TurnKind) -> TurnDecision:
    """The decision to keep once the miner model read a hard turn as `kind`: the rules'
    own when the model agrees, else the model's kind (a new request keeps the rules'
    finding that it opens with a verdict on the work before it)."""
    if kind is decision.kind:
        return replace(decision, by_model=True)
    return TurnDecision(
        kind,
        MODEL_CONFIDENCE,
        ("decided by the miner model", *decision.reasons),
        hard=True,  # still one the rules found hard: the store says so
        approves_previous=decision.approves_previous and kind is TurnKind.NEW_TASK,
        by_model=True,
    )
