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
def store(cfg: Any) -> Iterator[Any]:
    """The database the CLI would open, created and migrated."""
    from sleepd.store.open import open_store

    engine = open_store(cfg, write=True)
    yield engine
    engine.dispose()


@pytest.fixture
def db_file(isolated_home: Path) -> Path:
    return isolated_home / "sleepd-home" / "sleepd.db"
