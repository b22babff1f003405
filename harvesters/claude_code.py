"""Claude Code transcripts (`~/.claude/projects/<slug>/*.jsonl`) to normalized records.

Layout handled: main sessions `<slug>/<session>.jsonl`; 2.0.x subagents
`<slug>/agent-<id>.jsonl`; 2.1.2+ subagents `<slug>/<session>/subagents/agent-<id>.jsonl`
(with `agent-<id>.meta.json`) and workflow subagents
`<slug>/<session>/subagents/workflows/<wf>/agent-<id>.jsonl`.

Choices worth knowing:
* Project = the records' first `cwd`, never the lossy directory slug.
* A record with several content blocks becomes one event per block, with
  `external_id = "<uuid>:<block index>"`; a one-block record uses the bare uuid.
  Repeated uuids within a pass are dropped; across passes the store's unique
  `(session, external_id)` key drops them.
* Usage is counted once per `message.id`. Claude repeats it on every record of a
  split response and the later ones carry the final output count, so the first
  event gets the tokens and each later record adds only what grew, on its own
  event: every event's figures are the same however passes split the file, so a
  file read again from its start stores nothing twice and loses nothing. Recent
  ids and their counted figures live in `cursor.state`, so a later pass never
  recounts.
* A failed tool result (`is_error`, or a non-zero `Exit code N`) stays kind
  `tool_result` with `is_error=True` and is followed by one extra `kind="error"`
  event (`external_id` + ":error"), the same rule as the Codex harvester.
* Injected user content (`isMeta`, command tags, hook output, caveats, IDE and
  teammate notes) is kind `meta` with `is_meta=True`; compact summaries are kind
  `summary`; "[Request interrupted by user…]" is kind `interrupt`. User prompts
  inside sidechains (written by the parent agent) keep kind `user_prompt` with
  `is_sidechain=True`.
* History copied from another session is not this session's work: records `/fork`
  copied (`forkedFrom`) are stored with the session they came from, and the desktop
  app's copy of a conversation it continued in a new session is kept as `history:` meta.
* Bookkeeping records (file-history-snapshot, permission-mode, last-prompt,
  pr-link, titles, …) update the session and produce no event; unknown types are
  kept as `kind="raw"` with the (clipped) raw line.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from harvesters import walk
from harvesters.base import (
    DEFAULT_MAX_TEXT_BYTES,
    as_dict,
    as_int,
    as_str,
    attachment_placeholder,
    batch_from_chunk,
    compact_json,
    iso,
    json_object,
    line_id,
    parse_timestamp,
    read_record,
    remember,
)
from harvesters.reader import LineBatch, ParsedLine, open_regular, read_jsonl, resolved_roots
from harvesters.records import (
    STEERING,
    Batch,
    EventKind,
    EventRecord,
    EventRole,
    FileCursor,
    SessionRecord,
    SourceFile,
)

SOURCE = "claude"
PENDING_KEPT = 200
#: What time it is now (aware, UTC).
Clock = Callable[[], datetime]
#: Clip limits (bytes) of the texts that are details rather than content.
RAW_CLIP = 16384
HUGE_RAW_CLIP = 4096
SIDE_CLIP = 8192
ERROR_CLIP = 500
META_JSON_MAX_BYTES = 1 << 20
#: Queued (typed-ahead) messages remembered until dequeued or consumed as steering.
QUEUED_KEPT = 50
#: How far before the enqueue that opened its file a record must be dated to have been
#: copied from an earlier session: the process's start hooks come within minutes of the
#: first message, a continued conversation's history hours or days before it.
COPIED_BEFORE = timedelta(minutes=1)
#: The most records of another session's id held at the head of a session's own file
#: until the file's own agent answers them (see `_holds_head`): a prompt and the hook and
#: system records written with it, never a conversation.
HEAD_HELD = 16
#: The longest id the store keeps as written (a longer one is fitted with a hash), and so
#: the longest a record another session continues from can be found by.
STORED_ID_CHARS = 256
#: How soon the file's own agent answers a held head for it to be the head's session's:
#: seconds in Claude Code's plan handoff; an earlier session's copied prompts are dated
#: hours or days before. A head held longer than this at the end of its file can no
#: longer be answered in time and goes to its own id (`_settle_unanswered_head`).
HEAD_ANSWERED_WITHIN = timedelta(minutes=10)
#: The longest value of a held record's session fields kept (PATH_MAX on Linux).
NOTE_MAX = 4096
#: The head of a user record Claude Code injected, not typed by the person: a slash
#: command's wrapper, a hook's output, a reminder, a shell command run by `!`. Mining reads
#: it too, for records stored before the harvest knew them as meta.
META_PREFIX = re.compile(
    r"\s*(?:<(?:command-name|command-message|command-args|command-contents|local-command-stdout"
    r"|local-command-stderr|local-command-caveat|system-reminder|bash-input|bash-stdout"
    r"|bash-stderr|user-prompt-submit-hook|session-start-hook|ide_opened_file|ide_selection"
    r"|ide_diagnostics|teammate-message|user-memory-input|command-stdout"
    r"|command-stderr|post-tool-use-hook|ci-monitor-event"
    # another session's message, sent with `SendMessage` (Claude Code 2.1.224 on) or by an
    # agent team's member, in the tag it comes in when nothing is written before it
    r"|cross-session-message|agent-message"
    # a background task's or shell's end, reported by Claude Code itself
    # (`<task-notification>`, `<bash-notification>`, and any later `<…-notification>`)
    r"|[a-z][\w-]*-notification)\b"
    r"|Caveat: The messages below were generated by the user"
    # a UserPromptSubmit hook that blocks the prompt leaves its message as a user record
    r"|Operation stopped by hook:"
    # a Stop hook that blocks the agent's stop hands its reason back as a user record
    r"|(?:Stop|SubagentStop) hook feedback:"
    # another session's message (agent teams, `SendMessage`), or the lead's to a member,
    # at once or while the receiver worked: a peer's words, not the person's
    r"|(?:Another Claude session|A peer session|The coordinator) sent a message"
    r"(?: while you were working)?:"
    # a background agent's end, and the agents the person stopped, as Claude Code tells
    # them to the model ("Background agent \"audit the services\" was stopped by the user.",
    # "2 background agents were stopped by the user: …"): its notices, not typed words
    r"|A background agent completed a task:"
    r"|(?:\d+ background agents|Background agents|Background agent \"[\s\S]{0,300}?\")"
    r" (?:was|were) stopped by the user\b"
    # a channel's event (a chat bridge, a webhook), which Claude Code always tags with its
    # source and itself tells the model is not from the user, at once or while the agent
    # worked ("A message arrived from telegram while you were working: …"); a person's
    # "<channel> is missing from the feed" names no source
    r"|<channel\s+source="
    r"|A message arrived from [^\n]{1,100}? while you were working:)"
)


def _reported_unsuccessful(result: object, text: str) -> bool:
    """The record's structured result says the call failed, though its block carries no
    `is_error`: Claude Code's task tools answer `{"success": false, "error": "Task not
    found"}` and show only the error. The error must be the block's text, so a result
    of another block is never read for this one."""
    if not isinstance(result, dict) or result.get("success") is not False:
        return False
    error = result.get("error")
    return isinstance(error, str) and bool(error.strip()) and error.strip() in text[:2000]


def _written_by_the_program(rec: dict[str, Any]) -> bool:
    """Claude Code 2.1 says where a user record came from: `origin.kind` ("human", or
    "task-notification", "peer" … for what it wrote itself) and `promptSource` ("typed",
    "sdk", "suggestion_accepted", or "system"). A kind other than "human", or the system as
    the source, is the program's record, whatever its text. ("human" proves nothing: the
    desktop app's CI monitor writes its events as "human", "sdk".) So is a record marked
    `isSynthetic`, as Claude Code marks another session's message delivered to this one."""
    origin = rec.get("origin")
    kind = origin.get("kind") if isinstance(origin, dict) else None
    return (
        (isinstance(kind, str) and kind != "human")
        or rec.get("promptSource") == "system"
        or rec.get("isSynthetic") is True
    )


