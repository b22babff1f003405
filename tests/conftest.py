"""Every test runs in a private home: nothing touches the real ~/.claude or ~/.codex."""

from __future__ import annotations

from collections.abc import Iterator
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
