"""Whether the version of the CLI that wrote a session changes what mining reads (issue #14).

    .venv/bin/python bench/versions_real.py                  # every rewriting, labelled set
    .venv/bin/python bench/versions_real.py --fixtures DIR   # a set laid out as that one
    .venv/bin/python bench/versions_real.py codex_exit_as_text   # only the rewritings named

A person's history holds sessions written by many builds of Claude Code and Codex, and
each build writes the same conversation a little differently. Each rewriting here turns
the real transcripts into the form another build (or a gateway, or a model without
thinking) writes, without changing what was said or done:

* Claude Code: one record per API response instead of one per content block; thinking
  kept without its text, or no thinking at all; a tool result's text as a string or as
  text blocks; no `toolUseResult` beside a result; no `requestId`; the tools under their
  older or newer names (`Task` / `Agent`, `BashOutput` / `TaskOutput`, `KillShell` /
  `TaskStop`);
* Codex: no `event_msg` twins of the person's or the agent's messages (0.148 stopped
  writing `user_message`); a shell call's exit written as the older JSON (`{"output",
  "metadata": {"exit_code"}}`) or as the newer text ("Exit code: N / Wall time / Output:");
  a command run by `shell` (an argument list), by `shell_command` (one line) or by
  unified exec's `exec_command`; a turn's start and end under the names Codex also reads
  (`turn_started`, `turn_complete`); no reasoning; no `turn_context`;
* both: every clock moved back by the same amount; records of a kind no build writes
  yet; fields no build writes yet.

The transcripts are harvested and mined as they are and once per rewriting; a turn kind,
an episode's outcome, a tool error's judgement or a replay task (made or not, and a
command's carrying the text the command gave the agent or not) that changes is a rule
reading the build instead of the session. It prints, per rewriting, how many readings
changed and each one with its line (the line of the record as written; a reading at a
record the rewriting added is shown at line 0), and, where the set is labelled, whether
the label agreed before or after. No labels are needed: a set outside the repository is
measured as well.

Not here: a Codex rollout without `task_started`/`task_complete`. Those records are what
says a message was typed into the agent's running turn; taken away from a session that
has them, they take with them what that reading rests on, and such a turn then reads
otherwise, as it must.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import shlex
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mining_real import FIXTURES, Predictions, predict
from typography_real import changed as changed_readings
from typography_real import labelled_kinds, print_changed

#: A file's records (a torn line stays a string) → the records to write, each with the
#: index of the record it came from (None for a record the rewriting adds).
Rewrite = Callable[[list[Any]], list[tuple[int | None, Any]]]

#: How far every clock is moved back: more than a year and an odd part of a day, so
#: dates, weekdays and hours all change. (Back, not on: a harvest believes no time past
#: this machine's clock, and the sessions of the labelled set are recent.)
CLOCK_SHIFT = -timedelta(days=400, hours=7, minutes=13, seconds=5, milliseconds=500)


def _each(records: list[Any], change: Callable[[Any], Any]) -> list[tuple[int | None, Any]]:
    return [(i, change(copy.deepcopy(r))) for i, r in enumerate(records)]


def _is_claude(record: Any) -> bool:
    return isinstance(record, dict) and ("sessionId" in record or "uuid" in record)


def _message_blocks(record: Any, role: str) -> list[Any] | None:
    if not isinstance(record, dict) or not isinstance(record.get("message"), dict):
        return None
    message = record["message"]
    content = message.get("content")
    if message.get("role") != role or not isinstance(content, list):
        return None
    return content


# -- Claude Code ------------------------------------------------------------------------


def claude_one_record_per_response(records: list[Any]) -> list[tuple[int | None, Any]]:
    """Every content block of one API response in one record (as the API returns it, and
    as SDK exports write it), where Claude Code writes a record per block. The records that
    went into another are gone: whatever named them as parent names the record they went
    into."""
    out: list[tuple[int | None, Any]] = []
    into: dict[str, str] = {}  # uuid of a record merged away → uuid of the one kept
    open_at: dict[str, int] = {}  # message id → where its kept record is in `out`
    for i, record in enumerate(records):
        record = copy.deepcopy(record)
        blocks = (
            _message_blocks(record, "assistant") if record_type(record) == "assistant" else None
        )
        message_id = record["message"].get("id") if blocks is not None else None
        if isinstance(message_id, str) and message_id in open_at:
            kept = out[open_at[message_id]][1]
            kept["message"]["content"].extend(blocks or [])
            for key in ("stop_reason", "stop_sequence", "usage"):
                if key in record["message"]:
                    kept["message"][key] = record["message"][key]
            if isinstance(record.get("uuid"), str):
                into[record["uuid"]] = kept["uuid"]
            continue
        if isinstance(record, dict) and record.get("parentUuid") in into:
            record["parentUuid"] = into[record["parentUuid"]]
        if isinstance(message_id, str):
            open_at[message_id] = len(out)
        elif record_type(record) in ("user", "assistant"):
            open_at.clear()  # a response is written without another record between
        out.append((i, record))
    return out


def record_type(record: Any) -> Any:
    return record.get("type") if isinstance(record, dict) else None


def claude_thinking_hidden(records: list[Any]) -> list[tuple[int | None, Any]]:
    """Thinking kept with its signature and without its text, as newer builds write it."""

    def change(record: Any) -> Any:
        for block in _message_blocks(record, "assistant") or ():
            if isinstance(block, dict) and block.get("type") == "thinking":
                block["thinking"] = ""
        return record

    return _each(records, change)


def claude_no_thinking(records: list[Any]) -> list[tuple[int | None, Any]]:
    """No thinking at all (a model or a setting without it): a record that held only
    thinking is gone, and whatever named it as parent names its parent."""
    out: list[tuple[int | None, Any]] = []
    parent_of: dict[str, Any] = {}
    for i, record in enumerate(records):
        record = copy.deepcopy(record)
        blocks = _message_blocks(record, "assistant")
        if blocks is not None:
            kept = [b for b in blocks if not (isinstance(b, dict) and b.get("type") == "thinking")]
            if not kept and blocks and isinstance(record.get("uuid"), str):
                parent_of[record["uuid"]] = record.get("parentUuid")
                continue
            record["message"]["content"] = kept
        if isinstance(record, dict):
            parent = record.get("parentUuid")
            while parent in parent_of:
                parent = parent_of[parent]
            if "parentUuid" in record:
                record["parentUuid"] = parent
        out.append((i, record))
    return out


def _tool_results(record: Any) -> list[dict[str, Any]]:
    return [
        block
        for block in _message_blocks(record, "user") or ()
        if isinstance(block, dict) and block.get("type") == "tool_result"
    ]


def claude_results_as_blocks(records: list[Any]) -> list[tuple[int | None, Any]]:
    """A tool result's text written as one text block, where it was a string."""

    def change(record: Any) -> Any:
        for block in _tool_results(record):
            if isinstance(block.get("content"), str):
                block["content"] = [{"type": "text", "text": block["content"]}]
        return record

    return _each(records, change)


