"""Every test runs in a private home: nothing touches the real ~/.claude or ~/.codex."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
#: Real transcripts copied into the repository (sources and licences: SOURCES.md there).
CORPUS_DIR = REPO_ROOT / "tests" / "fixtures" / "real_sessions"


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    base = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("SLEEPD_HOME", str(base / "sleepd-home"))
    monkeypatch.setenv("SLEEPD_CONFIG", str(base / "config.toml"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(base / "claude"))
    monkeypatch.setenv("CODEX_HOME", str(base / "codex"))
    monkeypatch.delenv("SLEEPD_DATABASE_URL", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    return base


@pytest.fixture
def db_engine(isolated_home: Path) -> Iterator[object]:
    """A migrated database in the private home."""
    from sleepd.store.engine import make_engine
    from sleepd.store.migrate import upgrade

    engine = make_engine(f"sqlite:///{isolated_home / 'sleepd-home' / 'sleepd.db'}")
    upgrade(engine)
    yield engine
    engine.dispose()


@dataclass(frozen=True)
class DemoRun:
    """One `sleepd demo --home HOME` run as a user runs it, and what it left behind.

    `database` is a copy of the demo's database taken the moment the demo ended: tests
    that go on to run commands in `home` change the live one, never this copy.
    `outside` is where SLEEPD_HOME and the agents' homes pointed during the demo (the
    demo promises to touch nothing outside its own home).
    """

    home: Path
    width: int
    proc: subprocess.CompletedProcess[str]
    database: Path
    outside: Path


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int], DemoRun]:
    """`demo_run(width)`: the demo at `width` columns, run once per session and width.

    The demo is a whole simulated night (tens of seconds of CPU); every test that needs
    one at the same width shares this run instead of starting its own.
    """
    runs: dict[int, DemoRun] = {}

    def at(width: int) -> DemoRun:
        if width not in runs:
            runs[width] = _run_demo(tmp_path_factory.mktemp(f"demo{width}"), width)
        return runs[width]

    return at


def _run_demo(base: Path, width: int) -> DemoRun:
    home, outside = base / "home", base / "outside"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.pop("SLEEPD_DATABASE_URL", None)
    env.update(
        SLEEPD_HOME=str(outside / "sleepd-home"),
        SLEEPD_CONFIG=str(outside / "config.toml"),
        CLAUDE_CONFIG_DIR=str(outside / "claude"),
        CODEX_HOME=str(outside / "codex"),
        COLUMNS=str(width),
        LINES="50",
        TERM="dumb",
        NO_COLOR="1",
    )
    proc = subprocess.run(
        [str(Path(sys.executable).with_name("sleepd")), "demo", "--home", str(home)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    database = base / "demo-as-left.db"
    live = home / "state" / "sleepd.db"
    if live.exists():
        with closing(sqlite3.connect(live)) as source, closing(sqlite3.connect(database)) as copy:
            source.backup(copy)
    return DemoRun(home=home, width=width, proc=proc, database=database, outside=outside)
