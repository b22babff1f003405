"""Readiness in numbers: what a project has, what a night needs, how much more history."""

from __future__ import annotations

from typing import Any

import pytest

from sleepd.config import load_config
from sleepd.readiness import Readiness, days_text, project_readiness


class FakeReader:
    """Answers the two grouped queries readiness makes, and the sessions' recorded
    remotes (none: no Codex worktree to join)."""

    def __init__(self, tasks: list[tuple[str, str, int]], sessions: list[tuple[Any, ...]]):
        self.tasks, self.sessions = tasks, sessions

    def rows(self, sql: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        if "meta" in sql:
            return []
        return list(self.tasks if "FROM tasks" in sql else self.sessions)


def test_a_short_project_gets_numbers_and_a_rough_estimate(isolated_home: Any) -> None:
    cfg = load_config()  # gate.min_tasks 6, dream.min_tasks 6, val_fraction 0.25
    reader = FakeReader(
        [("/p", "train", 2), ("/p", "val", 2), ("/p", "test", 4)],
        [("/p", 8, "2026-11-01 00:00:00", "2026-11-04 00:00:00")],
    )
    (r,) = project_readiness(reader, cfg)
    assert not r.ready and r.total == 8 and r.needed_val == 6
    assert r.more_tasks == 16  # 4 validation tasks missing at a quarter of new tasks
    assert r.more_sessions == 16  # one task per session so far
    assert r.more_days is not None and 5 < r.more_days < 7  # 8 sessions in 3 days
    line = r.sentence()
    assert "8 mined tasks" in line and "16 more sessions" in line
    # what keeps the night away, said against what it needs
    assert "validation has 2 of the 6 tasks a night needs" in line
    assert r.shortfalls() == ["validation has 2 of the 6 tasks a night needs"]


def test_every_shortfall_is_named() -> None:
    """Wild sample 4: "16 mined tasks (train 14, validation 2 …); a night needs 7 tasks
    with at least 1 in train and 6 in validation" left the reader to find the blocker."""
    r = Readiness("/p", 3, {"train": 0, "val": 2, "test": 1}, 7, 6, 20, 9)
    assert r.shortfalls() == [
        "validation has 2 of the 6 tasks a night needs",
        "train has none, and a night needs 1",
        "3 of the 7 tasks a night needs in all",
    ]
    assert Readiness("/p", 9, {"train": 3, "val": 6, "test": 0}, 7, 6).shortfalls() == []


def test_a_project_without_recurring_requests_says_there_is_no_rate(isolated_home: Any) -> None:
    reader = FakeReader([], [("/q", 25, None, None)])
    (r,) = project_readiness(reader, load_config())
    assert r.total == 0 and r.more_sessions is None
    assert "no request has recurred yet" in r.sentence()


def test_ready_projects_come_first(isolated_home: Any) -> None:
    reader = FakeReader(
        [("/a", "train", 10), ("/a", "val", 8), ("/b", "val", 1)],
        [("/a", 40, None, None), ("/b", 3, None, None)],
    )
    rows = project_readiness(reader, load_config())
    assert [r.project for r in rows] == ["/a", "/b"] and rows[0].ready and not rows[1].ready


def test_a_repositorys_worktrees_add_their_sessions_and_span_to_it(isolated_home: Any) -> None:
    reader = FakeReader(
        [("/w/app", "train", 2), ("/w/app", "val", 2)],
        [
            ("/w/app", 4, "2026-11-05 00:00:00", "2026-11-06 00:00:00"),
            ("/w/app/.claude/worktrees/fox", 3, "2026-11-01 00:00:00", "2026-11-03 00:00:00"),
            ("/w/app/.worktrees/feature/x", 1, None, "2026-11-09 00:00:00"),
        ],
    )
    (r,) = project_readiness(reader, load_config())
    assert (r.project, r.sessions) == ("/w/app", 8)
    # 8 sessions over the 8 days from 1 to 9 November: one a day, and 32 more to go
    assert r.more_sessions == 32
    assert r.more_days is not None and 31 < r.more_days < 33


def test_a_subagents_transcript_is_no_session_of_its_own(db_engine: Any) -> None:
    """Wild sample 5: a project of 4 sessions was said to have 12, its 8 subagent
    transcripts counted as sessions (which also halved the estimated rate)."""
    from sqlalchemy import text

    from sleepd.store.fastread import EngineReader

    with db_engine.begin() as conn:
        for n, kind in enumerate(["main"] * 4 + ["subagent"] * 8 + ["fork"], start=1):
            conn.execute(
                text(
                    "INSERT INTO sessions (id, source, external_id, kind, event_count, meta, "
                    "mined_through_seq, created_at, updated_at, project_path, started_at) VALUES "
                    "(:n, 'claude', :ext, :kind, 0, '{}', 0, '2026-01-01', '2026-01-01', "
                    "'/w/sentinel', '2026-01-01 00:00:00')"
                ),
                {"n": n, "ext": f"s{n}", "kind": kind},
            )
    (r,) = project_readiness(EngineReader(db_engine), load_config())
    assert (r.project, r.sessions) == ("/w/sentinel", 5)  # four sessions and a fork


@pytest.mark.parametrize(
    ("days", "words"),
    [
        (1, "about a day"),
        (9.6, "about 10 days"),
        (20, "about 3 weeks"),
        (200, "about 7 months"),
        (400, "more than a year"),
        (3.7e6, "more than a year"),
    ],
)
def test_a_wait_reads_in_plain_words_and_never_as_a_count_of_thousands_of_weeks(
    days: float, words: str
) -> None:
    assert days_text(days) == words
