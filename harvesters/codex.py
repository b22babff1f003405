"""OpenAI Codex CLI rollouts (`~/.codex/sessions/**/rollout-*.jsonl`) to normalized records.

Generations handled (FORMATS.md §2.2): the envelope JSONL
`{"timestamp","type","payload"}` (session_meta / response_item / event_msg /
turn_context / compacted, plus 2026 `ordinal`, `world_state`,
`token_usage_record`, `item_completed`); the older bare JSONL (a bare
`SessionMeta` header, then bare `ResponseItem`s and `record_type` state lines);
and the early single-JSON `.json` rollouts (`{"session", "items"}`), which are
rewritten whole, so any change to one is read again from the start (reset).

Choices worth knowing:
* User prompts come from `response_item` `message role=user` (present in every
  generation; 0.148 stopped writing `event_msg/user_message`). The event_msg
  twins of user and agent messages and reasoning are therefore skipped.
  Injected context (`<environment_context>`, AGENTS.md, `<user_instructions>`…)
  and developer/system messages are kind `meta`.
* Tool calls (function / custom / local-shell / web-search / tool-search) are emitted
  at once; their outputs become `tool_result` with the same `call_id`, whenever they
  come. A tool search's output (0.14x) is the catalogue it found: stored as the found
  tools' names, not their descriptions and schemas.
* Exit codes are read from every output encoding: JSON `{"output","metadata":
  {"exit_code"}}`, code mode's exec results (`{"chunk_id","exit_code","output"}`
  as one part of an output list) and plain text ("Exit code: 1", "Process
  exited with code 1"); a command the sandbox stopped ("failed in sandbox
  MacosSeatbelt with execution error: Denied { … exit_code: 128 … }") failed, and
  so did one the person refused ("exec command rejected by user") and one Codex could
  not run as made ("failed to parse function arguments: …", "unsupported call: …").
  A non-zero exit code (or an explicit failure) gives the tool_result
  `is_error=True` and one extra `kind="error"` event (external id + ":error");
  the Claude harvester follows the same rule. A unified-exec command's
  `exec_command_end` is the twin of its result, except when the model stopped
  polling the command before it ended: then it is the only record of the exit, so
  a failed one is kept as a meta event (exit code, call id, the end of the output
  and the lines before it that name an error) for mining to give to the command's
  last result (`sleepd.mining.late_exits`).
* Tokens come from `token_count.info.last_token_usage` on a `meta` event
  (raw_type "token_count"); a line repeating the previous `total_token_usage` is
  a duplicate and is not counted again. `input_tokens` is stored without the
  cached part (Codex counts cached tokens inside input), the cached part goes to
  `cache_read_tokens`.
* Event external ids are `@<byte offset>` (stable in an append-only file);
  the session id from the header is kept in `cursor.state` for later passes.
* Timestamps come from the records (UTC); file names are local time and unused.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator, Sequence
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import orjson

from harvesters import walk
from harvesters.base import (
    DEFAULT_MAX_TEXT_BYTES,
    as_dict,
    as_int,
    as_list,
    as_str,
    attachment_placeholder,
    batch_from_chunk,
    compact_json,
    json_object,
    line_id,
    parse_timestamp,
    read_record,
)
from harvesters.reader import (
    LineBatch,
    ParsedLine,
    empty_cursor,
    parse_json_line,
    read_jsonl,
    read_whole,
    resolved_roots,
    same_file_version,
)
from harvesters.records import (
    Batch,
    EventKind,
    EventRecord,
    EventRole,
    FileCursor,
    SessionRecord,
    SkippedLine,
    SourceFile,
    open_failure_reason,
)

SOURCE = "codex"
MAX_JSON_ROLLOUT_BYTES = 64 << 20
#: Clip limits (bytes) of the texts that are details rather than content.
RAW_CLIP = 16384
ERROR_CLIP = 500
#: How much of a failed command's output its end event keeps: the end, where the failure is,
#: and before it at most this many lines (each clipped) that name an error.
COMMAND_END_TAIL = 4000
COMMAND_END_ERROR_LINES = 10
COMMAND_END_LINE = 300
_ERROR_WORD = re.compile(r"error|fail|denied|not permitted|interrupted|fatal|panic", re.I)
#: What Codex itself writes as a `role:"user"` message, which no person typed: the
#: contextual fragments it puts before or between turns (codex-rs's
#: `is_contextual_user_fragment`: instructions, environment, skills, shell commands the
#: person ran, aborted turns, subagent notices, hook prompts, the desktop app's context;
#: tags in any case) and the warnings `record_model_warning` addresses to the model
#: ("Warning: apply_patch was requested via shell_command. Use the apply_patch tool
#: instead of exec_command."). A person's pasted warning ("Warning: x is not defined")
#: is none of these.
INJECTED_USER_TEXT = re.compile(
    r"\s*(?:<(?i:environment_context|user_instructions|instructions|permissions instructions|"
    r"collaboration_mode|turn_aborted|user_shell_command|recommended_plugins|app-context|"
    r"skills?_instructions|plugins_instructions|apps_instructions|skill|subagents|"
    r"subagent_notification|codex_internal_context|goal_context|hook_prompt|"
    r"agent_message_board_notification|external_[a-z0-9_-]+)[\s>]"
    r"|# AGENTS\.md instructions"
    # the plugins it recommends, as rollouts before their tag wrote them
    r"|Here is a list of plugins that are available but not installed\."
    # an automation's scheduled wake-up (the Codex app), which opens with its id
    r"|<heartbeat>\s*<automation_id>"
    r"|Warning: (?:apply_patch|update_plan) was requested via \S+?\. Use the \w+ tool instead"
    r"|Warning: The maximum number of (?:unified )?exec processes you can keep open is"
    r"|Warning: Your account was flagged for potentially high-risk cyber activity)"
)
_PLAIN_EXIT = re.compile(r"(?:Exit code:?|Process exited with code|exit status)\s*(-?\d+)", re.I)
#: A command the sandbox stopped, as Codex 0.4x writes it: "failed in sandbox MacosSeatbelt
#: with execution error: Denied { output: ExecToolCallOutput { exit_code: 128, … } }", or
#: "failed in sandbox: sandbox error: command was killed by a signal" (with what the command
#: printed after the colon, or nothing), and as later versions write it, a plain string
#: with no flag: "exec_command failed for `/bin/zsh -lc 'git add a.go'`: CreateProcess {
#: message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 128, …",
#: "… failed for `…`: SandboxDenied { message: "go: downloading …".
_SANDBOX_FAILURE = re.compile(
    r"^\s*(?:failed in sandbox\b|(?:sandbox|execution) error:|"
    r"\w+ failed(?: for `[^`\n]*`)?: (?:CreateProcess \{ message: \"Codex\(Sandbox\(Denied\b|"
    r"SandboxDenied \{))"
)
#: A call the person refused when Codex asked to approve it (the VS Code extension):
#: "exec command rejected by user", "patch rejected by user".
_REJECTED_BY_PERSON = re.compile(r"^\s*(?:exec command|patch) rejected by user\b")
_SANDBOX_EXIT = re.compile(r"\bexit_code: (-?\d+)")
#: A call Codex could not run as made, answered in plain text with no flag: arguments its
#: tool does not take ("failed to parse function arguments: missing field `command`") or a
#: tool name it does not know ("unsupported call: shell<|channel|>").
_CALL_NOT_RUN = re.compile(r"^\s*(?:failed to parse function arguments: |unsupported call: )")
_SKIPPED_EVENT_MSGS = frozenset(
    {
        "user_message",  # twin of response_item message role=user
        "agent_message",  # twin of response_item message role=assistant
        "agent_reasoning",  # twin of response_item reasoning
        "agent_reasoning_raw_content",
        "context_compacted",  # the `compacted` item carries the summary
    }
)
_QUIET_TYPES = frozenset({"world_state", "ghost_snapshot"})
#: The names Codex also reads for a turn's start and end (`EventMsg` accepts `turn_started`
#: and `turn_complete` as aliases of what it writes): stored under the name it writes, so
#: every reader of the store knows a turn's bounds by one name, whichever a build wrote.
_EVENT_ALIASES = {"turn_started": "task_started", "turn_complete": "task_complete"}
#: The record type of a goal the person set (`/goal <objective>`), stored as their prompt.
GOAL_SET = "event_msg:thread_goal_updated"
#: The tool the agent sets a goal with, itself, from what the person asked.
_GOAL_TOOL = "create_goal"


class CodexHarvester:
    """Harvests Codex `sessions/` and `archived_sessions/` roots."""

    name = SOURCE

    def __init__(self, session_dirs: Sequence[Path]) -> None:
        self.session_dirs = [Path(p) for p in session_dirs]

    def discover(self) -> Iterator[SourceFile]:
        live: list[str] = []
        archived: list[str] = []
        for root in self.session_dirs:
            if root.is_dir():
                jsonl, json = walk.rglob(str(root), ("rollout-*.jsonl", "rollout-*.json"))
                found = [*jsonl, *json]
                (archived if root.name == "archived_sessions" else live).extend(found)
        live_names = {os.path.basename(p) for p in live}
        for path in sorted(set(live), key=walk.path_order):
            legacy = path.endswith(".json")
            yield SourceFile(path, SOURCE, "legacy" if legacy else "main")
        for path in sorted(set(archived), key=walk.path_order):
            if os.path.basename(path) not in live_names:  # same rollout in both: sessions/ wins
                yield SourceFile(path, SOURCE, "archived")

    def discover_paths(self, paths: Sequence[str]) -> list[SourceFile] | None:
        """What `discover` lists in the folders holding `paths`, in its order: a few
        changed rollouts cost a listing of their day folders, not of the whole history.
        None when a path lies under `archived_sessions` (whether an archived rollout is
        listed depends on every live one): only the whole listing can tell."""
        roots = [str(root) for root in self.session_dirs]
        folders: set[str] = set()
        for path in paths:
            for index, parts in walk.places(path, roots):
                if self.session_dirs[index].name == "archived_sessions":
                    return None
                if os.path.isdir(roots[index]) and walk.reachable_by_rglob(
                    roots[index], parts[:-1]
                ):
                    folders.add(os.path.join(roots[index], *parts[:-1]))
        found: set[str] = set()
        for folder in folders:
            jsonl, json = walk.rglob(folder, ("rollout-*.jsonl", "rollout-*.json"))
            found.update(jsonl, json)
        return [
            SourceFile(path, SOURCE, "legacy" if path.endswith(".json") else "main")
            for path in sorted(found, key=walk.path_order)
        ]

    def read(
        self,
        file: SourceFile,
        cursor: FileCursor | None,
        *,
        batch_lines: int = 2000,
        max_text_bytes: int = DEFAULT_MAX_TEXT_BYTES,
    ) -> Iterator[Batch]:
        roots = resolved_roots(self.session_dirs)
        if file.path.endswith(".json"):
            yield self._read_json_rollout(file, cursor, max_text_bytes, roots)
            return
        parser: _CodexFile | None = None
        for chunk in read_jsonl(file.path, cursor, roots=roots, batch_lines=batch_lines):
            if parser is None:
                fresh = cursor is None or chunk.reset
                state = {} if cursor is None or fresh else orjson.loads(orjson.dumps(cursor.state))
                parser = _CodexFile(file, state, max_text_bytes)
            yield parser.convert(chunk)

    def _read_json_rollout(
        self, file: SourceFile, cursor: FileCursor | None, max_text: int, roots: tuple[str, ...]
    ) -> Batch:
        """The 2025 TypeScript CLI's single JSON document, read whole when it changed."""
        parser = _CodexFile(file, {}, max_text)
        try:
            data, now = read_whole(file.path, MAX_JSON_ROLLOUT_BYTES, roots)
        except OSError as exc:
            kept = cursor or empty_cursor(file.path)
            skip = SkippedLine(file.path, 0, 0, open_failure_reason(exc))
            return Batch(file.path, SOURCE, kept, skipped=[skip])
        seen = cursor is not None and cursor.offset > 0
        if seen and cursor is not None and same_file_version(cursor, now):
            return Batch(file.path, SOURCE, cursor)
        value: Any = None
        reason: str | None = "empty or over size limit"
        if data:
            value, reason = parse_json_line(data)
        if not isinstance(value, dict) or not isinstance(value.get("session"), dict):
            skip = SkippedLine(file.path, 1, 0, reason or "not a Codex JSON rollout")
            return Batch(file.path, SOURCE, now, skipped=[skip], reset=seen, bytes_read=now.size)
        chunk = LineBatch(lines=[], skipped=[], cursor=now, reset=seen, bytes_read=now.size)
        return parser.convert_document(value, chunk)


