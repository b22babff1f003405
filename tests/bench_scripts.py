"""The scripts of `bench/` as modules, for the tests that hold their counting right."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
#: The real transcripts in the repository (sources and licences: SOURCES.md there).
REAL_SESSIONS = Path(__file__).resolve().parent / "fixtures" / "real_sessions"


def real_sessions_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sessions: Sequence[str]
) -> Path:
    """A set laid out as the labelled one, holding copies of `sessions` (paths under
    real_sessions), for a bench's `predict` (which points the agents' homes at its own)."""
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "SLEEPD_HOME"):
        monkeypatch.setenv(name, str(tmp_path / "unused"))
    root = tmp_path / "fixtures"
    for session in sessions:
        (root / session).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REAL_SESSIONS / session, root / session)
    return root


def load_bench(name: str) -> ModuleType:
    """`bench/<name>.py`, imported under its own module name (loaded once)."""
    module_name = f"{name}_bench"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module