#: The origin given to a session whose first prompt is a conversation another program
#: serialized for it (`sleepd.mining.automation` counts it among a program's origins).
SERIALIZED_HISTORY = "serialized-history"
_MESSAGE_LIST = re.compile(r'\A\s*\[\s*\{\s*"role"\s*:')


def is_serialized_history(text: str) -> bool:
    """The prompt is a whole conversation as JSON, `[{"role": "user", "content": …}, {"role":
    "assistant", …}, …]`: what a program hands Claude Code when it drives it with a history
    of its own (Goose does so through `claude -p`), never what a person types."""
    if not _MESSAGE_LIST.match(text):
        return False
    try:
        messages = orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return (
        isinstance(messages, list)
        and bool(messages)
        and all(isinstance(m, dict) and {"role", "content"} <= m.keys() for m in messages)
    )


#: How Claude Code's marker of a person's interrupt begins (a user record of its own).
INTERRUPT_PREFIXES = ("[Request interrupted by user", "[Request cancelled by user")
#: How the summary Claude Code writes into a session it continues begins.
CONTINUED_HEADER = "This session is being continued from a previous conversation"
_EXIT_CODE = re.compile(r"Exit code:? (-?\d+)")
_PERSISTED_SIZE = re.compile(r"Output too large \(([\d.]+)\s*([KMG]?B)\)")
_UNITS = {"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}
_BOOKKEEPING = frozenset(
    {
        "file-history-snapshot",
        "file-history-delta",
        "atis-latch",
        "permission-mode",
        "last-prompt",
        "pr-link",
        "ai-title",
        "custom-title",
        "worktree-state",
        "bridge-session",
        "agent-name",
        "agent-color",
        "agent-setting",
        "tag",
        # the desktop app's record of its prompt box's mode (2.1.2xx: `{"type":"mode",
        # "mode":"normal","sessionId":…}`, hundreds to a history)
        "mode",
    }
)


#: A project's transcripts: its sessions, then their subagents' (workflows included).
_PROJECT_PATTERNS = [
    ("*.jsonl",),
    ("*", "subagents", "agent-*.jsonl"),
    ("*", "subagents", "workflows", "*", "agent-*.jsonl"),
]


class ClaudeCodeHarvester:
    """Harvests every Claude Code projects directory it is given."""

    name = SOURCE

    def __init__(self, projects_dirs: Sequence[Path], clock: Clock | None = None) -> None:
        self.projects_dirs = [Path(p) for p in projects_dirs]
        #: what time it is, for a held head that may still be answered (None: the real
        #: time, looked up at each read)
        self.clock = clock

    def discover(self) -> Iterator[SourceFile]:
        for root in self.projects_dirs:
            if not root.is_dir():
                continue
            for name in walk.subdirs(str(root)):
                yield from self._discover_project(os.path.join(str(root), name))

    def discover_paths(self, paths: Sequence[str]) -> list[SourceFile]:
        """What `discover` lists in the project folders holding `paths`, in its order:
        a few changed files cost a listing of their projects, not of the whole history."""
        roots = [str(root) for root in self.projects_dirs]
        projects: set[tuple[int, str]] = set()
        for path in paths:
            places = walk.places(path, roots)
            projects.update((index, parts[0]) for index, parts in places if len(parts) > 1)
        files: list[SourceFile] = []
        for index, name in sorted(projects):
            project = os.path.join(roots[index], name)
            if os.path.isdir(project):
                files.extend(self._discover_project(project))
        return files

    def _discover_project(self, project: str) -> Iterator[SourceFile]:
        top, *nested = walk.glob_many(project, _PROJECT_PATTERNS)
        for path in sorted(top):
            is_agent = os.path.basename(path).startswith("agent-")
            yield SourceFile(path, SOURCE, "subagent" if is_agent else "main")
        for path in sorted((p for paths in nested for p in paths), key=walk.path_order):
            yield SourceFile(path=path, source=SOURCE, role="subagent")

    def read(
        self,
        file: SourceFile,
        cursor: FileCursor | None,
        *,
        batch_lines: int = 2000,
        max_text_bytes: int = DEFAULT_MAX_TEXT_BYTES,
    ) -> Iterator[Batch]:
        parser: _ClaudeFile | None = None
        roots = resolved_roots(self.projects_dirs)
        # the time is read before the file is: an answer not read in this pass is dated
        # after it (`_settle_unanswered_head`)
        read_at = (self.clock or _utc_now)()
        for chunk in read_jsonl(file.path, cursor, roots=roots, batch_lines=batch_lines):
            if parser is None:
                fresh = cursor is None or chunk.reset
                state = {} if cursor is None or fresh else orjson.loads(orjson.dumps(cursor.state))
                parser = _ClaudeFile(file, state, max_text_bytes, roots, read_at)
            yield parser.convert(chunk)


#: A main session's file name: its session's id.
_SESSION_FILE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


class _ClaudeFile:
    """Parse context for one file during one pass."""

    def __init__(
        self,
        file: SourceFile,
        state: dict[str, Any],
        max_text: int,
        roots: tuple[str, ...],
        read_at: datetime,
    ) -> None:
        self.file = file
        self.read_at = read_at
        self.state = state
        self.max_text = max_text
        self.sessions: dict[str, dict[str, Any]] = state.setdefault("sessions", {})
        self.usage: dict[str, list[int]] = state.setdefault("usage", {})
        self.seen_uuids: set[str] = set()
        #: the session each record read in this pass was given to (`_note_continuation`)
        self.session_of_record: dict[str, str] = {}
        self.events: list[EventRecord] = []
        self.touched: set[str] = set()
        self.agent_meta = _read_agent_meta(file.path, roots) if file.role == "subagent" else {}
        #: the session the file is named after (a main session's file): see `_session_id`
        stem = Path(file.path).stem
        self.own_sid = stem if file.role == "main" and _SESSION_FILE.fullmatch(stem) else None
        #: the record being read is history copied from an earlier session: see `_copied`
        self.copying = False

    # ---- batch driver -------------------------------------------------------

    def convert(self, chunk: LineBatch) -> Batch:
        self.events = []
        self.touched = set()
        for line in chunk.lines:
            read_record(self._record, line, self.events, chunk)
        self._settle_unanswered_head(chunk)
        sessions = [self._session_record(sid) for sid in sorted(self.touched)]
        return batch_from_chunk(
            self.file.path, SOURCE, chunk, self.state, sessions, self.events, self.max_text
        )

    # ---- sessions -----------------------------------------------------------

    def _session_id(self, rec: dict[str, Any]) -> str | None:
        sid = rec.get("sessionId")
        if not isinstance(sid, str) or not sid:
            current = self.state.get("sid")
            return current if isinstance(current, str) else None
        if self.file.role == "subagent":
            agent = as_str(rec.get("agentId")) or Path(self.file.path).stem.removeprefix("agent-")
            key = f"{sid}:agent-{agent}"
            info = self._info(key)
            info["parent"] = sid
            info["kind"] = "subagent"
        else:
            key = sid
            origin = _forked_from(rec)
            held = self.state.get("held")
            if held is not None and (key != held.get("sid") or origin is not None):
                self._settle_head(rec, key)
            if origin is None and self._holds_head(rec, key):
                return None
            if origin is not None and origin != sid:
                # a record `/fork` or `--fork-session` copied from the session it forked:
                # that session's turn or work, stored once with it (copied or not, it is
                # the same record), so the fork holds only what was done after the copy
                fork = self._info(sid)
                fork["kind"] = "fork"
                fork.setdefault("parent", origin)
                key = origin
            elif (
                self.own_sid is not None
                and key != self.own_sid
                and rec.get("parentUuid") is not None
                and rec.get("parentUuid") == self.state.get("own_last")
                and not self._older_than_own_last(rec)
            ):
                # a reply to this file's own session that carries another session's id:
                # Claude Code 1.0.57, continuing a conversation that ran out of context,
                # wrote the person's turns with the old session's id under the new
                # session's answers; kept apart, every turn had no agent before it
                key = self.own_sid
            self._info(key)
        if self.state.get("sid") != key:
            self.state["sid"] = key
            self._flush_pending(key)
        return key

    def _holds_head(self, rec: dict[str, Any], sid: str) -> bool:
        """Whether the record is held at the head of the file until its session is known.

        Claude Code 2.1.x, taking a plan with "clear context", opens the new session's file
        with the plan as the person's prompt, and the start hook's record before it, under
        the planning session's id; the new session's agent answers it under its own. Kept
        with the planning session, the new session's work had no request and the planning
        session a last request with no work. So records of another session's id that open a
        session's own file are held (`pending`) until the file's first record of another
        id: the file's own agent answering one of them soon after makes them the file's
        session's; anything else (an agent's record of theirs, a compaction summary, a
        record of a third id, more than `HEAD_HELD`) leaves them their own id's, as before:
        an earlier conversation replayed at the head holds its agent's answers."""
        if self.own_sid is None or sid == self.own_sid or self.state.get("head_read"):
            return False
        held = self.state.get("held")
        if held is None:
            if self.state.get("sid") is not None or self.state.get("own_last") is not None:
                self.state["head_read"] = True  # the file did not open with another id
                return False
            held = self.state["held"] = {"sid": sid, "uuids": [], "notes": []}
        uuids: list[str] = held["uuids"]
        if (
            rec.get("type") == "assistant"
            or rec.get("isCompactSummary") is True
            or len(uuids) >= HEAD_HELD
        ):
            self._settle_head(None, sid)
            return False
        uuid = rec.get("uuid")
        if isinstance(uuid, str):
            uuids.append(uuid)
        # what `_note_session` reads, noted for the session the head goes to (a path is
        # never longer than `NOTE_MAX`: a longer value is no path, and the state stays small)
        notes = {k: rec[k][:NOTE_MAX] for k in _SESSION_NOTES if isinstance(rec.get(k), str)}
        held["notes"].append(notes)
        return True

    def _settle_head(self, rec: dict[str, Any] | None, sid: str) -> None:
        """The held head goes to the file's session when `rec`, the first record of another
        id, is the file's own agent answering it soon after; else to the id it carries."""
        held = self.state.pop("held")
        self.state["head_read"] = True
        notes: list[dict[str, str]] = held["notes"]
        answered = (
            rec is not None
            and sid == self.own_sid
            and rec.get("type") == "assistant"
            and rec.get("parentUuid") in held["uuids"]
            and _soon_after(_held_at(held), rec.get("timestamp"))
        )
        owner = sid if answered else str(held["sid"])
        for note in notes:
            self._note_session(owner, note, note.get("timestamp"))
        self.state["sid"] = owner
        self._flush_pending(owner)

    def _settle_unanswered_head(self, chunk: LineBatch) -> None:
        """A head still held after the file's last complete line goes to the id it carries
        once it can no longer be answered soon after (an answer this pass did not read is
        dated after the pass began): a session that ended before its agent wrote a word
        is stored, whatever unfinished line a crash left after it. Until then the cursor
        keeps no mtime, so no harvest finds the file `unchanged` and the next one (the
        night's, at the latest) reads it again to decide."""
        held = self.state.get("held")
        if held is None:
            return
        held_at = _held_at(held)
        if chunk.at_end and (held_at is None or self.read_at - held_at > HEAD_ANSWERED_WITHIN):
            self._settle_head(None, str(held["sid"]))
        else:
            chunk.cursor.mtime_ns = 0

    def _older_than_own_last(self, rec: dict[str, Any]) -> bool:
        """Whether the record is dated before the own record it replies to: then it was not
        typed after it. Claude Code 1.0.x, resuming a session into a new file, copied the
        earlier session's prompts there with their ids and times under its answers, which
        it dated at the resume: those copies are the earlier session's (kept with it, they
        are stored once), not turns of this one."""
        at, before = (
            parse_timestamp(rec.get("timestamp")),
            parse_timestamp(self.state.get("own_last_at")),
        )
        return at is not None and before is not None and at < before

    def _note_continuation(self, sid: str, rec: dict[str, Any]) -> None:
        """Keep the record a session's first record answers when that record is not the
        session's own (`meta["continues"]`): a resume written into a new file without the
        conversation before it (1.0.x) goes on from the last record of another session's
        file; one that replays the earlier conversation under its own session id at the
        file's head, or a fork whose copies name where they came from, goes on from the
        last of those, which are stored with the earlier session. Mining reads the new
        session's first turns against the conversation up to that record
        (`mining.carried`). A session's first record is read once: later passes find the
        session's head already decided."""
        info = self._info(sid)
        if info.get("head_read"):
            return
        info["head_read"] = True
        if self.state.get("own_last") is not None:
            return  # the head was read by a sleepd that kept no such mark
        parent = rec.get("parentUuid")
        if (
            isinstance(parent, str)
            and 0 < len(parent) <= STORED_ID_CHARS
            and self.session_of_record.get(parent) != sid
        ):
            info.setdefault("meta", {})["continues"] = parent

    def _copied(self, rec: dict[str, Any], sid: str | None) -> bool:
        """Whether the record is history copied from an earlier session. The desktop app
        (Claude Code 2.1.2xx), continuing a conversation in a new session, opens its file
        with the enqueue of the message just sent, then writes the whole conversation so
        far under the new session's id with the records' own ids and times, then the new
        work. Those copies are the earlier session's turns and work, stored with it from
        its own file: kept as this session's, every task of the conversation was mined
        again and looked recurring, and its tool errors counted twice. They are kept here
        as context (`history:<kind>` meta), as `codex resume`'s replay is. Only a file
        opened by an enqueue qualifies: a record that a session's first message was sent
        after can only be dated long before it if it was copied."""
        opening = self.state.get("opening")
        if isinstance(opening, dict) and opening.get("enqueue") is not True:
            return False  # most files: decided at their first dated record
        at = parse_timestamp(rec.get("timestamp"))
        if at is None:
            return False
        if not isinstance(opening, dict):
            opened_by_enqueue = (
                rec.get("type") == "queue-operation" and rec.get("operation") == "enqueue"
            )
            self.state["opening"] = {"at": iso(at), "enqueue": opened_by_enqueue}
            return False
        opened = parse_timestamp(opening.get("at"))
        return (
            sid is not None
            and sid == self.own_sid
            and opened is not None
            and at < opened - COPIED_BEFORE
        )

    def _info(self, sid: str) -> dict[str, Any]:
        info = self.sessions.get(sid)
        if info is None:
            info = {"kind": "main", "meta": {}}
            if self.agent_meta:
                info["meta"].update(self.agent_meta)
                if isinstance(self.agent_meta.get("description"), str):
                    info["title"] = self.agent_meta["description"]
            self.sessions[sid] = info
        self.touched.add(sid)
        return info

    def _note_session(self, sid: str, rec: dict[str, Any], ts: str | None) -> None:
        """What the record says of its session. Every field read here is in
        `_SESSION_NOTES`: a held head keeps only those (`_holds_head`)."""
        info = self._info(sid)
        get = info.get
        if not get("project"):
            cwd = as_str(rec.get("cwd"))
            if cwd:
                info["project"] = cwd
        if not get("branch"):
            branch = as_str(rec.get("gitBranch"))
            if branch:
                info["branch"] = branch
        version = as_str(rec.get("version"))
        if version:
            info["version"] = version
        if "origin" not in info.get("meta", ()):
            # how the session was started: `cli` by a person, `sdk-cli` by a program
            entrypoint = as_str(rec.get("entrypoint"))
            if entrypoint:
                info.setdefault("meta", {})["origin"] = entrypoint
        if ts and parse_timestamp(ts) is not None:  # an unusable time never bounds a session
            started, ended = get("started"), get("ended")
            if not started or ts < started:
                info["started"] = ts
            if not ended or ts > ended:
                info["ended"] = ts

    def _session_record(self, sid: str) -> SessionRecord:
        info = self.sessions[sid]
        return SessionRecord(
            source=SOURCE,
            external_id=sid,
            kind=info.get("kind", "main"),
            project_path=info.get("project"),
            git_branch=info.get("branch"),
            model=info.get("model"),
            agent_version=info.get("version"),
            started_at=parse_timestamp(info.get("started")),
            ended_at=parse_timestamp(info.get("ended")),
            parent_external_id=info.get("parent"),
            title=info.get("custom_title") or info.get("title"),
            meta=dict(info.get("meta", {})),
        )

    # ---- events -------------------------------------------------------------

    def _emit(self, sid: str | None, event: EventRecord) -> EventRecord:
        if sid is None:
            pending = self.state.setdefault("pending", [])
            if len(pending) < PENDING_KEPT:
                pending.append(_event_to_state(event))
            return event
        if self.copying:
            # context only: its failures were counted with the session it came from
            event.raw_type = f"history:{event.raw_type or event.kind}"
            event.kind, event.is_meta, event.is_error = "meta", True, False
        event.session_external_id = sid
        self.touched.add(sid)
        self.events.append(event)
        return event

    def _flush_pending(self, sid: str) -> None:
        for item in self.state.pop("pending", []):
            self._emit(sid, _event_from_state(item))

    def _event(
        self,
        line: ParsedLine,
        rec: dict[str, Any],
        external_id: str,
        kind: EventKind,
        role: EventRole,
        text: str = "",
        **extra: Any,
    ) -> EventRecord:
        return EventRecord(
            session_external_id="",
            external_id=external_id,
            kind=kind,
            role=role,
            timestamp=parse_timestamp(rec.get("timestamp")),
            text=text,
            clip_bytes=HUGE_RAW_CLIP if line.huge and kind == "raw" else 0,
            is_sidechain=rec.get("isSidechain") is True,
            byte_offset=line.offset,
            line_no=line.line_no,
            **extra,
        )

    def _record(self, line: ParsedLine) -> None:
        rec = line.obj
        rtype = rec.get("type")
        if not isinstance(rtype, str):
            rtype = None  # a list or an object where the type belongs: an untyped record
        uuid = rec.get("uuid")
        if isinstance(uuid, str):
            if uuid in self.seen_uuids:
                return
            self.seen_uuids.add(uuid)
        sid = self._session_id(rec)
        self.copying = self._copied(rec, sid)
        if sid is not None and isinstance(uuid, str):
            if sid == self.own_sid:
                self._note_continuation(sid, rec)
            self.session_of_record[uuid] = sid
        if sid is not None and sid == self.own_sid and isinstance(uuid, str):
            self.state["own_last"] = uuid
            self.state["own_last_at"] = rec.get("timestamp")
        if sid is not None:
            # a copy's time is its first session's: this one started at its own opening
            stamp = None if self.copying else rec.get("timestamp")
            self._note_session(sid, rec, stamp if isinstance(stamp, str) else None)
        base_id = uuid if isinstance(uuid, str) else line_id(line.offset, line.raw)
        if rtype == "user":
            self._user(line, rec, sid, base_id)
        elif rtype == "assistant":
            self._assistant(line, rec, sid, base_id)
        elif rtype == "system":
            self._system(line, rec, sid, base_id)
        elif rtype == "summary":
            leaf = rec.get("leafUuid")
            eid = f"summary:{leaf}" if isinstance(leaf, str) else base_id
            text = str(rec.get("summary") or "")
            event = self._event(line, rec, eid, "summary", "system", text, raw_type="summary")
            self._emit(sid, event)
        elif rtype in ("progress", "attachment", "queue-operation"):
            self._side_record(line, rec, sid, base_id, rtype)
        elif rtype in _BOOKKEEPING:
            if sid is not None:
                self._bookkeeping(self._info(sid), rec, rtype)
        else:
            name = str(rtype) if rtype is not None else "untyped"
            event = self._event(line, rec, base_id, "raw", "system", "", raw_type=name)
            event.raw = line.raw.decode("utf-8", "replace")
            event.clip_bytes = RAW_CLIP
            event.text_size = line.size - 1
            self._emit(sid, event)

    def _user(self, line: ParsedLine, rec: dict[str, Any], sid: str | None, base: str) -> None:
        message = rec.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if rec.get("isCompactSummary") is True:
            text = _plain_text(content)
            event = self._event(
                line, rec, base, "summary", "user", text, raw_type="compact_summary"
            )
            self._emit(sid, event)
            return
        blocks = _blocks(content, content)
        multi = len(blocks) > 1
        attachments: list[tuple[int, str]] = []
        prompt: EventRecord | None = None
        entries = self._one_typed_text(line, rec, blocks) if multi else list(enumerate(blocks))
        for index, block in entries:
            eid = f"{base}:{index}" if multi else base
            if isinstance(block, str):
                btype, text = "text", block
            elif isinstance(block, dict):
                btype = str(block.get("type"))
                text = str(block.get("text") or "") if btype == "text" else ""
            else:
                continue
            if btype == "tool_result":
                self._tool_result(line, rec, sid, eid, block)
            elif btype == "image" or (btype == "document" and not _text_document(block)):
                attachments.append((index, attachment_placeholder(block)))
            elif btype == "text":
                ahead = self._written_ahead(rec, text)
                if ahead:
                    # kept as the program's record, so nothing the file held is dropped
                    written = self._event(line, rec, f"{eid}:ahead", "meta", "user", ahead)
                    written.is_meta = True
                    self._emit(sid, written)
                event = self._user_text(line, rec, eid, text, among_blocks=multi)
                self._emit(sid, event)
                if event.kind == "user_prompt" and prompt is None:
                    prompt = event
                    opens = "parentUuid" in rec and rec["parentUuid"] is None
                    if sid is not None and opens and is_serialized_history(text):
                        # older versions write no entrypoint: the conversation's opening
                        # prompt says a program started it (a JSON pasted later does not)
                        self._info(sid).setdefault("meta", {}).setdefault(
                            "origin", SERIALIZED_HISTORY
                        )
            else:  # an attached text document is context, as is a block of a kind unknown
                kept = attachment_placeholder(block) if btype == "document" else compact_json(block)
                raw_type = f"block:{btype}"
                event = self._event(line, rec, eid, "meta", "user", kept, raw_type=raw_type)
                event.is_meta = True
                self._emit(sid, event)
        if attachments:
            note = " ".join(text for _, text in attachments)
            if prompt is not None:
                prompt.text = f"{note}\n{prompt.text}"
            else:
                eid = f"{base}:{attachments[0][0]}" if multi else base
                self._emit(sid, self._user_text(line, rec, eid, note))

    def _user_text(
        self,
        line: ParsedLine,
        rec: dict[str, Any],
        eid: str,
        text: str,
        *,
        among_blocks: bool = False,
    ) -> EventRecord:
        # the program's reminder written before the person's words in one string (Claude
        # Code 2.1.2xx: "<system-reminder>The user started your suggested background task
        # …</system-reminder>\n\nCan we somehow create a guide …"): the words are the
        # prompt, the reminder no part of it (`_user` keeps it as the program's record)
        text = text[len(self._written_ahead(rec, text)) :]
        head = text.lstrip()[:200]
        if head.startswith(INTERRUPT_PREFIXES):
            return self._event(line, rec, eid, "interrupt", "user", text)
        if head.startswith(CONTINUED_HEADER):
            return self._event(line, rec, eid, "summary", "user", text, raw_type="compact_summary")
        injected = (
            rec.get("isMeta") is True
            or META_PREFIX.match(head) is not None
            or _written_by_the_program(rec)
            # a file the person mentioned, its text sent beside the message (Zed's agent
            # bridge): context, as an IDE's opened file is
            or (among_blocks and _EMBEDDED_CONTEXT.match(head) is not None)
        )
        if injected:
            return self._event(line, rec, eid, "meta", "user", text, is_meta=True)
        self._came_back(text)
        return self._event(line, rec, eid, "user_prompt", "user", text)

    def _came_back(self, text: str) -> None:
        """A queued message that came back as a user record of its own is no longer
        waiting. A `dequeue` that took a stale notice in its place left it in the queue,
        and the next `remove` with no text (the oldest message a person typed) would have
        told it again, as steering, in place of the message that `remove` took."""
        queue = _Queue(self.state)
        if queue.take(text) is not None:
            queue.save()

    @staticmethod
    def _written_ahead(rec: dict[str, Any], text: str) -> str:
        """The blocks the program wrote ahead of the person's words in one string, or ""
        (none, nothing after them, or a record the program wrote whole)."""
        if rec.get("isMeta") is True or _written_by_the_program(rec):
            return ""
        return _injected_head(text)

    def _one_typed_text(
        self, line: ParsedLine, rec: dict[str, Any], blocks: list[Any]
    ) -> list[tuple[int, Any]]:
        """A message's blocks with its typed text as one block, in the place of the first.

        One message is one turn, however its client cut it: Zed's agent bridge puts each
        @-mention in a block of its own ("Agent를 이용해서 ", "[@template.md](file://…)",
        " 을 사용하여 …"), and each block read as a prompt would make the mention a turn of
        its own. Blocks the program wrote (an IDE's opened file, a mentioned file's text)
        stay apart, as context."""
        entries: list[tuple[int, Any]] = []
        typed_at: int | None = None
        for index, block in enumerate(blocks):
            text = block if isinstance(block, str) else None
            if isinstance(block, dict) and block.get("type") == "text":
                text = str(block.get("text") or "")
            typed = (
                text is not None
                and self._user_text(line, rec, "", text, among_blocks=True).kind == "user_prompt"
            )
            if not typed:
                entries.append((index, block))
            elif typed_at is None:
                typed_at = len(entries)
                entries.append((index, {"type": "text", "text": text}))
            else:
                first_index, first = entries[typed_at]
                joined = _joined_text(first["text"], str(text))
                entries[typed_at] = (first_index, {"type": "text", "text": joined})
        return entries

    def _tool_result(
        self, line: ParsedLine, rec: dict[str, Any], sid: str | None, eid: str, block: dict
    ) -> None:
        text = _tool_result_text(block.get("content"))
        head = text[:200]
        match = _EXIT_CODE.match(head)
        exit_code = int(match.group(1)) if match else None
        failed = (
            block.get("is_error") is True
            or (exit_code is not None and exit_code != 0)
            or _reported_unsuccessful(rec.get("toolUseResult"), text)
        )
        call_id = block.get("tool_use_id") if isinstance(block.get("tool_use_id"), str) else None
        event = self._event(
            line, rec, eid, "tool_result", "tool", text,
            call_id=call_id, is_error=failed, exit_code=exit_code,
        )  # fmt: skip
        if head.lstrip().startswith("<persisted-output>"):
            event.raw_type = "persisted-output"
            size = _PERSISTED_SIZE.search(head)
            if size:
                event.text_size = int(float(size.group(1)) * _UNITS[size.group(2)])
        self._emit(sid, event)
        if failed:
            error = self._event(
                line, rec, f"{eid}:error", "error", "tool", text.strip(),
                call_id=call_id, is_error=True, exit_code=exit_code,
            )  # fmt: skip
            error.clip_bytes = ERROR_CLIP
            self._emit(sid, error)

    def _assistant(self, line: ParsedLine, rec: dict[str, Any], sid: str | None, base: str) -> None:
        message = rec.get("message")
        if not isinstance(message, dict):
            message = {}
        model = message.get("model")
        if sid is not None and isinstance(model, str) and model and model != "<synthetic>":
            self._info(sid)["model"] = model
        content = message.get("content")
        blocks = _blocks(content, {"type": "text", "text": content})
        multi = len(blocks) > 1
        # Claude Code 2.0.1 wrote some of its API errors ("API Error: 400 {…}") as a
        # `<synthetic>` message without the flag; its other synthetic words ("No response
        # requested.") are no error
        api_error = rec.get("isApiErrorMessage") is True or (
            model == "<synthetic>" and _first_text(blocks).lstrip().startswith("API Error")
        )
        mid = message.get("id") if isinstance(message.get("id"), str) else None
        produced: list[EventRecord] = []
        for index, block in enumerate(blocks):
            if not isinstance(block, dict):
                continue
            eid = f"{base}:{index}" if multi else base
            produced.append(self._assistant_block(line, rec, eid, block, api_error))
        if not produced:
            produced.append(self._event(line, rec, base, "assistant_text", "assistant", ""))
        for event in produced:
            event.message_id = mid
            self._emit(sid, event)
        self._count_usage(mid, message.get("usage"), produced[0])

    def _assistant_block(
        self, line: ParsedLine, rec: dict[str, Any], eid: str, block: dict, api_error: bool
    ) -> EventRecord:
        btype = block.get("type")
        if btype == "text":
            kind: EventKind = "error" if api_error else "assistant_text"
            event = self._event(line, rec, eid, kind, "assistant", str(block.get("text") or ""))
            event.is_error = api_error
            return event
        if btype in ("tool_use", "server_tool_use"):
            name = block.get("name")
            return self._event(
                line, rec, eid, "tool_call", "assistant", compact_json(block.get("input")),
                tool_name=name if isinstance(name, str) else None,
                call_id=block.get("id") if isinstance(block.get("id"), str) else None,
            )  # fmt: skip
        if btype == "thinking":
            return self._event(line, rec, eid, "thinking", "assistant", str(block.get("thinking")))
        if btype == "redacted_thinking":
            return self._event(line, rec, eid, "thinking", "assistant", "[redacted thinking]")
        text = compact_json(block)
        return self._event(line, rec, eid, "raw", "assistant", text, raw_type=f"block:{btype}")

    def _count_usage(self, mid: str | None, usage: Any, first: EventRecord) -> None:
        if not isinstance(usage, dict):
            return
        get = usage.get
        figures = [
            as_int(get("input_tokens")),
            as_int(get("output_tokens")),
            as_int(get("cache_read_input_tokens")),
            as_int(get("cache_creation_input_tokens")),
        ]
        if mid is None:
            _add_tokens(first, figures)
            return
        counted = self.usage.get(mid)
        if counted is None:
            _add_tokens(first, figures)
            remember(self.usage, mid, figures)
            return
        grown = [max(new - old, 0) for new, old in zip(figures, counted, strict=True)]
        if not any(grown):
            return
        # What grew goes to the record that reported it, never back to an earlier one:
        # each record's figures are then the same however the file's passes fell, so
        # a file read again from its start (replaced, regrown, another machine) makes
        # the events the store already holds as they were stored and drops nothing.
        _add_tokens(first, grown)
        remember(self.usage, mid, [max(a, b) for a, b in zip(figures, counted, strict=True)])

    def _system(self, line: ParsedLine, rec: dict[str, Any], sid: str | None, base: str) -> None:
        subtype = rec.get("subtype")
        text = rec.get("content") if isinstance(rec.get("content"), str) else ""
        if subtype == "compact_boundary":
            meta = as_dict(rec.get("compactMetadata"))
            text = (
                f"{text or 'Conversation compacted'} "
                f"(trigger={meta.get('trigger')}, preTokens={meta.get('preTokens')})"
            )
            event = self._event(line, rec, base, "meta", "system", text, is_meta=True)
            event.raw_type = "compact_boundary"
        elif subtype == "api_error":
            error = rec.get("error")
            detail = text or compact_json(error)
            event = self._event(line, rec, base, "error", "system", detail, is_error=True)
            event.raw_type = "api_error"
        else:
            raw_type = f"system:{subtype}" if subtype else "system"
            if not text:
                text = compact_json({k: v for k, v in rec.items() if k in _SYSTEM_DETAIL})
            event = self._event(line, rec, base, "meta", "system", text, is_meta=True)
            event.raw_type = raw_type
        self._emit(sid, event)

    def _side_record(
        self, line: ParsedLine, rec: dict[str, Any], sid: str | None, base: str, rtype: str
    ) -> None:
        role: EventRole = "system"
        if rtype == "progress":
            data = as_dict(rec.get("data"))
            raw_type = f"progress:{data.get('type')}"
            text = compact_json(data)
        elif rtype == "attachment":
            data = as_dict(rec.get("attachment"))
            raw_type = f"attachment:{data.get('type')}"
            body = data.get("content")
            # a hook's result keeps which hook it was (its `content` is a copy of what the
            # hook printed: a Stop hook's result, as Claude Code 2.1.9x and later write it,
            # ends the agent's turn), and an attachment with nothing to say keeps what it
            # is: their fields
            hook = str(data.get("type") or "").startswith("hook_")
            text = (
                body if isinstance(body, str) and body.strip() and not hook else compact_json(data)
            )
            if data.get("type") == "queued_command":
                self._queued_text(line, rec, sid, base, data)
        else:
            raw_type = f"queue-operation:{rec.get('operation')}"
            text = _plain_text(rec.get("content"))
            role = "user"
            self._queue(line, rec, sid, base, text)
        event = self._event(line, rec, base, "meta", role, text, is_meta=True, raw_type=raw_type)
        event.clip_bytes = SIDE_CLIP
        self._emit(sid, event)

    def _queue(
        self, line: ParsedLine, rec: dict[str, Any], sid: str | None, base: str, text: str
    ) -> None:
        """Track input typed while the agent runs; one consumed as steering is a prompt.

        A dequeued message comes back as an ordinary user record, so only `remove`
        (the queued text was injected into the running turn) makes an event here,
        marked `steering` so mining reads it as feedback on the work under way.
        """
        queue = _Queue(self.state)
        operation = rec.get("operation")
        if operation == "enqueue":
            self.state.pop("untold", None)
            queue.add(text)
        elif operation == "dequeue":
            if queue.texts:
                queue.pop(0)
        elif operation == "remove":
            # A `remove` that says what it took (Claude Code 2.1.2xx) takes that message;
            # one that does not takes the oldest message a person typed: a background
            # task's notice can wait in the queue for the rest of the session (Claude Code
            # 2.1.4x never removes some), and taking it here would give each later `remove`
            # the message before. (A stale notice can also make a `dequeue` take it in
            # place of the person's message, which then came back as a user record: the
            # notice's own `remove` must not tell that message again.)
            head: tuple[str, str] | None
            if text.strip():
                head = queue.take(text) or (text, _key(text))
            else:
                typed = next(
                    (n for n, item in enumerate(queue.texts) if not _written_by_claude_code(item)),
                    0,
                )
                head = queue.pop(typed) if queue.texts else None
            if head is None or _written_by_claude_code(head[0]):
                pass  # a background task's notice consumed by the turn: no one typed it
            elif head[0].strip():
                self._told(head[1])
                self._emit(sid, self._steering(line, rec, base, head[0]))
            else:  # its text may follow in a `queued_command` attachment
                self.state["untold"] = min(QUEUED_KEPT, self.state.get("untold", 0) + 1)
        elif operation == "popAll":
            queue.clear()
        queue.save()

    def _queued_text(
        self,
        line: ParsedLine,
        rec: dict[str, Any],
        sid: str | None,
        base: str,
        data: dict[str, Any],
    ) -> None:
        """The text of a message typed while the agent ran, when its `enqueue` had none.

        Since about Claude Code 2.1.112 an `enqueue` record carries no `content`: the typed
        text is written only in a `queued_command` attachment. Before the `remove` that
        injects the message into the running turn, it fills the oldest queued message
        that has no text yet; after such a `remove` (one that found no text), it is that
        steering prompt. A version that writes the text in both places counts it once,
        and an attachment with no textless message waiting adds nothing, unless it says a
        person typed it (`origin.kind` "human", Claude Code 2.1.19x on): since about 2.1.219
        a message consumed mid-turn may leave no queue record at all, only this attachment.
        Such an attachment whose text is still queued, or was just told, is that message
        again, and one attachment written twice (the same `source_uuid`) counts once. A
        fork's copy of one tells nothing: the first session's file does.
        """
        if data.get("commandMode") not in (None, "prompt"):
            return  # bash-mode input (`!cmd`) is a command, not words to the agent
        origin = _forked_from(rec)
        if origin is not None and origin != rec.get("sessionId"):
            # a fork's copy of the first session's record: that session's own file tells
            # the message from its queue's records, which a fork does not copy; told from
            # the copy too, the first session had each such message twice
            return
        kind = as_dict(data.get("origin")).get("kind")
        if isinstance(kind, str) and kind != "human":
            # another session's message, a channel's event or a background task's notice
            # waiting for the agent (`origin.kind` "peer", "channel", "task-notification"):
            # not the person's words, and no person's message waits for its text
            return
        text = _plain_text(data.get("prompt"))
        if not text.strip():
            return
        queue = _Queue(self.state)
        if queue.fill_textless(text):
            queue.save()
            return
        if self.state.get("untold", 0) > 0 and not _written_by_claude_code(text):
            self.state["untold"] -= 1
            self._told(_key(text))
            self._emit(sid, self._steering(line, rec, base, text))
            return
        source = _key(as_str(data.get("source_uuid")) or text)
        told: list[str] = self.state.get("told", [])
        if (
            kind == "human"
            and queue.find(text) is None
            and _key(text) not in told
            and _unstripped_key(text) not in told
            and source not in told
            and not _written_by_claude_code(text)
        ):
            self._told(_key(text), source)
            self._emit(sid, self._steering(line, rec, base, text))

    def _told(self, *keys: str) -> None:
        """Remember what was just told as steering (its text's key, its attachment's id's),
        so the same message written again in another record counts once."""
        told: list[str] = self.state.setdefault("told", [])
        told.extend(keys)
        del told[: max(0, len(told) - QUEUED_KEPT)]

    def _steering(self, line: ParsedLine, rec: dict[str, Any], base: str, text: str) -> EventRecord:
        return self._event(
            line, rec, f"{base}:steering", "user_prompt", "user", text, raw_type=STEERING
        )

    @staticmethod
    def _bookkeeping(info: dict[str, Any], rec: dict[str, Any], rtype: str) -> None:
        meta = info.setdefault("meta", {})
        if rtype == "ai-title" and isinstance(rec.get("aiTitle"), str):
            info["title"] = rec["aiTitle"]
        elif rtype == "custom-title" and isinstance(rec.get("customTitle"), str):
            info["custom_title"] = rec["customTitle"]
        elif rtype == "permission-mode" and as_str(rec.get("permissionMode")):
            meta["permission_mode"] = rec["permissionMode"]
        elif rtype == "pr-link" and as_str(rec.get("prUrl")):
            meta["pr_url"] = rec["prUrl"]
        elif rtype == "worktree-state" and isinstance(rec.get("worktreeSession"), dict):
            meta["worktree_path"] = as_str(rec["worktreeSession"].get("worktreePath"))


_SYSTEM_DETAIL = frozenset(
    {"subtype", "level", "durationMs", "messageCount", "hookCount", "hookErrors", "stopReason"}
)


def _add_tokens(event: EventRecord, figures: list[int]) -> None:
    event.input_tokens += figures[0]
    event.output_tokens += figures[1]
    event.cache_read_tokens += figures[2]
    event.cache_creation_tokens += figures[3]


def _key(text: str) -> str:
    """A short stand-in for a message as it was typed (spaces around it aside), to compare
    it with another record's: the cursor's state is stored through the redaction
    chokepoint, so a text kept there may come back with its secrets taken out, while the
    key stays what the raw text gave; short, so the state stays small however long the
    messages."""
    return hashlib.sha256(text.strip().encode("utf-8", "replace")).hexdigest()[:16]


def _unstripped_key(text: str) -> str:
    """The key a harvester before `_key` kept of a told message (spaces and all): a cursor
    stored by it still says what it told."""
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]