class _CodexFile:
    """Parse context for one rollout during one pass."""

    def __init__(self, file: SourceFile, state: dict[str, Any], max_text: int) -> None:
        self.file = file
        self.state = state
        self.max_text = max_text
        self.info: dict[str, Any] = state.setdefault("session", {})
        self.events: list[EventRecord] = []
        self.touched = False

    def convert(self, chunk: LineBatch) -> Batch:
        self.events = []
        self.touched = False
        for line in chunk.lines:
            read_record(self._line, line, self.events, chunk)
        return self._batch(chunk)

    def convert_document(self, doc: dict[str, Any], chunk: LineBatch) -> Batch:
        self.events = []
        session = as_dict(doc.get("session"))
        self._session_meta(session)
        items = as_list(doc.get("items"))
        started = session.get("timestamp")
        for index, item in enumerate(items):
            if isinstance(item, dict):
                fake = ParsedLine(1, 0, 0, item, b"")
                read_record(partial(self._item, started, f"#{index}"), fake, self.events, chunk)
        chunk.lines_read = 1
        return self._batch(chunk)

    def _item(self, started: Any, eid: str, line: ParsedLine) -> None:
        self._response_item(line, line.obj, started, eid)

    def _batch(self, chunk: LineBatch) -> Batch:
        sessions = [self._session_record()] if self.touched and self.state.get("sid") else []
        return batch_from_chunk(
            self.file.path, SOURCE, chunk, self.state, sessions, self.events, self.max_text
        )

    # ---- sessions -----------------------------------------------------------

    def _session_meta(self, payload: dict[str, Any]) -> None:
        if self.state.get("sid"):
            return  # the first session_meta in a file wins
        sid = payload.get("id") or payload.get("session_id")
        if not isinstance(sid, str) or not sid:
            return
        self.state["sid"] = sid
        info = self.info
        info["started"] = as_str(payload.get("timestamp"))
        info["project"] = as_str(payload.get("cwd"))
        info["version"] = as_str(payload.get("cli_version"))
        git = as_dict(payload.get("git"))
        info["branch"] = as_str(git.get("branch"))
        meta = {
            key: payload[key]
            for key in ("originator", "model_provider", "agent_nickname", "agent_role")
            if isinstance(payload.get(key), str)
        }
        if as_str(git.get("repository_url")):
            meta["repository_url"] = git["repository_url"]
        if as_str(git.get("commit_hash")):
            meta["commit"] = git["commit_hash"]
        source = payload.get("source")
        if isinstance(source, str):
            meta["origin"] = source
        elif isinstance(source, dict) and "subagent" in source:
            info["kind"] = "subagent"
            spawn = source["subagent"]
            if isinstance(spawn, dict) and isinstance(spawn.get("thread_spawn"), dict):
                info["parent"] = as_str(spawn["thread_spawn"].get("parent_thread_id"))
            elif as_str(payload.get("parent_thread_id")):
                # a review or approval-check thread (`{"subagent": {"other": "guardian"}}`,
                # `{"subagent": "review"}`) names its parent beside the source
                info["parent"] = as_str(payload["parent_thread_id"])
            meta["origin"] = "subagent"
        if isinstance(payload.get("forked_from_id"), str):
            info["kind"] = info.get("kind", "fork")
            info.setdefault("parent", payload["forked_from_id"])
        if self.file.role == "archived":
            meta["archived"] = True
        info["meta"] = meta
        self.touched = True

    def _history_header(self, payload: dict[str, Any], ts: Any) -> None:
        """A second header naming another session: `codex resume` writes the resumed
        session's header and then replays its whole history into the new rollout, in one
        burst. What it replays is history already stored with that session, not this
        session's turns and work."""
        sid, other = self.state.get("sid"), payload.get("id") or payload.get("session_id")
        at = parse_timestamp(ts)
        if not sid or not isinstance(other, str) or other == sid or at is None:
            return
        self.state["history_until"] = (at + HISTORY_BURST).isoformat()
        meta = dict(self.info.get("meta", {}))
        meta.setdefault("resumed_from", other)
        self.info["meta"] = meta

    def _note_time(self, ts: Any) -> None:
        if isinstance(ts, str) and ts:
            self.touched = True
            ended = self.info.get("ended")
            if (not ended or ts > ended) and parse_timestamp(ts) is not None:
                self.info["ended"] = ts

    def _session_record(self) -> SessionRecord:
        info = self.info
        return SessionRecord(
            source=SOURCE,
            external_id=self.state["sid"],
            kind=info.get("kind", "main"),
            project_path=info.get("project"),
            git_branch=info.get("branch"),
            model=info.get("model"),
            agent_version=info.get("version"),
            started_at=parse_timestamp(info.get("started")),
            ended_at=parse_timestamp(info.get("ended")),
            parent_external_id=info.get("parent"),
            meta=dict(info.get("meta", {})),
        )

    # ---- lines --------------------------------------------------------------

    def _line(self, line: ParsedLine) -> None:
        obj = line.obj
        kind = obj.get("type")
        payload = obj.get("payload")
        eid = line_id(line.offset, line.raw)
        if isinstance(kind, str) and isinstance(payload, dict):  # envelope
            ts = obj.get("timestamp")
            self._note_time(ts)
            self._envelope(line, kind, payload, ts, eid)
        elif "record_type" in obj:
            return  # bare-era state snapshot lines
        elif line.line_no == 1 and "id" in obj and "type" not in obj:
            self._session_meta(obj)  # bare-era header
        elif isinstance(kind, str):
            self._response_item(line, obj, obj.get("timestamp"), eid)  # bare-era item
        else:
            self._raw(line, "untyped", obj.get("timestamp"), eid)

    def _envelope(
        self, line: ParsedLine, kind: str, payload: dict[str, Any], ts: Any, eid: str
    ) -> None:
        if kind == "session_meta":
            self._history_header(payload, ts)
            self._session_meta(payload)
        elif kind == "turn_context":
            if isinstance(payload.get("model"), str):
                self.info["model"] = payload["model"]
            if not self.info.get("project") and isinstance(payload.get("cwd"), str):
                self.info["project"] = payload["cwd"]
        elif kind == "response_item":
            self._response_item(line, payload, ts, eid)
        elif kind == "event_msg":
            self._event_msg(line, payload, ts, eid)
        elif kind == "compacted":
            text = str(payload.get("message") or "")
            self._emit(line, eid, "summary", "system", ts, text, raw_type="compacted")
        elif kind == "token_usage_record":
            text = compact_json(payload.get("usage"))
            self._emit(line, eid, "meta", "system", ts, text, raw_type=kind, is_meta=True)
        elif kind not in _QUIET_TYPES:
            self._raw(line, kind, ts, eid)

    def _response_item(self, line: ParsedLine, item: dict[str, Any], ts: Any, eid: str) -> None:
        itype = as_str(item.get("type"))
        if itype == "message":
            self._message(line, item, ts, eid)
        elif itype == "reasoning":
            parts = [
                str(s.get("text") or "")
                for s in as_list(item.get("summary")) + as_list(item.get("content"))
                if isinstance(s, dict)
            ]
            self._emit(line, eid, "thinking", "assistant", ts, "\n".join(parts))
        elif itype in (
            "function_call",
            "custom_tool_call",
            "local_shell_call",
            "web_search_call",
            "tool_search_call",
        ):
            self._tool_call(line, item, ts, eid, itype)
        elif itype in ("function_call_output", "custom_tool_call_output"):
            self._tool_output(line, item, ts, eid)
        elif itype == "tool_search_output":
            self._tool_search_output(line, item, ts, eid)
        elif itype in ("compaction", "compaction_summary"):
            self._emit(line, eid, "summary", "system", ts, "[remote compaction]", raw_type=itype)
        elif itype in _QUIET_TYPES:
            return
        else:
            self._raw(line, f"response_item:{itype}", ts, eid)

    def _message(self, line: ParsedLine, item: dict[str, Any], ts: Any, eid: str) -> None:
        role = item.get("role")
        text = _content_text(item.get("content"))
        if role == "assistant":
            self._emit(line, eid, "assistant_text", "assistant", ts, text)
        elif role == "user":
            if INJECTED_USER_TEXT.match(text) or _kinds_say_injected(item):
                self._emit(line, eid, "meta", "user", ts, text, is_meta=True)
            else:
                # (the agent's goal tool belongs to its turn: a goal set from here on is new)
                self.state.pop("goal_by_agent", None)
                self._emit(line, eid, "user_prompt", "user", ts, text)
        else:
            self._emit(line, eid, "meta", "system", ts, text, is_meta=True, raw_type=str(role))

    def _tool_call(
        self, line: ParsedLine, item: dict[str, Any], ts: Any, eid: str, itype: str
    ) -> None:
        if itype == "function_call":
            name, text = item.get("name"), item.get("arguments")
            text = text if isinstance(text, str) else compact_json(text)
            if isinstance(item.get("namespace"), str):
                name = f"{item['namespace']}.{name}"
        elif itype == "custom_tool_call":
            name, text = item.get("name"), item.get("input")
        elif itype == "local_shell_call":
            name, text = "local_shell", compact_json(item.get("action"))
        elif itype == "tool_search_call":
            name, text = "tool_search", compact_json(item.get("arguments"))
        else:
            name, text = "web_search", compact_json(item.get("action"))
        call_id = item.get("call_id") or item.get("id")
        if isinstance(name, str) and name.rsplit(".", 1)[-1] == _GOAL_TOOL:
            self.state["goal_by_agent"] = True
        self._emit(
            line, eid, "tool_call", "assistant", ts,
            text if isinstance(text, str) else compact_json(text),
            tool_name=name if isinstance(name, str) else None,
            call_id=call_id if isinstance(call_id, str) else None,
        )  # fmt: skip

    def _tool_output(self, line: ParsedLine, item: dict[str, Any], ts: Any, eid: str) -> None:
        text, exit_code, failed = decode_tool_output(item.get("output"))
        call_id = item.get("call_id") if isinstance(item.get("call_id"), str) else None
        failed = failed or (exit_code is not None and exit_code != 0)
        self._emit(
            line, eid, "tool_result", "tool", ts, text,
            call_id=call_id, exit_code=exit_code, is_error=failed,
        )  # fmt: skip
        if failed:
            self._emit(
                line, f"{eid}:error", "error", "tool", ts, text.strip(),
                call_id=call_id, exit_code=exit_code, is_error=True, clip_bytes=ERROR_CLIP,
            )  # fmt: skip

    def _tool_search_output(
        self, line: ParsedLine, item: dict[str, Any], ts: Any, eid: str
    ) -> None:
        """Codex 0.14x's answer to a tool search: the tools it found, by name (their
        descriptions and schemas are the catalogue, not something the call did)."""
        names: list[str] = []
        for tool in as_list(item.get("tools")):
            if not isinstance(tool, dict):
                continue
            inner = [t for t in as_list(tool.get("tools")) if isinstance(t, dict)]
            prefix = f"{tool['name']}." if isinstance(tool.get("name"), str) and inner else ""
            for found in inner or [tool]:
                if isinstance(found.get("name"), str):
                    names.append(prefix + found["name"])
        call_id = item.get("call_id") if isinstance(item.get("call_id"), str) else None
        failed = item.get("status") not in (None, "completed")
        self._emit(
            line, eid, "tool_result", "tool", ts, "\n".join(names) or compact_json(item),
            call_id=call_id, is_error=failed,
        )  # fmt: skip

    def _event_msg(self, line: ParsedLine, payload: dict[str, Any], ts: Any, eid: str) -> None:
        etype = as_str(payload.get("type"))
        etype = _EVENT_ALIASES.get(etype, etype) if etype else etype
        if etype == "exec_command_end":
            self._command_end(line, payload, ts, eid)
            return
        if etype in _SKIPPED_EVENT_MSGS:
            return
        if etype in ("task_complete", "turn_aborted"):
            self.state.pop("goal_by_agent", None)  # the agent's goal tool belongs to its turn
        if etype == "token_count":
            self._token_count(line, payload, ts, eid)
        elif etype == "turn_aborted":
            self._turn_aborted(line, payload, ts, eid)
        elif etype in ("error", "stream_error"):
            text = str(payload.get("message") or compact_json(payload))
            self._emit(line, eid, "error", "system", ts, text, is_error=True, raw_type=etype)
        elif etype == "item_completed":
            self._item_completed(line, payload, ts, eid)
        elif etype == "thread_goal_updated" and self._goal_set(line, payload, ts, eid):
            return
        else:
            text = compact_json({k: v for k, v in payload.items() if k != "type"})
            self._emit(
                line, eid, "meta", "system", ts, text, is_meta=True, raw_type=f"event_msg:{etype}"
            )

    def _goal_set(self, line: ParsedLine, payload: dict[str, Any], ts: Any, eid: str) -> bool:
        """A goal the person set: stored as what they typed, `/goal <objective>`, and True.

        Codex's `/goal <objective>` writes no user message: the objective is only in the
        `thread_goal_updated` record, and the turns that pursue it open with Codex's own
        `<goal_context>`. A session started that way has no typed request at all. Only a
        new objective is the person's: the same one again is the goal's progress (tokens
        used, a status), and one the agent set with its goal tool restates what the
        person asked in their message before it. False for those (kept as meta)."""
        goal = as_dict(payload.get("goal"))
        objective = goal.get("objective")
        if not isinstance(objective, str) or not objective.strip():
            return False
        objective = objective.strip()
        # (the reader's state travels with every batch: a digest, however long the goal)
        digest = hashlib.sha256(objective.encode("utf-8", "replace")).hexdigest()[:32]
        if digest == self.state.get("goal_objective"):
            return False
        self.state["goal_objective"] = digest
        if self.state.pop("goal_by_agent", False):
            return False
        self._emit(line, eid, "user_prompt", "user", ts, f"/goal {objective}", raw_type=GOAL_SET)
        return True

    def _turn_aborted(self, line: ParsedLine, payload: dict[str, Any], ts: Any, eid: str) -> None:
        """A turn Codex ended early. The person stopped it (`interrupted`, or `replaced` by
        what they sent next; an older build's missing or unknown reason counts so), or
        Codex did: the review thread it ran ended (`review_ended`), which is no one's
        stop, or the goal's token budget ran out (`budget_limited`), which stops the work
        as a usage limit does, not by the person's hand."""
        reason = str(payload.get("reason") or "aborted")
        if reason == "review_ended":
            self._emit(
                line, eid, "meta", "system", ts, reason, is_meta=True, raw_type="turn_aborted"
            )
        elif reason == "budget_limited":
            text = "turn stopped: the goal's token budget ran out (budget_limited)"
            self._emit(
                line, eid, "error", "system", ts, text, is_error=True, raw_type="turn_aborted"
            )
        else:
            self._emit(line, eid, "interrupt", "system", ts, reason, raw_type="turn_aborted")

    def _command_end(self, line: ParsedLine, payload: dict[str, Any], ts: Any, eid: str) -> None:
        """A unified-exec command's end. Mostly the twin of a tool result, but when the
        model stopped polling a long command before it ended, the only record of its exit:
        a failed one is kept (a meta event with the exit code, the end of the output and
        the lines before it that name an error), and mining gives it to the command's last
        result when no result reported an exit (`sleepd.mining.late_exits`)."""
        exit_code = payload.get("exit_code")
        call_id = payload.get("call_id")
        if type(exit_code) is not int or exit_code == 0 or not isinstance(call_id, str):
            return
        output = str(payload.get("aggregated_output") or payload.get("formatted_output") or "")
        text = output[-COMMAND_END_TAIL:]
        if len(output) > COMMAND_END_TAIL:
            if "\n" in text:
                text = text.split("\n", 1)[1]  # whole lines only
            # the model never saw most of this output: its error lines, wherever they
            # are, say why the command failed ("rg: …: Permission denied" among hits)
            said = [
                ln[:COMMAND_END_LINE]
                for ln in output[: -len(text)].splitlines()
                if _ERROR_WORD.search(ln)
            ][:COMMAND_END_ERROR_LINES]
            if said:
                text = "\n".join(said) + "\n…\n" + text
        self._emit(
            line, eid, "meta", "system", ts, text,
            is_meta=True, raw_type="event_msg:exec_command_end", call_id=call_id,
            exit_code=exit_code,
        )  # fmt: skip

    def _token_count(self, line: ParsedLine, payload: dict[str, Any], ts: Any, eid: str) -> None:
        info = payload.get("info")
        if not isinstance(info, dict):
            return  # the first token_count of a turn has info null
        total = info.get("total_token_usage")
        if total is not None and total == self.state.get("last_total"):
            return  # a repeated line, already counted
        self.state["last_total"] = total
        last = info.get("last_token_usage")
        if not isinstance(last, dict):
            return
        cached = as_int(last.get("cached_input_tokens"))
        event = self._emit(line, eid, "meta", "system", ts, "", raw_type="token_count")
        event.is_meta = True
        event.input_tokens = max(as_int(last.get("input_tokens")) - cached, 0)
        event.cache_read_tokens = cached
        event.cache_creation_tokens = as_int(last.get("cache_write_input_tokens"))
        event.output_tokens = as_int(last.get("output_tokens"))

    def _item_completed(self, line: ParsedLine, payload: dict[str, Any], ts: Any, eid: str) -> None:
        item = as_dict(payload.get("item"))
        itype = str(item.get("type"))
        if itype in ("UserMessage", "AgentMessage", "Reasoning"):
            return  # twins of response items
        raw_type = f"item_completed:{itype}"
        exit_code = item.get("exit_code") if isinstance(item.get("exit_code"), int) else None
        failed = item.get("status") == "failed" or (exit_code is not None and exit_code != 0)
        text = str(item.get("aggregated_output") or item.get("command") or compact_json(item))
        self._emit(
            line, eid, "meta", "system", ts, text,
            is_meta=True, raw_type=raw_type, exit_code=exit_code, is_error=failed,
        )  # fmt: skip
        if failed:
            self._emit(
                line, f"{eid}:error", "error", "tool", ts, text.strip(),
                raw_type=raw_type, exit_code=exit_code, is_error=True, clip_bytes=ERROR_CLIP,
            )  # fmt: skip

    def _raw(self, line: ParsedLine, raw_type: str, ts: Any, eid: str) -> None:
        event = self._emit(line, eid, "raw", "system", ts, "", raw_type=raw_type)
        event.raw = line.raw.decode("utf-8", "replace")
        event.clip_bytes = RAW_CLIP
        event.text_size = max(line.size - 1, 0)

    def _emit(
        self,
        line: ParsedLine,
        eid: str,
        kind: EventKind,
        role: EventRole,
        ts: Any,
        text: str,
        **extra: Any,
    ) -> EventRecord:
        event = EventRecord(
            session_external_id=self.state.get("sid") or "",
            external_id=eid,
            kind=kind,
            role=role,
            timestamp=parse_timestamp(ts),
            text=text,
            byte_offset=line.offset,
            line_no=line.line_no,
            **extra,
        )
        if not event.session_external_id:
            event.session_external_id = self._session_without_header(ts)
        until = parse_timestamp(self.state.get("history_until"))
        if until is not None and event.timestamp is not None and event.timestamp <= until:
            # replayed by `codex resume`: the other session's turns, kept as context
            event.raw_type = f"history:{event.raw_type or event.kind}"
            event.kind, event.is_meta = "meta", True
        if event.session_external_id:
            self.touched = True
            self.events.append(event)
        return event

    def _session_without_header(self, ts: Any) -> str:
        """A rollout with no `session_meta` line (a "conversation only" export starts at
        `task_started` or at a `response_item`): its session is the id in its file name
        (`rollout-<time>-<uuid>.jsonl`, the id Codex gave it), else the file's stem; it
        starts at its first record, and a `turn_context` gives its folder."""
        stem = Path(self.file.path).name.removesuffix(".jsonl")
        found = _ROLLOUT_ID.search(stem)
        sid = found.group(0) if found else stem
        if not sid:
            return ""
        self.state["sid"] = sid
        self.info.setdefault("started", as_str(ts))
        meta = dict(self.info.get("meta", {}))
        meta["header"] = "missing"
        if self.file.role == "archived":
            meta["archived"] = True
        self.info["meta"] = meta
        return sid


