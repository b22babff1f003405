"""Failures the agent expected or asked for: a call it announced would fail (the red
step of test-first work), and a stop whose target had already stopped or that the agent
sent itself (Ctrl-C to a polled command).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sleepd.mining.episodes import EventView
from sleepd.mining.errors.shell import shell_command
from sleepd.mining.json_text import json_value
from sleepd.mining.signatures import is_shell_tool

#: The agent said, before the call, that it expects the call to fail.
_ANTICIPATED = re.compile(
    r"\b(confirm|verify|check|see|ensure|prove|show|watch|make sure)\s+(that\s+)?(it|this|they|"
    r"the (new )?tests?|the command|the call)\s+(still\s+|now\s+)?(fails?|errors?|throws|raises|"
    r"rejects?|exits? (non-?zero|with))\b"
    r"|\b(expect(ed|ing)?|should|is supposed to|are supposed to)\s+(it\s+|this\s+|them\s+)?"
    r"(to\s+)?(fail|error|throw|raise|reject|exit (non-?zero|with (an )?error))\b"
    r"|\b(test|try|exercise|check|verify)\w*\s+(the\s+|an?\s+)?(error|failure|failing|negative|"
    r"unhappy)[\s-](case|path|message|handling|output|scenario|behaviou?r)s?\b"
    r"|\bred (step|phase|check|test|run)\b|\bsee (it|them|the test) fail\b"
    # a check tried on input it must turn away ("Test commit-msg hook rejects bad message")
    r"|\brejects? (an? |the )?(bad|invalid|wrong|malformed|empty|unsigned)\b"
    r"|\bfails? for the (right|intended|expected) reason\b"
    # a probe of how a failure is handled ("expect refusal this time", "does it fail
    # safely?", "FAULT INJECTION - replay row 131")
    r"|\bexpect(ed|ing)?\s+(an?\s+|the\s+)?(refusal|rejection|failure|error|denial)\b"
    r"|\b(does|do|will|would|should) (it|this|they) fail (safely|gracefully|cleanly|loudly)\b"
    r"|\bfault[ -]injection\b|\binject(s|ed|ing)? (the |a )?(same )?fault\b"
    # how it takes input it must turn away ("Check CLI behavior with invalid JSON input",
    # "test the handling of a missing config")
    r"|\b(check|test|verify|see|try)\w*\s+(\w+\s+){0,3}?(behaviou?r|handling|response)\s+"
    r"(with|on|for|to|of)\s+(an?\s+|the\s+)?(empty|invalid|bad|malformed|missing|wrong|"
    r"unknown|nonexistent|non-existent|garbage|corrupt)\b",
    re.IGNORECASE,
)


#: How much of the agent's words before a call is read for an announced failure.
ANNOUNCE_TAIL = 600


#: A stop or kill tool, and the answer that its target had stopped already.
_STOP_TOOL = re.compile(r"kill|stop|terminate|cancel", re.IGNORECASE)


_ALREADY_STOPPED = re.compile(
    r"\b(is not running|not running|already (exited|stopped|finished|completed|terminated|"
    r"killed|dead)|no such process|no process found)\b",
    re.IGNORECASE,
)


def announced_failures(events: Sequence[EventView]) -> set[str]:
    """Call ids of the calls the agent said beforehand would fail (since the person's
    last turn, the agent's latest words before the call)."""
    said = ""
    out: set[str] = set()
    for event in events:
        if event.kind == "user_prompt":
            said = ""
        elif event.kind == "assistant_text":
            said = event.text[-ANNOUNCE_TAIL:]
        elif (
            event.kind == "tool_call"
            and event.call_id
            and (_ANTICIPATED.search(said) or _ANTICIPATED.search(_described_as(event)))
        ):
            out.add(event.call_id)
    return out


#: The agent's first words after a result, saying the call did not behave as it meant
#: ("The `isatty()` check isn't working because …", "… but the issue is the pipe …",
#: "Still failing"): whatever it announced, the failure it met was not the one it wanted.
_NOT_AS_MEANT = re.compile(
    r"^\W*(\S+\s+){0,8}?(isn'?t|is not|wasn'?t|was not|doesn'?t|does not|didn'?t|did not)\s+"
    r"(working|work|handl|catch|trigger|show|reach|fire)"
    r"|^\W*(\S+\s+){0,8}?(the (issue|problem|bug) is|wrong error|unexpected error|"
    r"still (fails|failing|broken|errors?))\b",
    re.IGNORECASE,
)


#: The agent's first words after a result, saying the failure was the one it wanted to
#: see ("Now that's the correct error message.", "As expected, …", "Good, it rejects it
#: correctly"): a check of an error path, though nothing before the call announced it.
_AS_MEANT = re.compile(
    r"^\W*((now|ok(ay)?|good|great|perfect)\W+)?(that'?s|this is|there'?s|here'?s) the "
    r"(correct|right|expected|intended) (error|message|failure|exit|behaviou?r|rejection|"
    r"refusal)\b"
    r"|^\W*((good|great|perfect)\W+)?(as expected|that'?s expected)\b"
    r"|^\W*((good|great|perfect)\W+)?(it|the (command|call|check|hook|script|cli|test)) "
    r"(correctly )?(fails|failed|errors|errored|rejects|rejected|refuses|refused|exits|exited)"
    r"( \w+)? (as expected|correctly|as intended)\b",
    re.IGNORECASE,
)


#: How much of the agent's next words is read for either.
_NEXT_WORDS = 200


def judged_next(events: Sequence[EventView]) -> tuple[set[str], set[str]]:
    """Call ids of the results whose next words from the agent, before the person's next
    turn, open by calling the failure the one it wanted (an error path checked on purpose),
    and of those whose next words say the call did not do what it meant; the results since
    its words before count as one. One walk for both."""
    as_meant: set[str] = set()
    not_as_meant: set[str] = set()
    pending: list[str] = []
    for event in events:
        if event.kind == "user_prompt":
            pending = []
        elif event.kind == "tool_result" and event.call_id:
            pending.append(event.call_id)
        elif event.kind == "assistant_text" and pending:
            opening = event.text[:_NEXT_WORDS]
            if _AS_MEANT.search(opening):
                as_meant.update(pending)
            if _NOT_AS_MEANT.search(opening):
                not_as_meant.update(pending)
            pending = []
    return as_meant, not_as_meant


#: A program that could not run at all: not what a call announced to fail was testing
#: (a missing file may be, "verify it fails without the config").
COULD_NOT_START = re.compile(
    r"command not found|No module named|Cannot find module|is not installed|"
    r"not recognized as an internal or external command",
    re.IGNORECASE,
)


def _described_as(call: EventView) -> str:
    """What the agent wrote, in the call itself, that the call is for: Claude Code's Bash
    `description` ("Verify both new tests now fail for the right reasons"), and what the
    command echoes about itself (`echo "=== RE-INJECTING THE SAME FAULT (expect refusal
    this time) ==="`)."""
    if not is_shell_tool(call.tool_name):
        return ""
    described = ""
    if '"description"' in call.text[:4000]:
        described = _input_text(call, "description")[:ANNOUNCE_TAIL]
    if "echo" in call.text[:4000]:
        echoed = " ".join(m[1] for m in _ECHOED.finditer(shell_command(call)))
        described = f"{described} {echoed[:ANNOUNCE_TAIL]}"
    return described


#: The words a command echoes ("echo "P3: … does it fail safely?"").
_ECHOED = re.compile(r"\becho\s+(?:-[neE]+\s+)?\"([^\"\n]{1,300})\"")


def _input_text(call: EventView, name: str) -> str:
    """A text field of the call's JSON input ("" when the input is not JSON, or the field
    is missing or not text)."""
    data = json_value(call.text)
    value = data.get(name) if isinstance(data, dict) else None
    return value if isinstance(value, str) else ""


def already_stopped(call: EventView | None, event: EventView) -> bool:
    return (
        call is not None
        and bool(_STOP_TOOL.search(call.tool_name or ""))
        and bool(_ALREADY_STOPPED.search(event.text[:300]))
    )


def stopped_by_the_agent(call: EventView | None, event: EventView) -> bool:
    """The agent sent Ctrl-C (or Ctrl-D) to a command it was polling (Codex
    `write_stdin` with `"chars": "\\u0003"`): the exit that follows (130) is the stop it
    asked for, not a failure."""
    if call is None or event.exit_code in (None, 0):
        return False
    chars = _input_text(call, "chars")
    return chars != "" and set(chars) <= {"\x03", "\x04"}
