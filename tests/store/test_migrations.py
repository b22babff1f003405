"""Migrations build the schema, tear it down, and agree with the models."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from seed_rows import seed_events
from sqlalchemy import inspect

from sleepd.store import migrate
from sleepd.store.engine import make_engine
from sleepd.store.models import Base
from sleepd.store.schema_version import HEAD_REVISION


@pytest.mark.both_dbs
def test_upgrade_from_empty_to_head_and_down_to_base(empty_db_url: str, db_kind: str) -> None:
    """Every revision up, then every revision down, one step at a time."""
    from alembic.script import ScriptDirectory

    engine = make_engine(empty_db_url)
    assert migrate.db_state(engine).empty
    revisions = [
        script.revision
        for script in ScriptDirectory.from_config(migrate.alembic_config(engine)).walk_revisions()
    ][::-1]
    for revision in revisions:
        migrate.upgrade(engine, revision)
        assert migrate.current_revision(engine) == revision
    state = migrate.db_state(engine)
    assert state.at_head and state.current == state.head
    assert migrate.pending_differences(engine) == []  # `db check` finds no drift
    tables = set(inspect(engine).get_table_names())
    assert set(Base.metadata.tables) <= tables
    if db_kind == "sqlite":
        assert "events_fts" in tables
    else:
        columns = {c["name"] for c in inspect(engine).get_columns("events")}
        assert {"text_tsv", "owner_role"} <= columns
    for revision in [*revisions[-2::-1], "base"]:
        migrate.downgrade(engine, revision)
        assert migrate.current_revision(engine) == (None if revision == "base" else revision)
    remaining = set(inspect(engine).get_table_names())
    assert remaining == {"alembic_version"}
    assert migrate.db_state(engine).empty
    migrate.upgrade(engine)  # and up again over what the downgrades left
    assert migrate.pending_differences(engine) == []
    engine.dispose()


@pytest.mark.both_dbs
def test_models_and_migrations_agree(db_engine: Any) -> None:
    assert migrate.pending_differences(db_engine) == []


def test_fast_head_constant_matches_alembic(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    assert migrate.head_revision(engine) == HEAD_REVISION


def test_fts_stays_in_sync_with_events(db_engine) -> None:  # type: ignore[no-untyped-def]
    """Inserts are indexed by the ingest's bulk step; edits and deletes by triggers."""
    from sqlalchemy import text

    from sleepd.store.engine import write_session
    from sleepd.store.ingest import index_new_events, last_event_id
    from sleepd.store.models import Event, Session
    from sleepd.store.writedb import EngineWriteDb

    def hits(word: str) -> int:
        with db_engine.connect() as conn:
            query = text("SELECT count(*) FROM events_fts WHERE events_fts MATCH :w")
            return int(conn.execute(query, {"w": word}).scalar())

    with write_session(db_engine) as db:
        before = last_event_id(EngineWriteDb(db.connection()))
        s = Session(source="claude", external_id="s1", meta={})
        db.add(s)
        db.flush()
        for i, body in enumerate(("please fix the flaky pytest fixture", "and the cache")):
            db.add(
                Event(
                    session_id=s.id,
                    seq=i + 1,
                    external_id=f"e{i}",
                    role="user",
                    kind="user_prompt",
                    text=body,
                )
            )
        db.flush()
        index_new_events(EngineWriteDb(db.connection()), before)
    assert hits("flaky") == 1 and hits("cache") == 1
    with write_session(db_engine) as db:
        event = db.query(Event).filter(Event.external_id == "e1").one()
        event.text = "and the scheduler"
    assert hits("cache") == 0 and hits("scheduler") == 1
    with write_session(db_engine) as db:
        db.query(Event).delete()
    assert hits("flaky") == 0 and hits("scheduler") == 0


def test_0002_keeps_stored_events_searchable_both_ways(tmp_path: Path) -> None:
    """0002 rebuilds the full-text index: events stored under 0001 stay searchable."""
    from sqlalchemy import text

    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate.upgrade(engine, "0001")
    with engine.begin() as conn:
        seed_events(
            conn,
            [("user_prompt", "fix the flaky fixture"), ("error", "ModuleNotFoundError: numpy")],
        )
        conn.execute(text("INSERT INTO events_fts(rowid, text) SELECT id, text FROM events"))

    def hits(word: str) -> int:
        with engine.connect() as conn:
            query = text("SELECT count(*) FROM events_fts WHERE events_fts MATCH :w")
            return int(conn.execute(query, {"w": word}).scalar())

    migrate.upgrade(engine)
    assert hits("flaky") == 1 and hits("numpy") == 1
    indexes = {ix["name"] for ix in inspect(engine).get_indexes("events")}
    assert "ix_events_errors" in indexes
    assert not indexes & {"ix_events_ts", "ix_events_kind", "ix_events_call_id"}
    with engine.connect() as conn:
        plan = " ".join(
            str(row[-1])
            for row in conn.execute(
                text("EXPLAIN QUERY PLAN SELECT count(*) FROM events WHERE kind = 'error'")
            )
        )
    assert "ix_events_errors" in plan  # the status count uses the partial index
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM events WHERE external_id = 'e0'"))
    assert hits("flaky") == 0 and hits("numpy") == 1
    migrate.downgrade(engine, "0001")
    assert hits("numpy") == 1
    assert "ix_events_kind" in {ix["name"] for ix in inspect(engine).get_indexes("events")}


def test_0003_drops_token_positions_and_keeps_events_searchable_both_ways(
    tmp_path: Path,
) -> None:
    """0003 rebuilds the full-text index without positions; 0002's phrases come back on
    the way down."""
    from sqlalchemy import text

    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate.upgrade(engine, "0002")
    with engine.begin() as conn:
        seed_events(
            conn, [("error", "connection refused by the server"), ("error", "the server refused")]
        )
        conn.execute(text("INSERT INTO events_fts(events_fts) VALUES('rebuild')"))

    def hits(match: str) -> int:
        with engine.connect() as conn:
            query = text("SELECT count(*) FROM events_fts WHERE events_fts MATCH :m")
            return int(conn.execute(query, {"m": match}).scalar())

    def fts_sql() -> str:
        with engine.connect() as conn:
            query = text("SELECT sql FROM sqlite_master WHERE name = 'events_fts'")
            return str(conn.execute(query).scalar())

    assert hits('"connection refused"') == 1
    migrate.upgrade(engine)
    assert "detail=none" in fts_sql()
    assert hits('"refused" "server"') == 2 and hits('"connection"') == 1
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM events WHERE external_id = 'e0'"))
        conn.execute(text("INSERT INTO events_fts(events_fts) VALUES('integrity-check')"))
    assert hits('"connection"') == 0 and hits('"refused"') == 1
    migrate.downgrade(engine, "0002")
    assert "detail=none" not in fts_sql()
    assert hits('"the server refused"') == 1  # phrases work again


