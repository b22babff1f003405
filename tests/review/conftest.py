"""A database, a project with a skill, and a factory for staged proposals."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from tests.staged import Staged, stage_proposal

DRIVER = Path(__file__).with_name("cli_driver.py")

SKILL_V1 = """---
name: deploy
description: How to deploy this project.
---
# Deploy

Run the tests first.

Use `make deploy` to ship.

Never push on Fridays.
"""


@pytest.fixture
def engine(isolated_home: Path, db_kind: str, request: pytest.FixtureRequest) -> Iterator[Engine]:
    """The home's database at head, so CLI subprocesses accept it; for tests marked
    both_dbs also a migrated PostgreSQL database (the CLI's too)."""
    if db_kind == "postgresql":
        yield request.getfixturevalue("db_engine")
        return
    eng = request.getfixturevalue("migrated_sqlite")(isolated_home / "sleepd-home" / "sleepd.db")
    yield eng
    eng.dispose()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    skill = root / ".claude" / "skills" / "deploy" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL_V1, encoding="utf-8")
    return root


@pytest.fixture
def skill_path(project: Path) -> Path:
    return project / ".claude" / "skills" / "deploy" / "SKILL.md"


StageFn = Callable[..., Staged]


@pytest.fixture
def stage(engine: Engine, project: Path) -> StageFn:
    """Stage a proposal `base -> new` for a document of the project, as the night would."""

    def _stage(path: Path, new_content: str, **kw: Any) -> Staged:
        return stage_proposal(engine, project, path, new_content, **kw)

    return _stage


def run_cli(*args: str, env: dict[str, str] | None = None) -> Any:
    """`sleepd ARGS` in a subprocess (stdin is a pipe, never a terminal)."""
    return subprocess.run(
        [sys.executable, str(DRIVER), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


@dataclass
class CliResult:
    returncode: int
    stdout: str
    stderr: str


CliFn = Callable[..., CliResult]


@pytest.fixture
def cli(capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> CliFn:
    """`sleepd ARGS` in this process through the real `main()` (a subprocess costs ~1 s)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("review_cli_driver", DRIVER)
    assert spec is not None and spec.loader is not None
    if "review_cli_driver" not in sys.modules:
        module = importlib.util.module_from_spec(spec)
        sys.modules["review_cli_driver"] = module
        spec.loader.exec_module(module)
    from sleepd.cli.app import main

    def _run(*args: str) -> CliResult:
        capfd.readouterr()
        monkeypatch.setattr(sys, "argv", ["sleepd", *args])
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = int(exc.code or 0)
        out, err = capfd.readouterr()
        return CliResult(code, out, err)

    return _run
