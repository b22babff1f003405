"""`search_events`: every term must match; a term of several tokens matches as typed."""

from __future__ import annotations

from typing import Any

import pytest
from seed_rows import seed_events
from sqlalchemy import text

from sleepd.search import like_pattern, plan_query, search_events

BODIES = (
    "pytest failed: exit-code 2 in src/main.rs",
    "the exit code was 1, see the log",
    "Café au lait is 100% ready",
    "progress 100 percent -> done",
    "an unrelated prompt about caching",
)


@pytest.fixture
def engine(db_engine: Any) -> Any:
    with db_engine.begin() as conn:
        seed_events(conn, [("user_prompt", body) for body in BODIES], dated=True)
        if conn.dialect.name == "sqlite":  # PostgreSQL's tsvector column fills itself
            conn.execute(text("INSERT INTO events_fts(events_fts) VALUES('rebuild')"))
    return db_engine


def found(engine: Any, query: str) -> list[int]:
    """Which BODIES a query finds, in body order."""
    return sorted(
        BODIES.index(_full_text(engine, hit.event_id)) for hit in search_events(engine, query)
    )


def _full_text(engine: Any, event_id: int) -> str:
    with engine.connect() as conn:
        return str(
            conn.execute(text("SELECT text FROM events WHERE id = :i"), {"i": event_id}).scalar()
        )


CASES = [
    ("exit", [0, 1]),
    ("exit code", [0, 1]),  # two terms: both anywhere
    ("exit-code", [0]),  # one term of two tokens: as typed, not "exit code"
    ("EXIT-CODE", [0]),  # case does not matter
    ("src/main.rs", [0]),
    ("100%", [2]),  # % is literal, not a wildcard
    ("->", [3]),  # no token at all: a substring search
    ("100", [2, 3]),
    ("log exit", [1]),
    ("nothing-here", []),
]


@pytest.mark.both_dbs
@pytest.mark.parametrize(("query", "expected"), CASES)
def test_search_matches_terms_as_a_user_types_them(
    engine: Any, query: str, expected: list[int]
) -> None:
    assert found(engine, query) == expected


@pytest.mark.both_dbs
def test_diacritics_are_folded_for_single_words(engine: Any) -> None:
    assert found(engine, "cafe") == [2]
    assert found(engine, "café") == [2]


@pytest.mark.parametrize(("query", "expected"), [c for c in CASES if c[0].isascii()])
def test_without_the_full_text_index_search_finds_the_same(
    engine: Any, query: str, expected: list[int]
) -> None:
    """Other databases (or a SQLite build without FTS5) fall back to LIKE."""
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE events_fts"))
    assert found(engine, query) == expected


def test_user_input_never_becomes_fts5_syntax() -> None:
    plan = plan_query(['"NEAR(a b)"', "x*", "OR", "a:b"], word_index=True, side_index=False)
    assert plan.word_match == '"NEAR" "a" "b" "x" "OR"'
    assert plan.substrings == ['"NEAR(a b)"', "x*", "a:b"]
    arrow = plan_query(["->"], word_index=True, side_index=True)
    assert (arrow.word_match, arrow.side_match, arrow.substrings) == (None, None, ["->"])
    assert like_pattern(r"50%_a\b") == r"%50\%\_a\\b%"


@pytest.mark.both_dbs
def test_a_project_filter_takes_in_the_repositorys_worktrees(db_engine: Any) -> None:
    sessions = {
        1: "/home/dev/app",
        2: "/home/dev/app/.claude/worktrees/bright-fox",  # removed since
        3: "/home/dev/other",
    }
    with db_engine.begin() as conn:
        for sid, path in sessions.items():
            conn.execute(
                text(
                    "INSERT INTO sessions (id, source, external_id, kind, event_count, meta, "
                    "mined_through_seq, created_at, updated_at, project_path) VALUES "
                    "(:id, 'claude', :ext, 'main', 0, '{}', 0, '2026-01-01', '2026-01-01', :p)"
                ),
                {"id": sid, "ext": f"s{sid}", "p": path},
            )
            conn.execute(
                text(
                    "INSERT INTO events (session_id, seq, external_id, role, kind, text, "
                    "text_size, is_error, input_tokens, output_tokens, cache_read_tokens, "
                    "cache_creation_tokens, is_sidechain, is_meta, byte_offset, line_no) "
                    "VALUES (:id, 1, :ext, 'user', 'user_prompt', 'deploy the widget', "
                    "0, FALSE, 0, 0, 0, 0, FALSE, FALSE, 0, 0)"
                ),
                {"id": sid, "ext": f"e{sid}"},
            )
        if conn.dialect.name == "sqlite":
            conn.execute(text("INSERT INTO events_fts(events_fts) VALUES('rebuild')"))

    def projects(project: str) -> list[str]:
        hits = search_events(db_engine, "widget", project=project)
        return sorted(hit.project_path or "" for hit in hits)

    assert projects("/home/dev/app") == [sessions[1], sessions[2]]
    # the worktree's own path names its repository too
    assert projects(sessions[2]) == [sessions[1], sessions[2]]
    assert projects("/home/dev/other") == [sessions[3]]
    assert projects("/home/dev/nowhere") == []


@pytest.mark.both_dbs
def test_from_keeps_what_the_person_the_agent_or_tools_wrote(db_engine: Any) -> None:
    """Wild sample 4: 17 of 20 hits for a word were tool output, newest first, and the
    person's own prompt with it was not on the page."""
    rows = [
        ("user_prompt", "the blast radius of the map query"),
        ("assistant_text", "I widened the radius to 5 km."),
        ("tool_call", '{"command": "grep -rn radius src"}'),
        *[("tool_result", f"src/map{i}.ts: const radius = {i}") for i in range(25)],
    ]
    with db_engine.begin() as conn:
        seed_events(conn, rows, dated=False)
        conn.execute(
            text(
                "UPDATE events SET role = 'assistant' WHERE kind IN ('assistant_text', 'tool_call')"
            )
        )
        conn.execute(text("UPDATE events SET role = 'tool' WHERE kind = 'tool_result'"))
        if conn.dialect.name == "sqlite":
            conn.execute(text("INSERT INTO events_fts(events_fts) VALUES('rebuild')"))
    kinds = {
        speaker: sorted({hit.kind for hit in search_events(db_engine, "radius", speaker=speaker)})
        for speaker in ("person", "agent", "tools")
    }
    assert kinds == {
        "person": ["user_prompt"],
        "agent": ["assistant_text", "tool_call"],
        "tools": ["tool_result"],
    }
    assert "user_prompt" not in {h.kind for h in search_events(db_engine, "radius")}
    with pytest.raises(ValueError):
        search_events(db_engine, "radius", speaker="people")


def test_a_hit_in_a_record_stored_as_json_shows_its_strings_characters() -> None:
    """Claude Code 2.1's progress records are stored as JSON text; a hit inside the tool
    output they carry had shown its escapes ('error.name === \\"AbortError\\") {\\n')."""
    from sleepd.search import snippet

    stored = '{"data":{"text":"if (error.name === \\"AbortError\\") {\\n  return;\\n}"}}'
    assert 'error.name === "AbortError") { return; }' in snippet(stored, ["AbortError"])
    # a person's or a tool's own text keeps its backslashes as typed
    typed = 'print("a\\nb") fails with AbortError'
    assert snippet(typed, ["AbortError"]) == typed
