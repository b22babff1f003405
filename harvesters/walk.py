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
from collections.abc import Iterator
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
    """`glob` for several patterns, reading `folder` itself once."""
    entries = _entries(folder)
    return [list(_glob(folder, entries, parts)) for parts in patterns]


def _glob(folder: str, entries: list[os.DirEntry[str]], parts: tuple[str, ...]) -> Iterator[str]:
    head, rest = parts[0], parts[1:]
    if not rest:
        for entry in entries:
            if fnmatchcase(entry.name, head):
                yield os.path.join(folder, entry.name)
        return
    if any(c in head for c in "*?["):
        for entry in entries:
            if fnmatchcase(entry.name, head) and _is_dir(entry):
                child = os.path.join(folder, entry.name)
                yield from _glob(child, _entries(child), rest)
    else:
        child = os.path.join(folder, head)
        if os.path.isdir(child):
            yield from _glob(child, _entries(child), rest)


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