class _Queue:
    """The messages typed while the agent runs, oldest first, as a cursor's state keeps
    them between passes: each text (for the steering prompt it may become) beside its key
    (to know it again when a later record names it). A state stored before keys were kept
    gives each text's own."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        texts = state.get("queued")
        self.texts: list[str] = (
            [t for t in texts if isinstance(t, str)] if isinstance(texts, list) else []
        )
        keys = state.get("queued_keys")
        if isinstance(keys, list) and len(keys) == len(self.texts):
            self.keys: list[str] = [str(k) for k in keys]
        else:
            self.keys = [_key(t) for t in self.texts]

    def save(self) -> None:
        if self.texts:
            self.state["queued"], self.state["queued_keys"] = self.texts, self.keys
        else:
            self.state.pop("queued", None)
            self.state.pop("queued_keys", None)

    def add(self, text: str) -> None:
        if len(self.texts) < QUEUED_KEPT:
            self.texts.append(text)
            self.keys.append(_key(text))

    def pop(self, index: int) -> tuple[str, str]:
        return self.texts.pop(index), self.keys.pop(index)

    def find(self, text: str) -> int | None:
        """Where the oldest message typed as `text` waits, or None."""
        wanted = _key(text)
        return next((n for n, key in enumerate(self.keys) if key == wanted), None)

    def take(self, text: str) -> tuple[str, str] | None:
        """The oldest message typed as `text`, out of the queue; None when none waits."""
        found = self.find(text)
        return None if found is None else self.pop(found)

    def fill_textless(self, text: str) -> bool:
        """Give `text` to the oldest message queued without one (a newer `enqueue`)."""
        for index, waiting in enumerate(self.texts):
            if not waiting.strip():
                self.texts[index], self.keys[index] = text, _key(text)
                return True
        return False

    def clear(self) -> None:
        self.texts, self.keys = [], []


def _written_by_claude_code(queued: str) -> bool:
    """A queue item Claude Code writes itself, not words a person typed: a background
    task's notice (`{"task_id": …, "task_type": "local_bash"}`), a `<task-notification>`
    or another injected block (the prefixes `META_PREFIX` knows)."""
    if META_PREFIX.match(queued.lstrip()[:200]):
        return True
    item = json_object(queued.lstrip())
    return item is not None and "task_id" in item and "task_type" in item


#: The fields of a record `_note_session` reads.
_SESSION_NOTES = ("cwd", "gitBranch", "version", "entrypoint", "timestamp")


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _held_at(held: dict[str, Any]) -> datetime | None:
    """When the held head's last record was written (None: no usable time)."""
    times = (parse_timestamp(note.get("timestamp")) for note in held["notes"])
    return max((at for at in times if at is not None), default=None)


