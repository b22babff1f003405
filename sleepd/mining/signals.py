"""Outcome signals of an episode, each resting on event ids with a confidence.

Signals (kind, polarity, confidence):

- ``tool_error`` (-1, 0.45; 0.6 when it is the episode's last tool result): a tool
  result with ``is_error`` or a non-zero exit code that no later call of the same
  tool fixed. ``tool_error_recovered`` (0, 0.6) when a later call of that tool succeeded.
- ``agent_error`` (-1, 0.4): an error event outside any tool call (API errors).
- ``test_failure`` (-1, 0.7): pytest / jest / go test / cargo failure lines in a tool
  result and no later passing run; ``test_failure_recovered`` (0, 0.6) when a later
  run passed. ``tests_passed`` (+1, 0.6): the last test run of the episode passed.
- ``user_correction`` (-1, 0.8): a follow-up the lexicon reads as a correction.
- ``interrupt`` (-1, 0.6): the user stopped the agent.
- ``tool_rejected`` (-1, 0.7): the user refused a tool call ("doesn't want to proceed").
- ``retry`` (-1, 0.4): the same tool with the same input again after it failed.
- ``undo`` (-1, 0.8 from the user, 0.6 from a command such as ``git revert``).
- ``approval`` (+1, 0.85): explicit approval with no correction after it.
- ``abandoned`` (-1, 0.6): the session's last episode ended on an unrecovered error
  or interrupt, without approval, and the session is over.

Outcome rule (also in docs/mining.md). Only signals with confidence ≥ 0.5 count:

- positives and no negatives → ``success``;
- positives and negatives → ``mixed`` when the last positive comes after the last
  negative (corrected, then approved), else ``failure``;
- negatives only → ``failure``;
- neither → ``unknown``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from sleepd.mining.episodes import EpisodeDraft, EventView, is_interrupt
from sleepd.mining.lexicon import Feedback, Lexicon, is_undo_command

COUNTING_CONFIDENCE = 0.5


@dataclass(slots=True)
class SignalDraft:
    kind: str
    polarity: int
    confidence: float
    event_ids: list[int]
    detail: str = ""
    #: Position in the session (for ordering in the outcome rule); not stored.
    at_seq: int = 0
    tool_name: str | None = field(default=None)


#: Lines that say a test run failed, per runner.
TEST_FAILURE = re.compile(
    r"^(FAILED|ERROR) \S+::\S+"  # pytest summary lines
    r"|^=+ .*\b\d+ (failed|errors?)\b.* =+$"  # pytest final line
    r"|^\s*Tests:\s+.*\b\d+ failed\b"  # jest
    r"|^\s*FAIL\s+\S+\.(test|spec)\.[jt]sx?\b"  # jest file line
    r"|^--- FAIL: \S+"  # go test
    r"|^FAIL\s+\S+\s+[\d.]+s$"  # go test package line
    r"|^test result: FAILED\."  # cargo
    r"|^test \S+ \.\.\. FAILED$",  # cargo per-test
    re.MULTILINE,
)
#: Lines that say a test run passed.
TEST_PASS = re.compile(
    r"^=+ (\d+ passed)(?!.*\bfailed\b).* =+$"
    r"|^\s*Tests:\s+(?!.*failed)\d+ passed"
    r"|^ok\s+\S+\s+[\d.]+s"
    r"|^PASS\s+\S+\.(test|spec)\.[jt]sx?\b"
    r"|^test result: ok\.",
    re.MULTILINE,
)


#: A tool result that says the user refused the call.
TOOL_REJECTED = re.compile(
    r"user doesn't want to (proceed with|take) this|tool use was rejected", re.IGNORECASE
)


def is_failed_result(event: EventView) -> bool:
    return event.kind == "tool_result" and (
        event.is_error or (event.exit_code is not None and event.exit_code != 0)
    )


def run_status(text: str) -> str | None:
    """'failed', 'passed' or None for a tool result's text."""
    if TEST_FAILURE.search(text):
        return "failed"
    if TEST_PASS.search(text):
        return "passed"
    return None


def _tool_of(result: EventView, calls: dict[str, EventView]) -> str | None:
    if result.tool_name:
        return result.tool_name
    call = calls.get(result.call_id or "")
    return call.tool_name if call else None


def _tool_signals(events: Sequence[EventView]) -> list[SignalDraft]:
    calls = {e.call_id: e for e in events if e.kind == "tool_call" and e.call_id}
    results = [e for e in events if e.kind == "tool_result"]
    last_result_id = results[-1].id if results else None
    out: list[SignalDraft] = []
    for index, result in enumerate(results):
        if not is_failed_result(result):
            continue
        tool = _tool_of(result, calls)
        fixer = next(
            (
                later
                for later in results[index + 1 :]
                if _tool_of(later, calls) == tool and not is_failed_result(later)
            ),
            None,
        )
        call = calls.get(result.call_id or "")
        ids = [e.id for e in (call, result) if e is not None]
        detail = f"exit {result.exit_code}" if result.exit_code not in (None, 0) else "is_error"
        if fixer is not None:
            out.append(
                SignalDraft(
                    "tool_error_recovered",
                    0,
                    0.6,
                    [*ids, fixer.id],
                    detail,
                    fixer.seq,
                    tool,
                )
            )
        else:
            confidence = 0.6 if result.id == last_result_id else 0.45
            out.append(SignalDraft("tool_error", -1, confidence, ids, detail, result.seq, tool))
    result_calls = {e.call_id for e in results if e.call_id}
    for event in events:
        if event.kind == "error" and not (event.call_id and event.call_id in result_calls):
            out.append(SignalDraft("agent_error", -1, 0.4, [event.id], "error event", event.seq))
    return out


