"""Split a session's events into task episodes: one user intent plus the work it caused.

A follow-up that corrects, approves or steers the running work is *feedback* of
the current episode, not a new intent; so is whatever the user types right after
an interrupt. Meta injections, command wrappers, compaction summaries, hook noise
and tool results delivered as user records are never intents. This module is
pure (no database) so it is cheap to test and to run over thousands of sessions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from harvesters.records import STEERING
from sleepd.mining.lexicon import FEEDBACK_MAX_CHARS, Feedback, Lexicon


@dataclass(slots=True)
class EventView:
    """The columns of one event that mining reads (text may be head+tail truncated)."""

    id: int
    seq: int
    kind: str
    role: str = "user"
    text: str = ""
    tool_name: str | None = None
    call_id: str | None = None
    is_error: bool = False
    exit_code: int | None = None
    is_meta: bool = False
    is_sidechain: bool = False
    ts: datetime | None = None
    raw_type: str | None = None

    @property
    def is_steering(self) -> bool:
        """Typed while the agent ran and sent into its running turn (Claude's queue)."""
        return self.raw_type == STEERING


@dataclass(slots=True)
class FeedbackItem:
    event: EventView
    kind: Feedback
    after_interrupt: bool = False


@dataclass(slots=True)
class EpisodeDraft:
    intent: EventView
    events: list[EventView] = field(default_factory=list)
    feedback: list[FeedbackItem] = field(default_factory=list)
    closed: bool = False

    @property
    def start_seq(self) -> int:
        return self.intent.seq

    @property
    def end_seq(self) -> int:
        return self.events[-1].seq if self.events else self.intent.seq

    @property
    def intent_text(self) -> str:
        return clean_prompt(self.intent.text)

    @property
    def started_at(self) -> datetime | None:
        return self.intent.ts

    @property
    def ended_at(self) -> datetime | None:
        stamps = [e.ts for e in self.events if e.ts is not None]
        return stamps[-1] if stamps else self.intent.ts


#: Wrapper blocks the agent injects into user text; removed before reading a prompt.
_INJECTED_BLOCK = re.compile(
    r"<(system-reminder|user-prompt-submit-hook|environment_context|user_instructions|"
    r"INSTRUCTIONS|local-command-stdout|local-command-stderr|command-message|command-name|"
    r"command-args|command-contents|bash-stdout|bash-stderr|task-notification|turn_aborted|"
    r"ide_opened_file|ide_selection)\b[^>]*>.*?</\1>",
    re.DOTALL | re.IGNORECASE,
)
#: A user record whose whole point is one of these is never a typed intent.
_NOISE_PREFIXES: tuple[str, ...] = (
    "<command-name>",
    "<command-message>",
    "<local-command-",
    "<bash-input>",
    "<bash-stdout>",
    "<system-reminder>",
    "<user-prompt-submit-hook>",
    "<environment_context>",
    "<user_instructions>",
    "<task-notification>",
    "<turn_aborted>",
    "# agents.md instructions for",
    "caveat: the messages below were generated",
    "this session is being continued from a previous conversation",
    "[request interrupted by user",
    "<persisted-output>",
)
_INTERRUPT_PREFIX = "[request interrupted by user"


def clean_prompt(text: str) -> str:
    """The typed part of a prompt: injected blocks removed, whitespace tidied."""
    return _INJECTED_BLOCK.sub(" ", text).strip()


def is_interrupt(event: EventView) -> bool:
    if event.kind == "interrupt":
        return True
    return event.kind == "user_prompt" and event.text.lstrip().lower().startswith(_INTERRUPT_PREFIX)


def is_typed_prompt(event: EventView) -> bool:
    """A user prompt a person typed (not meta, wrapper, summary, hook or tool output)."""
    if event.kind != "user_prompt" or event.is_meta or event.is_sidechain:
        return False
    raw = event.text.lstrip().lower()
    if any(raw.startswith(prefix) for prefix in _NOISE_PREFIXES):
        return False
    return bool(clean_prompt(event.text))


def _is_feedback(lexicon: Lexicon, text: str, after_interrupt: bool) -> Feedback | None:
    """The feedback kind when a follow-up belongs to the running episode, else None."""
    kind = lexicon.classify(text)
    if after_interrupt:
        return kind if kind is not Feedback.NONE else Feedback.CONTINUATION
    if kind is Feedback.NONE:
        return None
    if len(text) <= FEEDBACK_MAX_CHARS:
        return kind
    if kind is Feedback.CORRECTION and lexicon.classify(text[:80]) is Feedback.CORRECTION:
        return kind
    return None


_NEW_TASK_AFTER_APPROVAL = re.compile(
    r"\b(now|next|then|also|and then|another)\b[^.?!]*\b(add|write|make|create|fix|implement|"
    r"update|refactor|remove|rename|change|run|build|test)\b",
    re.IGNORECASE,
)


def segment(
    events: Sequence[EventView], lexicon: Lexicon, *, first_is_intent: bool = False
) -> list[EpisodeDraft]:
    """Episodes in seq order; the last one is left open (closing is the caller's call).

    `first_is_intent` continues an episode from an earlier pass: its intent event
    comes first and stays an intent whatever the lexicon says.
    """
    episodes: list[EpisodeDraft] = []
    current: EpisodeDraft | None = None
    after_interrupt = False
    for index, event in enumerate(events):
        if index == 0 and first_is_intent:
            current = EpisodeDraft(intent=event)
            episodes.append(current)
            continue
        if is_interrupt(event):
            after_interrupt = True
            if current is not None:
                current.events.append(event)
            continue
        if not is_typed_prompt(event):
            if current is not None:
                current.events.append(event)
            continue
        text = clean_prompt(event.text)
        # Steering went into the running turn: like a word after an interrupt, it is
        # feedback on the work under way, whatever the lexicon makes of it.
        in_turn = after_interrupt or event.is_steering
        feedback = _is_feedback(lexicon, text, in_turn) if current is not None else None
        after_interrupt_here = after_interrupt
        after_interrupt = False
        if current is not None and feedback is not None:
            current.feedback.append(FeedbackItem(event, feedback, after_interrupt_here))
            current.events.append(event)
            if feedback is Feedback.APPROVAL and _NEW_TASK_AFTER_APPROVAL.search(text):
                current.closed = True
                current = EpisodeDraft(intent=event)
                episodes.append(current)
            continue
        if current is not None:
            current.closed = True
        current = EpisodeDraft(intent=event)
        episodes.append(current)
    return episodes


def segment_subagent(events: Sequence[EventView]) -> EpisodeDraft | None:
    """A subagent session is one episode: its task prompt plus all its work."""
    for index, event in enumerate(events):
        if event.kind == "user_prompt" and not is_interrupt(event):
            return EpisodeDraft(intent=event, events=list(events[index + 1 :]))
    if not events:
        return None
    return EpisodeDraft(intent=events[0], events=list(events[1:]))