@pytest.mark.both_dbs
def test_0010_merges_the_patterns_of_one_failure_and_keys_them_as_mining_does(
    empty_db_url: str,
) -> None:
    """Patterns stored under 0009's keys: the same message with and without an exit code,
    and with a hint appended, become one pattern holding every occurrence, its count and
    its sightings; the keys are those the live signatures give; a pattern whose new key
    is another's old key moves without a clash; the rest stay as they were."""
    import hashlib

    from sqlalchemy import text

    from sleepd.mining.signatures import key_line, normalize, signature_of

    def old_digest(full: str) -> str:
        return hashlib.sha256(full.encode()).hexdigest()[:32]

    bun = "error: unrecognized subcommand 'bun'"
    results = [  # (tool, raw result, exit code, first seen, last seen, count)
        ("Bash", f"Exit code 2\n{bun}", 2, "2026-01-03", "2026-01-05", 3),
        ("Bash", bun, None, "2026-01-01", "2026-01-04", 2),
        ("Read", "File does not exist.", None, "2026-01-02", "2026-01-02", 1),
        ("Read", "File does not exist. Note: your cwd is /a.", None, "2026-01-06", "2026-01-07", 1),
        ("Bash", "Exit code 7", 7, "2026-01-01", "2026-01-01", 1),
        ("Bash", "Exit code 1\nModuleNotFoundError: No module named 'x'", 1, None, None, 1),
    ]
    engine = make_engine(empty_db_url)
    migrate.upgrade(engine, "0009_watch_learned_rules")
    with engine.begin() as conn:
        seed_events(conn, [("tool_result", raw) for _, raw, *_ in results])
        ids = [int(i) for (i,) in conn.execute(text("SELECT id FROM events ORDER BY seq"))]
        for number, (tool, raw, code, first, last, count) in enumerate(results, start=1):
            sig = signature_of(raw, tool, code)
            old_text = normalize(key_line(raw, sig.error_class))  # 0009: the whole line
            old_full = f"{tool} | {sig.error_class or '-'} | {old_text}"
            conn.execute(
                text(
                    "INSERT INTO failure_patterns (id, signature_hash, signature, tool_name, "
                    "error_class, example, count, first_seen, last_seen) VALUES "
                    "(:id, :h, :s, :tool, :klass, :raw, :count, :first, :last)"
                ),
                {
                    "id": number,
                    "h": old_digest(old_full),
                    "s": old_full,
                    "tool": tool,
                    "klass": sig.error_class,
                    "raw": raw,
                    "count": count,
                    "first": first,
                    "last": last,
                },
            )
            conn.execute(
                text(
                    "INSERT INTO pattern_occurrences (pattern_id, event_id, project_path) "
                    "VALUES (:p, :e, '/w')"
                ),
                {"p": number, "e": ids[number - 1]},
            )
        # Pattern 1's new key is pattern 5's old one: the re-keying must not clash.
        conn.execute(text("UPDATE failure_patterns SET signature_hash = 'stale' WHERE id = 2"))
        conn.execute(
            text("UPDATE failure_patterns SET signature_hash = :h WHERE id = 5"),
            {"h": signature_of(results[0][1], "Bash", 2).digest},
        )
    migrate.upgrade(engine)
    with engine.connect() as conn:
        patterns = {
            int(row.id): row
            for row in conn.execute(
                text(
                    "SELECT id, signature_hash, signature, count, first_seen, last_seen "
                    "FROM failure_patterns"
                )
            )
        }
        owners = dict(
            conn.execute(text("SELECT event_id, pattern_id FROM pattern_occurrences")).all()
        )
    engine.dispose()
    assert sorted(patterns) == [1, 3, 5, 6]
    assert [owners[i] for i in ids] == [1, 1, 3, 3, 5, 6]
    assert patterns[1].count == 5 and patterns[3].count == 2
    assert str(patterns[1].first_seen).startswith("2026-01-01")
    assert str(patterns[1].last_seen).startswith("2026-01-05")
    assert str(patterns[3].last_seen).startswith("2026-01-07")
    assert patterns[3].signature == "Read | - | File does not exist."
    for number, (tool, raw, code, *_) in enumerate(results, start=1):
        owner = owners[ids[number - 1]]
        if signature_of(raw, tool, code).text.endswith("printed nothing"):
            # a silent failure is signed by its program since (docs/mining.md): 0010
            # keys it as mining did when 0010 was written
            assert patterns[owner].signature == "Bash | exit 7 | Exit code <n>", raw
            continue
        assert patterns[owner].signature_hash == signature_of(raw, tool, code).digest, raw


def _store_patterns(conn: Any, patterns: list[dict[str, Any]]) -> None:
    """Failure patterns as an older revision stored them, each with one occurrence (a
    tool result of its `raw` output): `key` is the string that revision hashed into the
    pattern's key; `id`, `s` (signature), `tool`, `klass`, `raw`, `count` and `first` are
    stored as they are."""
    import hashlib

    from sqlalchemy import text

    seed_events(conn, [("tool_result", pattern["raw"]) for pattern in patterns])
    ids = [int(i) for (i,) in conn.execute(text("SELECT id FROM events ORDER BY seq"))]
    for pattern, event_id in zip(patterns, ids, strict=True):
        digest = hashlib.sha256(pattern["key"].encode()).hexdigest()[:32]
        conn.execute(
            text(
                "INSERT INTO failure_patterns (id, signature_hash, signature, tool_name, "
                "error_class, example, count, first_seen, last_seen) VALUES "
                "(:id, :h, :s, :tool, :klass, :raw, :count, :first, :first)"
            ),
            {**pattern, "h": digest},
        )
        conn.execute(
            text(
                "INSERT INTO pattern_occurrences (pattern_id, event_id, project_path) "
                "VALUES (:p, :e, '/w')"
            ),
            {"p": pattern["id"], "e": event_id},
        )