def _test_signals(events: Sequence[EventView]) -> list[SignalDraft]:
    runs = [(e, run_status(e.text)) for e in events if e.kind == "tool_result" and e.text]
    runs = [(e, status) for e, status in runs if status is not None]
    if not runs:
        return []
    failed = [e for e, status in runs if status == "failed"]
    last, last_status = runs[-1]
    out: list[SignalDraft] = []
    if failed and last_status == "passed":
        ids = [e.id for e in failed] + [last.id]
        out.append(SignalDraft("test_failure_recovered", 0, 0.6, ids, "", last.seq))
    elif failed:
        out.append(SignalDraft("test_failure", -1, 0.7, [e.id for e in failed], "", failed[-1].seq))
    if last_status == "passed":
        out.append(SignalDraft("tests_passed", 1, 0.6, [last.id], "", last.seq))
    return out


def _retry_signals(events: Sequence[EventView]) -> list[SignalDraft]:
    results = {e.call_id: e for e in events if e.kind == "tool_result" and e.call_id}
    seen: dict[tuple[str, str], EventView] = {}
    out: list[SignalDraft] = []
    for event in events:
        if event.kind != "tool_call" or not event.text:
            continue
        key = (event.tool_name or "", event.text)
        earlier = seen.get(key)
        seen[key] = event
        if earlier is None:
            continue
        earlier_result = results.get(earlier.call_id or "")
        if earlier_result is None or not is_failed_result(earlier_result):
            continue
        out.append(
            SignalDraft(
                "retry",
                -1,
                0.4,
                [earlier.id, event.id],
                "same tool and input",
                event.seq,
                event.tool_name,
            )
        )
    return out


def detect_signals(
    episode: EpisodeDraft, lexicon: Lexicon, *, session_over: bool, is_last: bool
) -> list[SignalDraft]:
    """Every signal of one episode, in no particular order."""
    events = episode.events
    out = _tool_signals(events) + _test_signals(events) + _retry_signals(events)
    for event in events:
        if (
            event.kind == "tool_result"
            and event.is_error
            and TOOL_REJECTED.search(event.text[:300])
        ):
            out.append(
                SignalDraft(
                    "tool_rejected", -1, 0.7, [event.id], "user refused the call", event.seq
                )
            )
        if is_interrupt(event):
            out.append(SignalDraft("interrupt", -1, 0.6, [event.id], event.text[:80], event.seq))
        elif event.kind == "tool_call" and is_undo_command(event.text):
            out.append(SignalDraft("undo", -1, 0.6, [event.id], "undo command", event.seq))
    corrections = [f for f in episode.feedback if f.kind is Feedback.CORRECTION]
    for item in corrections:
        out.append(
            SignalDraft(
                "user_correction", -1, 0.8, [item.event.id], item.event.text[:200], item.event.seq
            )
        )
        if lexicon.is_undo_request(item.event.text):
            undo = SignalDraft("undo", -1, 0.8, [item.event.id], "undo request", item.event.seq)
            out.append(undo)
    last_correction = max((c.event.seq for c in corrections), default=-1)
    approvals = [
        f for f in episode.feedback if f.kind is Feedback.APPROVAL and f.event.seq > last_correction
    ]
    if approvals:
        last = approvals[-1].event
        out.append(SignalDraft("approval", 1, 0.85, [last.id], last.text[:200], last.seq))
    if session_over and is_last and not approvals:
        out.extend(_abandoned(events))
    return out


def _abandoned(events: Sequence[EventView]) -> list[SignalDraft]:
    relevant = [e for e in events if e.kind == "tool_result" or is_interrupt(e)]
    if not relevant:
        return []
    last = relevant[-1]
    if is_interrupt(last) or is_failed_result(last):
        return [SignalDraft("abandoned", -1, 0.6, [last.id], "session ended here", last.seq)]
    return []


def derive_outcome(signals: Sequence[SignalDraft]) -> tuple[str, str]:
    """(outcome, rule name) by the rule in this module's docstring."""
    counted = [s for s in signals if s.confidence >= COUNTING_CONFIDENCE]
    positives = [s for s in counted if s.polarity > 0]
    negatives = [s for s in counted if s.polarity < 0]
    if positives and not negatives:
        return "success", "positive_only"
    if positives and negatives:
        if max(s.at_seq for s in positives) > max(s.at_seq for s in negatives):
            return "mixed", "positive_after_negative"
        return "failure", "negative_after_positive"
    if negatives:
        return "failure", "negative_only"
    return "unknown", "no_clear_signal"
