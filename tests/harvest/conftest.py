"""Fixtures for the end-to-end harvest tests: a real home with the corpus and a store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_support import lay_out_corpus


@pytest.fixture
def corpus_tree(isolated_home: Path) -> Path:
    """The corpus under the private home's $CLAUDE_CONFIG_DIR and $CODEX_HOME."""
    lay_out_corpus(isolated_home)
    return isolated_home


@pytest.fixture
def cfg() -> Any:
    """The real config defaults (no config file in the private home): redaction on."""
    from sleepd.config import load_config

    config = load_config()
    assert config.harvest.redact
    return config


@pytest.fixture
def store(cfg: Any, db_kind: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """The database the CLI would open, created and migrated (PostgreSQL for tests marked
    both_dbs: `db_url` points the CLI's variable at a fresh database)."""
    from sleepd.store.open import open_store

    if db_kind == "postgresql":
        request.getfixturevalue("db_url")

    engine = open_store(cfg, write=True)
    yield engine
    engine.dispose()


@pytest.fixture
def db_file(isolated_home: Path, db_kind: str, request: pytest.FixtureRequest) -> Path | str:
    """The SQLite file, or for PostgreSQL its URL (the e2e helpers take either)."""
    if db_kind == "postgresql":
        return str(request.getfixturevalue("db_url"))
    return isolated_home / "sleepd-home" / "sleepd.db"