def _store_as_keyed(
    engine: Any,
    revision: str,
    stored: list[tuple[int, str, str, str, int]],
    keyed_as: dict[str, str],
    exit_code: int | None = None,
) -> list[Any]:
    """Upgrade to `revision` and store one pattern per (id, tool, raw, first seen, count),
    signed as mining signs it now and keyed as that revision keyed it (`keyed_as`: the tool
    names it keyed as another; the raw outputs that hold "Process exited" with `exit_code`);
    the signatures, in order."""
    from sleepd.mining.signatures import signature_of

    migrate.upgrade(engine, revision)
    sigs = [
        signature_of(raw, tool, exit_code if "Process exited" in raw else None)
        for _, tool, raw, _, _ in stored
    ]
    with engine.begin() as conn:
        _store_patterns(
            conn,
            [{"id": number,
              "key": f"{keyed_as.get(tool, tool)} | {sig.error_class or '-'} | {sig.text}",
              "s": sig.full, "tool": tool, "klass": sig.error_class, "raw": raw,
              "count": count, "first": first}
             for (number, tool, raw, first, count), sig in zip(stored, sigs, strict=True)],
        )  # fmt: skip
    return sigs


def _store_as_signed(
    engine: Any, revision: str, stored: list[tuple[int, str, str, str | None, str, int]]
) -> None:
    """Upgrade to `revision` and store one pattern per (id, tool, signature text, error
    class, raw, count) as that revision signed and keyed it, each with one occurrence (a
    tool result of its `raw` output)."""
    from sqlalchemy import text

    migrate.upgrade(engine, revision)
    keyed_as = importlib.import_module(f"migrations.versions.{revision}")
    with engine.begin() as conn:
        seed_events(conn, [("tool_result", raw) for *_, raw, _ in stored])
        events = [int(i) for (i,) in conn.execute(text("SELECT id FROM events ORDER BY seq"))]
        for (number, tool, said, klass, raw, count), event in zip(stored, events, strict=True):
            signature = f"{tool} | {klass or '-'} | {said}"
            digest, _ = keyed_as.pattern_key(tool, klass, signature)
            conn.execute(
                text(
                    "INSERT INTO failure_patterns (id, signature_hash, signature, tool_name, "
                    "error_class, example, count, first_seen, last_seen) VALUES (:id, :h, :s, "
                    ":tool, :klass, :raw, :count, '2026-01-01', '2026-01-01')"
                ),
                {"id": number, "h": digest, "s": signature, "tool": tool, "klass": klass,
                 "raw": raw, "count": count},
            )  # fmt: skip
            conn.execute(
                text(
                    "INSERT INTO pattern_occurrences (pattern_id, event_id, project_path) "
                    "VALUES (:p, :e, '/w')"
                ),
                {"p": number, "e": event},
            )


def _upgraded_patterns(engine: Any) -> tuple[list[Any], list[int]]:
    """Upgrade to head; the stored patterns (by id) and the pattern of each occurrence."""
    from sqlalchemy import text

    migrate.upgrade(engine)
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT id, signature_hash, signature, tool_name, count, first_seen, last_seen "
                "FROM failure_patterns ORDER BY id"
            )
        ).all()
        owners = [p for (p,) in conn.execute(text("SELECT pattern_id FROM pattern_occurrences"))]
    engine.dispose()
    return list(rows), owners


@pytest.mark.both_dbs
def test_0011_merges_a_failure_stored_under_each_shell_tools_name(empty_db_url: str) -> None:
    """Patterns stored under 0010's keys for one failure run by Claude Code's Bash and by
    two Codex versions' shell tools, once with its exit code hidden, become one pattern
    with every occurrence and the first one's tool name; a pattern of another tool with
    the same words stays apart; every key is the one mining gives now."""

    from sleepd.mining.signatures import signature_of

    raw = "Exit code 127\n/bin/bash: line 1: pytest: command not found"
    stored = [  # (id, tool, exit code, first seen, count)
        (1, "shell_command", 127, "2026-02-01", 2),
        (2, "Bash", 127, "2026-01-01", 1),
        (3, "exec_command", None, "2026-03-01", 4),  # a pipe hid the code: a stock class
        (4, "Read", 127, "2026-01-05", 1),
    ]
    engine = make_engine(empty_db_url)
    migrate.upgrade(engine, "0010_pattern_keys")
    sigs = [signature_of(raw, tool, code) for _, tool, code, _, _ in stored]
    with engine.begin() as conn:
        _store_patterns(
            conn,
            [{"id": number, "key": f"{tool} | {sig.error_class or '-'} | {sig.text}",  # 0010's
              "s": sig.full, "tool": tool, "klass": sig.error_class, "raw": raw,
              "count": count, "first": first}
             for (number, tool, _, first, count), sig in zip(stored, sigs, strict=True)],
        )  # fmt: skip
    rows, owners = _upgraded_patterns(engine)
    assert [(r.id, r.tool_name, r.count) for r in rows] == [(1, "shell_command", 7), (4, "Read", 1)]
    assert str(rows[0].first_seen).startswith("2026-01-01")
    assert str(rows[0].last_seen).startswith("2026-03-01")
    assert sorted(owners) == [1, 1, 1, 4]
    assert rows[0].signature_hash == signature_of(raw, "Bash", 127).digest
    assert rows[1].signature_hash == signature_of(raw, "Read", 127).digest


@pytest.mark.both_dbs
def test_0012_merges_a_failed_patch_under_either_codex_wording(empty_db_url: str) -> None:
    """Patterns stored under 0011's keys for a patch whose context is not in the file,
    worded by Codex's own tool and by the shell that ran patches before it, become one
    pattern, re-signed without the wording; another failure opening with "error:" stays as
    it was; every key is the one mining gives now."""

    from sleepd.mining.signatures import signature_of

    own = "apply_patch verification failed: Failed to find expected lines in /w/a.md:\n# A"
    shell = "error: Failed to find expected lines in /w/b.md:\n- [ ] T1"
    other = "error: patch failed: a.py:3"
    stored = [  # (id, raw, exit code, 0011's signature text, first seen, count)
        (1, own, None, "apply_patch verification failed: Failed to find expected lines in <path>:",
         "2026-02-01", 8),
        (2, shell, 1, "error: Failed to find expected lines in <path>:", "2026-01-01", 7),
        (3, other, 1, "error: patch failed: <path>", "2026-01-02", 2),
    ]  # fmt: skip
    engine = make_engine(empty_db_url)
    migrate.upgrade(engine, "0011_shell_pattern_keys")
    klasses = [signature_of(raw, "apply_patch", code).error_class for _, raw, code, *_ in stored]
    with engine.begin() as conn:
        _store_patterns(
            conn,
            [{"id": number, "key": f"apply_patch | {'-' if number != 3 else klass or '-'} | {old}",
              "s": f"apply_patch | {klass or '-'} | {old}", "tool": "apply_patch",
              "klass": klass, "raw": raw, "count": count, "first": first}
             for (number, raw, _, old, first, count), klass in zip(stored, klasses, strict=True)],
        )  # fmt: skip
    rows, owners = _upgraded_patterns(engine)
    assert [(r.id, r.count) for r in rows] == [(1, 15), (3, 2)]
    assert sorted(owners) == [1, 1, 3]
    assert rows[0].signature == "apply_patch | - | Failed to find expected lines in <path>:"
    assert rows[0].signature_hash == signature_of(shell, "apply_patch", 1).digest
    assert rows[0].signature_hash == signature_of(own, "apply_patch").digest
    assert rows[1].signature == "apply_patch | exit 1 | error: patch failed: <path>"
    assert rows[1].signature_hash == signature_of(other, "apply_patch", 1).digest