def claude_results_as_text(records: list[Any]) -> list[tuple[int | None, Any]]:
    """A tool result's text blocks written as one string, where it held only text."""

    def change(record: Any) -> Any:
        for block in _tool_results(record):
            content = block.get("content")
            if (
                isinstance(content, list)
                and content
                and all(isinstance(b, dict) and b.get("type") == "text" for b in content)
            ):
                block["content"] = "\n".join(str(b.get("text") or "") for b in content)
        return record

    return _each(records, change)


def _without(field: str) -> Callable[[Any], Any]:
    def change(record: Any) -> Any:
        if isinstance(record, dict):
            record.pop(field, None)
        return record

    return change


def claude_no_tool_use_result(records: list[Any]) -> list[tuple[int | None, Any]]:
    """No structured `toolUseResult` beside a tool result (older builds, SDK exports)."""
    return _each(records, _without("toolUseResult"))


def claude_no_request_id(records: list[Any]) -> list[tuple[int | None, Any]]:
    """No `requestId` (a third-party gateway)."""
    return _each(records, _without("requestId"))


#: The tools Claude Code renamed, with the input field that names what they act on.
_TOOL_RENAMES = (
    ("Task", "Agent", None, None),
    ("BashOutput", "TaskOutput", "bash_id", "task_id"),
    ("KillShell", "TaskStop", "shell_id", "task_id"),
)