def _soon_after(held_at: datetime | None, answered_at: Any) -> bool:
    after = parse_timestamp(answered_at)
    return (
        held_at is not None
        and after is not None
        and timedelta(0) <= after - held_at <= HEAD_ANSWERED_WITHIN
    )


def _forked_from(rec: dict[str, Any]) -> str | None:
    """The session a forked session's copied record came from (`forkedFrom.sessionId`,
    Claude Code 2.1.x), if the record names one by a session id as Claude Code writes it
    (anything else is no session to store a record with)."""
    forked = rec.get("forkedFrom")
    if not isinstance(forked, dict):
        return None
    origin = forked.get("sessionId")
    return origin if isinstance(origin, str) and _SESSION_FILE.fullmatch(origin) else None


def _plain_text(content: Any) -> str:
    """Text of a string or a list of content blocks (queue items, summaries)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text":
                parts.append(str(block.get("text") or ""))
            elif isinstance(block, str):
                parts.append(block)
        return "\n".join(parts)
    return ""


def _text_document(block: dict[str, Any]) -> bool:
    """A `document` block whose source is plain text, not base64 or a link."""
    source = block.get("source")
    return isinstance(source, dict) and source.get("type") == "text"


def _tool_result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return "" if content is None else compact_json(content)
    parts = []
    for item in content:
        if not isinstance(item, dict):
            parts.append(str(item))
        elif item.get("type") == "text":
            parts.append(str(item.get("text") or ""))
        elif item.get("type") in ("image", "document"):
            parts.append(attachment_placeholder(item))
        elif item.get("type") == "tool_reference":
            parts.append(f"[tool_reference: {item.get('tool_name')}]")
        else:
            parts.append(compact_json(item))
    return "\n".join(parts)


def _first_text(blocks: list[Any]) -> str:
    """The first text block's words ("" when there is none)."""
    for block in blocks:
        if isinstance(block, dict) and block.get("type") == "text":
            text = block.get("text")
            return text if isinstance(text, str) else ""
    return ""