@pytest.mark.both_dbs
def test_0013_merges_a_failure_run_through_powershell_with_the_same_through_bash(
    empty_db_url: str,
) -> None:
    """Patterns stored under 0012's keys for one failure run through Claude Code's Bash
    and through its PowerShell tool become one pattern; a PowerShell failure of its own
    is re-keyed, its signature kept; every key is the one mining gives now."""

    from sleepd.mining.signatures import signature_of

    raw = "Exit code 128\nfatal: not a git repository (or any of the parent directories): .git"
    own = "Exit code 1\nerror: options '--name-only' and '-l' cannot be used together"
    stored = [  # (id, tool, raw, first seen, count)
        (1, "Bash", raw, "2026-02-01", 3),
        (2, "PowerShell", raw, "2026-01-01", 2),
        (3, "PowerShell", own, "2026-01-03", 1),
    ]
    engine = make_engine(empty_db_url)
    # 0012 keyed Bash as "shell", PowerShell by its own name
    _store_as_keyed(engine, "0012_patch_pattern_keys", stored, {"Bash": "shell"})
    rows, owners = _upgraded_patterns(engine)
    assert [(r.id, r.count) for r in rows] == [(1, 5), (3, 1)]
    assert sorted(owners) == [1, 1, 3]
    assert str(rows[0].first_seen).startswith("2026-01-01")
    assert rows[0].signature_hash == signature_of(raw, "PowerShell", None).digest
    assert rows[1].signature == signature_of(own, "PowerShell", None).full
    assert rows[1].signature_hash == signature_of(own, "PowerShell", None).digest


@pytest.mark.both_dbs
def test_0014_merges_one_failure_of_each_tool_of_a_family(empty_db_url: str) -> None:
    """Patterns stored under 0013's keys for Claude Code's refusal to write a file not
    read first, through Edit and through Write, become one pattern with every occurrence
    and the oldest one's first sighting; so do one failure of a Codex command that ended at
    once and of one whose end a `write_stdin` poll read; a refusal of Read with the same
    words stays apart (reading is no edit); every key is the one mining gives now."""

    from sleepd.mining.signatures import signature_of

    refused = (
        "<tool_use_error>File has not been read yet. Read it first before writing to it."
        "</tool_use_error>"
    )
    failed = (
        "Process exited with code 2\nOutput:\nrg: src/gone: No such file or directory (os error 2)"
    )
    stored = [  # (id, tool, raw, first seen, count)
        (1, "Edit", refused, "2026-02-01", 18),
        (2, "Write", refused, "2026-01-01", 8),
        (3, "Read", refused, "2026-01-03", 1),
        (4, "exec_command", failed, "2026-01-05", 2),
        (5, "write_stdin", failed, "2026-01-04", 1),
    ]
    engine = make_engine(empty_db_url)
    # 0013 keyed a shell tool as "shell", every other tool by its own name
    sigs = _store_as_keyed(
        engine, "0013_powershell_pattern_keys", stored, {"exec_command": "shell"}, exit_code=2
    )
    rows, owners = _upgraded_patterns(engine)
    assert [(r.id, r.count) for r in rows] == [(1, 26), (3, 1), (4, 3)]
    assert sorted(owners) == [1, 1, 3, 4, 4]
    assert str(rows[0].first_seen).startswith("2026-01-01")
    assert str(rows[2].first_seen).startswith("2026-01-04")
    assert rows[0].signature == sigs[0].full  # the first one's tool name stays
    assert rows[0].signature_hash == signature_of(refused, "Write", None).digest
    assert rows[0].signature_hash == signature_of(refused, "MultiEdit", None).digest
    assert rows[1].signature_hash == signature_of(refused, "Read", None).digest
    assert rows[1].signature_hash != rows[0].signature_hash
    assert rows[2].signature_hash == signature_of(failed, "write_stdin", 2).digest


@pytest.mark.both_dbs
def test_0015_keys_an_old_codexs_failures_as_the_later_codexs(empty_db_url: str) -> None:
    """Patterns stored under 0014's keys, signed as mining signed an old Codex's failures
    before this revision (real wordings of the labelled JaydenXsoe/ocodex and
    Monotoba/OpenPrintKit sessions), become the later Codex's patterns: a patch that listed
    the lines it looked for, under `shell` or `apply_patch`, joins "Failed to find expected
    lines in <path>:"; a time limit inside a sandbox note, whichever sandbox, joins "command
    timed out after <n>"; a sandbox's refusal with nothing on stdout keeps its stderr; any
    other pattern keeps its key; every key is the one mining gives now."""

    from sleepd.mining.signatures import signature_of

    later_patch = "apply_patch verification failed: Failed to find expected lines in /w/a.py:\nx"
    listed = 'error: Failed to find expected lines ["    # Optional analysis", ""] in /w/gen.py'
    timed_out = "command timed out after 10031 milliseconds"
    refused = (
        "failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, "
        "exit code: 1, stdout: , stderr: sed: 1: unknown option to s"
    )
    other = "Exit code 1\nfatal: not a git repository (or any of the parent directories): .git"
    stored = [  # (id, tool, stored signature text, error class, raw, count)
        (1, "apply_patch", "Failed to find expected lines in <path>:", None, later_patch, 9),
        (2, "shell", 'Failed to find expected lines [<q>, ""] in <path>', None, listed, 5),
        (3, "apply_patch", "Failed to find expected lines [<q>] in <path>", None, listed, 3),
        (4, "shell_command", "command timed out after <n>", "timed out", timed_out, 2),
        (5, "shell", "failed in sandbox None with execution error: command timed out",
         "timed out", timed_out, 12),
        (6, "shell", "failed in sandbox MacosSeatbelt with execution error: command timed out",
         "timed out", timed_out, 5),
        (7, "shell", "failed in sandbox LinuxSeccomp with execution error: sandbox denied exec "
         "error, exit code: <n>, stdout: , stderr: sed: <n>: unknown option to s", None,
         refused, 1),
        (8, "Bash", signature_of(other, "Bash").text, signature_of(other, "Bash").error_class,
         other, 4),
    ]  # fmt: skip
    engine = make_engine(empty_db_url)
    _store_as_signed(engine, "0014_tool_family_pattern_keys", stored)
    upgraded, owners = _upgraded_patterns(engine)
    assert [(r.id, r.count) for r in upgraded] == [(1, 17), (4, 19), (7, 1), (8, 4)]
    assert sorted(owners) == [1, 1, 1, 4, 4, 4, 7, 8]
    by_id = {r.id: r for r in upgraded}
    assert by_id[1].signature_hash == signature_of(listed, "apply_patch").digest
    assert by_id[1].signature_hash == signature_of(later_patch, "apply_patch").digest
    assert by_id[4].signature_hash == signature_of(timed_out, "shell_command").digest
    sandboxed = "failed in sandbox None with execution error: command timed out"
    assert by_id[4].signature_hash == signature_of(sandboxed, "shell").digest
    assert by_id[7].signature == "shell | - | sed: <n>: unknown option to s"
    assert by_id[7].signature_hash == signature_of(refused, "shell").digest
    assert by_id[8].signature_hash == signature_of(other, "Bash").digest


