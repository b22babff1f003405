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
* Codex's worktrees that are all gone join the one checkout of the same repository that
  the store knows (`store_roots`): Codex records each session's remote
  (`repository_url`), and a checkout's is what a Codex session run there recorded, or
  its `origin` in `.git/config`. A group with two remotes, or a remote with two
  checkouts, stays apart: nothing says which one is meant;
* any other path, and a bare repository's worktrees (no main worktree to map to), is
  kept as recorded.

The mapping only ever shortens a path to a prefix of it (for Codex's, less its `<id>`),
names a main worktree that git itself records, or names a checkout where sessions of the
same repository ran, so a hostile cwd gains nothing it did not have.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
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
    sessions from a few dozen directories). `joins` moves a root to another (the
    checkout a group of removed Codex worktrees belongs to, `store_roots`)."""

    def __init__(self, joins: Mapping[str, str] | None = None) -> None:
        self._known: dict[str, str | None] = {}
        self._codex_roots: dict[tuple[str, str], str] = {}
        self._joins = dict(joins or {})

    def __call__(self, path: str | None) -> str | None:
        if not path:
            return path
        if path not in self._known:
            root = project_root(path, codex_roots=self._codex_roots)
            self._known[path] = self._joins.get(root, root) if root else root
        return self._known[path]


#: What `store_roots` reads: each session's recorded path and its metadata.
SESSION_REMOTES_SQL = "SELECT project_path, meta FROM sessions WHERE project_path IS NOT NULL"


def roots_in_store(db: Any) -> ProjectRoots:
    """`store_roots` over the sessions held by `db`, a SQLAlchemy session (the sessions'
    recorded remotes read with `SESSION_REMOTES_SQL`)."""
    from sqlalchemy import text  # here: `status` reads the store without SQLAlchemy

    return store_roots(db.execute(text(SESSION_REMOTES_SQL)).all())


def store_roots(recorded: Iterable[Sequence[Any]]) -> ProjectRoots:
    """Project roots for a pass over the store, given `(project_path, meta)` of its
    sessions (`SESSION_REMOTES_SQL`; `meta` a dict, or JSON text as SQLite returns it).

    A group of Codex worktrees none of which is left on this machine has only its
    `<base>/<repo>` name (`project_root`), though the repository may well be checked
    out here: Codex records the session's remote. The group joins the checkout of the
    same remote when exactly one is known, from the remote a session run there recorded
    or the checkout's own `origin`."""
    plain = ProjectRoots()
    groups: dict[str, set[str]] = {}
    checkouts: dict[str, set[str]] = {}
    unaddressed: set[str] = set()
    for path, meta in recorded:
        if not path:
            continue
        root = plain(str(path))
        if not root:
            continue
        key = repository_key(_recorded_remote(meta))
        codex = _CODEX_WORKTREE.match(str(path))
        if codex is not None:
            if key is not None and root == _codex_group_name(codex.group(1), codex.group(3)):
                groups.setdefault(root, set()).add(key)
            continue
        if key is not None:
            checkouts.setdefault(key, set()).add(root)
        else:
            unaddressed.add(root)
    # a group whose sessions recorded two remotes names no one repository
    remote_of = {group: min(keys) for group, keys in groups.items() if len(keys) == 1}
    if not remote_of:
        return plain
    wanted = set(remote_of.values())
    for root in sorted(unaddressed):
        key = repository_key(_origin_url(root))
        if key in wanted:
            checkouts.setdefault(key, set()).add(root)
    joins = {}
    for group, key in remote_of.items():
        found = checkouts.get(key, set())
        if len(found) == 1:  # two checkouts of one remote: nothing says which is meant
            joins[group] = min(found)
    return ProjectRoots(joins) if joins else plain


#: A remote as git writes it: `scheme://[user[:secret]@]host[:port]/path` ...
_URL_REMOTE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/]*@)?([^/:@]+)(?::\d*)?/+(.+)$")
#: ... or scp-like `[user@]host:path` (a host of two letters or more: `C:\x` is a drive).
_SCP_REMOTE = re.compile(r"^(?:[^@/:]+@)?([^@/:\\]{2,}):(?!/)(.+)$")


def repository_key(url: str | None) -> str | None:
    """One spelling of a repository's remote: host and path, lowercased, without the
    user, any secret, the port or a trailing `.git` (`https://github.com/jdx/mise.git`
    and `git@github.com:jdx/mise` are one); a local path as written, less `.git`."""
    if not url or not url.strip():
        return None
    text = url.strip()
    if text.lower().startswith("file://"):
        text = text[len("file://") :]
    found = _URL_REMOTE.match(text) or _SCP_REMOTE.match(text)
    if found is not None:
        text = f"{found.group(1)}/{found.group(2)}"
    text = text.rstrip("/\\").lower()
    text = text.removesuffix(".git").rstrip("/\\")
    return text or None


def _recorded_remote(meta: Any) -> str | None:
    """The remote a session recorded (Codex's `repository_url`), if any."""
    if isinstance(meta, str):
        try:
            meta = json.loads(meta)
        except ValueError:
            return None
    value = meta.get("repository_url") if isinstance(meta, dict) else None
    return value if isinstance(value, str) else None


#: Bytes read of a repository's `.git/config` for its `origin`.
_CONFIG_BYTES = 65536
_ORIGIN_SECTION = re.compile(r'^\s*\[\s*remote\s+"origin"\s*\]\s*$', re.MULTILINE)
_URL_LINE = re.compile(r"^\s*url\s*=\s*(.+?)\s*$", re.MULTILINE | re.IGNORECASE)


def _origin_url(checkout: str) -> str | None:
    """The `origin` remote in the `.git/config` of the repository holding `checkout`
    (no git process); None when it is in no repository here or that names no origin."""
    try:
        top = Path(checkout)
        for _ in range(_MAX_DEPTH):
            if (top / ".git").is_dir() or top.parent == top:
                break
            top = top.parent
        config = top / ".git" / "config"
        if not top.is_absolute() or not config.is_file():
            return None
        with config.open("rb") as handle:
            text = handle.read(_CONFIG_BYTES).decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return None
    section = _ORIGIN_SECTION.search(text)
    if section is None:
        return None
    body = text[section.end() :]
    following = re.search(r"^\s*\[", body, re.MULTILINE)
    url = _URL_LINE.search(body[: following.start()] if following else body)
    return url.group(1).strip('"') if url else None


class Rows(Protocol):
    """The one read a store gives `recorded_paths` (any of the store's readers)."""

    def rows(self, sql: str, params: dict[str, Any] | None = None) -> list[Sequence[Any]]: ...


def recorded_paths(db: Rows, project: str, *, below: bool = False) -> list[str]:
    """The session paths, as transcripts recorded them, whose project root is `project`'s
    (with `below`, or lies inside it): the sessions of a repository's worktrees too."""
    roots = store_roots(db.rows(SESSION_REMOTES_SQL))
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
    return _codex_group_name(base, repo)


def _codex_group_name(base: str, repo: str) -> str:
    """`<base>/<repo>`: the name of all of a repository's Codex worktrees."""
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