def _read_agent_meta(path: str, roots: tuple[str, ...]) -> dict[str, Any]:
    """`agent-<id>.meta.json` beside a 2.1.x subagent file: type, description, worktree.

    Read like a transcript: a regular file inside the roots, of a bounded size.
    """
    meta_path = str(Path(path).with_suffix(".meta.json"))
    try:
        with open_regular(meta_path, roots) as handle:
            data = orjson.loads(handle.read(META_JSON_MAX_BYTES))  # a longer one: malformed
    except (OSError, orjson.JSONDecodeError):
        data = {}
    if not isinstance(data, dict):
        data = {}
    keep = {"agentType": "agent_type", "description": "description", "worktreePath": "worktree"}
    out: dict[str, Any] = {new: data[old] for old, new in keep.items() if as_str(data.get(old))}
    workflow = Path(path).parent
    if workflow.parent.name == "workflows":
        out["workflow_id"] = workflow.name
    return out


def _event_to_state(event: EventRecord) -> dict[str, Any]:
    fields = {name: getattr(event, name) for name in EventRecord.__slots__}
    fields["timestamp"] = iso(event.timestamp)
    return fields


def _event_from_state(data: dict[str, Any]) -> EventRecord:
    data = dict(data)
    data["timestamp"] = parse_timestamp(data.get("timestamp"))
    return EventRecord(**data)