@pytest.mark.both_dbs
def test_0016_keys_a_code_mode_scripts_failures_as_the_tools_it_ran(empty_db_url: str) -> None:
    """Patterns stored under 0015's keys for Codex Desktop's code mode (its `exec` tool):
    a command's failure joins the same failure of Codex's shell, a patch that did not
    apply joins the patch tool's (the wordings of a Codex history outside the repository,
    jdx/mise); a Read failure stays apart; every key is the one mining gives now."""
    from sleepd.mining.signatures import signature_of

    shell = "Chunk ID: 1\nOutput:\nzsh:1: command not found: python"
    script = "Script completed\nWall time 0.5 seconds\nOutput:\nzsh:1: command not found: python"
    patch = "apply_patch verification failed: Failed to find expected lines in /w/a.rs:\nx"
    scripted_patch = (
        "Script failed\nWall time 0.0 seconds\nOutput:\n\nScript error:\n"
        "apply_patch verification failed: Failed to find expected lines in /w/registry.rs:\n"
        "<<<<<<< HEAD"
    )
    stored = [  # (id, tool, raw, first seen, count)
        (1, "exec_command", shell, "2026-02-01", 2),
        (2, "exec", script, "2026-01-01", 18),
        (3, "apply_patch", patch, "2026-01-03", 8),
        (4, "exec", scripted_patch, "2026-01-02", 14),
        (5, "Read", "File does not exist.", "2026-01-04", 1),
    ]
    engine = make_engine(empty_db_url)
    # 0015 keyed a shell tool as "shell", every other tool (`exec` too) by its own name
    sigs = _store_as_keyed(engine, "0015_old_codex_pattern_keys", stored, {"exec_command": "shell"})
    assert sigs[0].text == sigs[1].text and sigs[2].text == sigs[3].text
    rows, owners = _upgraded_patterns(engine)
    assert [(r.id, r.count) for r in rows] == [(1, 20), (3, 22), (5, 1)]
    assert sorted(owners) == [1, 1, 3, 3, 5]
    assert str(rows[0].first_seen).startswith("2026-01-01")
    assert rows[0].signature_hash == signature_of(script, "exec").digest
    assert rows[0].signature_hash == signature_of(shell, "exec_command").digest
    assert rows[1].signature_hash == signature_of(patch, "apply_patch").digest
    assert rows[1].signature == sigs[2].full  # the first one's tool name stays
    assert rows[2].signature_hash == signature_of("File does not exist.", "Read").digest


@pytest.mark.both_dbs
def test_0017_merges_a_failure_that_names_itself_under_any_exit_code(empty_db_url: str) -> None:
    """Patterns stored under 0016's keys for one failure that names itself without an
    error word (BSD cat's "illegal option", a Go diagnostic): under `exit 1`, behind a pipe
    with no code, and from Codex's shell, they become one pattern each with every
    occurrence; a banner's heading under `exit 1` and with no code stays two patterns;
    every key is the one mining gives now."""
    from sleepd.mining.signatures import signature_of

    cat = "cat: illegal option -- A\nusage: cat [-belnstuv] [file ...]"
    go = 'cmd/x.go:12:3: "os" imported and not used'
    stored = [  # (id, tool, raw, first seen, count); "Process exited" carries exit 1
        (1, "Bash", cat, "2026-02-01", 10),
        (2, "Bash", f"Process exited with code 1\nOutput:\n{cat}", "2026-01-01", 2),
        (3, "exec_command", f"Process exited with code 1\nOutput:\n{go}", "2026-01-03", 10),
        (4, "Bash", go, "2026-01-04", 1),
        (5, "Bash", "Process exited with code 1\nOutput:\nRunning: the suite", "2026-01-05", 1),
        (6, "Bash", "Running: the suite", "2026-01-06", 1),
    ]
    engine = make_engine(empty_db_url)
    sigs = _store_as_keyed(
        engine, "0016_code_mode_pattern_keys", stored, {"Bash": "shell", "exec_command": "shell"}, 1
    )
    assert sigs[1].error_class == "exit 1" and sigs[0].error_class is None
    rows, owners = _upgraded_patterns(engine)
    assert [(r.id, r.count) for r in rows] == [(1, 12), (3, 11), (5, 1), (6, 1)]
    assert sorted(owners) == [1, 1, 3, 3, 5, 6]
    assert str(rows[0].first_seen).startswith("2026-01-01")
    assert rows[0].signature_hash == signature_of(cat, "Bash").digest
    assert rows[0].signature_hash == signature_of(cat, "Bash", 1).digest
    assert rows[1].signature_hash == signature_of(go, "exec_command", 1).digest
    assert rows[1].signature == sigs[2].full  # the first one's signature, with its class
    assert rows[2].signature_hash == signature_of("Running: the suite", "Bash", 1).digest
    assert rows[3].signature_hash == signature_of("Running: the suite", "Bash").digest


