"""Outcome signals of an episode, each resting on event ids with a confidence, and the
outcome rule (success / failure / abandoned / unknown, with a confidence and the event
ids that justify it). The signal table and the rule, with examples from real sessions,
are in docs/mining.md ("Outcomes"); `derive_outcome` states the rule in order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import PurePath

from sleepd.mining.commands import SKILL_INVOKED, family_name, parse_command
from sleepd.mining.episodes import (
    EpisodeDraft,
    EventView,
    TurnRecord,
    ends_the_agents_turn,
    is_interrupt,
    is_service_error,
    typed_words,
    undid_the_agents_work,
)
from sleepd.mining.errors import REFUSED, EpisodeErrors, is_failed_result, judge_errors
from sleepd.mining.errors.shell import without_git_options
from sleepd.mining.json_text import json_value
from sleepd.mining.lexicon import Lexicon, is_undo_command
from sleepd.mining.replacement import replaces
from sleepd.mining.signatures import PATCH_TOOL
from sleepd.mining.tasks import command_of
from sleepd.mining.turns import (
    PLAN_ACCEPTED,
    TurnKind,
    agent_asks,
    agent_claims_done,
    agent_gave_up,
    feedback_region,
    flattened,
)
from sleepd.mining.turns.outside import works_a_review_command
from sleepd.mining.turns.references import works_the_review
from sleepd.mining.turns.text import as_typed, in_plain_characters, request_region

COUNTING_CONFIDENCE = 0.5
#: How many of the calls that worked after a failed one may be the command that replaced
#: it: a replacement comes while the agent is still on that step.
REPLACEMENT_WINDOW = 10

#: A request for information rather than for a change ("where are we", "how to know where
#: the mapping is defined in vim?", "can you help me understand what each file is doing",
#: "Hi Claude, please describe your current execution environment"): its deliverable is the
#: answer, and a file the agent failed to read on the way does not fail it.
_ASKS_FOR_INFORMATION = re.compile(
    r"^\W*((hi|hello|hey)\b[^,.!\n]{0,20}[,.!]+\s*)?(please\s+)?"
    r"((what|where|which|who|why|how|when)\b|"
    r"((can|could) you\s+)?(please\s+)?(help me understand|explain|describe|tell me|"
    r"summari[sz]e)\b"
    # a yes-or-no question about how things are, opening the request or after what the
    # person says of their own ("I added these for esp project, but are any of these going
    # to affect any other use cases?"); "can you …?", "would you …?" and a question after
    # an order ("Fix the deploy script, and does it …?") ask for work
    r"|((i|we|it|this|that|these|those|my|our)\b[^?\n]{0,200}?[,;]\s*(but|and|so)\s+)?"
    r"(is|are|was|were|does|do|did|will|should|has|have)"
    r"\b(?!\s+you\b)[^?\n]{0,200}\?)",
    re.IGNORECASE,
)


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
    r"|^[^\S\n]*Tests:\s+.*\b\d+ failed\b"  # jest
    r"|^[^\S\n]*FAIL\s+\S+\.(test|spec)\.[jt]sx?\b"  # jest file line
    r"|^--- FAIL: \S+"  # go test
    r"|^FAIL\s+\S+\s+[\d.]+s$"  # go test package line
    r"|^test result: FAILED\."  # cargo
    r"|^test \S+ \.\.\. FAILED$",  # cargo per-test
    re.MULTILINE,
)
#: Lines that say a test run passed.
TEST_PASS = re.compile(
    r"^=+ (\d+ passed)(?!.*\bfailed\b).* =+$"
    r"|^[^\S\n]*Tests:\s+(?!.*failed)\d+ passed"
    r"|^ok\s+\S+\s+[\d.]+s"
    r"|^PASS\s+\S+\.(test|spec)\.[jt]sx?\b"
    r"|^test result: ok\.",
    re.MULTILINE,
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


def _tool_signals(events: Sequence[EventView], errors: EpisodeErrors) -> list[SignalDraft]:
    calls = {e.call_id: e for e in events if e.kind == "tool_call" and e.call_id}
    results = [e for e in events if e.kind == "tool_result"]
    failing = {i for i, v in errors.verdicts.items() if v.kind == "root"}
    last_result_id = next((e.id for e in reversed(results) if not _benign(e, errors)), None)
    out: list[SignalDraft] = []
    for index, result in enumerate(results):
        verdict = errors.verdicts.get(result.id)
        refused = verdict is not None and bool(REFUSED.search(result.text[:400]))
        if verdict is None or (verdict.kind == "benign" and not refused):
            continue
        call = calls.get(result.call_id or "")
        ids = [e.id for e in (call, result) if e is not None]
        tool = _tool_of(result, calls)
        if verdict.kind == "knock_on":
            cause = [verdict.cause_id] if verdict.cause_id is not None else []
            knock = SignalDraft(
                "tool_error_knock_on", 0, 0.6, [*ids, *cause], "caused by", result.seq, tool
            )
            out.append(knock)
            continue
        worked = list(
            islice(
                (
                    later
                    for later in results[index + 1 :]
                    if _tool_of(later, calls) == tool
                    and later.id not in failing
                    and later.id not in errors.verdicts
                ),
                REPLACEMENT_WINDOW,
            )
        )
        fixer = _replacement(result, worked, calls) or (worked[0] if worked else None)
        detail = f"exit {result.exit_code}" if result.exit_code not in (None, 0) else "is_error"
        if refused:
            # the person refused the call; what the agent ran instead is evidence for
            # the judge ("npm install" refused, "pnpm install" worked), not a failure
            if fixer is not None:
                out.append(
                    SignalDraft(
                        "tool_error_recovered", 0, 0.6, [*ids, fixer.id], "refused", fixer.seq, tool
                    )
                )
            continue
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


def _replacement(
    failed: EventView, worked: Sequence[EventView], calls: dict[str, EventView]
) -> EventView | None:
    """Of the calls that worked after `failed` (the first few), the first whose command did
    the failing command's job another way (`npm install` refused, `ls`, then `pnpm
    install`): the evidence a judge spec names. A failed test run is no wrong command."""
    call = calls.get(failed.call_id or "")
    if call is None:
        return None
    failing = command_of(call.text)
    for later in worked:
        later_call = calls.get(later.call_id or "")
        if later_call is not None and replaced(failed.text, failing, command_of(later_call.text)):
            return later
    return None


def replaced(failed_output: str, failing: str, working: str) -> bool:
    """Whether the command `working` stood in for `failing`, which printed `failed_output`
    (`replacement.replaces`); a run whose tests failed was the right command, whatever
    came after it."""
    return bool(failing) and run_status(failed_output) != "failed" and replaces(failing, working)


def _benign(event: EventView, errors: EpisodeErrors) -> bool:
    verdict = errors.verdicts.get(event.id)
    return verdict is not None and verdict.kind != "root"


#: The tool Codex's agent reports its goal's state with (`{"status": "complete"}` after
#: its completion audit, `"blocked"` at an impasse it met three turns running).
_GOAL_STATUS_TOOL = "update_goal"
#: Claude Code's record of its goal's state (`{"type": "goal_status", "met": false,
#: "sentinel": true, "condition": …}` when the goal is set), which its evaluator model, reading
#: the transcript after each turn, answers. A key of the record, not one inside the
#: condition's text, where JSON escapes its quotes.
_GOAL_STATUS_TYPE = "attachment:goal_status"
_GOAL_MET = re.compile(r'(?<!\\)"met"\s*:\s*true\b')
_GOAL_SENTINEL = re.compile(r'(?<!\\)"sentinel"\s*:\s*true\b')


def _goal_signals(events: Sequence[EventView]) -> list[SignalDraft]:
    """The goal's last state in the episode, when it says how the work ended: Codex's
    agent marking it complete through its goal tool (its claim that the work is done) or
    blocked (that it cannot do it), the call not refused; Claude Code's evaluator judging
    its condition met (the goal then clears). Only the last state counts: a goal blocked,
    then resumed and completed, was done."""
    failed = {e.call_id for e in events if e.kind == "tool_result" and e.is_error and e.call_id}
    for event in reversed(events):
        if event.is_sidechain:
            continue
        if event.raw_type == _GOAL_STATUS_TYPE:
            # (the record of a goal just set, or judged not met yet, says nothing of how
            # the work ended)
            if not _GOAL_MET.search(event.text) or _GOAL_SENTINEL.search(event.text):
                return []
            reason = "the goal's condition judged met"
            return [SignalDraft("done_claim", 1, 0.6, [event.id], reason, event.seq)]
        if (
            event.kind != "tool_call"
            or (event.tool_name or "").rsplit(".", 1)[-1] != _GOAL_STATUS_TOOL
            or event.call_id in failed
        ):
            continue
        arguments = json_value(event.text)
        status = arguments.get("status") if isinstance(arguments, dict) else None
        if status == "complete":
            reason = "goal marked complete"
            return [SignalDraft("done_claim", 1, 0.6, [event.id], reason, event.seq)]
        if status == "blocked":
            reason = "goal marked blocked"
            return [SignalDraft("agent_gave_up", -1, 0.7, [event.id], reason, event.seq)]
    return []


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
        if earlier_result is None or not is_failed_result(earlier_result, earlier):
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


@dataclass(frozen=True, slots=True)
class Outcome:
    """An episode's outcome, how sure the rule is, and the events that justify it."""

    outcome: str
    rule: str
    confidence: float
    event_ids: tuple[int, ...] = ()


def detect_signals(
    episode: EpisodeDraft,
    lexicon: Lexicon,
    *,
    session_over: bool,
    is_last: bool,
    next_turn: TurnRecord | None = None,
    errors: EpisodeErrors | None = None,
    plan_handed_back: bool = False,
) -> list[SignalDraft]:
    """Every signal of one episode, in no particular order.

    `next_turn` is the turn that opened the next episode of the session (a new task
    typed after this one's work), when there is one; `plan_handed_back`: the plan the
    episode ends on came back at once as the first request of another session.
    """
    events = episode.events
    errors = errors if errors is not None else judge_errors(events)
    out = _tool_signals(events, errors) + _test_signals(events) + _retry_signals(events)
    out += _goal_signals(events)
    # an interrupt the person then typed after (a hint, a redirect) steered the work on
    # (kept, with no polarity); only one after their last word can have left it behind
    last_typed = max((f.event.seq for f in episode.feedback), default=-1)
    stopped_own = _stops_the_persons_own(episode)
    taken = plan_taken_afresh(episode, next_turn, handed_back_elsewhere=plan_handed_back)
    if taken:
        # the refusal and the stop after it were how the person took the plan
        last = next_turn.event if next_turn is not None else episode.intent
        out.append(SignalDraft("approval", 1, 0.85, [last.id], "took the plan", last.seq))
    for event in events:
        if event.seq in taken:
            continue
        if event.kind == "tool_result" and event.is_error and REFUSED.search(event.text[:400]):
            out.append(
                SignalDraft(
                    "tool_rejected", -1, 0.7, [event.id], "user refused the call", event.seq
                )
            )
        if is_interrupt(event) and event.seq not in stopped_own:
            polarity = -1 if event.seq > last_typed else 0
            out.append(
                SignalDraft("interrupt", polarity, 0.6, [event.id], event.text[:80], event.seq)
            )
        elif event.kind == "tool_call" and is_undo_command(without_git_options(event.text)):
            # (`git -C "C:\\src\\app" reset --hard` undoes as `git reset --hard` does)
            out.append(SignalDraft("undo", -1, 0.6, [event.id], "undo command", event.seq))
        elif undid_the_agents_work(event):
            # the person's own verdict, given by throwing the work away (Codex's `/undo`)
            out.append(
                SignalDraft("undone", -1, 0.8, [event.id], "the person undid the work", event.seq)
            )
    corrections = [f for f in episode.feedback if f.kind is TurnKind.CORRECTION]
    for item in corrections:
        out.append(
            SignalDraft(
                "user_correction", -1, 0.8, [item.event.id], item.event.text[:200], item.event.seq
            )
        )
        if lexicon.is_undo_request(feedback_region(as_typed(item.event.text))):
            undo = SignalDraft("undo", -1, 0.8, [item.event.id], "undo request", item.event.seq)
            out.append(undo)
    last_correction = max((c.event.seq for c in corrections), default=-1)
    went_on = [
        f
        for f in episode.feedback
        if f.kind in (TurnKind.FOLLOW_UP, TurnKind.STEERING) and f.event.seq > last_correction
    ]
    if corrections and went_on:
        # the person went on with the task after the correction ("commit, push to master and
        # release patch"): the correction is no longer their last word on it
        first = went_on[0].event
        out.append(SignalDraft("went_on", 0, 0.6, [first.id], first.text[:200], first.seq))
    # asking for the closing step (commit, push, a PR) after the agent's done claim
    # accepts the work, whatever happens to that step
    approvals = [
        f
        for f in episode.feedback
        if (f.kind is TurnKind.APPROVAL or f.decision.approves_previous)
        and f.event.seq > last_correction
    ]
    if approvals:
        last = approvals[-1].event
        out.append(SignalDraft("approval", 1, 0.85, [last.id], last.text[:200], last.seq))
    out.extend(_closing_signals(episode, errors, next_turn, ended=session_over or not is_last))
    if session_over and is_last and not approvals and not taken:
        out.extend(_abandoned(episode, errors, stopped_own))
    marker = episode.rolled_back
    if marker is not None:
        # the person rolled the thread back over the request and did not ask it again
        out.append(
            SignalDraft("rolled_back", -1, 0.7, [marker.id], "request taken back", marker.seq)
        )
    return out


#: The tool the agent asks with whether its plan is taken (Claude Code's plan mode).
_PLAN_TOOL = "ExitPlanMode"


def plan_taken_afresh(
    episode: EpisodeDraft, next_turn: TurnRecord | None, *, handed_back_elsewhere: bool
) -> set[int]:
    """The seqs of the refusal of the agent's plan and of the stop after it, when they
    were how the person took the plan: Claude Code's "Yes, and clear context" answers the
    plan tool with a refusal and "[Request interrupted by user for tool use]", then hands
    the plan back at once as "Implement the following plan: …", the next request of this
    session or, in newer versions, the first of a new one (`handed_back_elsewhere`, found
    by `persist`). Read as written, a plan the person accepted was a refused call the
    person left (entireio/cli's public history holds such plans). Empty for any other refusal,
    and when the person typed anything between it and the plan handed back."""
    if next_turn is not None:
        if not PLAN_ACCEPTED.match(as_typed(next_turn.event.text)):
            return set()
    elif not handed_back_elsewhere:
        return set()
    refused = refused_plan(episode)
    return refused[1] if refused is not None else set()


def refused_plan(episode: EpisodeDraft) -> tuple[EventView, set[int]] | None:
    """The agent's plan call (`ExitPlanMode`) and the seqs of its refusal and the stops
    after it, when the episode ends there: nothing typed and nothing of the agent's after
    the refusal."""
    calls = {e.call_id: e for e in episode.events if e.kind == "tool_call" and e.call_id}
    after = [e for e in episode.events if e.seq > _last_user_seq(episode)]
    for event in reversed(after):
        if event.kind != "tool_result" or not event.call_id:
            continue
        call = calls.get(event.call_id)
        if call is None or call.tool_name != _PLAN_TOOL:
            return None
        if not (event.is_error and REFUSED.search(event.text[:400])):
            return None
        later = [e for e in after if e.seq > event.seq]
        if any(e.kind in _AGENTS_OR_TYPED and not is_interrupt(e) for e in later):
            return None  # the agent went on after the refusal: not the plan handed back
        return call, {event.seq, *(e.seq for e in later if is_interrupt(e))}
    return None


def _stops_the_persons_own(episode: EpisodeDraft) -> set[int]:
    """The seqs of the interrupts that stopped something of the person's own, not the
    agent: one that comes right after a command the person ran themselves or a shell
    line typed into the agent's box (housekeeping), with nothing of the agent's between.
    "give me the command to run the tests", the agent's answer, then "npm run test:pr"
    stopped at once and run with `!`, and that run stopped: the answer was taken, and
    neither stop is the person leaving the work."""
    own = {record.event.seq for record in episode.housekeeping}
    stopped: set[int] = set()
    last_own = False
    for event in episode.events:
        if event.seq in own:
            last_own = True
        elif is_interrupt(event):
            if last_own:
                stopped.add(event.seq)
            last_own = False
        elif event.kind in _AGENTS_OR_TYPED and not event.is_sidechain:
            last_own = False
    return stopped


#: What ends a run of the person's own commands: the agent's work or a typed turn.
_AGENTS_OR_TYPED = frozenset(
    {"tool_call", "tool_result", "assistant_text", "thinking", "user_prompt"}
)


def _last_user_seq(episode: EpisodeDraft) -> int:
    return max((t.event.seq for t in episode.feedback), default=episode.intent.seq)


def _closing_signals(
    episode: EpisodeDraft, errors: EpisodeErrors, next_turn: TurnRecord | None, *, ended: bool
) -> list[SignalDraft]:
    """What the agent's last words and the person's next move say."""
    since = _last_user_seq(episode)
    # (a message with no words answers nothing: a proxy's stream stored as a record of
    # single characters, a turn of thinking alone)
    words = [
        e for e in episode.events if e.kind == "assistant_text" and e.seq > since and e.text.strip()
    ]
    out: list[SignalDraft] = []
    last_words = words[-1] if words else None
    later_root = [
        e
        for e in episode.events
        if e.id in errors.verdicts
        and errors.verdicts[e.id].kind == "root"
        and last_words is not None
        and e.seq > last_words.seq
    ]
    quiet_end = _ended_without_words(episode.events, since) if last_words is None else None
    if quiet_end is not None and ended:
        # the agent ended its turn with no words the transcript kept (a Stop hook's
        # snapshot holds its calls, not always what it then said): its last act is its
        # last say
        last_act, marker = quiet_end
        out.append(SignalDraft("answered", 0, 0.5, [last_act.id, marker.id], "", last_act.seq))
    if last_words is not None and not later_root:
        if ended:  # while the episode is open the person may still answer
            out.append(SignalDraft("answered", 0, 0.5, [last_words.id], "", last_words.seq))
        gave_up = agent_gave_up(last_words.text)
        if gave_up:
            out.append(SignalDraft("agent_gave_up", -1, 0.7, [last_words.id], "", last_words.seq))
        elif agent_claims_done(last_words.text):
            unwritten = _claimed_but_unwritten(episode.events, errors, last_words)
            if unwritten is not None:
                # "I've created a basic CLAUDE.md file" when the write of CLAUDE.md failed
                # and no later write of it worked: the record contradicts the claim
                out.append(
                    SignalDraft(
                        "claim_contradicted",
                        -1,
                        0.7,
                        [unwritten.id, last_words.id],
                        "claims a file its write never made",
                        last_words.seq,
                    )
                )
            else:
                out.append(SignalDraft("done_claim", 1, 0.6, [last_words.id], "", last_words.seq))
        if (
            not gave_up
            and episode.has_intent
            and _ASKS_FOR_INFORMATION.match(request_region(episode.intent_text))
        ):
            out.append(
                SignalDraft("question_answered", 0, 0.6, [last_words.id], "", last_words.seq)
            )
    engaged = any(f.kind in (TurnKind.FOLLOW_UP, TurnKind.APPROVAL) for f in episode.feedback)
    if (
        next_turn is not None
        and episode.has_intent
        and not engaged
        and not _a_round_of_review(request := request_region(episode.intent_text))
        and (
            same_request(request, next_text := request_region(typed_words(next_turn.event)))
            or reruns_amended(request, next_text)
            or (
                last_words is not None
                and agent_asks(last_words.text)
                and completes_bare_command(
                    as_typed(episode.intent.text), as_typed(next_turn.event.text)
                )
            )
        )
    ):
        # the person asked for the same thing again as a new task: this attempt did not
        # give them what they wanted (a re-sent command, a request typed again)
        seq = next_turn.event.seq
        out.append(SignalDraft("started_over", -1, 0.6, [next_turn.event.id], "asked again", seq))
    elif next_turn is not None and last_words is not None:
        seq = next_turn.event.seq
        out.append(SignalDraft("moved_on", 1, 0.55, [next_turn.event.id], "", seq))
    return out


#: Tools that write a file named in their input, and the keys that name it.
_FILE_WRITERS = {
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}
#: The path a file tool's input names, as a JSON string (escapes kept for `json_value`).
_NAMED_PATH = re.compile(r'"(file_path|notebook_path)"\s*:\s*"((?:[^"\\\n]|\\.){1,4096})"')
#: The files a Codex patch adds or changes.
_PATCHED_FILE = re.compile(r"^\*\*\* (?:Add|Update) File: (.+?)\s*$", re.MULTILINE)


def _a_round_of_review(intent: str) -> bool:
    """Acting on a pull request's review ("address pr feedback", `/github-pr-review`):
    asked again, it is the next round (new comments came), not a start-over."""
    command = parse_command(intent)
    if command is not None:
        return works_a_review_command(command.name)
    return works_the_review(intent.strip()[:300])


def written_paths(tool_name: str | None, text: str) -> list[str]:
    """The files a call writes, by the paths its input names (none for other tools, or
    for input that is not what the tool takes)."""
    if tool_name in _FILE_WRITERS:
        key = _FILE_WRITERS[tool_name]
        payload = json_value(text)
        path = payload.get(key) if isinstance(payload, dict) else None
        if payload is None:
            # a large write's input reaches mining cut to its head and tail, which is no
            # JSON: its path is read from the head, where the tool writes it
            named = _NAMED_PATH.search(text[:2000])
            path = json_value(f'"{named.group(2)}"') if named and named.group(1) == key else None
        return [path] if isinstance(path, str) and path.strip() else []
    if tool_name == PATCH_TOOL or text.lstrip().startswith("*** Begin Patch"):
        return _PATCHED_FILE.findall(text[:20000])
    return []


def _claimed_but_unwritten(
    events: Sequence[EventView], errors: EpisodeErrors, claim: EventView
) -> EventView | None:
    """The failed result of a write the done claim names by its file, when no write of
    that file worked before the claim: the claim says what the record denies. (One edit
    of a file failing among others that worked leaves the file changed: no denial.)"""
    calls = {e.call_id: e for e in events if e.kind == "tool_call" and e.call_id}
    failed: dict[str, EventView] = {}
    written: set[str] = set()
    for event in events:
        if event.seq >= claim.seq:
            break
        if event.kind != "tool_result" or not event.call_id or event.call_id not in calls:
            continue
        call = calls[event.call_id]
        # (in plain characters: a name spelt decomposed is the name the agent claims
        # composed; its words as spelt, as the claim's are: "Don't Panic.md")
        paths = written_paths(call.tool_name, call.text)
        names = {in_plain_characters(PurePath(p.strip()).name) for p in paths} - {""}
        verdict = errors.verdicts.get(event.id)
        if verdict is None:
            written |= names
        elif verdict.kind == "root":
            failed.update({name: event for name in names if name not in failed})
    said = in_plain_characters(claim.text[-2500:])
    return next(
        (
            result
            for name, result in failed.items()
            if name not in written and re.search(rf"(?<![\w./-]){re.escape(name)}(?![\w-])", said)
        ),
        None,
    )


def _ended_without_words(
    events: Sequence[EventView], since: int
) -> tuple[EventView, EventView] | None:
    """The agent's last act and the record that then ended its turn, when that act
    (after the person's last word) was a tool call or result, not words, and nothing of
    the agent's came after that record (a background task's end can set it working
    again)."""
    last_act: EventView | None = None
    ended: tuple[EventView, EventView] | None = None
    for event in events:
        if event.seq <= since:
            continue
        if event.kind in ("tool_call", "tool_result", "assistant_text") and not event.is_sidechain:
            last_act, ended = event, None
        elif (
            ended is None
            and last_act is not None
            and last_act.kind != "assistant_text"
            and ends_the_agents_turn(event)
        ):
            ended = (last_act, event)
    return ended


def same_request(first: str, second: str) -> bool:
    """Whether two typed requests are the same one: equal, whole, once case and spacing
    are set aside (the same slash command with the same arguments, a prompt pasted again;
    an expanded command template with other arguments, "Phase 2" after "Phase 1", is not).
    A short word or two ("ok", "continue") is no request to repeat."""
    a, b = flattened(first), flattened(second)
    return bool(a) and a == b and (len(a) >= 12 or a.startswith("/") or "<command-" in a)


def reruns_amended(first: str, second: str) -> bool:
    """Whether `second` runs the command `first` ran (a slash command, a saved prompt by its
    path, a skill) again with the same arguments and more words about them: the first run
    did not do what was asked, and the person says it again more plainly
    (".codex/prompts/constitution.md arguments/constitution-arg-1.md", then the same prompt
    with "use this arguments/constitution-arg-1.md as the User input"). Other arguments
    ("Phase 2" after "Phase 1") are the next step."""
    before, after = _command_and_arguments(first), _command_and_arguments(second)
    if before is None or after is None or before[0] != after[0]:
        return False
    old, new = _words_of(before[1]), _words_of(after[1])
    return bool(old) and len(new) > len(old) and set(old) <= set(new)


def _words_of(arguments: str) -> list[str]:
    """The words of a command's arguments, a path or a `$NAME` whole, with no trailing
    punctuation ("spec.md," is "spec.md")."""
    return [w for w in (word.strip(",;:!?()'\"") for word in arguments.split()) if w]


def _command_and_arguments(text: str) -> tuple[str, str] | None:
    """The command a request runs and its arguments, case and spacing set aside."""
    command = parse_command(text)
    if command is not None:
        return None if command.is_housekeeping else (command.name.lower(), flattened(command.args))
    name = family_name(text)
    if name is None:
        return None
    skill = SKILL_INVOKED.match(text)
    rest = text[skill.end() :] if skill else " ".join(text.split()[1:])
    return name.lower(), flattened(rest)


def completes_bare_command(first: str, second: str) -> bool:
    """Whether `second` runs the command `first` ran bare, now with arguments: after the
    bare run ended on the agent's question ("Which commit should I revert?"), the person
    started over with what it lacked ("/gh:revert 85ab0f6")."""
    bare, full = parse_command(first), parse_command(second)
    return (
        bare is not None
        and full is not None
        and not bare.is_housekeeping
        and bare.name.lower() == full.name.lower()
        and not bare.args.strip()
        and bool(full.args.strip())
    )


def _abandoned(
    episode: EpisodeDraft, errors: EpisodeErrors, stopped_own: set[int]
) -> list[SignalDraft]:
    """The session ended in this episode: stopped by the person (an interrupt as the
    last word) or cut off mid-work (the agent never answered, or its last act was a
    tool call or result): then nobody can tell the outcome from the transcript. Or
    stopped by the agent's own service before the agent said the work was done: the
    request was left undone."""
    events = episode.events
    relevant = [
        e
        for e in events
        if e.kind in ("tool_call", "tool_result", "assistant_text")
        or (is_interrupt(e) and e.seq not in stopped_own)
    ]
    stop = next((e for e in reversed(events) if is_service_error(e)), None)
    if (
        stop is not None
        and (not relevant or relevant[-1].seq < stop.seq)
        and not any(e.kind == "assistant_text" and agent_claims_done(e.text) for e in relevant)
    ):
        # the agent's service stopped it (a usage limit, an API error, "Prompt is too
        # long", a lost login) before it ever said the work was done, and nothing came
        # after (a report of finished work before the failure leaves the usual reading)
        stopped = "the agent's service stopped it"
        return [SignalDraft("service_stopped", 0, 0.6, [stop.id], stopped, stop.seq)]
    if not relevant:
        target = events[-1] if events else episode.intent
        return [SignalDraft("cut_off", 0, 0.6, [target.id], "no reply", target.seq)]
    last = relevant[-1]
    if is_interrupt(last):
        return [SignalDraft("abandoned", -1, 0.6, [last.id], "session ended here", last.seq)]
    if last.kind in ("tool_call", "tool_result") and not any(
        ends_the_agents_turn(e) for e in events if e.seq > last.seq
    ):
        checked = _checked_before_it_stopped(events, errors)
        if checked is not None:
            passed = "its checks passed after its last change"
            return [SignalDraft("checked_then_stopped", 1, 0.5, [checked.id], passed, checked.seq)]
        return [SignalDraft("cut_off", 0, 0.6, [last.id], "stopped mid-work", last.seq)]
    return []


def _checked_before_it_stopped(
    events: Sequence[EventView], errors: EpisodeErrors
) -> EventView | None:
    """The first passing test run after the agent's last change, when the transcript stops
    mid-work with every call answered and nothing failing after that run: the final tool
    results show the work done, as a person reads them; only the agent's closing words
    are missing. None when the agent changed nothing, a call is still running (a
    subagent's, a command's), or no run after the change passed."""
    calls = [e for e in events if e.kind == "tool_call"]
    answered = {e.call_id for e in events if e.kind == "tool_result" and e.call_id}
    if any(c.call_id and c.call_id not in answered for c in calls):
        return None
    # (a write of a file: Claude Code's `Write`, `Edit`, `MultiEdit`, `NotebookEdit`, a
    # Codex patch)
    changed = max((c.seq for c in calls if written_paths(c.tool_name, c.text)), default=None)
    if changed is None:
        return None
    results = [e for e in events if e.kind == "tool_result" and e.seq > changed]
    passed = next((e for e in results if run_status(e.text) == "passed"), None)
    if passed is None:
        return None
    for result in results:
        if result.seq <= passed.seq:
            continue
        verdict = errors.verdicts.get(result.id)
        if run_status(result.text) == "failed" or (verdict is not None and verdict.kind == "root"):
            return None
    return passed


def derive_outcome(signals: Sequence[SignalDraft]) -> Outcome:
    """success / failure / abandoned / unknown by the rule in docs/mining.md.

    In order: the person taking the request back (Codex's rollback, the request not
    asked again) → abandoned; the person throwing the agent's changes away (Codex's
    `/undo`) with no work done again after it → failure (with work done again, the rules
    below decide without it, a success being mixed); the person's last verdict decides
    (a correction the person went on from, with a follow-up or steering, is not their last
    verdict) (approval → success; a correction not followed by a done claim the person
    accepted → failure, unless the agent answered it with nothing failing after and the
    session ended quietly → mixed); the person asking for
    the same thing again as a new task → failure; an interrupt the person left behind →
    abandoned; the agent giving up → failure; a done claim that names a file no write of
    the episode made → failure; the transcript
    stopping mid-work → unknown, unless a test run passed after the agent's last change
    with every call answered and nothing failing after it → success (low confidence);
    the session ending on the agent's service failing before
    any done claim → failure; the agent's done claim, with the person moving on
    or the session ending quietly → success; an unrecovered error at the end → failure
    (not when the request asked for information and the agent answered after the error);
    the person moving on after an answer → success (low confidence); a transcript
    that stops before the agent answered or in the middle of its work → unknown.
    """
    counted = [s for s in signals if s.confidence >= COUNTING_CONFIDENCE]
    kinds: dict[str, list[SignalDraft]] = {}
    for signal in sorted(counted, key=lambda s: s.at_seq):
        kinds.setdefault(signal.kind, []).append(signal)

    def last(kind: str) -> SignalDraft | None:
        found = kinds.get(kind)
        return found[-1] if found else None

    def ids(*items: SignalDraft | None) -> tuple[int, ...]:
        return tuple(i for item in items if item is not None for i in item.event_ids)

    rolled_back = last("rolled_back")
    if rolled_back is not None:
        # withdrawn: whatever the agent did for it is no longer part of the conversation
        return Outcome("abandoned", "rolled_back", 0.7, ids(rolled_back))
    undone = last("undone")
    if undone is not None:
        # the person threw the agent's changes away: their verdict, unless the agent did
        # the work again after it (the person typed on): then the rest decides, and a
        # success is a success after a failed attempt
        redone = (
            "done_claim",
            "approval",
            "tests_passed",
            "checked_then_stopped",
            "answered",
            "question_answered",
        )
        if not any(s.kind in redone and s.at_seq > undone.at_seq for s in counted):
            return Outcome("failure", "undone", 0.75, ids(undone))
        rest = derive_outcome([s for s in signals if s.kind != "undone"])
        if rest.outcome == "success":
            evidence = ids(undone) + rest.event_ids
            return Outcome("mixed", "redone_after_undo", rest.confidence, evidence)
        return rest
    approval, correction = last("approval"), last("user_correction")
    done, moved = last("done_claim"), last("moved_on")
    gave_up, abandoned = last("agent_gave_up"), last("abandoned")
    negatives = [s for s in counted if s.polarity < 0 and s.kind != "user_correction"]
    last_negative = max(negatives, key=lambda s: s.at_seq) if negatives else None
    if approval is not None and (correction is None or approval.at_seq > correction.at_seq):
        if correction is not None:
            # success after a correction: the first attempt failed (replay reproduces it)
            return Outcome("mixed", "approved_after_correction", 0.85, ids(correction, approval))
        return Outcome("success", "approved", 0.9, ids(approval))
    went_on = last("went_on")
    if correction is not None and went_on is not None and went_on.at_seq > correction.at_seq:
        # the person went on with the task after it: the rest of the episode decides, and a
        # success is a success after a correction
        rest = derive_outcome([s for s in signals if s.kind not in ("user_correction", "went_on")])
        if rest.outcome == "success":
            return Outcome("mixed", "went_on_after_correction", rest.confidence, rest.event_ids)
        return rest
    if correction is not None:
        fixed = done is not None and done.at_seq > correction.at_seq
        if fixed and (moved is not None or abandoned is None):
            return Outcome("mixed", "fixed_after_correction", 0.6, ids(correction, done, moved))
        if moved is not None:
            # the person moved on after the correction with no further complaint: people
            # read that as the fix accepted (every such episode in the labelled set and
            # the blind samples); the first attempt still failed, so `mixed`
            return Outcome("mixed", "corrected_then_moved_on", 0.55, ids(correction, moved))
        answered = last("answered")
        if (
            answered is not None
            and answered.at_seq > correction.at_seq
            and (last_negative is None or last_negative.at_seq < correction.at_seq)
            and last("cut_off") is None
            and last("service_stopped") is None
        ):
            # the agent answered the correction, nothing failed after it and the session
            # ended quietly: labellers read that as the fix accepted, as they read a move
            # on; with less confidence
            return Outcome("mixed", "answered_after_correction", 0.5, ids(correction, answered))
        return Outcome("failure", "corrected", 0.8, ids(correction))
    started_over = last("started_over")
    if started_over is not None:
        return Outcome("failure", "started_over", 0.6, ids(started_over))
    interrupt = next((s for s in reversed(kinds.get("interrupt", [])) if s.polarity < 0), None)
    left = moved is not None or abandoned is not None
    if interrupt is not None and (done is None or done.at_seq < interrupt.at_seq) and left:
        return Outcome("abandoned", "interrupted_and_left", 0.7, ids(interrupt, moved))
    if gave_up is not None:
        return Outcome("failure", "agent_gave_up", 0.7, ids(gave_up))
    contradicted = last("claim_contradicted")
    if contradicted is not None:
        return Outcome("failure", "claim_contradicted", 0.7, ids(contradicted))
    checked = last("checked_then_stopped")
    if checked is not None:
        return Outcome("success", "checked_then_stopped", 0.5, ids(checked))
    if last("cut_off") is not None:
        return Outcome("unknown", "stopped_mid_work", 0.0, ids(last("cut_off")))
    service = last("service_stopped")
    if service is not None:
        # the session ended on the agent's service failing, before the agent said the
        # work was done: the request was left undone
        return Outcome("failure", "stopped_by_its_service", 0.6, ids(service))
    if done is not None and (last_negative is None or last_negative.at_seq < done.at_seq):
        if moved is not None:
            return Outcome("success", "done_then_moved_on", 0.7, ids(done, moved))
        return Outcome("success", "done_claim", 0.6, ids(done))
    final_failure = last("tool_error") or last("test_failure")
    answer = last("question_answered")
    answered_after = (
        answer is not None and final_failure is not None and (answer.at_seq > final_failure.at_seq)
    )
    if final_failure is not None and final_failure is last_negative and not answered_after:
        # (a question answered after the error: the answer was the deliverable, and the
        # rules below read the person's next move)
        return Outcome("failure", "unrecovered_error", 0.6, ids(final_failure))
    if last("tests_passed") is not None:
        return Outcome("success", "tests_passed", 0.6, ids(last("tests_passed")))
    if moved is not None and last_negative is None:
        return Outcome("success", "moved_on", 0.55, ids(moved))
    answered = last("answered")
    if answered is not None and (last_negative is None or last_negative.at_seq < answered.at_seq):
        # the agent had the last word, with nothing failing after it and no complaint
        return Outcome("success", "answered_without_complaint", 0.5, ids(answered))
    return Outcome("unknown", "no_clear_signal", 0.0, ())