def _renamed_tools(records: list[Any], newer: bool) -> list[tuple[int | None, Any]]:
    def change(record: Any) -> Any:
        for block in _message_blocks(record, "assistant") or ():
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            for old, new, old_field, new_field in _TOOL_RENAMES:
                was, now = (old, new) if newer else (new, old)
                was_field, now_field = (old_field, new_field) if newer else (new_field, old_field)
                if block.get("name") != was:
                    continue
                block["name"] = now
                tool_input = block.get("input")
                if was_field and isinstance(tool_input, dict) and was_field in tool_input:
                    tool_input[now_field] = tool_input.pop(was_field)
        return record

    return _each(records, change)


def claude_older_tool_names(records: list[Any]) -> list[tuple[int | None, Any]]:
    """The tools under the names older builds gave them: `Task` for `Agent`, `BashOutput`
    for `TaskOutput`, `KillShell` for `TaskStop` (with their input's field names)."""
    return _renamed_tools(records, newer=False)


def claude_newer_tool_names(records: list[Any]) -> list[tuple[int | None, Any]]:
    """The tools under the names newer builds give them: `Agent`, `TaskOutput`, `TaskStop`."""
    return _renamed_tools(records, newer=True)


# -- Codex ------------------------------------------------------------------------------


def _payload(record: Any) -> dict[str, Any] | None:
    if not isinstance(record, dict):
        return None
    if record.get("type") in ("response_item", "event_msg"):
        payload = record.get("payload")
        return payload if isinstance(payload, dict) else None
    return record  # the oldest rollouts: the item is the line


def _drop(records: list[Any], gone: Callable[[Any], bool]) -> list[tuple[int | None, Any]]:
    return [(i, copy.deepcopy(r)) for i, r in enumerate(records) if not gone(r)]


def _event_of(record: Any, *kinds: str) -> bool:
    payload = _payload(record)
    return (
        isinstance(record, dict)
        and record.get("type") == "event_msg"
        and payload is not None
        and payload.get("type") in kinds
    )


def codex_no_user_message_events(records: list[Any]) -> list[tuple[int | None, Any]]:
    """No `event_msg/user_message` twin of what the person typed (Codex 0.148 and later)."""
    return _drop(records, lambda r: _event_of(r, "user_message"))


def codex_no_agent_message_events(records: list[Any]) -> list[tuple[int | None, Any]]:
    """No `event_msg/agent_message` twin of the agent's words."""
    return _drop(records, lambda r: _event_of(r, "agent_message"))


def codex_turn_event_aliases(records: list[Any]) -> list[tuple[int | None, Any]]:
    """A turn's start and end under the names Codex also reads (`turn_started`,
    `turn_complete`), where it wrote `task_started` and `task_complete`."""
    aliases = {"task_started": "turn_started", "task_complete": "turn_complete"}

    def change(record: Any) -> Any:
        payload = _payload(record)
        if _event_of(record, *aliases) and payload is not None:
            payload["type"] = aliases[payload["type"]]
        return record

    return _each(records, change)


def codex_no_reasoning(records: list[Any]) -> list[tuple[int | None, Any]]:
    """No reasoning items or reasoning events."""

    def gone(record: Any) -> bool:
        payload = _payload(record)
        return _event_of(record, "agent_reasoning", "agent_reasoning_raw_content") or (
            payload is not None and payload.get("type") == "reasoning"
        )

    return _drop(records, gone)