@pytest.mark.both_dbs
def test_0017_re_signs_a_path_named_bare_and_merges_its_pattern(empty_db_url: str) -> None:
    """Patterns stored under 0016's keys, signed as mining signed them before this revision
    (real wordings of jdx/mise's Codex history, outside the repository): ripgrep's word
    that a folder named bare is missing ("rg: tests: …") joins the same word for a path
    with a slash, under its exit code or its stock class; git's word that a rebase stopped
    joins the same word with the commit's subject in it; Grep's refusal of a path joins the
    same refusal with the later versions' note on the working folder, and of a path named
    bare; a compiler's error relayed by golangci-lint joins the compiler's, and a line under
    a task runner's tag the same line run alone (the runner's own verdict keeps its task);
    jq's error keeps its words; every key is the one mining gives now."""

    from sleepd.mining.signatures import signature_of

    slashed = "rg: src/cli: No such file or directory (os error 2)"
    bare = "rg: tests: No such file or directory (os error 2)"
    jq = "jq: error: Could not open file x.json: No such file or directory"
    rebase = "hint: Disable this message\nCould not apply 051bc95... # sem(csharp): infer receiver"
    grep = "Path does not exist: /w/src. Note: your current working directory is /w/app."
    go = 'cmd/x.go:5:2: "os" imported and not used (typecheck)'
    lint = "[lint:go] a.go:3:1: Error return value is not checked (errcheck)"
    verdict = "[lint] ERROR task failed"
    failed = "[test:ci] --- FAIL: TestSearch (0.01s)"
    stored = [  # (id, tool, stored signature text, error class, raw, count)
        (1, "exec_command", "rg: <path>: No such file or directory (os error <n>)", "exit 2",
         slashed, 19),
        (2, "exec_command", "rg: tests: No such file or directory (os error <n>)", "exit 2",
         bare, 14),
        (3, "shell_command", "rg: pkg: No such file or directory (os error <n>)",
         "no such file or directory", bare, 2),
        (4, "Bash", "jq: error: Could not open file <path>: No such file or directory",
         "exit 2", jq, 1),
        (5, "Bash", "error: could not apply <hex>...", "exit 1", rebase, 2),
        (6, "Bash", "Could not apply <hex>... # sem(csharp): infer receiver types", None,
         rebase, 1),
        (7, "Grep", "Path does not exist: <path>", None, grep, 17),
        (8, "Grep", "Path does not exist: <path> Note: your current working directory is "
         "<path>", None, grep, 3),
        (9, "Grep", "Path does not exist: .golangci.yml", None, grep, 1),
        (10, "Bash", "<path>: <q> imported and not used", "exit 1", go, 11),
        (11, "Bash", "<path>: <q> imported and not used (typecheck)", "exit 1", go, 1),
        (12, "Bash", "<path>: Error return value is not checked (errcheck)", "exit 1", lint, 3),
        (13, "Bash", "[lint:go] <path>: Error return value is not checked (errcheck)", "exit 1",
         lint, 1),
        (14, "Bash", "[lint] ERROR task failed", "exit 1", verdict, 2),
        (15, "Bash", "FAIL: TestSearch (<n>)", None, failed, 1),
        (16, "Bash", "[test:ci] --- FAIL: TestSearch (<n>)", None, failed, 1),
    ]  # fmt: skip
    engine = make_engine(empty_db_url)
    _store_as_signed(engine, "0016_code_mode_pattern_keys", stored)
    upgraded, owners = _upgraded_patterns(engine)
    assert [(r.id, r.count) for r in upgraded] == [
        (1, 35), (4, 1), (5, 3), (7, 21), (10, 12), (12, 4), (14, 2), (15, 2)
    ]  # fmt: skip
    assert sorted(owners) == [1, 1, 1, 4, 5, 5, 7, 7, 7, 10, 10, 12, 12, 14, 15, 15]
    by_id = {r.id: r for r in upgraded}
    assert by_id[12].signature_hash == signature_of(lint, "Bash", 1).digest
    assert by_id[14].signature == "Bash | exit 1 | [lint] ERROR task failed"
    assert by_id[15].signature_hash == signature_of(failed, "Bash").digest
    assert upgraded[4].signature_hash == signature_of(go, "Bash", 1).digest
    assert upgraded[2].signature_hash == signature_of(rebase, "Bash", 1).digest
    assert upgraded[3].signature_hash == signature_of(grep, "Grep").digest
    assert upgraded[0].signature_hash == signature_of(bare, "exec_command", 2).digest
    assert upgraded[0].signature_hash == signature_of(slashed, "shell_command").digest
    assert upgraded[1].signature == "Bash | exit 2 | " + signature_of(jq, "Bash", 2).text
    assert upgraded[1].signature_hash == signature_of(jq, "Bash", 2).digest


def test_0017_reads_a_stored_task_tag_as_mining_reads_the_raw_one() -> None:
    """A tag was stored normalised (a log's timestamp `[10:06:37.137] ` as `[<ts>] `, a
    number's as `[<n>] `): 0017 leaves it out as mining leaves the raw one out, and keeps a
    task runner's verdict whole; a duration in two units stored as it was written becomes
    `<n>`."""
    from sleepd.mining.signatures import normalize

    m0017 = importlib.import_module("migrations.versions.0017_speaking_line_pattern_keys")
    for stored, raw in (
        (
            "[<ts>] [ConcurrencyLimiter] Task <n> failed: boom",
            "[10:06:37.137] [ConcurrencyLimiter] Task 2 failed: boom",
        ),
        (
            "[<n>] rg: tests: No such file or directory (os error <n>)",
            "[12] rg: tests: No such file or directory (os error 2)",
        ),
        (
            "[lint:go] <path>: Error return value is not checked (errcheck)",
            "[lint:go] cmd/a.go:3:1: Error return value is not checked (errcheck)",
        ),
        ("[lint] ERROR task failed", "[lint] ERROR task failed"),
        ("E2E Tests fail 3m20s https:/<path>", "E2E Tests fail 3m20s https://github.com/o/r"),
    ):
        assert m0017.resigned(stored) == normalize(raw), raw