#: How long after a resumed session's header `codex resume` is still replaying its
#: history (the replay is written at once, within milliseconds; the next live record
#: waits for a person or a model).
HISTORY_BURST = timedelta(seconds=2)


#: The session id Codex puts at the end of a rollout's file name.
_ROLLOUT_ID = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE
)


def decode_tool_output(output: Any) -> tuple[str, int | None, bool]:
    """(text, exit code, explicit failure) from any Codex tool-output encoding."""
    failed = False
    if isinstance(output, dict):  # {"content", "success"} payloads
        failed = output.get("success") is False
        output = output.get("content", output.get("output", ""))
    if isinstance(output, list):
        return (*_decode_parts(output), failed)
    if not isinstance(output, str):
        return compact_json(output), None, failed
    decoded = _exec_result(output)
    if decoded is not None:
        return (*decoded, failed)
    if _REJECTED_BY_PERSON.match(output) or _CALL_NOT_RUN.match(output):
        return output, None, True
    if _SANDBOX_FAILURE.match(output):
        code = _SANDBOX_EXIT.search(output[:4000])
        return output, int(code.group(1)) if code else None, True
    return output, _plain_exit_code(output), failed


def _exec_result(text: str) -> tuple[str, int | None] | None:
    """(output, exit code) when `text` is a command result encoded as a JSON object.

    Two encodings are seen: the `shell` tool's `{"output", "metadata": {"exit_code"}}` and
    code mode's `{"chunk_id", "exit_code", "output", …}` (an exec result returned to a
    script, as one part of the tool's output list). None for any other text.
    """
    decoded = json_object(text)
    if decoded is None or "output" not in decoded:
        return None
    metadata = decoded.get("metadata")
    code = metadata.get("exit_code") if isinstance(metadata, dict) else decoded.get("exit_code")
    body = decoded["output"] if isinstance(decoded["output"], str) else ""
    return body, code if isinstance(code, int) and not isinstance(code, bool) else None


