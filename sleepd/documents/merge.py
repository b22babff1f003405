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
    lines: tuple[int, ...]


def _changes(base: list[str], other: list[str]) -> list[_Change]:
    matcher = difflib.SequenceMatcher(a=base, b=other, autojunk=False)
    return [
        _Change(i1, i2, tuple(range(j1, j2)))  # indexes into `other`'s lines
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _split(text: str) -> tuple[list[str], list[str]]:
    """Lines without their endings, and each line's ending ('' for an unterminated last)."""
    raw = text.splitlines(keepends=True)
    bodies, ends = [], []
    for line in raw:
        body = line.rstrip("\r\n")
        bodies.append(body)
        ends.append(line[len(body) :])
    return bodies, ends


def _dominant_end(ends: list[str]) -> str:
    counts: dict[str, int] = {}
    for end in ends:
        if end:
            counts[end] = counts.get(end, 0) + 1
    return max(counts, key=lambda e: counts[e]) if counts else "\n"


def _overlaps(a: _Change, b: _Change) -> bool:
    if a.start == a.end and b.start == b.end:
        return a.start == b.start  # two insertions at one point
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


def three_way_merge(base: str, ours: str, theirs: str) -> MergeResult:
    """Merge line-based: ours = the live document, theirs = the proposal made from base.

    Lines are compared without their endings, and the result keeps the live document's
    endings: its own lines keep theirs, lines the proposal brings take the live file's
    usual ending (CRLF stays CRLF), and a line that gains a successor always gets an
    ending, so a last line without a newline is never glued to a line added after it.
    The result ends with a newline exactly when the live document does (unless only
    the proposal changed that).
    """
    base_lines, base_ends = _split(base)
    our_lines, our_ends = _split(ours)
    their_lines, their_ends = _split(theirs)
    eol = _dominant_end(our_ends or base_ends or their_ends)
    mine = _changes(base_lines, our_lines)
    # A base line the person kept takes the ending the live file gives it now.
    kept_ends = list(base_ends)
    matcher = difflib.SequenceMatcher(a=base_lines, b=our_lines, autojunk=False)
    for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
        if tag == "equal":
            kept_ends[i1:i2] = our_ends[j1 : j1 + (i2 - i1)]
    yours = _changes(base_lines, their_lines)
    conflicts = []
    merged: list[_Change] = []
    for y in yours:
        clash = [m for m in mine if _overlaps(m, y)]
        same = [
            m
            for m in clash
            if m.start == y.start
            and m.end == y.end
            and [our_lines[i] for i in m.lines] == [their_lines[i] for i in y.lines]
        ]
        if same:
            continue  # both sides made the same change
        if clash:
            conflicts.append(
                Conflict(
                    min(y.start, *(m.start for m in clash)),
                    max(y.end, *(m.end for m in clash)),
                    tuple(our_lines[i] + our_ends[i] for m in clash for i in m.lines),
                    tuple(their_lines[i] + their_ends[i] for i in y.lines),
                )
            )
        else:
            merged.append(y)
    if conflicts:
        return MergeResult(None, tuple(conflicts))
    # (text, ending) pairs; a proposal line takes the live file's usual ending.
    out: list[tuple[str, str]] = []
    edits = sorted(
        [(c, True) for c in mine] + [(c, False) for c in merged],
        key=lambda pair: (pair[0].start, pair[0].end),
    )
    pos = 0
    for change, is_ours in edits:
        out.extend(zip(base_lines[pos : change.start], kept_ends[pos : change.start], strict=True))
        if is_ours:
            out.extend((our_lines[i], our_ends[i]) for i in change.lines)
        else:
            out.extend((their_lines[i], their_ends[i] and eol) for i in change.lines)
        pos = max(pos, change.end)
    out.extend(zip(base_lines[pos:], kept_ends[pos:], strict=True))
    if not out:
        return MergeResult("")
    ends_with_newline = _ends_with_newline(base, ours, theirs)
    pieces = [text + (end or eol) for text, end in out[:-1]]
    last_text, last_end = out[-1]
    pieces.append(last_text + ((last_end or eol) if ends_with_newline else ""))
    return MergeResult("".join(pieces))


def _ends_with_newline(base: str, ours: str, theirs: str) -> bool:
    def ends(text: str) -> bool:
        return text.endswith(("\n", "\r"))

    if ours and ends(ours) != ends(base):
        return ends(ours)  # the person changed it: theirs wins
    return ends(theirs) if theirs else ends(ours)