#: Blocks the program writes into a user record's text ahead of the person's words, each
#: closed before the words begin.
_INJECTED_BLOCKS = re.compile(
    r"\A(?:\s*<(system-reminder|ide_opened_file|ide_selection|ide_diagnostics)>.*?</\1>)+\s*",
    re.DOTALL,
)


def _injected_head(text: str) -> str:
    """The program's blocks that open the text, when words follow them; else ""."""
    if not text.lstrip().startswith("<"):
        return ""
    match = _INJECTED_BLOCKS.match(text)
    if match is None or not text[match.end() :].strip():
        return ""
    return text[: match.end()]


#: The text of a file the person mentioned, sent in a block beside their words.
_EMBEDDED_CONTEXT = re.compile(r'\s*<context ref="')


def _joined_text(first: str, then: str) -> str:
    """Two pieces of one typed message: as written where a space already parts them (the
    pieces around a mention), else on lines of their own."""
    if not first or not then or first[-1].isspace() or then[0].isspace():
        return first + then
    return f"{first}\n{then}"


def _blocks(content: Any, as_text: Any) -> list[Any]:
    """A message's content blocks: a string is one block (`as_text`), an object one block,
    a list its items; anything else (a number, a flag) holds none."""
    if isinstance(content, str):
        return [as_text]
    if isinstance(content, dict):
        return [content]
    return content if isinstance(content, list) else []