def _decode_parts(parts: list[Any]) -> tuple[str, int | None]:
    """Text and exit code of a list of content parts.

    A part may itself be an exec result (code mode); its output is shown in its place and
    the first non-zero exit code among such parts decides, so a failed command inside a
    script is not hidden behind the script's own "completed" line.
    """
    texts: list[str] = []
    codes: list[int] = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        text = part.get("text")
        decoded = _exec_result(text) if isinstance(text, str) else None
        if decoded is None:
            texts.append(_content_text([part]))
            continue
        texts.append(decoded[0])
        if decoded[1] is not None:
            codes.append(decoded[1])
    joined = "\n".join(t for t in texts if t)
    if codes:
        return joined, next((c for c in codes if c != 0), codes[0])
    return joined, _plain_exit_code(joined)


def _plain_exit_code(text: str) -> int | None:
    match = _PLAIN_EXIT.search(text[:300])
    return int(match.group(1)) if match else None


#: What a content item of a user message holds when Codex's own kind says a person put it
#: in (`user.text`, `user.image` …), and the one such kind an automation writes: its
#: scheduled wake-up (`user.heartbeat`).
_TYPED_KIND = "user."
_HEARTBEAT_KIND = "user.heartbeat"
#: Kinds that say nothing of who put the item in (Codex itself reads them as the person's).
_UNSURE_KINDS = ("", "unknown")
_MEDIA_KINDS = ("images.", "audio.")


