"""Unified diffs a person reads in `sleepd review`."""

from __future__ import annotations

import difflib


def unified_diff(old: str, new: str, *, old_label: str = "a", new_label: str = "b") -> str:
    """A unified diff of two texts with file labels; empty when they are equal."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=old_label,
        tofile=new_label,
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )
