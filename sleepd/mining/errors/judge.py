"""The verdict on each failed result of an episode: root, knock-on (pointing to its
cause) or benign, from the sibling modules' readings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from sleepd.mining.episodes import CODEX_REFUSAL, EventView
from sleepd.mining.errors.benign import (
    answers_no_history,
    answers_no_remote,
    answers_not_there,
    found_nothing,
    is_benign_exit,
)
from sleepd.mining.errors.expected import (
    COULD_NOT_START,
    already_stopped,
    announced_failures,
    judged_next,
    stopped_by_the_agent,
)
from sleepd.mining.errors.failed import (
    CODEX_PROCESS_NOT_CREATED,
    STOPPED_BY_PERSON,
    is_failed_result,
)
from sleepd.mining.errors.reads import CommandRead, command_reads
from sleepd.mining.errors.shell import before_status_echo, printed_status, shell_command
from sleepd.mining.late_exits import results_by_command
from sleepd.mining.tasks import command_of

ErrorKind = Literal["root", "knock_on", "benign"]


_KNOCK_ON = re.compile(
    r"Sibling tool call errored|Cancelled: parallel tool call|"
    r"user doesn'?t want to take this action right now|"
    r"cancell?ed because (a |another )?(sibling|parallel) (tool )?call (errored|failed)",
    re.IGNORECASE,
)


#: A tool result that says the person refused the call ("The user doesn't want to proceed
#: with this tool use", a plan "rejected by the user", Codex's "exec command rejected by
#: user"); not the calls cancelled with it
#: ("… doesn't want to take this action right now"), which are knock-ons of the refusal.
REFUSED = re.compile(
    r"user doesn'?t want to proceed with this tool use|tool use was rejected"
    r"|\bplan that was rejected by the user\b|" + CODEX_REFUSAL,
    re.IGNORECASE,
)


#: A call the harness's own safety check could not judge, so it never ran: Claude Code's
#: auto mode whose classifier model was down or gave no verdict ("claude-opus-4-8[1m] is
#: temporarily unavailable, so auto mode cannot determine the safety of Bash right now.",
#: "… Reason: Auto mode could not evaluate this action and is blocking it for safety").
#: An outage of the harness: nothing about the call failed, and no guidance to the agent
#: changes it. The classifier's verdict against a call ("Reason: Blocked by classifier", a
#: reason it states) is a refusal of the call like a hook's, and stays a failure.
HARNESS_OUTAGE = re.compile(
    r"\A\s*(?:Error: )?(?:"
    r"\S{1,100} is temporarily unavailable, so auto mode cannot determine the safety\b|"
    r"Permission for this action was denied by the Claude Code auto mode classifier\."
    r" Reason: Classifier unavailable\b|"
    r"(?:Permission for this action was denied by the Claude Code auto mode classifier\."
    r" Reason: )?(?:Auto mode could not evaluate this action\b|"
    r"The server-side auto mode classifier gave no verdict\b|"
    r"Auto mode classifier transcript exceeded (?:the )?context window\b)|"
    # Codex's automatic approval review that could not reach its model ("exec_command failed
    # for `…`: CreateProcess { message: "Rejected(\"This action was rejected due to
    # unacceptable risk.\\nReason: Automatic approval review failed: {… "status": 400 …}")
    + CODEX_PROCESS_NOT_CREATED
    + r"\"Rejected\(\\?\"This action was "
    r"rejected due to unacceptable risk\.(?:\\+n|\s)*Reason: Automatic approval review failed\b)"
)


def is_knock_on(event: EventView) -> bool:
    return bool(_KNOCK_ON.search(event.text[:400]))


_TOOL_VOCABULARY = re.compile(
    r"error|fail|not found|denied|invalid|cannot|can't|unable|exit code|no such|unknown|"
    r"refused|timed? ?out|exception|must|required|expected|string to replace|not allowed|"
    r"permission|blocked|abort|killed|usage|missing|does not exist|doesn't exist|<\w+>|"
    r"requires?|approv|not permitted|hook|limit|quota|illegal|\bE[A-Z]{3,}\b|unsupported|"
    # Claude Code's own answers to a call it would not run, written without their
    # `<tool_use_error>` wrapper by 1.0.x ("File has not been read yet. Read it first before
    # writing to it.", "File has been modified since read", "No changes to make: …")
    r"has not been read|read it first|modified since|no changes to make|exactly the same|"
    r"found \d+ matches|too large|exceeds|is a directory|not a directory|"
    # a program's own words for what went wrong, printed with no exit code by Claude Code
    # 1.0.x ("fatal: pathspec 'x.py' did not match any files")
    r"fatal|did not match|could not|couldn't|unrecognized|unexpected|undefined|syntax",
    re.IGNORECASE,
)


def _person_words(event: EventView) -> bool:
    """A refused call whose result is the person's own words (Claude Code writes what
    the person typed when refusing with feedback, e.g. "please add transformer.js too
    first"): one short line without any of a tool's error vocabulary."""
    text = event.text.strip()
    return (
        event.is_error
        and event.exit_code is None
        and 0 < len(text) <= 300
        and "\n" not in text
        and not _TOOL_VOCABULARY.search(text)
    )


