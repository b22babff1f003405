"""The whole corpus harvested into the database matches what the harvesters read from it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from e2e_support import canonical_dump, query, read_directly

from harvesters.records import EventRecord, SessionRecord
from sleepd.harvest import harvest

COMPACTION_TYPES = ("compact_boundary", "compacted")


def stored_figures(db_file: Path, source: str) -> dict[str, Any]:
    def count(where: str) -> int:
        sql = (
            "SELECT count(*) FROM events e JOIN sessions s ON s.id = e.session_id "
            f"WHERE s.source = ? AND {where}"
        )
        return int(query(db_file, sql, (source,))[0][0])

    return {
        "sessions": query(db_file, "SELECT count(*) FROM sessions WHERE source = ?", (source,))[0][
            0
        ],
        "events": count("1 = 1"),
        "tool_errors": count("e.kind = 'error'"),
        "interrupts": count("e.kind = 'interrupt'"),
        "compactions": count("e.raw_type IN ('compact_boundary', 'compacted')"),
    }


def expected_figures(sessions: list[SessionRecord], events: list[EventRecord]) -> dict[str, Any]:
    return {
        "sessions": len(sessions),
        "events": len(events),
        "tool_errors": sum(e.kind == "error" for e in events),
        "interrupts": sum(e.kind == "interrupt" for e in events),
        "compactions": sum(e.raw_type in COMPACTION_TYPES for e in events),
    }


def test_stored_figures_equal_what_the_harvesters_read(
    corpus_tree: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    report = harvest(store, cfg)
    expected = read_directly(corpus_tree)
    for source, (sessions, events) in expected.items():
        want = expected_figures(sessions, events)
        assert stored_figures(db_file, source) == want, source
        per = report.sources[source]
        assert (per.sessions_new, per.events_new) == (want["sessions"], want["events"])
        assert per.malformed_lines == 0 and per.errors == 0
    # the corpus has tool errors, an interrupt and a compaction: the counts above mean something
    claude = expected_figures(*expected["claude"])
    assert claude["tool_errors"] > 0 and claude["interrupts"] > 0 and claude["compactions"] > 0


def test_tokens_projects_and_parents_per_session(
    corpus_tree: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    harvest(store, cfg)
    expected = read_directly(corpus_tree)
    rows = query(
        db_file,
        "SELECT s.source, s.external_id, s.project_path, p.external_id, s.event_count, "
        "coalesce(sum(e.input_tokens), 0), coalesce(sum(e.output_tokens), 0), "
        "coalesce(sum(e.cache_read_tokens), 0), coalesce(sum(e.cache_creation_tokens), 0) "
        "FROM sessions s LEFT JOIN sessions p ON p.id = s.parent_session_id "
        "LEFT JOIN events e ON e.session_id = s.id GROUP BY s.id",
    )
    stored = {(r[0], r[1]): r[2:] for r in rows}
    want = {}
    for source, (sessions, events) in expected.items():
        per_session: dict[str, list[int]] = {s.external_id: [0, 0, 0, 0, 0] for s in sessions}
        for e in events:
            tally = per_session.setdefault(e.session_external_id, [0, 0, 0, 0, 0])
            tally[0] += 1
            tally[1] += e.input_tokens
            tally[2] += e.output_tokens
            tally[3] += e.cache_read_tokens
            tally[4] += e.cache_creation_tokens
        for s in sessions:
            want[(source, s.external_id)] = (
                s.project_path,
                s.parent_external_id,
                *per_session[s.external_id],
            )
    assert stored == want
    # Projects come from the records' cwd, not from the lossy directory slug.
    main = stored[("claude", "ef958aa1-0e93-49f0-bb71-150f63befcd1")]
    assert main[0] == "-experiments/worktrees"
    sub = stored[("claude", "ef958aa1-0e93-49f0-bb71-150f63befcd1:agent-a4ca7529859c158c2")]
    assert sub[1] == "ef958aa1-0e93-49f0-bb71-150f63befcd1"  # linked via parent_session_id
    linked = sum(1 for v in stored.values() if v[1] is not None)
    assert linked == 2
    assert sum(v[5] for v in stored.values()) > 10_000_000  # cache reads of 82_b981cea660


def test_second_harvest_adds_nothing_and_changes_nothing(
    corpus_tree: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    first = harvest(store, cfg)
    before = canonical_dump(db_file)
    whole_before = query(db_file, "SELECT * FROM transcript_files ORDER BY id")
    again = harvest(store, cfg).totals()
    assert first.totals()["events_new"] > 1000
    assert (again["events_new"], again["files_changed"], again["sessions_new"]) == (0, 0, 0)
    assert again["files_scanned"] == first.totals()["files_scanned"]
    assert canonical_dump(db_file) == before
    assert query(db_file, "SELECT * FROM transcript_files ORDER BY id") == whole_before
    assert Counter(r[0] for r in before["sessions"]) == {"claude": 9, "codex": 3}
