"""Which project a session belongs to: one repository, however many worktrees it ran in.

People run agents in git worktrees: Claude Code's `--worktree` (`<repo>/.claude/
worktrees/<name>`), the common `<repo>/.worktrees/<branch>` layout, Conductor's
`~/conductor/workspaces/<repo>/<workspace>`, or any `git worktree add` elsewhere. Each
worktree is a new working directory, and a transcript records it as the session's cwd.
Codex's own worktrees (the Codex app's "worktree" mode) are `~/.codex/worktrees/<id>/
<repo>`, one `<id>` a task.
Grouped by that path, one repository splits into many small projects, none with
enough tasks for a night, and the same request asked in two worktrees never counts as
recurring. So mining, readiness and the night group sessions by `project_root`:

* a linked worktree that is on this machine maps to the same place in its main
  worktree (`<wt>/web` -> `<main>/web`), read from its `.git` file and the common
  git directory; no git process is started, so `status` can afford it;
* a worktree that is gone (worktrees are removed when their branch is merged) maps
  by the layouts above: everything from `/.claude/worktrees/` or `/.worktrees/` on is
  dropped; a Conductor workspace maps to the main worktree of any sibling workspace
  still on this machine, else to the folder holding them (`.../workspaces/<repo>`);
  one from `<dir>/<repo>-worktrees/<name>` maps to `<dir>/<repo>` when that is a
  repository here, else to the `<repo>-worktrees` folder; one of Codex's maps to the
  main worktree of any `<id>/<repo>` of the same repository still on this machine, else
  to `~/.codex/worktrees/<repo>`, the name of all of that repository's;
* any other path, and a bare repository's worktrees (no main worktree to map to), is
  kept as recorded.

The mapping only ever shortens a path to a prefix of it (for Codex's, less its `<id>`)
or names a main worktree that git itself records, so a hostile cwd gains nothing it did
not have.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

#: Worktree folders inside the repository they belong to: the repository is the prefix.
_NESTED_WORKTREE = re.compile(r"[/\\]\.(?:claude[/\\])?worktrees(?:[/\\]|$)")
#: Conductor's (and Conduit's) workspaces of one repository: `<group>/<workspace>`.
_WORKSPACE_GROUP = re.compile(r"^(.*[/\\]\.?(?:conductor|conduit)[/\\]workspaces[/\\][^/\\]+)")
#: A folder of one repository's worktrees beside it: `<dir>/<repo>-worktrees/<name>` (or
#: `_worktrees`, `.worktrees`), as `git worktree add ../<repo>-worktrees/<name>` makes.
_SIBLING_FOLDER = re.compile(r"^(.*[/\\])([^/\\]+?)([-_.]worktrees)(?=[/\\])")
#: Codex's worktrees: `<home>/.codex/worktrees/<id>/<repo>`, one `<id>` a task.
_CODEX_WORKTREE = re.compile(r"^(.*[/\\]\.codex[/\\]worktrees)[/\\]([^/\\]+)[/\\]([^/\\]+)")
#: Parent folders searched for a `.git` entry, as git's own discovery would.
_MAX_DEPTH = 64
_GITDIR = "gitdir:"
#: Bytes read of a `.git` file or `commondir`: a path, never a long file.
_SMALL_FILE = 4096


def project_root(
    path: str | None, *, codex_roots: dict[tuple[str, str], str] | None = None
) -> str | None:
    """The project `path` belongs to (see the module docstring); None and "" as given.
    `codex_roots` remembers the root of each Codex worktree group for a pass, so that its
    folder of worktrees is listed once, not once per worktree."""
    if not path:
        return path
    if _DRIVE.match(path):
        # Windows drive letters have no case (e:\app and E:\app are one folder);
        # tools write either
        path = path[0].upper() + path[1:]
    mapped = _main_worktree_path(path)
    if mapped is not None:
        return mapped
    nested = _NESTED_WORKTREE.search(path)
    if nested is not None and nested.start() > 0:
        return path[: nested.start()]
    group = _WORKSPACE_GROUP.match(path)
    if group is not None:
        return _group_root(group.group(1))
    beside = _SIBLING_FOLDER.match(path)
    if beside is not None:
        return _sibling_root(beside.group(1), beside.group(2), beside.group(3))
    codex = _CODEX_WORKTREE.match(path)
    if codex is not None and not {codex.group(2), codex.group(3)} & {".", ".."}:
        base, repo = codex.group(1), codex.group(3)
        if codex_roots is None:
            return _codex_root(base, repo)
        if (base, repo) not in codex_roots:
            codex_roots[base, repo] = _codex_root(base, repo)
        return codex_roots[base, repo]
    return path


#: A Windows path with its drive letter ("e:\\work\\app", "E:/work/app").
_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")


class ProjectRoots:
    """`project_root` remembered per path for one pass (mining reads thousands of
    sessions from a few dozen directories)."""

    def __init__(self) -> None:
        self._known: dict[str, str | None] = {}
        self._codex_roots: dict[tuple[str, str], str] = {}

    def __call__(self, path: str | None) -> str | None:
        if not path:
            return path
        if path not in self._known:
            self._known[path] = project_root(path, codex_roots=self._codex_roots)
        return self._known[path]


class Rows(Protocol):
    """The one read a store gives `recorded_paths` (any of the store's readers)."""

    def rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Sequence[Any]]: ...


