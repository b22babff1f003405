"""`sleepd search` as a user runs it: a table with time, project and session columns, the
word found inside a CJK sentence, pages, and JSON unchanged in shape."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from seed_rows import seed_events
from sqlalchemy import text

from sleepd.store import cjk_index

BODIES = [("user_prompt", f"message {i} about the build") for i in range(25)] + [
    ("user_prompt", "我想要最新版本的文档, please"),
]


def sleepd(*args: str, width: int = 100) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(width), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "sleepd", "search", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_search_shows_columns_finds_cjk_and_pages(db_engine: Any) -> None:
    with db_engine.begin() as conn:
        seed_events(conn, BODIES, project="/home/dev/acme-api")
        conn.execute(text("UPDATE events SET ts = '2026-03-0' || (id % 9 + 1) || ' 10:00:00'"))
        conn.execute(text("INSERT INTO events_fts(events_fts) VALUES('rebuild')"))
        cjk_index.rebuild(conn.connection.driver_connection)

    found = sleepd("最新")
    assert found.returncode == 0, found.stderr
    header = found.stdout.splitlines()[2]
    for column in ("time (UTC)", "project", "session", "kind · text"):
        assert column in header
    assert "acme-api" in found.stdout and "claude:s1" in found.stdout
    assert "最新版本" in found.stdout and "{'" not in found.stdout

    first = sleepd("build", "--limit", "10")
    assert first.returncode == 0 and "more hits: --page 2" in first.stdout
    pages = [
        json.loads(sleepd("build", "--limit", "10", "--page", str(p), "--json").stdout)
        for p in (1, 2, 3)
    ]
    ids = [hit["event_id"] for page in pages for hit in page]
    assert len(ids) == 25 and len(set(ids)) == 25  # every hit once, across pages
    assert set(pages[0][0]) == {
        "event_id", "session_external_id", "source", "project_path", "ts", "kind", "snippet",
    }  # fmt: skip
    last = sleepd("build", "--limit", "10", "--page", "4")
    assert last.returncode == 0 and "no matches on page 4" in last.stderr