@pytest.mark.both_dbs
def test_0018_merges_a_failure_claude_codes_grep_and_glob_both_met(empty_db_url: str) -> None:
    """Patterns stored under 0017's keys for one failure of Claude Code's own ripgrep, met
    under Grep and under Glob (entireio/cli's history, 7 + 4), become one pattern with every
    occurrence and the first one's tool name; a missing path refused by each does too; the
    same words under Read stay apart; every key is the one mining gives now."""
    from sleepd.mining.signatures import signature_of

    spawn = "ENOENT: no such file or directory, posix_spawn '/x/vendor/ripgrep/arm64-darwin/rg'"
    missing = "Path does not exist: /w/src. Note: your current working directory is /w/app."
    stored = [  # (id, tool, raw, first seen, count)
        (1, "Grep", spawn, "2026-02-01", 7),
        (2, "Glob", spawn, "2026-01-01", 4),
        (3, "Glob", missing, "2026-01-03", 2),
        (4, "Grep", missing, "2026-01-04", 3),
        (5, "Read", missing, "2026-01-05", 1),
    ]
    engine = make_engine(empty_db_url)
    sigs = _store_as_keyed(engine, "0017_speaking_line_pattern_keys", stored, {})
    assert sigs[0].text == sigs[1].text and sigs[2].text == sigs[3].text == sigs[4].text
    rows, owners = _upgraded_patterns(engine)
    assert [(r.id, r.count, r.tool_name) for r in rows] == [
        (1, 11, "Grep"),
        (3, 5, "Glob"),
        (5, 1, "Read"),
    ]
    assert sorted(owners) == [1, 1, 3, 3, 5]
    assert str(rows[0].first_seen).startswith("2026-01-01")
    assert rows[0].signature == sigs[0].full  # the first one's tool name stays
    for row, text in zip(rows, (spawn, missing), strict=False):
        assert row.signature_hash == signature_of(text, "Grep").digest
        assert row.signature_hash == signature_of(text, "Glob").digest
    assert rows[2].signature_hash == signature_of(missing, "Read").digest


@pytest.mark.both_dbs
def test_0019_merges_a_failure_under_a_tools_old_and_new_name(empty_db_url: str) -> None:
    """Patterns stored under 0018's keys for one failure under Claude Code's `Task` and
    under `Agent`, the name it has since 2.1.6x ("Agent type <q> not found.", two
    histories outside the repository), become one pattern with every occurrence and the
    first one's tool name; the same words under `TaskCreate` stay apart; every key is the
    one mining gives now."""
    from sleepd.mining.signatures import signature_of

    missing = "Agent type 'reviewer' not found. Available agents: Bash, general-purpose"
    gone = "Shell 1a2b not found"
    stored = [  # (id, tool, raw, first seen, count)
        (1, "Agent", missing, "2026-03-01", 1),
        (2, "Task", missing, "2026-01-01", 5),
        (3, "KillShell", gone, "2026-01-03", 1),
        (4, "TaskStop", gone, "2026-02-04", 2),
        (5, "TaskCreate", missing, "2026-01-05", 1),
    ]
    engine = make_engine(empty_db_url)
    sigs = _store_as_keyed(engine, "0018_search_tool_pattern_keys", stored, {})
    rows, owners = _upgraded_patterns(engine)
    assert [(r.id, r.count, r.tool_name) for r in rows] == [
        (1, 6, "Agent"),
        (3, 3, "KillShell"),
        (5, 1, "TaskCreate"),
    ]
    assert sorted(owners) == [1, 1, 3, 3, 5]
    assert str(rows[0].first_seen).startswith("2026-01-01")
    assert rows[0].signature == sigs[0].full
    assert rows[0].signature_hash == signature_of(missing, "Task").digest
    assert rows[0].signature_hash == signature_of(missing, "Agent").digest
    assert rows[1].signature_hash == signature_of(gone, "TaskStop").digest
    assert rows[2].signature_hash == signature_of(missing, "TaskCreate").digest


@pytest.mark.both_dbs
def test_0020_merges_a_marked_failure_with_and_without_its_exit_code(empty_db_url: str) -> None:
    """Patterns stored under 0019's keys for one line biome marks as failed ("× Some
    warnings were emitted while running checks.", PackmindHub/context-evaluator's history,
    1 + 4), seen with its exit code and behind a pipe that hid it, become one pattern with
    every occurrence; the same words with no mark stay two; every key is mining's now."""
    from sleepd.mining.signatures import signature_of

    marked = "  × Some warnings were emitted while running checks."
    plain = "Some warnings were emitted while running checks."
    with_code = "Chunk ID: 1\nProcess exited with code 1\nOutput:\n"
    stored = [  # (id, tool, raw, first seen, count)
        (1, "exec_command", with_code + marked, "2026-02-01", 4),
        (2, "exec_command", marked, "2026-01-01", 1),
        (3, "exec_command", with_code + plain, "2026-01-03", 2),
        (4, "exec_command", plain, "2026-01-04", 3),
    ]
    engine = make_engine(empty_db_url)
    sigs = _store_as_keyed(engine, "0019_renamed_tool_pattern_keys", stored, {}, exit_code=1)
    assert [s.error_class for s in sigs] == ["exit 1", None, "exit 1", None]
    rows, owners = _upgraded_patterns(engine)
    assert [(r.id, r.count) for r in rows] == [(1, 5), (3, 2), (4, 3)]
    assert sorted(owners) == [1, 1, 3, 4]
    assert str(rows[0].first_seen).startswith("2026-01-01")
    assert rows[0].signature == sigs[0].full  # the keeper's class stays in its signature
    assert rows[0].signature_hash == signature_of(marked, "exec_command").digest
    assert rows[1].signature_hash == signature_of(with_code + plain, "exec_command", 1).digest
    assert rows[2].signature_hash == signature_of(plain, "exec_command").digest