def _kinds_say_injected(item: dict[str, Any]) -> bool:
    """Whether Codex's kinds for a user message's content items (0.15x on:
    `internal_chat_message_metadata_passthrough.content_item_kinds`, one per item) say
    that Codex put every item in: its environment, additional context, a message board's
    notice (`environments.environment_context`, `additional_content.…`,
    `agent_message_board.notification`), or an automation's wake-up. A kind list that
    does not match the items one for one, or any kind of a person's or of no one known,
    leaves the message to be read by its words."""
    metadata = item.get("internal_chat_message_metadata_passthrough")
    kinds = metadata.get("content_item_kinds") if isinstance(metadata, dict) else None
    content = item.get("content")
    if not isinstance(kinds, list) or not kinds or not isinstance(content, list):
        return False
    if len(kinds) != len(content) or not all(isinstance(kind, str) for kind in kinds):
        return False
    return all(
        kind == _HEARTBEAT_KIND
        or not (
            kind.startswith(_TYPED_KIND) or kind in _UNSURE_KINDS or kind.startswith(_MEDIA_KINDS)
        )
        for kind in kinds
    )


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = []
    for part in content:
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("text"), str):
            parts.append(part["text"])
        elif part.get("type") in ("input_image", "image"):
            parts.append(attachment_placeholder(part))
    return "\n".join(parts)
