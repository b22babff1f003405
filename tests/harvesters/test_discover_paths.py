"""A harvest of a few named files (the daemon's watch path) lists only the folders that
hold them, and harvests what a harvest of the whole listing would harvest of them.

The trees are test_walk's, with every shape discovery meets: symlinked projects and
session folders, a link out of the roots, archived twins, hidden and misnamed files.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_walk import claude_tree, codex_tree, touch

from harvesters.claude_code import ClaudeCodeHarvester
from harvesters.codex import CodexHarvester
from harvesters.records import SourceFile
from sleepd.harvest.plan import discover_paths
from sleepd.harvest.report import SourceReport


def harvested(files: Iterable[SourceFile], asked: list[str]) -> list[tuple[str, str]]:
    """What a harvest of `asked` keeps of a listing: the files that resolve to one."""
    wanted = {os.path.realpath(p) for p in asked}
    return [(f.path, f.role) for f in files if os.path.realpath(f.path) in wanted]


def is_subsequence(part: list[Any], whole: list[Any]) -> bool:
    rest = iter(whole)
    return all(item in rest for item in part)


def candidates(tmp_path: Path, roots: list[Path]) -> list[str]:
    """Every file and folder of the tree, named directly, through each link and resolved,
    plus paths that do not exist and paths outside the roots."""
    out: set[str] = set()
    for base, folders, files in os.walk(tmp_path, followlinks=True):
        for name in [*folders, *files]:
            path = os.path.join(base, name)
            out.update({path, os.path.realpath(path)})
    out.update(str(root / "missing" / "gone.jsonl") for root in roots)
    out.update({str(tmp_path / "outside.jsonl"), str(tmp_path), *(str(r) for r in roots)})
    return sorted(out)


def subsets(paths: list[str], seed: int) -> Iterator[list[str]]:
    yield from ([p] for p in paths)
    rng = random.Random(seed)
    for _ in range(300):
        yield rng.sample(paths, rng.randint(2, 5))


def check(harvester: Any, asked: list[str]) -> None:
    whole = harvested(harvester.discover(), asked)
    got = harvested(discover_paths(harvester, asked, SourceReport(source="t")), asked)
    # Never a file the whole listing would not harvest, and in its order.
    assert is_subsequence(got, whole), (asked, got, whole)
    # The asked file itself is always there, named as asked or where it really lies;
    # only its other names (links to it from another folder) wait for the next sweep.
    named = {os.path.normpath(p) for p in asked} | {os.path.realpath(p) for p in asked}
    assert [f for f in whole if f[0] in named] == [f for f in got if f[0] in named], asked


@pytest.mark.parametrize("kind", ["claude", "codex"])
def test_named_files_are_harvested_as_the_whole_listing_would(tmp_path: Path, kind: str) -> None:
    if kind == "claude":
        roots = [claude_tree(tmp_path)]
        harvester: Any = ClaudeCodeHarvester(roots)
    else:
        roots = codex_tree(tmp_path)
        harvester = CodexHarvester(roots)
    paths = candidates(tmp_path, roots)
    assert len(paths) > 20
    for asked in subsets(paths, seed=len(paths)):
        check(harvester, asked)


def test_without_links_the_named_files_are_exactly_what_the_whole_listing_gives(
    tmp_path: Path,
) -> None:
    projects = tmp_path / "claude" / "projects"
    sessions = tmp_path / "codex" / "sessions"
    archived = tmp_path / "codex" / "archived_sessions"
    for name in (
        "-a/s1.jsonl",
        "-a/agent-x.jsonl",
        "-a/s1/subagents/agent-1.jsonl",
        "-a/s1/subagents/workflows/w/agent-2.jsonl",
        "-b/s2.jsonl",
        "-b/notes.txt",
    ):
        touch(projects / name)
    for name in (
        "2025/01/02/rollout-a.jsonl",
        "2025/01/02/rollout-b.json",
        "2025/02/rollout-c.jsonl",
    ):
        touch(sessions / name)
    touch(archived / "rollout-a.jsonl")  # archived twin of a live rollout: never listed
    touch(archived / "rollout-z.jsonl")
    claude, codex = ClaudeCodeHarvester([projects]), CodexHarvester([sessions, archived])
    paths = candidates(tmp_path, [projects, sessions, archived])
    for asked in subsets(paths, seed=7):
        for harvester in (claude, codex):
            got = discover_paths(harvester, asked, SourceReport(source="t"))
            assert harvested(got, asked) == harvested(harvester.discover(), asked), asked


def test_a_changed_file_costs_a_listing_of_its_own_folder_not_of_the_history(
    tmp_path: Path,
) -> None:
    projects = tmp_path / "projects"
    for number in range(50):
        touch(projects / f"-p{number}" / "s.jsonl")
    harvester = ClaudeCodeHarvester([projects])
    asked = [str(projects / "-p7" / "s.jsonl")]
    assert [f.path for f in discover_paths(harvester, asked, SourceReport(source="t"))] == asked
    sessions = tmp_path / "sessions"
    for day in range(1, 29):
        touch(sessions / "2025" / "01" / f"{day:02}" / f"rollout-{day}.jsonl")
    codex = CodexHarvester([sessions])
    asked = [str(sessions / "2025" / "01" / "03" / "rollout-3.jsonl")]
    assert [f.path for f in discover_paths(codex, asked, SourceReport(source="t"))] == asked


def test_a_harvester_that_cannot_narrow_its_listing_gives_all_of_it(tmp_path: Path) -> None:
    class PluginHarvester:  # a plugin source with only the required methods
        name = "plugin"

        def discover(self) -> Iterator[SourceFile]:
            yield SourceFile(str(tmp_path / "a.jsonl"), "plugin", "main")
            yield SourceFile(str(tmp_path / "b.jsonl"), "plugin", "main")

    asked = [str(tmp_path / "b.jsonl")]
    listed = discover_paths(PluginHarvester(), asked, SourceReport(source="plugin"))
    assert harvested(listed, asked) == [(str(tmp_path / "b.jsonl"), "main")]
