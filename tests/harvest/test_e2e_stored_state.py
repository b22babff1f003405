"""A file's parse state, read back on every later harvest, never lets a secret through.

The parse state a cursor keeps (pending events, queued messages) is stored after
redaction and marked so; a later read searches only what the harvester added to it. What
that read adds is redacted, and a state stored unmarked (by an older version, or with
redaction off) is searched whole.
"""

from __future__ import annotations

import random
import sqlite3
import string
from pathlib import Path
from typing import Any

import orjson
import pytest

from sleepd.harvest import harvest

ALNUM = string.ascii_letters + string.digits
#: A Claude Code file whose records carry no session id yet: they wait in the parse state.
ORPHAN = "5ec2e75e-0000-4000-8000-0000000000ff.jsonl"


def github_token(rng: random.Random) -> tuple[str, str]:
    """A token and the part of it that must never be stored."""
    core = "".join(rng.choice(ALNUM) for _ in range(36))
    return "ghp_" + core, core


def pending_line(uuid: str, text: str) -> bytes:
    return orjson.dumps({"type": "user", "uuid": uuid, "message": {"content": text}}) + b"\n"


def orphan_file(home: Path) -> Path:
    project = home / "claude" / "projects" / "-work-demo"
    project.mkdir(parents=True, exist_ok=True)
    return project / ORPHAN


def stored_state(db_file: Path) -> str:
    with sqlite3.connect(db_file) as conn:
        (state,) = conn.execute(
            "SELECT parse_state FROM transcript_files WHERE path LIKE ?", (f"%{ORPHAN}",)
        ).fetchone()
    return str(state)


def append(path: Path, line: bytes) -> None:
    with path.open("ab") as handle:
        handle.write(line)


def test_what_a_later_read_adds_to_a_stored_state_is_redacted(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    rng = random.Random(2212)
    first, first_core = github_token(rng)
    second, second_core = github_token(rng)
    path = orphan_file(isolated_home)
    path.write_bytes(pending_line("p-1", f"use {first} for the deploy"))
    assert harvest(store, cfg).totals()["errors"] == 0
    assert "[REDACTED:" in stored_state(db_file)

    append(path, pending_line("p-2", f"and {second} for the mirror"))
    assert harvest(store, cfg).totals()["errors"] == 0
    state = stored_state(db_file)
    assert first_core not in state and second_core not in state
    assert state.count("[REDACTED:") >= 2  # both pending texts are there, redacted


def test_a_state_stored_without_the_mark_is_searched_whole(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    rng = random.Random(2213)
    planted, core = github_token(rng)
    path = orphan_file(isolated_home)
    path.write_bytes(pending_line("p-1", "nothing secret yet"))
    assert harvest(store, cfg).totals()["errors"] == 0
    # as an older version, or a harvest with redaction off, stored it: unmarked, in clear
    state = orjson.loads(stored_state(db_file))
    marks = [key for key in state if key not in ("sessions", "usage", "pending", "queued")]
    for key in marks:
        del state[key]
    state["pending"][0]["text"] = f"use {planted} for the deploy"
    with sqlite3.connect(db_file) as conn:
        conn.execute(
            "UPDATE transcript_files SET parse_state = ? WHERE path LIKE ?",
            (orjson.dumps(state).decode(), f"%{ORPHAN}"),
        )
    assert core in stored_state(db_file)

    append(path, pending_line("p-2", "still nothing secret"))
    assert harvest(store, cfg).totals()["errors"] == 0
    assert core not in stored_state(db_file)


@pytest.mark.parametrize("workers", [0, 2], ids=["in-process", "two-workers"])
def test_a_long_file_read_in_many_batches_stores_no_secret_of_its_state(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, workers: int
) -> None:
    # each batch carries the state of the batches before it: the later ones search only
    # what they added, and every token planted along the way still comes out redacted
    rng = random.Random(2214 + workers)
    cores = []
    lines = []
    for number in range(30):
        token, core = github_token(rng)
        cores.append(core)
        lines.append(pending_line(f"p-{number}", f"step {number}: use {token}"))
    orphan_file(isolated_home).write_bytes(b"".join(lines))
    cfg.harvest.batch_lines = 4
    cfg.harvest.parallel_min_mb = 0
    assert harvest(store, cfg, jobs=max(1, workers)).totals()["errors"] == 0
    state = stored_state(db_file)
    assert state.count("[REDACTED:") >= 30
    assert [core for core in cores if core in state] == []