def codex_no_turn_context(records: list[Any]) -> list[tuple[int | None, Any]]:
    """No `turn_context` lines (rollouts of early September 2025)."""
    return _drop(records, lambda r: isinstance(r, dict) and r.get("type") == "turn_context")


_TEXT_EXIT = re.compile(
    r"\AExit code: (-?\d+)\nWall time: ([0-9.]+) seconds\n(?:Total output lines: \d+\n)?"
    r"Output:\n(.*)\Z",
    re.S,
)


def _shell_outputs(record: Any) -> dict[str, Any] | None:
    payload = _payload(record)
    if payload is not None and payload.get("type") == "function_call_output":
        return payload
    return None


def _exit_as_text(payload: dict[str, Any]) -> bool:
    """`payload`'s output in the newer text form, where it was the older JSON: whether it
    was."""
    output = payload.get("output")
    try:
        body = json.loads(output) if isinstance(output, str) else None
    except ValueError:
        return False
    if not isinstance(body, dict):
        return False
    meta = body.get("metadata")
    if not isinstance(meta, dict) or not isinstance(body.get("output"), str):
        return False
    if not isinstance(meta.get("exit_code"), int):
        return False
    seconds = meta.get("duration_seconds", 0)
    payload["output"] = (
        f"Exit code: {meta['exit_code']}\nWall time: {seconds} seconds\nOutput:\n{body['output']}"
    )
    return True


def _exit_as_json(payload: dict[str, Any]) -> bool:
    """`payload`'s output in the older JSON form, where it was the newer text: whether it
    was."""
    output = payload.get("output")
    match = _TEXT_EXIT.match(output) if isinstance(output, str) else None
    if match is None:
        return False
    payload["output"] = json.dumps(
        {
            "output": match.group(3),
            "metadata": {
                "exit_code": int(match.group(1)),
                "duration_seconds": float(match.group(2)),
            },
        },
        ensure_ascii=False,
    )
    return True


def codex_exit_as_text(records: list[Any]) -> list[tuple[int | None, Any]]:
    """A shell call's result written as newer builds write it, "Exit code: N\\nWall time:
    T seconds\\nOutput:\\n…", where it was the older JSON with the exit in `metadata`."""

    def change(record: Any) -> Any:
        payload = _shell_outputs(record)
        if payload is not None:
            _exit_as_text(payload)
        return record

    return _each(records, change)


def codex_exit_as_json(records: list[Any]) -> list[tuple[int | None, Any]]:
    """A shell call's result written as older builds wrote it, JSON with the exit in
    `metadata`, where it was the newer text."""

    def change(record: Any) -> Any:
        payload = _shell_outputs(record)
        if payload is not None:
            _exit_as_json(payload)
        return record

    return _each(records, change)


_SHELL_SCRIPT = re.compile(r"\A(?:/\S*/)?(?:ba|z)?sh\Z")


def _calls(records: list[Any], name: str) -> list[dict[str, Any]]:
    out = []
    for record in records:
        payload = _payload(record)
        if payload is not None and payload.get("type") == "function_call":
            out += [payload] if payload.get("name") == name else []
    return out


def _outputs_of(records: list[Any], calls: set[Any]) -> list[dict[str, Any]]:
    return [
        payload
        for record in records
        if (payload := _shell_outputs(record)) is not None and payload.get("call_id") in calls
    ]