@dataclass
class ErrorVerdict:
    kind: ErrorKind
    #: for a knock-on error: the result event whose failure caused it
    cause_id: int | None = None
    command: str = ""
    #: the result is a later read of a command that ran on: that command's result
    read: CommandRead | None = None


@dataclass
class EpisodeErrors:
    """Each failed result of an episode with its verdict (result event id → verdict)."""

    verdicts: dict[int, ErrorVerdict] = field(default_factory=dict)

    def roots(self) -> list[int]:
        return [i for i, v in self.verdicts.items() if v.kind == "root"]


def _polled_commands(events: Sequence[EventView], calls: dict[str, EventView]) -> dict[int, str]:
    """Codex runs a long command with `exec_command` and reads its end with `write_stdin`
    on the same session id: the exit code `write_stdin` reports is that command's.
    Returns result event id → the command it reports on."""
    out: dict[int, str] = {}
    for call_id, indexes in results_by_command(events, calls).items():
        command = command_of(calls[call_id].text)
        for index in indexes[1:]:
            out[events[index].id] = command
    return out


def judge_errors(events: Sequence[EventView]) -> EpisodeErrors:
    """Root, knock-on or benign for every failed tool result of `events`."""
    calls = {e.call_id: e for e in events if e.kind == "tool_call" and e.call_id}
    announced = announced_failures(events)
    as_meant, not_as_meant = judged_next(events)
    result = EpisodeErrors()
    last_root: int | None = None
    failed = [e for e in events if is_failed_result(e, calls.get(e.call_id or ""))]
    by_message: dict[str, list[EventView]] = {}
    for event in failed:
        call = calls.get(event.call_id or "")
        if call is not None and call.message_id:
            by_message.setdefault(call.message_id, []).append(event)
    polled = _polled_commands(events, calls)
    reads = command_reads(events, calls)
    for event in failed:
        call = calls.get(event.call_id or "")
        read = reads.get(event.id)
        command = shell_command(call) if call is not None else ""
        command = command or polled.get(event.id, "") or (read.command if read else "")
        if is_knock_on(event):
            siblings = by_message.get(call.message_id, []) if call and call.message_id else []
            cause = next((s.id for s in siblings if not is_knock_on(s)), last_root)
            result.verdicts[event.id] = ErrorVerdict("knock_on", cause, command)
            continue
        head = event.text[:400]
        if call is not None and found_nothing(call.tool_name, event.text):
            result.verdicts[event.id] = ErrorVerdict("benign", None, command)
            continue
        if HARNESS_OUTAGE.match(head):
            result.verdicts[event.id] = ErrorVerdict("benign", None, command)
            continue
        if REFUSED.search(head) or STOPPED_BY_PERSON.search(head) or _person_words(event):
            result.verdicts[event.id] = ErrorVerdict("benign", None, command)
            last_root = event.id  # what the calls cancelled with it point to
            continue
        exit_code, output = event.exit_code, event.text
        if read is not None:
            exit_code, output = read.exit_code, read.output
        elif exit_code in (None, 0) and call is not None:
            # (the 0 Codex reports is the echo's own: `git merge-base --is-ancestor …; echo
            # $?` printing "1" is the answer "no", as its exit 1 would be)
            printed = printed_status(call, event.text)
            if printed:  # the status it printed is the command's before the echo
                exit_code, command = printed, before_status_echo(command)
        if command and (
            is_benign_exit(command, exit_code, output)
            or answers_no_history(output)
            or answers_no_remote(command, output)
            or answers_not_there(command, output)
        ):
            result.verdicts[event.id] = ErrorVerdict("benign", None, command, read)
            continue
        # a polled command's exit is read by a later call made under the same words
        # (a call expected to fail that could not even start failed for another reason)
        expected = (
            call is not None
            and (call.call_id in announced or call.call_id in as_meant)
            and call.call_id not in not_as_meant
            and not COULD_NOT_START.search(event.text[:2000])
        )
        if expected or already_stopped(call, event) or stopped_by_the_agent(call, event):
            result.verdicts[event.id] = ErrorVerdict("benign", None, command)
            continue
        result.verdicts[event.id] = ErrorVerdict("root", None, command, read)
        last_root = event.id
    return result
