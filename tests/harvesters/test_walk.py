"""Discovery with `os.scandir` finds exactly what the `pathlib` globs it replaced found,
in the same order: hidden names, folders named like files, symlinks (followed one level,
never recursed into), nested subagent folders, both Codex roots."""

from __future__ import annotations

import os
from pathlib import Path

from harvesters import walk
from harvesters.claude_code import ClaudeCodeHarvester
from harvesters.codex import CodexHarvester


def touch(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"{}\n")


def pathlib_claude(root: Path) -> list[tuple[str, str]]:
    out = []
    for project in sorted(p for p in root.iterdir() if p.is_dir()):
        for path in sorted(project.glob("*.jsonl")):
            out.append((str(path), "subagent" if path.name.startswith("agent-") else "main"))
        nested = [
            *project.glob("*/subagents/agent-*.jsonl"),
            *project.glob("*/subagents/workflows/*/agent-*.jsonl"),
        ]
        out.extend((str(path), "subagent") for path in sorted(nested))
    return out


def pathlib_codex(roots: list[Path]) -> list[tuple[str, str]]:
    live: list[Path] = []
    archived: list[Path] = []
    for root in roots:
        found = [*root.rglob("rollout-*.jsonl"), *root.rglob("rollout-*.json")]
        (archived if root.name == "archived_sessions" else live).extend(found)
    names = {p.name for p in live}
    out = [(str(p), "legacy" if p.suffix == ".json" else "main") for p in sorted(set(live))]
    out += [(str(p), "archived") for p in sorted(set(archived)) if p.name not in names]
    return out


def claude_tree(tmp_path: Path) -> Path:
    """Projects with every shape discovery meets, links included; returns the root."""
    root = tmp_path / "projects"
    for name in (
        "-home-a/s1.jsonl",
        "-home-a/.hidden.jsonl",
        "-home-a/agent-x.jsonl",
        "-home-a/notes.txt",
        "-home-a/S2.JSONL",
        "-home-a/s1/subagents/agent-1.jsonl",
        "-home-a/s1/subagents/other.jsonl",
        "-home-a/s1/subagents/workflows/w1/agent-2.jsonl",
        "-home-a/s1/subagents/workflows/w1/deeper/agent-3.jsonl",
        "-home-a-b/s.jsonl",
        "-home-a-b/s/subagents/agent-9.jsonl",
        "-home-a/b-c/subagents/agent-4.jsonl",
    ):
        touch(root / name)
    (root / "-home-a" / "dir.jsonl").mkdir()  # a folder named like a transcript
    (root / "loose.jsonl").write_bytes(b"")  # not in a project
    os.symlink(root / "-home-a-b", root / "-linked")  # a project reached through a link
    os.symlink(root / "-home-a" / "s1", root / "-home-a-b" / "s2")
    return root


def test_claude_discovery_matches_pathlib(tmp_path: Path) -> None:
    root = claude_tree(tmp_path)
    found = [(f.path, f.role) for f in ClaudeCodeHarvester([root]).discover()]
    assert found == pathlib_claude(root)
    assert len(found) >= 12


def codex_tree(tmp_path: Path) -> list[Path]:
    """Live and archived rollouts with every shape discovery meets; returns the roots."""
    sessions, archived = tmp_path / "sessions", tmp_path / "archived_sessions"
    for name in (
        "sessions/2025/01/02/rollout-a.jsonl",
        "sessions/2025/01/02/rollout-b.json",
        "sessions/2025/01/10/rollout-c.jsonl",
        "sessions/2025/01-02/rollout-d.jsonl",
        "sessions/2025/01/.rollout-e.jsonl",
        "sessions/2025/01/other.jsonl",
        "archived_sessions/rollout-a.jsonl",
        "archived_sessions/rollout-z.jsonl",
    ):
        touch(tmp_path / name)
    (tmp_path / "elsewhere").mkdir()
    touch(tmp_path / "elsewhere" / "rollout-linked.jsonl")
    os.symlink(tmp_path / "elsewhere", sessions / "2025" / "link")  # listed, not entered
    os.symlink(tmp_path / "elsewhere" / "rollout-linked.jsonl", sessions / "rollout-l.jsonl")
    return [sessions, archived]


def test_codex_discovery_matches_pathlib(tmp_path: Path) -> None:
    roots = codex_tree(tmp_path)
    found = [(f.path, f.role) for f in CodexHarvester(roots).discover()]
    assert found == pathlib_codex(roots)
    assert ("archived" in {role for _, role in found}) and len(found) == 6


def test_an_unreadable_folder_is_skipped_as_pathlib_skips_it(tmp_path: Path) -> None:
    locked = tmp_path / "p" / "locked"
    touch(locked / "x.jsonl")
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):  # root reads everything: nothing to compare
            return
        assert walk.glob_many(str(tmp_path / "p"), [("*", "*.jsonl")]) == [
            [str(p) for p in (tmp_path / "p").glob("*/*.jsonl")]
        ]
    finally:
        locked.chmod(0o700)