def codex_shell_as_shell_command(records: list[Any]) -> list[tuple[int | None, Any]]:
    """A command run with the older `shell` tool (an argv list, its result JSON) written as
    newer builds run it, with `shell_command` (one command line, its result text)."""
    records = copy.deepcopy(records)
    changed_calls = set()
    for call in _calls(records, "shell"):
        try:
            args = json.loads(call.get("arguments") or "")
        except ValueError:
            continue
        argv = args.get("command") if isinstance(args, dict) else None
        if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
            continue
        script = len(argv) == 3 and _SHELL_SCRIPT.match(argv[0]) and argv[1] in ("-lc", "-c")
        args["command"] = argv[2] if script else shlex.join(argv)
        call["name"] = "shell_command"
        call["arguments"] = json.dumps(args, ensure_ascii=False)
        changed_calls.add(call.get("call_id"))
    for payload in _outputs_of(records, changed_calls):
        _exit_as_text(payload)
    return list(enumerate(records))


def codex_shell_command_as_shell(records: list[Any]) -> list[tuple[int | None, Any]]:
    """A command run with `shell_command` (one command line, its result text) written as
    older builds ran it, with `shell` (`["bash", "-lc", line]`, its result JSON)."""
    records = copy.deepcopy(records)
    changed_calls = set()
    for call in _calls(records, "shell_command"):
        try:
            args = json.loads(call.get("arguments") or "")
        except ValueError:
            continue
        line = args.get("command") if isinstance(args, dict) else None
        if not isinstance(line, str):
            continue
        args["command"] = ["bash", "-lc", line]
        call["name"] = "shell"
        call["arguments"] = json.dumps(args, ensure_ascii=False)
        changed_calls.add(call.get("call_id"))
    for payload in _outputs_of(records, changed_calls):
        _exit_as_json(payload)
    return list(enumerate(records))


def codex_shell_command_as_exec_command(records: list[Any]) -> list[tuple[int | None, Any]]:
    """A command run with `shell_command` written as builds with unified exec run it:
    `exec_command` with `cmd`, its result "Chunk ID: … / Wall time: … / Process exited with
    code N / Original token count: … / Output:"."""
    records = copy.deepcopy(records)
    changed_calls = set()
    for call in _calls(records, "shell_command"):
        try:
            args = json.loads(call.get("arguments") or "")
        except ValueError:
            continue
        line = args.get("command") if isinstance(args, dict) else None
        if not isinstance(line, str):
            continue
        unified = {"cmd": line, "yield_time_ms": 10000, "max_output_tokens": 10000}
        if isinstance(args.get("workdir"), str):
            unified["workdir"] = args["workdir"]
        call["name"] = "exec_command"
        call["arguments"] = json.dumps(unified, ensure_ascii=False)
        changed_calls.add(call.get("call_id"))
    for n, payload in enumerate(_outputs_of(records, changed_calls)):
        output = payload.get("output")
        match = _TEXT_EXIT.match(output) if isinstance(output, str) else None
        if match is None:
            continue
        code, seconds, body = match.groups()
        payload["output"] = (
            f"Chunk ID: {n:06x}\nWall time: {float(seconds):.4f} seconds\n"
            f"Process exited with code {code}\nOriginal token count: {len(body) // 4}\n"
            f"Output:\n{body}"
        )
    return list(enumerate(records))


# -- both -------------------------------------------------------------------------------


def _moved(stamp: Any) -> Any:
    if not isinstance(stamp, str):
        return stamp
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    moved = (when + CLOCK_SHIFT).isoformat(timespec="milliseconds")
    return moved.replace("+00:00", "Z") if stamp.endswith("Z") else moved


def earlier_clock(records: list[Any]) -> list[tuple[int | None, Any]]:
    """Every clock in every record moved back by the same amount."""

    def change(record: Any) -> Any:
        if not isinstance(record, dict):
            return record
        for holder in (record, record.get("payload"), record.get("snapshot")):
            if isinstance(holder, dict) and "timestamp" in holder:
                holder["timestamp"] = _moved(holder["timestamp"])
        payload = record.get("payload")
        for key in ("started_at", "completed_at"):
            if isinstance(payload, dict) and isinstance(payload.get(key), (int, float)):
                payload[key] += CLOCK_SHIFT.total_seconds()
        return record

    return _each(records, change)


