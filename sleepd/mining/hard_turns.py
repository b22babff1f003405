"""The miner model decides the user turns the rules find hard (model-assisted mining).

A typed turn whose rule-based decision is `hard` (close to another kind: a stance
then a request, a verdict followed by a request, an answer that may add work)
is sent to the miner role's model with what a person reads: the running request,
the agent's last words, the turn and where it sits. The answer must validate
against a JSON schema (one of the six kinds); then it replaces the rule's kind.

Promises:

* Nothing leaves the machine unredacted: the texts travel in a `ModelRequest`,
  which scrubs them when it is built (`sleepd/backends/outbound.py`).
* Budgeted: the backend `miner_backend` hands out passes every call through a
  budget guard, and a pass asks about at most `max_calls` turns; a turn over either
  limit keeps the rule's reading.
* Counted: asked, decided (a valid answer), changed (it differed from the rule),
  fallbacks (failed, invalid or refused by the budget) and skipped (over the cap).
* The rule-based path stands on its own: without a backend, or when anything goes
  wrong, the rule's decision is used unchanged and mining goes on.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import orjson

from sleepd.mining.turns import (
    TURN_KINDS,
    TurnDecision,
    TurnInput,
    TurnKind,
    agent_asks,
    agent_claims_done,
    decided_by_model,
    opens_session,
)

SYSTEM = (
    "You read one message a person typed to a coding agent, the way that person meant it. "
    "Classify it as exactly one kind:\n"
    "- new_task: a self-contained new request that can be understood without the previous "
    "exchange (the repository is context, the previous answer is not). The test is whether "
    "the message alone could be handed to a fresh agent in the same repository: once the "
    "agent has finished or answered, a request that names its own object (a feature, a file, "
    "a bug, a question about the project or a tool) is new_task, even on the same subject as "
    "the work before, as the next step of a larger plan, or taking up in its own words what "
    "the agent offered to do next ('Want me to set up releases too?', then 'set up a release "
    "workflow that publishes to PyPI').\n"
    "- follow_up: refines or extends the running task and cannot stand alone: points back at "
    "the exchange ('that', 'it', 'the second one', 'do the same for the others'), adds a step "
    "or requirement to work the agent has not finished, picks one of the options the agent "
    "offered, answers the agent's question, resumes the running work after a pause or a "
    "limit ('continue', 'limits are reset, go on').\n"
    "- correction: says the previous work is wrong, failed or is not what was asked (a failure "
    "report, a pasted error, 'still broken'), or doubts a result the agent reported ('looks "
    "too good to be true', 'I am still skeptical, test it again'). Contrast words alone do "
    "not make a correction; the message must judge the result.\n"
    "- approval: accepts the result or the proposal with nothing new to do.\n"
    "- steering: redirects how the agent works without judging a result (a hint, a "
    "constraint, an instruction right after an interruption).\n"
    "- housekeeping: not an intent for the agent (greetings, session commands).\n"
    "The conventions the labelled sessions follow (tests/fixtures/real_sessions/LABELS.md): "
    "a bare yes, ok or please to the agent's offer to do one thing is approval; a yes that "
    "picks one of several options, or adds or changes something, is follow_up; acceptance "
    "plus a request that stands on its own is new_task; 'still' or 'doesn't work' about the "
    "bug being investigated, not about the agent's attempt, is no correction; the closing step "
    "of the work just done (commit, push, open its pull request) is follow_up; what a run "
    "printed, pasted back after the agent asked to run or test something, is follow_up "
    "(correction when it shows an error or the person says it failed); the same request sent "
    "again word for word right after an interruption or a service error is steering; "
    "forbidding something the agent's last result shows ('Do not add the full names' under "
    "its sketch that shows them) is correction, forbidding what it never did is follow_up; "
    "the request restated as meant ('I mean, …', 'no, I meant …') right after the agent "
    "answered is correction, and so is a reply that insists ('but I'm on main here') after "
    "the agent explained away a failure the person reported, and a fact set against the "
    "agent's point after granting it ('yes, but that is specific to this machine'; 'that's "
    "good, but it should also …' asks for more: follow_up); a request typed while the "
    "agent runs for after it finishes ('When done with this, please add …') is new_task, "
    "and a piece that only finishes the person's own previous sentence is follow_up; "
    "asking for another way to go about the task ('can't you just …', 'let's take a "
    "different view') is steering; a failure written up as its own spec with numbered "
    "steps, about another failure than the person's previous request, is new_task; a "
    "message typed in place of the running request after the person rolled the thread back "
    "over it (that request and the agent's answer are gone from the conversation) is "
    "follow_up when it asks for that request again, edited, and new_task when it asks for "
    "something else.\n"
    "Answer with JSON only."
)

SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["kind"],
    "additionalProperties": False,
    "properties": {
        "kind": {"enum": list(TURN_KINDS)},
        "reason": {"type": "string", "maxLength": 300},
    },
}
#: How much of each text the model is shown.
TURN_CHARS = 2000
AGENT_CHARS = 1500
REQUEST_CHARS = 1500
PREVIOUS_CHARS = 1000


@dataclass
class TurnJudgeStats:
    asked: int = 0
    decided: int = 0
    changed: int = 0
    fallbacks: int = 0
    skipped: int = 0

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass
class TurnJudge:
    """Call it with a turn and the rule's decision; it returns the decision to use."""

    backend: Any
    max_calls: int
    stats: TurnJudgeStats = field(default_factory=TurnJudgeStats)

    def __call__(self, turn: TurnInput, decision: TurnDecision) -> TurnDecision:
        if not decision.hard or turn.command is not None or opens_session(turn):
            # a session's first request, with nothing before it, has nothing to weigh
            return decision
        if self.stats.asked >= self.max_calls:
            self.stats.skipped += 1
            return decision
        self.stats.asked += 1
        kind = self._ask(turn)
        if kind is None:
            self.stats.fallbacks += 1
            return decision
        self.stats.decided += 1
        if kind is not decision.kind:
            self.stats.changed += 1
        return decided_by_model(decision, kind)

    def _ask(self, turn: TurnInput) -> TurnKind | None:
        from sleepd.backends.base import ChatMessage, ModelRequest, extract_json_text

        request = ModelRequest(
            messages=[ChatMessage("user", prompt(turn))],
            system=SYSTEM,
            role="miner",
            json_schema=SCHEMA,
            max_tokens=200,
        )
        try:
            response = self.backend.complete(request)
        except Exception:  # a backend must not raise; if it does, the rule's reading stands
            return None
        if getattr(response, "failure", None) is not None:
            return None
        try:
            data = orjson.loads(extract_json_text(response.text))
        except (orjson.JSONDecodeError, TypeError, ValueError):
            return None
        if not isinstance(data, dict) or set(data) - {"kind", "reason"}:
            return None
        kind = data.get("kind")
        return TurnKind(kind) if isinstance(kind, str) and kind in TURN_KINDS else None