def test_0022_leaves_sessions_mined_before_it_to_be_read_again(empty_db_url: str) -> None:
    """A session mined before the rules had a name carries "" after the upgrade, and the
    next pass reads it again from its first event (`mining.reading`)."""
    from sqlalchemy import text

    from sleepd.config import Config
    from sleepd.mining.mine import mine

    engine = make_engine(empty_db_url)
    migrate.upgrade(engine, "0021_user_record_ids")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO sessions (id, source, external_id, kind, project_path, "
                "event_count, meta, mined_through_seq, created_at, updated_at) VALUES "
                "(1, 'claude', 's-1', 'main', '/work/app', 2, '{}', 2, "
                "'2026-11-01', '2026-11-01')"
            )
        )
        for seq, kind, role, body in (
            (1, "user_prompt", "user", "add a --verbose flag to the cli"),
            (2, "assistant_text", "assistant", "Done: the cli takes --verbose now."),
        ):
            conn.execute(
                text(
                    "INSERT INTO events (session_id, seq, external_id, role, kind, text, "
                    "text_size, is_error, input_tokens, output_tokens, cache_read_tokens, "
                    "cache_creation_tokens, is_sidechain, is_meta, byte_offset, line_no, ts) "
                    "VALUES (1, :seq, :ext, :role, :kind, :text, 0, false, 0, 0, 0, 0, "
                    "false, false, 0, 0, '2026-11-01 09:00:00')"
                ),
                {"seq": seq, "ext": f"s-1-{seq}", "role": role, "kind": kind, "text": body},
            )
    migrate.upgrade(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT mined_with FROM sessions")).scalar_one() == ""
    report = mine(engine, Config())
    assert report.sessions_read_again == 1 and report.episodes_new == 1
    with engine.connect() as conn:
        assert conn.execute(text("SELECT mined_with FROM sessions")).scalar_one() != ""
    engine.dispose()


@pytest.mark.both_dbs
def test_0025_gives_tasks_retired_before_it_no_reason(empty_db_url: str) -> None:
    """A task retired before the reason was kept carries "" (`sleepd tasks show` then says
    only that it was retired); one in the nights carries "" too."""
    from sqlalchemy import text

    engine = make_engine(empty_db_url)
    migrate.upgrade(engine, "0024_team_cluster_figures")
    with engine.begin() as conn:
        for task_id, active in ((1, True), (2, False)):
            conn.execute(
                text(
                    "INSERT INTO tasks (id, intent, context, judge_spec, split, origin, "
                    "outcome, active, created_at) VALUES (:id, 'add a --verbose flag', '{}', "
                    "'{}', 'train', 'mined', 'success', :active, '2026-11-01')"
                ),
                {"id": task_id, "active": active},
            )
    migrate.upgrade(engine)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id, retired_because FROM tasks ORDER BY id")).all()
    assert [tuple(row) for row in rows] == [(1, ""), (2, "")]
    engine.dispose()


@pytest.mark.both_dbs
def test_0026_leaves_sites_recorded_before_it_on_their_sessions_branch(
    empty_db_url: str,
) -> None:
    """A replay site recorded before the branch was kept carries NULL: its checkout is on
    the session's branch, as it was."""
    from sqlalchemy import text

    engine = make_engine(empty_db_url)
    migrate.upgrade(engine, "0025_task_retired_because")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO tasks (id, intent, context, judge_spec, split, origin, outcome, "
                "active, created_at, retired_because) VALUES (1, 'fix the parser', '{}', '{}', "
                "'train', 'mined', 'success', :active, '2026-11-01', '')"
            ),
            {"active": True},
        )
        conn.execute(
            text(
                'INSERT INTO task_replay_sites (id, task_id, repo_root, "commit", '
                "commit_source, test_commands, failing_tests, fidelity_rollouts, "
                "fidelity_matched, created_at) VALUES (1, 1, '/work/app', :sha, 'reflog', "
                "'[]', '[]', 0, 0, '2026-11-01')"
            ),
            {"sha": "a" * 40},
        )
    migrate.upgrade(engine)
    with engine.connect() as conn:
        row = conn.execute(text('SELECT "commit", branch FROM task_replay_sites')).one()
    assert tuple(row) == ("a" * 40, None)
    engine.dispose()


@pytest.mark.both_dbs
def test_0027_reads_episodes_mined_before_it_as_requests_of_their_own(empty_db_url: str) -> None:
    """An episode stored before the flag carries FALSE: a request of its own, as it was,
    until its session is read again."""
    from sqlalchemy import text

    engine = make_engine(empty_db_url)
    migrate.upgrade(engine, "0026_replay_site_branch")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO sessions (id, source, external_id, kind, project_path, "
                "event_count, meta, mined_through_seq, created_at, updated_at, mined_with) "
                "VALUES (1, 'claude', 's-1', 'main', '/work/app', 2, '{}', 2, "
                "'2026-11-01', '2026-11-01', '')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO episodes (id, session_id, start_seq, end_seq, intent_text, "
                "feedback_count, outcome, is_closed, created_at) VALUES (1, 1, 1, 2, "
                "'add a --verbose flag', 0, 'success', :closed, '2026-11-01')"
            ),
            {"closed": True},
        )
    migrate.upgrade(engine)
    with engine.connect() as conn:
        # SQLite answers 0, PostgreSQL False
        assert not conn.execute(text("SELECT plan_handed_on FROM episodes")).scalar_one()
        assert (
            conn.execute(
                text("SELECT count(*) FROM episodes WHERE NOT plan_handed_on")
            ).scalar_one()
            == 1
        )
    engine.dispose()


@pytest.mark.both_dbs
def test_0028_reads_on_every_cursor_that_may_stand_before_unread_lines(
    empty_db_url: str,
) -> None:
    """A cursor short of its file's size (a killed harvest's, or a file whose last line
    is unfinished) and one holding a Claude Code head lose their mtime, so the next
    harvest reads those files on; a cursor at its file's end keeps it."""
    from sqlalchemy import text

    engine = make_engine(empty_db_url)
    migrate.upgrade(engine, "0027_episode_plan_handed_on")
    rows = [
        (1, 6640, 2200, '{"sid": "a"}'),  # a killed harvest's cursor, mid-file
        (2, 500, 500, '{"held": {"sid": "b", "uuids": []}, "pending": []}'),
        (3, 500, 500, '{"held":{"sid":"c","uuids":[]}}'),
        (4, 500, 500, '{"sid": "d", "queued": ["the word held in a prompt"]}'),
    ]
    with engine.begin() as conn:
        for file_id, size, offset, state in rows:
            conn.execute(
                text(
                    "INSERT INTO transcript_files (id, source, host_id, path, role, device, "
                    'inode, size, "offset", line_no, head_hash, tail_hash, mtime_ns, '
                    "parse_state, status, malformed_lines, resets, read_with, first_seen_at) "
                    "VALUES (:id, 'claude', 'h', :path, 'main', 1, :id, :size, :offset, 0, "
                    "'', '', 42, :state, 'ok', 0, 0, '', '2026-11-01')"
                ),
                {"id": file_id, "path": f"/p/{file_id}.jsonl", "size": size,
                 "offset": offset, "state": state},
            )  # fmt: skip
    migrate.upgrade(engine)
    with engine.connect() as conn:
        got = conn.execute(text("SELECT id, mtime_ns FROM transcript_files ORDER BY id")).all()
    assert [tuple(row) for row in got] == [(1, 0), (2, 0), (3, 0), (4, 42)]
    engine.dispose()
