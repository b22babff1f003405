"""A full disk ends every path in one line: the harvest's own write, the job record that
cannot be written after it, an adoption's document write, a temp-file write."""

from __future__ import annotations

import errno
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from sleepd.cli.app import run
from sleepd.paths import package_data_dir


def _full(*args: Any, **kwargs: Any) -> None:
    raise sqlite3.OperationalError("database or disk is full")


def _enospc(*args: Any, **kwargs: Any) -> None:
    raise OSError(errno.ENOSPC, "No space left on device", "/x/sleepd.db-wal")


@pytest.fixture
def corpus(isolated_home: Path) -> Path:
    shutil.copytree(package_data_dir() / "samples" / "claude", isolated_home / "claude")
    return isolated_home


@pytest.mark.parametrize("failure", [_full, _enospc], ids=["sqlite-full", "enospc"])
@pytest.mark.parametrize("record_fails_too", [False, True], ids=["record-ok", "record-fails"])
def test_harvest_on_a_full_disk_is_one_line(
    failure: Any,
    record_fails_too: bool,
    corpus: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    import sleepd.harvest
    import sleepd.jobs

    monkeypatch.setattr(sleepd.harvest, "harvest", failure)
    if record_fails_too:
        monkeypatch.setattr(sleepd.jobs, "_finish", _full)
    code = run(["harvest"])
    out, err = capfd.readouterr()
    assert code == 1
    assert "Traceback" not in out + err
    lines = [line for line in err.splitlines() if line.strip() and "initialised" not in line]
    assert len(lines) == 1, lines
    assert "disk is full" in lines[0]


def test_stale_private_temp_dirs_go_on_next_start(isolated_home: Path) -> None:
    """A killed process's temp folder (transcript text) is removed by the next command;
    a live process's is kept."""
    import subprocess
    import sys

    from sleepd import paths

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    root = paths.private_tmp_root()
    stale = root / f"{dead.stdout.strip()}-12345"
    stale.mkdir(parents=True)
    (stale / "result.bin").write_text("transcript text")
    mine = paths.process_tmp_dir()
    (mine / "keep").write_text("x")
    assert run(["config", "path"]) == 0
    assert not stale.exists()
    assert (mine / "keep").exists()
    assert oct(root.stat().st_mode & 0o777) == "0o700"