def recorded_paths(db: Rows, project: str, *, below: bool = False) -> list[str]:
    """The session paths, as transcripts recorded them, whose project root is `project`'s
    (with `below`, or lies inside it): the sessions of a repository's worktrees too."""
    roots = ProjectRoots()
    root = roots(project) or project
    inside = root.rstrip("/") + "/"
    found = set()
    for (path,) in db.rows("SELECT DISTINCT project_path FROM sessions"):
        mapped = roots(str(path)) if path else None
        if mapped is not None and (mapped == root or (below and mapped.startswith(inside))):
            found.add(str(path))
    return sorted(found)


def _main_worktree_path(path: str) -> str | None:
    """`path` moved from a linked worktree on this machine into its main worktree; None
    when it is not inside a linked worktree of a repository with a main worktree."""
    try:
        here = Path(path)
        if not here.is_absolute() or not here.is_dir():
            return None
        top = here
        for _ in range(_MAX_DEPTH):
            dot_git = top / ".git"
            if dot_git.is_dir():
                return None  # inside a main worktree already
            if dot_git.is_file():
                break
            if top.parent == top:
                return None
            top = top.parent
        else:
            return None
        main = _main_of_linked(dot_git)
    except (OSError, ValueError):  # unreadable, or a path no file can have (a NUL in it)
        return None
    if main is None:
        return None
    rest = here.relative_to(top)
    return str(main / rest) if rest.parts else str(main)


def _small_text(path: Path) -> str:
    """The start of a small file git writes (a `.git` file, `commondir`): never more."""
    with path.open("rb") as handle:
        return handle.read(_SMALL_FILE).decode("utf-8", errors="replace").strip()


def _main_of_linked(dot_git: Path) -> Path | None:
    """The main worktree of the linked worktree whose `.git` file this is."""
    text = _small_text(dot_git)
    if not text.startswith(_GITDIR):
        return None
    gitdir = Path(text[len(_GITDIR) :].strip())
    if not gitdir.is_absolute():
        gitdir = dot_git.parent / gitdir
    commondir_file = gitdir / "commondir"
    if commondir_file.is_file():
        common = Path(_small_text(commondir_file))
        common = common if common.is_absolute() else gitdir / common
    else:  # older git: <common>/worktrees/<name>
        common = gitdir.parent.parent
    common = Path(os.path.normpath(common))
    if common.name != ".git":
        return None  # a bare repository: no main worktree to group under
    main = common.parent
    return main if (main / ".git").is_dir() else None


def _sibling_root(parent: str, repo: str, suffix: str) -> str:
    """A removed worktree from `<parent><repo><suffix>/…`: the repository `<parent><repo>`
    when it is one on this machine, else the folder holding its worktrees."""
    folder = f"{parent}{repo}{suffix}"
    try:
        if Path(parent, repo, ".git").is_dir():
            return f"{parent}{repo}"
    except (OSError, ValueError):
        pass
    return folder


def _codex_root(base: str, repo: str) -> str:
    """A removed Codex worktree of `repo`: the main worktree of another `<id>/<repo>` under
    `base` still on this machine, else `<base>/<repo>`, which names them all."""
    main = _main_of_any_worktree(base, repo)
    if main is not None:
        return main
    separator = "\\" if "\\" in base and "/" not in base else "/"
    return f"{base}{separator}{repo}"


def _group_root(group: str) -> str:
    """The main worktree of the workspaces in `group` still on this machine, else `group`."""
    return _main_of_any_worktree(group) or group


def _main_of_any_worktree(folder: str, inside: str = "") -> str | None:
    """The main worktree of the first linked worktree `<folder>/<child>/<inside>` on this
    machine; None when there is none (or `folder` cannot be listed)."""
    try:
        children = sorted(Path(folder).iterdir())
    except (OSError, ValueError):
        return None
    for child in children:
        try:
            dot_git = child / inside / ".git"
            main = _main_of_linked(dot_git) if dot_git.is_file() else None
        except (OSError, ValueError):
            continue
        if main is not None:
            return str(main)
    return None
