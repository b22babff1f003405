"""Rows written straight into a migrated database, for tests that need stored events
under an older schema (no models, which follow the newest one)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import text


def seed_events(
    conn: Any, events: Sequence[tuple[str, str]], *, dated: bool = False, project: str = "/w"
) -> None:
    """Session 1 with one event per (kind, text), external ids e0, e1, …; `dated` gives
    event i the time 2026-01-0{i+1}."""
    conn.execute(
        text(
            "INSERT INTO sessions (id, source, external_id, kind, event_count, meta, "
            "mined_through_seq, created_at, updated_at, project_path) VALUES "
            "(1, 'claude', 's1', 'main', 0, '{}', 0, '2026-01-01', '2026-01-01', :project)"
        ),
        {"project": project},
    )
    for i, (kind, body) in enumerate(events):
        conn.execute(
            text(
                "INSERT INTO events (session_id, seq, external_id, role, kind, text, ts, "
                "text_size, is_error, input_tokens, output_tokens, cache_read_tokens, "
                "cache_creation_tokens, is_sidechain, is_meta, byte_offset, line_no) "
                "VALUES (1, :seq, :ext, 'user', :kind, :body, :ts, "
                "0, FALSE, 0, 0, 0, 0, FALSE, FALSE, 0, 0)"
            ),
            {
                "seq": i + 1,
                "ext": f"e{i}",
                "kind": kind,
                "body": body,
                "ts": f"2026-01-0{i + 1} 00:00:00" if dated else None,
            },
        )