def unknown_records(records: list[Any]) -> list[tuple[int | None, Any]]:
    """A record of a kind no build writes yet after every record of the file."""
    out: list[tuple[int | None, Any]] = []
    claude = any(_is_claude(record) for record in records)
    session = next((r["sessionId"] for r in records if _is_claude(r) and "sessionId" in r), None)
    for i, record in enumerate(records):
        out.append((i, copy.deepcopy(record)))
        if not isinstance(record, dict):
            continue
        stamp = record.get("timestamp")
        if claude:
            added: dict[str, Any] = {
                "type": "x-future-notice",
                "sessionId": record.get("sessionId", session),
                "timestamp": stamp,
                "detail": {"note": "a record of a later build", "n": i},
            }
        elif i % 2:
            added = {
                "timestamp": stamp,
                "type": "event_msg",
                "payload": {"type": "x_future_event", "note": "a later build", "n": i},
            }
        else:
            added = {
                "timestamp": stamp,
                "type": "response_item",
                "payload": {"type": "x_future_item", "id": f"x_{i}", "content": []},
            }
        out.append((None, added))
    return out


def extra_fields(records: list[Any]) -> list[tuple[int | None, Any]]:
    """Fields no build writes yet on every record and on what it carries."""

    def change(record: Any) -> Any:
        if not isinstance(record, dict):
            return record
        record["xFuture"] = {"flag": True, "list": [1, "two"]}
        for key in ("message", "payload"):
            if isinstance(record.get(key), dict):
                record[key]["x_future"] = None
        return record

    return _each(records, change)


#: name → (the agent whose files it rewrites: "claude", "codex" or "both", the rewriting)
REWRITINGS: dict[str, tuple[str, Rewrite]] = {
    "claude_one_record_per_response": ("claude", claude_one_record_per_response),
    "claude_thinking_hidden": ("claude", claude_thinking_hidden),
    "claude_no_thinking": ("claude", claude_no_thinking),
    "claude_results_as_blocks": ("claude", claude_results_as_blocks),
    "claude_results_as_text": ("claude", claude_results_as_text),
    "claude_no_tool_use_result": ("claude", claude_no_tool_use_result),
    "claude_no_request_id": ("claude", claude_no_request_id),
    "claude_older_tool_names": ("claude", claude_older_tool_names),
    "claude_newer_tool_names": ("claude", claude_newer_tool_names),
    "codex_no_user_message_events": ("codex", codex_no_user_message_events),
    "codex_no_agent_message_events": ("codex", codex_no_agent_message_events),
    "codex_exit_as_text": ("codex", codex_exit_as_text),
    "codex_exit_as_json": ("codex", codex_exit_as_json),
    "codex_turn_event_aliases": ("codex", codex_turn_event_aliases),
    "codex_shell_as_shell_command": ("codex", codex_shell_as_shell_command),
    "codex_shell_command_as_shell": ("codex", codex_shell_command_as_shell),
    "codex_shell_command_as_exec_command": ("codex", codex_shell_command_as_exec_command),
    "codex_no_reasoning": ("codex", codex_no_reasoning),
    "codex_no_turn_context": ("codex", codex_no_turn_context),
    "earlier_clock": ("both", earlier_clock),
    "unknown_records": ("both", unknown_records),
    "extra_fields": ("both", extra_fields),
}


def composed(*rewrites: Rewrite) -> Rewrite:
    """The rewritings applied one after another, each record still traced to the one it
    came from as written."""

    def rewrite(records: list[Any]) -> list[tuple[int | None, Any]]:
        written: list[tuple[int | None, Any]] = list(enumerate(records))
        for step in rewrites:
            origin = [index for index, _ in written]
            after = step([record for _, record in written])
            written = [(origin[i] if i is not None else None, r) for i, r in after]
        return written

    return rewrite


#: transcript → {line as rewritten: line as written}
LineMap = dict[str, dict[int, int]]


