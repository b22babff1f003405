"""Three-way merge: apply a staged proposal to a document a person edited since staging."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Conflict:
    """Base lines [start, end) changed differently by both sides."""

    base_start: int
    base_end: int
    ours: tuple[str, ...]
    theirs: tuple[str, ...]


@dataclass(frozen=True)
class MergeResult:
    text: str | None  # None when there are conflicts
    conflicts: tuple[Conflict, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.conflicts


@dataclass(frozen=True)
class _Change:
    start: int
    end: int
    lines: tuple[str, ...]


def _changes(base: list[str], other: list[str]) -> list[_Change]:
    matcher = difflib.SequenceMatcher(a=base, b=other, autojunk=False)
    return [
        _Change(i1, i2, tuple(other[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _overlaps(a: _Change, b: _Change) -> bool:
    if a.start == a.end and b.start == b.end:
        return a.start == b.start  # two insertions at one point
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


def three_way_merge(base: str, ours: str, theirs: str) -> MergeResult:
    """Merge line-based: ours = the live document, theirs = the proposal made from base."""
    b = base.splitlines(keepends=True)
    mine, yours = (
        _changes(b, ours.splitlines(keepends=True)),
        _changes(b, theirs.splitlines(keepends=True)),
    )
    conflicts = []
    merged: list[_Change] = []
    for y in yours:
        clash = [m for m in mine if _overlaps(m, y)]
        if any(m.start == y.start and m.end == y.end and m.lines == y.lines for m in clash):
            continue  # both sides made the same change
        if clash:
            conflicts.append(
                Conflict(
                    min(y.start, *(m.start for m in clash)),
                    max(y.end, *(m.end for m in clash)),
                    tuple(line for m in clash for line in m.lines),
                    y.lines,
                )
            )
        else:
            merged.append(y)
    if conflicts:
        return MergeResult(None, tuple(conflicts))
    edits = sorted([*mine, *merged], key=lambda c: (c.start, c.end))
    out: list[str] = []
    pos = 0
    for change in edits:
        out.extend(b[pos : change.start])
        out.extend(change.lines)
        pos = max(pos, change.end)
    out.extend(b[pos:])
    return MergeResult("".join(out))
