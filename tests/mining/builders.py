"""Builders that put sessions and events straight into a store (no harvester needed)."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.engine import Engine

from sleepd.mining.commands import parse_command
from sleepd.mining.episodes import EventView
from sleepd.mining.lexicon import lexicon_for
from sleepd.mining.turns import TurnInput, TurnKind, classify_turn
from sleepd.store.engine import write_session
from sleepd.store.models import Event, Session

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
#: Well after every session in these tests: all of them are over.
LATER = datetime(2026, 12, 1, tzinfo=UTC)
#: The paraphrase threshold the labelled set was tuned with (see docs/mining.md).
THRESHOLD = 0.2


_ids = itertools.count(1)


@dataclass
class SessionBuilder:
    """Build one session's events in order: prompt(), call(), result(), ..."""

    project: str = "/work/app"
    kind: str = "main"
    branch: str | None = "main"
    parent_id: int | None = None
    start: datetime = T0
    external_id: str = field(default_factory=lambda: f"s-{next(_ids)}")
    rows: list[dict[str, Any]] = field(default_factory=list)
    session_meta: dict[str, Any] = field(default_factory=dict)

    def _add(self, kind: str, role: str, text: str = "", **extra: Any) -> SessionBuilder:
        seq = len(self.rows) + 1
        self.rows.append(
            {
                "seq": seq,
                "external_id": f"{self.external_id}-{seq}",
                "kind": kind,
                "role": role,
                "text": text,
                "ts": self.start + timedelta(seconds=10 * seq),
                **extra,
            }
        )
        return self

    def prompt(self, text: str, **extra: Any) -> SessionBuilder:
        return self._add("user_prompt", "user", text, **extra)

    def meta(self, text: str) -> SessionBuilder:
        return self._add("meta", "user", text, is_meta=True)

    def record(self, raw_type: str, text: str) -> SessionBuilder:
        """A record the agent's tool writes about the session itself (a hook's progress,
        a turn's timing), stored as meta under its record type."""
        return self._add("meta", "system", text, is_meta=True, raw_type=raw_type)

    def summary(self, text: str = "This session is being continued...") -> SessionBuilder:
        return self._add("summary", "user", text)

    def say(self, text: str) -> SessionBuilder:
        return self._add("assistant_text", "assistant", text)

    def service_error(self, text: str) -> SessionBuilder:
        """The agent's service failing in its turn ("API Error: 429 …", a usage limit)."""
        return self._add("error", "assistant", text, is_error=True)

    def interrupt(self) -> SessionBuilder:
        return self._add("interrupt", "user", "[Request interrupted by user]")

    def call(self, tool: str, text: str, call_id: str) -> SessionBuilder:
        return self._add("tool_call", "assistant", text, tool_name=tool, call_id=call_id)

    def result(
        self, call_id: str, text: str = "ok", *, error: bool = False, exit_code: int | None = None
    ) -> SessionBuilder:
        failed = error or (exit_code not in (None, 0))
        self._add(
            "tool_result", "tool", text, call_id=call_id, is_error=failed, exit_code=exit_code
        )
        if failed:
            self._add("error", "tool", text, call_id=call_id, is_error=True)
        return self

    def bash(
        self, command: str, output: str = "ok", *, exit_code: int = 0, call_id: str | None = None
    ) -> SessionBuilder:
        cid = call_id or f"c{len(self.rows) + 1}-{self.external_id}"
        self.call("Bash", json.dumps({"command": command}), cid)
        return self.result(cid, output, exit_code=exit_code)

    def save(self, engine: Engine) -> int:
        with write_session(engine) as db:
            session = Session(
                source="claude",
                external_id=self.external_id,
                kind=self.kind,
                project_path=self.project,
                git_branch=self.branch,
                parent_session_id=self.parent_id,
                started_at=self.start,
                meta=self.session_meta,
            )
            db.add(session)
            db.flush()
            for row in self.rows:
                db.add(Event(session_id=session.id, **row))
            return session.id

    def append(self, engine: Engine, session_id: int, since: int) -> None:
        """Store rows added after the first `since` ones (a live session grew)."""
        with write_session(engine) as db:
            for row in self.rows[since:]:
                db.add(Event(session_id=session_id, **row))


def views(builder: SessionBuilder) -> list[EventView]:
    return [
        EventView(
            id=row["seq"],
            seq=row["seq"],
            kind=row["kind"],
            role=row["role"],
            text=row["text"],
            tool_name=row.get("tool_name"),
            call_id=row.get("call_id"),
            is_error=row.get("is_error", False),
            exit_code=row.get("exit_code"),
            is_meta=row.get("is_meta", False),
            ts=row["ts"],
            raw_type=row.get("raw_type"),
        )
        for row in builder.rows
    ]


#: An agent turn that claims the work is done (what most user turns answer).
DONE = "I've updated the component and the tests pass. The change is in place."


def kind_of(text: str, agent_text: str = DONE, **extra: object) -> TurnKind:
    """The kind the rules give a user turn that answers `agent_text` in a running episode."""
    turn = TurnInput(
        text=text,
        command=parse_command(text),
        has_episode=True,
        agent_text=agent_text,
        agent_worked=True,
        **extra,  # type: ignore[arg-type]
    )
    return classify_turn(turn, lexicon_for()).kind
