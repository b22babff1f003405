"""A damaged database (truncated, header overwritten, random pages) is detected by every
command: one line naming the file and `sleepd db check`, a non-zero exit, no traceback,
and the file is not written to."""

from __future__ import annotations

import hashlib
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from sleepd.cli.app import run
from sleepd.errors import ExitCode
from sleepd.paths import package_data_dir

DB_COMMANDS = [
    ["status"],
    ["status", "--json"],
    ["harvest"],
    ["search", "build"],
    ["mine"],
    ["patterns"],
    ["rollback"],
    ["history"],
    ["nights"],
    ["verify"],
    ["db", "current"],
    ["db", "upgrade"],
    ["db", "check"],
    ["tasks", "list"],
    ["tasks", "show", "1"],
    ["review", "list"],
    ["review", "show", "1"],
    ["review", "accept", "1"],
    ["review", "reject", "1"],
    ["run", "--backend", "sim"],
]

PAGE = 4096


@pytest.fixture(scope="module")
def harvested(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A real database: the bundled sample transcripts harvested."""
    base = tmp_path_factory.mktemp("good")
    mp = pytest.MonkeyPatch()
    try:
        mp.setenv("SLEEPD_HOME", str(base / "home"))
        mp.setenv("SLEEPD_CONFIG", str(base / "config.toml"))
        mp.setenv("CLAUDE_CONFIG_DIR", str(base / "claude"))
        mp.setenv("CODEX_HOME", str(base / "codex"))
        shutil.copytree(package_data_dir() / "samples" / "claude", base / "claude")
        shutil.copytree(package_data_dir() / "samples" / "codex", base / "codex")
        assert run(["harvest"]) == 0
        src = sqlite3.connect(base / "home" / "sleepd.db")
        dst = sqlite3.connect(base / "copy.db")
        src.backup(dst)  # one file holding everything the WAL held
        src.close()
        dst.close()
        data = (base / "copy.db").read_bytes()
    finally:
        mp.undo()
    assert len(data) > 50 * PAGE
    return data


def _damage(data: bytes, how: str) -> bytes:
    if how == "truncated-mid-page":
        return data[: len(data) // 2 + 123]
    if how == "truncated-at-page":
        return data[: (len(data) // PAGE // 2) * PAGE]
    if how == "header-overwritten":
        return b"\0" * 100 + data[100:]
    if how == "random-pages":
        rng = random.Random(7)
        out = bytearray(data)
        for page in rng.sample(range(1, len(data) // PAGE), len(data) // PAGE // 4):
            out[page * PAGE : (page + 1) * PAGE] = rng.randbytes(PAGE)
        return bytes(out)
    raise AssertionError(how)


def _digest(home: Path) -> tuple[str, int]:
    """The main file's hash and the WAL's size (a reader may create an empty WAL)."""
    wal = home / "sleepd.db-wal"
    size = wal.stat().st_size if wal.exists() else 0
    return hashlib.sha256((home / "sleepd.db").read_bytes()).hexdigest(), size


@pytest.mark.parametrize(
    "how", ["truncated-mid-page", "truncated-at-page", "header-overwritten", "random-pages"]
)
def test_every_command_refuses_a_damaged_database(
    how: str, harvested: bytes, isolated_home: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    home = isolated_home / "sleepd-home"
    home.mkdir(parents=True, exist_ok=True)
    db = home / "sleepd.db"
    db.write_bytes(_damage(harvested, how))
    before = _digest(home)
    failures = 0
    for argv in DB_COMMANDS:
        (home / "sleepd.db.damaged").unlink(missing_ok=True)  # each command detects anew
        code = run(argv)
        out, err = capfd.readouterr()
        assert "Traceback" not in out + err, (argv, err)
        assert _digest(home) == before, f"{argv} wrote to the damaged database"
        lines = [line for line in err.splitlines() if line.strip()]
        if code == 0:
            assert how == "random-pages", (argv, out, err)
            continue
        failures += 1
        assert lines and lines[-1].startswith("sleepd: error:"), (argv, err)
        if code == ExitCode.CHECK_FAILED:
            assert (str(db) in lines[-1] and "sleepd db check" in lines[-1]) or argv[:2] == [
                "db",
                "check",
            ], (argv, lines)
    assert failures >= len(DB_COMMANDS) - (6 if how == "random-pages" else 0)
    # status and db check always fail on it
    for argv in (["status"], ["db", "check"]):
        (home / "sleepd.db.damaged").unlink(missing_ok=True)
        assert run(argv) == ExitCode.CHECK_FAILED, argv
    capfd.readouterr()


def test_mark_holds_until_db_check_passes(
    harvested: bytes, isolated_home: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    home = isolated_home / "sleepd-home"
    home.mkdir(parents=True, exist_ok=True)
    db = home / "sleepd.db"
    db.write_bytes(_damage(harvested, "random-pages"))
    assert run(["db", "check"]) == ExitCode.CHECK_FAILED
    err = capfd.readouterr().err
    assert "damaged" in err and str(db) in err
    db.write_bytes(harvested)  # the user restored a backup
    assert run(["harvest"]) == ExitCode.CHECK_FAILED  # still marked: nothing writes yet
    assert "sleepd db check" in capfd.readouterr().err
    assert run(["db", "check"]) == 0
    assert "integrity check ok" in capfd.readouterr().err
    assert run(["status"]) == 0
