"""Finding transcript files fast: `os.scandir`, with the results `pathlib` globs give.

Discovery runs on every harvest, and on a large history most of a small harvest's
fixed cost was `pathlib`'s glob machinery (a Python object and a `stat` per directory
entry). These walks read each directory once with `os.scandir`, whose entries know
their type without a `stat`, and return the same paths in the same order as the
globs they replace: names matched case-sensitively, hidden names included, any kind
of entry matched by the last part, directories reached through a symlink followed
for one level (`*/`) but never recursed into (`**`), an unreadable directory skipped.
"""

from __future__ import annotations

import os
from fnmatch import fnmatchcase


def _entries(folder: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as found:
            return list(found)
    except PermissionError:  # as pathlib's glob: an unreadable folder holds nothing
        return []


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def subdirs(folder: str) -> list[str]:
    """The names of `folder`'s subdirectories (symlinks to one included), sorted."""
    return sorted(e.name for e in _entries(folder) if _is_dir(e))


def glob_many(folder: str, patterns: list[tuple[str, ...]]) -> list[list[str]]:
    """`Path(folder).glob("/".join(parts))` for each of `patterns` (parts without `**`),
    as strings, unsorted, listing every folder the patterns reach once for all of them."""
    found: list[list[str]] = [[] for _ in patterns]
    _glob(folder, list(enumerate(patterns)), found)
    return found


def _glob(folder: str, patterns: list[tuple[int, tuple[str, ...]]], found: list[list[str]]) -> None:
    entries = _entries(folder)
    below: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for number, (head, *rest) in patterns:
        if not rest:
            found[number].extend(
                os.path.join(folder, e.name) for e in entries if fnmatchcase(e.name, head)
            )
        elif any(c in head for c in "*?["):
            for entry in entries:
                if fnmatchcase(entry.name, head) and _is_dir(entry):
                    below.setdefault(entry.name, []).append((number, tuple(rest)))
        elif os.path.isdir(os.path.join(folder, head)):
            below.setdefault(head, []).append((number, tuple(rest)))
    for name, deeper in below.items():
        _glob(os.path.join(folder, name), deeper, found)


def rglob(folder: str, patterns: tuple[str, ...]) -> list[list[str]]:
    """`Path(folder).rglob(p)` for each of `patterns`, as strings, unsorted, in one walk
    (symlinked folders are listed but not entered, as pathlib does)."""
    found: list[list[str]] = [[] for _ in patterns]
    pending = [folder]
    while pending:
        current = pending.pop()
        for entry in _entries(current):
            for number, pattern in enumerate(patterns):
                if fnmatchcase(entry.name, pattern):
                    found[number].append(os.path.join(current, entry.name))
            if _is_dir(entry) and not entry.is_symlink():
                pending.append(os.path.join(current, entry.name))
    return found


def path_order(path: str) -> list[str]:
    """The order `sorted()` gives `Path` objects: part by part, not character by character."""
    return path.split(os.sep)


def places(path: str, roots: list[str]) -> list[tuple[int, list[str]]]:
    """Where `path` lies under `roots`: each root's index with the parts of the path below
    it, the path and the root each taken as given and resolved (a symlinked root, or a
    path named through one). Empty when it lies under none: then no file a harvester
    reads is that path (the reader refuses a file that resolves out of its roots)."""
    forms = dict.fromkeys([os.path.normpath(path), os.path.realpath(path)])
    found: list[tuple[int, list[str]]] = []
    for index, root in enumerate(roots):
        for base in dict.fromkeys([os.path.normpath(root), os.path.realpath(root)]):
            for form in forms:
                if form.startswith(base.rstrip(os.sep) + os.sep):
                    parts = form[len(base.rstrip(os.sep)) + 1 :].split(os.sep)
                    if (index, parts) not in found:
                        found.append((index, parts))
    return found


def reachable_by_rglob(root: str, folders: list[str]) -> bool:
    """Whether `rglob(root, …)` enters `root/folders…`: every one a folder, none a link."""
    current = root
    for name in folders:
        current = os.path.join(current, name)
        if os.path.islink(current) or not os.path.isdir(current):
            return False
    return True
