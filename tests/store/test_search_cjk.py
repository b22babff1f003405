"""Words in scripts written without spaces are found inside a sentence, from one
character on, and only as typed; the side index follows inserts, deletes and upgrades."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from seed_rows import seed_events
from sqlalchemy import text

from sleepd.search import search_events
from sleepd.store import cjk_index, migrate
from sleepd.store.engine import make_engine

BODIES = (
    "我想要最新版本的文档",  # Chinese, one run
    "Pythonの最新バージョンをインストールしてください",  # Latin glued to Japanese
    "최신버전을 설치해 주세요",  # Korean: a particle glued to the word
    "新版 和 版新 不一样",  # every pair of 新版新 is here, the run is not
    "error: 接続が拒否されました (exit-code 2)",  # mixed scripts and punctuation
    "plain ascii text about the latest version",
    "ภาษาไทยไม่มีการเว้นวรรค",  # Thai, with combining marks
)


def _rebuild(engine: Any) -> None:
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO events_fts(events_fts) VALUES('rebuild')"))
        cjk_index.rebuild(conn.connection.driver_connection)


@pytest.fixture
def engine(db_engine: Any) -> Any:
    with db_engine.begin() as conn:
        seed_events(conn, [("user_prompt", body) for body in BODIES], dated=True)
    _rebuild(db_engine)
    return db_engine


def found(engine: Any, query: str) -> list[int]:
    with engine.connect() as conn:
        texts = {
            int(r[0]): str(r[1]) for r in conn.execute(text("SELECT id, text FROM events")).all()
        }
    return sorted(BODIES.index(texts[h.event_id]) for h in search_events(engine, query))


CASES = [
    ("最新", [0, 1]),  # inside a sentence, in two scripts' texts
    ("新", [0, 1, 3]),  # one character
    ("最新版本", [0]),  # several pairs, in order
    ("新版新", []),  # every pair present, never in this order
    ("バージョン", [1]),
    ("python", [1]),  # a Latin word glued to Japanese is still a word
    ("PYTHONの最新", [1]),
    ("최신", [2]),
    ("拒否 error", [4]),  # terms of two scripts, both must match
    ("拒否 exit-code", [4]),
    ("拒否 nothing", []),
    ("ไทย", [6]),
    ("version", [5]),  # Latin search is unchanged
    ("文档 latest", []),
]


@pytest.mark.parametrize(("query", "expected"), CASES)
def test_search_finds_space_free_words_as_typed(
    engine: Any, query: str, expected: list[int]
) -> None:
    assert found(engine, query) == expected


@pytest.mark.parametrize(("query", "expected"), [c for c in CASES if c[0] != "python"])
def test_without_the_side_index_search_still_finds_them(
    engine: Any, query: str, expected: list[int]
) -> None:
    """A database the upgrade has not reached yet: such terms match as substrings, slower
    but the same hits (a Latin word glued to Japanese needs the side index)."""
    with engine.begin() as conn:
        for statement in cjk_index.DROP:
            conn.execute(text(statement))
    assert found(engine, query) == expected


def test_deleting_an_event_deletes_its_side_entry(engine: Any) -> None:
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM events WHERE external_id = 'e0'"))
        conn.execute(text("INSERT INTO events_fts_cjk(events_fts_cjk) VALUES('integrity-check')"))
    assert found(engine, "最新") == [1]


def test_harvested_events_get_side_entries(db_engine: Any) -> None:
    """The ingest's bulk indexing step writes both indexes in its transaction."""
    from sleepd.store.ingest import index_event_texts, index_new_events, last_event_id
    from sleepd.store.writedb import EngineWriteDb

    with db_engine.begin() as conn:
        seed_events(conn, [("user_prompt", BODIES[0]), ("user_prompt", "ascii only")])
        db = EngineWriteDb(conn)
        index_event_texts(db, 1, [BODIES[0], "ascii only"])
        before = last_event_id(db)
        conn.execute(
            text(
                "INSERT INTO events (session_id, seq, external_id, role, kind, text, "
                "text_size, is_error, input_tokens, output_tokens, cache_read_tokens, "
                "cache_creation_tokens, is_sidechain, is_meta, byte_offset, line_no) "
                "VALUES (1, 9, 'late', 'user', 'user_prompt', :t, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)"
            ),
            {"t": "バージョンの確認"},
        )
        index_new_events(db, before)
        rows = conn.execute(text("SELECT count(*) FROM events_fts_cjk")).scalar()
    assert rows == 2  # the ASCII event needs no side entry
    assert len(search_events(db_engine, "确认 OR 確認")) == 0  # "OR" is a word, not syntax
    assert len(search_events(db_engine, "確認")) == 1
    assert len(search_events(db_engine, "最新")) == 1


def test_upgrade_indexes_the_events_already_stored(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate.upgrade(engine, "0003")
    with engine.begin() as conn:
        seed_events(conn, [("user_prompt", body) for body in BODIES])
        conn.execute(text("INSERT INTO events_fts(events_fts) VALUES('rebuild')"))
    migrate.upgrade(engine)
    assert found(engine, "最新") == [0, 1]
    assert found(engine, "python") == [1]
    migrate.downgrade(engine, "0003")
    with engine.connect() as conn:
        names = {r[0] for r in conn.execute(text("SELECT name FROM sqlite_master")).all()}
    assert not any(n.startswith("events_fts_cjk") for n in names)
    engine.dispose()


def test_side_tokens_are_distinct_characters_and_pairs() -> None:
    assert cjk_index.index_tokens("最新 最新, v2最新") == "最 新 最新 v2"
    assert cjk_index.query_tokens("最新版") == ["最新", "新版"]
    assert cjk_index.query_tokens("新") == ["新"]
    assert not cjk_index.has_run("café ascii – dash")


def test_a_run_is_found_in_every_space_free_script_and_nowhere_else() -> None:
    runs = ["ภาษาไทย", "ພາສາລາວ", "မြန်မာ", "ខ្មែរ", "しごと", "カタカナ", "한국어", "中文", "𠀀𪜀"]
    for run in runs:
        assert cjk_index.has_run(f"see → {run} ✓"), run
    for other in ["emoji 😀 – dash … ✓", "Ελληνικά кириллица", "box ─┼─ →", "、。 only"]:
        assert not cjk_index.has_run(other), other
