"""Fixture builders for the harvester tests.

`corpus_home` lays the real sample transcripts out the way Claude Code and
Codex write them (the corpus stores them flattened with `__` separators), and
`write_jsonl` builds small handcrafted files for the odd cases.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson
import pytest

#: The real transcripts, copied byte for byte into the repository (sources and licences in
#: SOURCES.md there). The harvester tests read the named set below; the folder also holds the
#: labelled evaluation sessions, which only the mining tests and benches read.
CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions"

#: The samples whose figures the harvester tests counted by hand (see test_harvest_corpus.py).
HARVEST_SAMPLES = (
    "claude/handgemacht-ai__claude-code-log__326189cf-5676-4237-8cde-1ce80aae4a9f.jsonl",
    "claude/handgemacht-ai__claude-code-log__4379d1bf-ccb1-414e-a856-9791b73f3af2.jsonl",
    "claude/handgemacht-ai__claude-code-log__4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl",
    "claude/handgemacht-ai__claude-code-log__7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl",
    "claude/handgemacht-ai__claude-code-log__agent-3430b97e.jsonl",
    "claude/handgemacht-ai__claude-code-log__ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl",
    "claude/handgemacht-ai__claude-code-log__ef958aa1__subagents__agent-a4ca7529859c158c2.jsonl",
    "claude/handgemacht-ai__claude-code-log__ef958aa1__subagents__agent-a4ca7529859c158c2.meta.json",
    "claude/kvsankar__agent-history__real_sessions__claude__session-01.jsonl",
    "claude/melagiri__code-insights__entire-checkpoints__06_a50ac71f71_0_full.jsonl",
    "claude/melagiri__code-insights__entire-checkpoints__82_b981cea660_0_full.jsonl",
    "codex/AcidicSoil__codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
    "codex/kvsankar__agent-history__real_sessions__codex__session-01.jsonl",
    "codex/simonw__claude-code-transcripts__sample_codex_session.jsonl",
)

# A unique piece of each flattened corpus name -> (project slug or date dir, file name) as the
# real tool lays it out under ~/.claude/projects or ~/.codex/sessions.
EF958 = "ef958aa1-0e93-49f0-bb71-150f63befcd1"
CLAUDE_LAYOUT = {
    "326189cf": (
        "-Users-dain-workspace-claude-code-log-sample",
        "326189cf-5676-4237-8cde-1ce80aae4a9f",
    ),
    "4e27c414": (
        "-Users-dain-workspace-claude-code-log-sample",
        "4e27c414-a885-46a0-b5c8-d58e1417377d",
    ),
    "4379d1bf": (
        "-Users-dain-workspace-danieldemmel-me-next",
        "4379d1bf-ccb1-414e-a856-9791b73f3af2",
    ),
    "7acd37a8": ("-Users-dain-workspace-JSSoundRecorder", "7acd37a8-2745-4b58-a8a9-46164b22ad9e"),
    "agent-3430b97e": ("-Users-dain-workspace-JSSoundRecorder", "agent-3430b97e"),
    f"{EF958}.jsonl": ("-experiments-worktrees", EF958),
    "agent-a4ca7529859c158c2.jsonl": (
        f"-experiments-worktrees/{EF958}/subagents",
        "agent-a4ca7529859c158c2",
    ),
    "agent-a4ca7529859c158c2.meta": (
        f"-experiments-worktrees/{EF958}/subagents",
        "agent-a4ca7529859c158c2.meta",
    ),
    "82_b981cea660": (
        "-Users-melagiri-Workspace-codeInsights-code-insights",
        "40cb292b-9ea2-4da3-94d1-1c764cbe1053",
    ),
    "06_a50ac71f71": (
        "-Users-melagiri-Workspace-codeInsights-code-insights",
        "9d3d675a-98c7-4950-a022-06a61ed1c8c2",
    ),
    "claude__session-01": (
        "-tmp-agent-history-real-agent-claude-workspace",
        "06090cb1-3e64-433a-bc7e-a621c0f596d2",
    ),
}
CODEX_LAYOUT = {
    "AcidicSoil": (
        "2025/11/17",
        "rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c",
    ),
    "simonw": ("2025/12/28", "rollout-2025-12-28T13-18-30-019b64e5-57fa-7463-b644-fba7e456f905"),
    "codex__session-01": (
        "2026/06/05",
        "rollout-2026-06-05T10-28-20-019e9625-802f-7e91-840a-cfe88d14117a",
    ),
}


def layout_for(sample: Path) -> Path | None:
    """Where a flattened corpus sample lives in a real home (relative), or None if unknown."""
    tool = sample.parent.name
    table = CLAUDE_LAYOUT if tool == "claude" else CODEX_LAYOUT
    base = "claude/projects" if tool == "claude" else "codex/sessions"
    for key, (folder, stem) in table.items():
        if key in sample.name:
            return Path(base, folder, stem + sample.suffix)
    return None


def corpus_files() -> list[Path]:
    """The harvester samples; a missing one is an error, never a reason to skip."""
    files = [CORPUS / name for name in HARVEST_SAMPLES]
    missing = [str(p) for p in files if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"real-session fixtures missing: {missing}")
    return files


def _sample_id(sample: Path) -> str:
    return sample.name.split("__")[-1][:30]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test taking `sample` runs once per harvester transcript (not the .meta.json)."""
    if "sample" in metafunc.fixturenames:
        transcripts = [p for p in corpus_files() if p.suffix == ".jsonl"]
        metafunc.parametrize("sample", transcripts, ids=_sample_id)


@pytest.fixture(name="corpus_samples")
def corpus_samples_fixture() -> list[Path]:
    return corpus_files()


@pytest.fixture(scope="session")
def corpus_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temp dir holding `claude/projects/...` and `codex/sessions/...` as the tools write them."""
    home = tmp_path_factory.mktemp("corpus_home")
    for sample in corpus_files():
        rel = layout_for(sample)
        if rel is None:
            continue  # test_every_sample_has_a_layout reports it
        target = home / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sample, target)
    return home


@pytest.fixture
def make_jsonl() -> Any:
    """`make_jsonl(path, records)` writes a handcrafted JSONL file and returns its path."""
    return write_jsonl


@pytest.fixture(name="layout_for")
def layout_for_fixture() -> Any:
    return layout_for


def jsonl_bytes(records: Iterable[Any]) -> bytes:
    """Records (dicts, or raw bytes/str lines) as JSONL, each ending in a newline."""
    out = bytearray()
    for record in records:
        if isinstance(record, bytes):
            out += record
        elif isinstance(record, str):
            out += record.encode()
        else:
            out += orjson.dumps(record)
        out += b"\n"
    return bytes(out)


def write_jsonl(path: Path, records: Iterable[Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(jsonl_bytes(records))
    return path