def prompt(turn: TurnInput) -> str:
    """The evidence a person would read, as JSON (texts cut to a readable size): the
    running request as it was asked, the person's message before this one and the agent's
    last words (the latest exchange, which a long episode's whole text, cut to size, had
    left out), and this message."""
    previous = turn.previous_text if turn.previous_text != turn.request else ""
    payload = {
        "running_request": (turn.request or turn.context)[:REQUEST_CHARS],
        "previous_message": previous[-PREVIOUS_CHARS:],
        "agent_last_words": turn.agent_text[-AGENT_CHARS:],
        "message": turn.text[:TURN_CHARS],
        "where_it_sits": {
            "agent_said_it_was_done": agent_claims_done(turn.agent_text),
            "agent_asked_a_question": agent_asks(turn.agent_text),
            "typed_while_the_agent_was_working": turn.queued,
            "right_after_the_person_interrupted": turn.after_interrupt,
            "right_after_the_person_refused_a_tool_call": turn.after_refusal,
            "right_after_the_agents_service_failed": turn.after_service_error,
            # (Codex's rollback dropped that request and the agent's answer to it, the
            # words above, from the conversation: this message is typed in its place)
            "typed_in_place_of_the_running_request_rolled_back": bool(turn.withdrawn_request),
            "right_after_the_person_undid_the_agents_changes": turn.after_undo,
            "agent_did_anything_since_the_previous_message": turn.agent_worked,
            "agent_last_act_was_a_tool_call_not_words": not turn.agent_ended,
            "minutes_since_the_previous_event": (
                round(turn.gap_s / 60, 1) if turn.gap_s is not None else None
            ),
            "previous_message_was": turn.previous.value if turn.previous else None,
        },
    }
    return orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode()
