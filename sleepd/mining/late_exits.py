"""Exit codes a Codex rollout recorded only when the command ended.

Codex's unified exec returns a long command's output while the command still runs
("Process running with session ID 24629"), and the model reads on with `write_stdin` polls
of that session; the poll that sees the end says "Process exited with code N". When the
model stops polling first (it goes on with other work, or the person stops the turn), the
exit is written only in the command's `exec_command_end` event, which the harvester keeps
as a meta event when the exit is not 0. Without it a `cargo test` that failed with 101
after the last poll reads as a success.

`with_late_exits` gives such an exit to the command's last result (the latest poll, where
a poll that saw the end would have reported it; the command's own result when nothing
polled it), unless a result of that command reported an exit, before or after the event.
It reads a whole session at once, so the order in which Codex wrote the event and the
polls does not matter.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from sleepd.mining.episodes import EventView
from sleepd.mining.signatures import is_shell_tool

#: A command's first result while it still runs, naming the session later polls read.
RUNNING = re.compile(r"Process running with session ID (\d+)")
#: A poll's input names the session it reads.
POLLED_SESSION = re.compile(r'"session_id"\s*:\s*(\d+)')
#: The meta event the harvester keeps for a failed command's end.
COMMAND_END = "event_msg:exec_command_end"
_EXITED = re.compile(r"Process exited with code -?\d+")


def results_by_command(
    events: Sequence[EventView], calls: dict[str, EventView]
) -> dict[str, list[int]]:
    """Each unified-exec command that ran on (its call id) and the indexes in `events` of its
    results: its own "Process running" result first, then the results of the `write_stdin`
    polls of its session. A session id used again belongs to the newer command."""
    results: dict[str, list[int]] = {}
    session_of: dict[str, str] = {}  # session id -> the command now running on it
    for index, event in enumerate(events):
        if event.kind != "tool_result" or not event.call_id:
            continue
        call = calls.get(event.call_id)
        if call is None:
            continue
        running = RUNNING.search(event.text[:400])
        if running and is_shell_tool(call.tool_name):
            session_of[running.group(1)] = event.call_id
            results[event.call_id] = [index]
            continue
        polled = POLLED_SESSION.search(call.text[:400])
        command = session_of.get(polled.group(1)) if polled else None
        if command is not None:
            results[command].append(index)
    return results


def with_late_exits(events: list[EventView]) -> list[EventView]:
    """`events` with each exit that only a command's end recorded given to the command's
    last result (its exit code set, `is_error` set, and the end of its output added); the
    list itself when no command's end is there to read."""
    ends = [e for e in events if e.raw_type == COMMAND_END and e.exit_code and e.call_id]
    if not ends:
        return events
    calls = {e.call_id: e for e in events if e.kind == "tool_call" and e.call_id}
    results = results_by_command(events, calls)
    out = list(events)
    for end in ends:
        indexes = results.get(end.call_id or "", [])
        if not indexes or any(_reported_exit(events[i]) for i in indexes):
            continue
        last = out[indexes[-1]]
        out[indexes[-1]] = dataclasses.replace(
            last,
            exit_code=end.exit_code,
            is_error=True,
            text=f"{last.text}\nProcess exited with code {end.exit_code}\nOutput:\n{end.text}",
        )
    return out


def _reported_exit(result: EventView) -> bool:
    return result.exit_code is not None or bool(_EXITED.search(result.text[:400]))
