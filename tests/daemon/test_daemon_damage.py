"""A daemon whose job meets a damaged database stops (exit 8, which the unit does not
restart) with the file marked, instead of writing on top of it every sweep."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sleepd.store.engine import make_engine
from sleepd.store.migrate import upgrade

from .test_daemon_process import CONFIG, REPO

LAUNCHER = Path(__file__).with_name("damage_launcher.py")


@pytest.fixture
def engine(isolated_home: Path) -> Iterator[Any]:
    (isolated_home / "config.toml").write_text(CONFIG)
    (isolated_home / "claude" / "projects").mkdir(parents=True)
    eng = make_engine(f"sqlite:///{isolated_home / 'sleepd-home' / 'sleepd.db'}")
    upgrade(eng)
    yield eng
    eng.dispose()


def test_damage_stops_the_daemon_with_exit_8(engine: Any, isolated_home: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "JOURNAL_STREAM")}
    proc = subprocess.run(
        [sys.executable, str(LAUNCHER)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 8, proc.stderr[-3000:]
    assert "sleepd db check" in proc.stderr
    marker = isolated_home / "sleepd-home" / "sleepd.db.damaged"
    assert marker.exists()
    unit = (REPO / "systemd" / "sleepd.service.in").read_text()
    assert "RestartPreventExitStatus=5 8 9" in unit