def rewritten_copy(
    fixtures: Path, dst: Path, agent: str, rewrite: Rewrite | None
) -> tuple[Path, LineMap]:
    """A copy of a labelled set's layout with the transcripts of `agent` rewritten, and
    where each record went; `rewrite` None copies each record as it is."""
    dst.mkdir(parents=True, exist_ok=True)
    lines_of: LineMap = {}
    for item in fixtures.iterdir():
        if item.name not in ("claude", "codex"):
            (dst / item.name).symlink_to(item.resolve())
            continue
        (dst / item.name).mkdir()
        for path in item.iterdir():
            if path.suffix != ".jsonl":
                shutil.copyfile(path, dst / item.name / path.name)
                continue
            records: list[Any] = []
            for line in path.read_text(encoding="utf-8").split("\n"):
                try:
                    records.append(json.loads(line))
                except ValueError:
                    records.append(line)  # a torn or empty line stays as it was
            chosen = rewrite is not None and agent in ("both", item.name)
            written = rewrite(records) if chosen and rewrite else list(enumerate(records))
            out = [
                r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for _, r in written
            ]
            (dst / item.name / path.name).write_text("\n".join(out), encoding="utf-8")
            lines_of[f"{item.name}/{path.name}"] = {
                new + 1: (old + 1 if old is not None else 0) for new, (old, _) in enumerate(written)
            }
    return dst, lines_of


def as_written_lines(pred: Predictions, lines_of: LineMap) -> Predictions:
    """The predictions keyed by each record's line as written."""

    def back(key: tuple[str, int]) -> tuple[str, int]:
        transcript, line = key
        return transcript, lines_of.get(transcript, {}).get(line, line)

    pred.turns = {back(k): v for k, v in pred.turns.items()}
    pred.outcomes = {back(k): v for k, v in pred.outcomes.items()}
    pred.tasks = {back(k) for k in pred.tasks}
    pred.command_tasks = {back(k): v for k, v in pred.command_tasks.items()}
    return pred


def changed(before: Predictions, after: Predictions) -> dict[str, list[tuple[Any, str, str]]]:
    """The readings that differ (`typography_real.changed`), and the replay tasks: which
    requests became one, and whether a command's task carries the text the command gave
    the agent."""
    out = changed_readings(before, after)

    def tasks(pred: Predictions) -> dict[tuple[str, int], str]:
        return {
            key: "command, with its text"
            if pred.command_tasks.get(key)
            else "command, without its text"
            if key in pred.command_tasks
            else "task"
            for key in pred.tasks
        }

    old, new = tasks(before), tasks(after)
    out["tasks"] = [
        (key, str(old.get(key)), str(new.get(key)))
        for key in sorted(set(old) | set(new), key=str)
        if old.get(key) != new.get(key)
    ]
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument("rewritings", nargs="*", metavar="REWRITING", help=", ".join(REWRITINGS))
    args = parser.parse_args(argv)
    unknown = [name for name in args.rewritings if name not in REWRITINGS]
    if unknown:
        parser.error(f"no such rewriting: {', '.join(unknown)} (known: {', '.join(REWRITINGS)})")
    names = args.rewritings or list(REWRITINGS)
    gold = labelled_kinds(args.fixtures)
    with tempfile.TemporaryDirectory() as tmp:
        layout, _ = rewritten_copy(args.fixtures, Path(tmp) / "as_written", "both", None)
        as_written = predict(layout)
        turns, errors = len(as_written.turns), len(as_written.errors)
        print(f"read as written: {turns} typed turns, {errors} tool results judged", flush=True)
        for name in names:
            agent, rewrite = REWRITINGS[name]
            layout, lines_of = rewritten_copy(args.fixtures, Path(tmp) / name, agent, rewrite)
            rewritten = as_written_lines(predict(layout), lines_of)
            shutil.rmtree(layout)  # one set of copies on disk at a time
            print_changed(name, changed(as_written, rewritten), gold)


if __name__ == "__main__":
    main()
