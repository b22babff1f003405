"""Fixtures of the mining tests: a migrated store and a config tuned like docs/mining.md."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from sleepd.config import Config

from .builders import THRESHOLD


@pytest.fixture
def engine(tmp_path: Path, db_kind: str, request: pytest.FixtureRequest) -> Iterator[Engine]:
    """A migrated store: SQLite here, or PostgreSQL for tests marked both_dbs."""
    if db_kind == "postgresql":
        yield request.getfixturevalue("db_engine")
        return
    eng = request.getfixturevalue("migrated_sqlite")(tmp_path / "mining.db")
    yield eng
    eng.dispose()


@pytest.fixture
def cfg() -> Config:
    config = Config()
    config.mining.similarity_threshold = THRESHOLD
    return config
