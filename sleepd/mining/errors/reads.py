"""Which command a later read of a running command reports on.

Both harnesses let a command run on while the model does other work, and let it read the
command later. Claude Code runs one in the background (`Bash` with `run_in_background`:
"Command running in background with ID: b18a41f. Output is being written to: …") and reads
it with `BashOutput` (`{"bash_id": …}`), later `TaskOutput` (`{"task_id": …}`); the read
that sees the end says how it ended, in an envelope of tags ("<task_type>local_bash
</task_type> <status>failed</status> <exit_code>255</exit_code> <output>ssh: connect to host
… Connection timed out</output>"). Codex Desktop's code mode runs a script (`exec`: "Script
running with cell ID 10") and reads it with `wait` (`{"cell_id": "10"}`), whose result is
the script's own ("Script completed … Output: …").

A failure such a read shows is the command's, as if it had ended at once: judged by what
the command ran (a background `grep` that matched nothing answers), keyed and shown under
the tool that ran it, with the exit it reported, and signed by what the command printed,
not by the read's envelope. Codex's unified exec and its `write_stdin` polls are
`late_exits.results_by_command`'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sleepd.mining.episodes import EventView
from sleepd.mining.errors.failed import BACKGROUND_READS, READ_ENVELOPE
from sleepd.mining.errors.shell import shell_command
from sleepd.mining.signatures import CODE_MODE_TOOL, is_shell_tool

#: The shell tool a background command ran in when the read cannot be traced to its start
#: (the start fell in an earlier episode): Claude Code's.
BACKGROUND_SHELL = "Bash"
#: Codex code mode's read of a script that runs on.
CELL_READ = "wait"

#: A shell call's answer that its command went to the background, naming the id reads use.
_BACKGROUND_STARTED = re.compile(r"\ACommand running in background with ID: ([\w-]+)")
#: A code-mode script's answer that it runs on, naming its cell.
_CELL_STARTED = re.compile(r"\AScript running with cell ID (\w+)")
#: The id a read names (`bash_id`, `task_id`, `cell_id`; a cell's id may be a number).
_READ_ID = re.compile(r'"(?:bash_id|task_id|shell_id|cell_id)"\s*:\s*"?([\w-]+)')
#: A task of another kind than a shell command's (a subagent's).
_OTHER_TASK = re.compile(r"<task_type>(?!local_bash<)[^<]*</task_type>")
#: The exit the envelope reports.
_ENVELOPE_EXIT = re.compile(r"<exit_code>(-?\d+)</exit_code>")
#: What the command printed, in the envelope (a long output's closing tag may be cut off).
_PRINTED = re.compile(r"<(output|stdout|stderr)>\n?(.*?)(?:</\1>|\Z)", re.S)
#: Code mode's header over a script's output.
_SCRIPT_HEADER = re.compile(r"\A\s*Script (?:completed|failed|terminated|error:)", re.I)


@dataclass(frozen=True, slots=True)
class CommandRead:
    """A read's result taken as the result of the command it reports on."""

    #: the tool that ran the command
    tool_name: str
    #: the command it ran ("" when the read cannot be traced to its start)
    command: str
    exit_code: int | None
    #: what the command printed
    output: str


def command_reads(
    events: Sequence[EventView], calls: dict[str, EventView]
) -> dict[int, CommandRead]:
    """Each result of `events` that is a read of a command running on (result event id →
    the command's result as it reports it). A read whose start is not in `events` still
    counts when its result says it is a command's (a `local_bash` task, a script's header)."""
    started: dict[str, EventView] = {}  # the id reads use -> the call that started it
    out: dict[int, CommandRead] = {}
    for event in events:
        if event.kind != "tool_result" or not event.call_id:
            continue
        call = calls.get(event.call_id)
        if call is None:
            continue
        head = event.text[:400]
        begun = _BACKGROUND_STARTED.match(head) if is_shell_tool(call.tool_name) else None
        if begun is None and call.tool_name == CODE_MODE_TOOL:
            begun = _CELL_STARTED.match(head)
        if begun is not None:
            started[begun.group(1)] = call
            continue
        read = _read_of(event, call, started)
        if read is not None:
            out[event.id] = read
    return out


def _read_of(
    event: EventView, call: EventView, started: dict[str, EventView]
) -> CommandRead | None:
    named = _READ_ID.search(call.text[:400])
    start = started.get(named.group(1)) if named else None
    head = event.text[:600]
    if call.tool_name in BACKGROUND_READS:
        if not READ_ENVELOPE.match(head) or _OTHER_TASK.search(head):
            return None
        exit_code = event.exit_code
        reported = _ENVELOPE_EXIT.search(head)
        if exit_code is None and reported is not None:
            exit_code = int(reported.group(1))
        printed = [m.group(2).strip("\n") for m in _PRINTED.finditer(event.text)]
        return CommandRead(
            tool_name=(start.tool_name if start else None) or BACKGROUND_SHELL,
            command=shell_command(start) if start else "",
            exit_code=exit_code,
            output="\n".join(part for part in printed if part),
        )
    if call.tool_name == CELL_READ and (start is not None or _SCRIPT_HEADER.match(head)):
        return CommandRead(
            tool_name=CODE_MODE_TOOL,
            command=shell_command(start) if start else "",
            exit_code=event.exit_code,
            output=event.text,
        )
    return None
