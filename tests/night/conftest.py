"""Night fixtures: a migrated store, mining bypassed, and the backends each night built."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from .support import BackendCapture


@pytest.fixture
def engine(db_engine: Engine) -> Engine:
    return db_engine


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "acme"
    path.mkdir()
    return path


@pytest.fixture
def no_mining(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tasks are inserted by hand; the miner (still in progress) must not touch them."""
    monkeypatch.setattr("sleepd.dream.night._Night.harvest_and_mine", lambda self: None)


@pytest.fixture
def capture(monkeypatch: pytest.MonkeyPatch, no_mining: None) -> BackendCapture:
    """Every night built through this keeps its backends for inspection."""
    spy = BackendCapture()
    monkeypatch.setattr("sleepd.dream.night.build_backends", spy)
    return spy
