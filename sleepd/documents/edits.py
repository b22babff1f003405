"""Bounded, anchored edits: the only way the optimizer can change a document.

Every edit names existing text (an anchor) that must occur exactly once inside the editable
region. A budget of edits and changed characters is the textual learning rate; edits that
rewrite most of the region are refused. Bad edits are counted and explained, never raised.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from sleepd.documents.frontmatter import parse
from sleepd.documents.targets import Editable, editable_region

Op = Literal["add", "replace", "delete", "append"]
MAX_REGION_SHARE = 0.5  # an edit may not replace more than this share of the region
_FENCE = re.compile(r"```(?:json)?\s*\n(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class Edit:
    op: Op
    anchor: str
    text: str = ""
    position: Literal["after", "before"] = "after"

    def to_dict(self) -> dict[str, str]:
        if self.op == "append":
            return {"op": "append", "text": self.text}
        data = {"op": self.op, "anchor": self.anchor}
        if self.op != "delete":
            data["text"] = self.text
        if self.op == "add":
            data["position"] = self.position
        return data


@dataclass(frozen=True)
class EditBudget:
    """The textual learning rate: how much one proposal may change."""

    max_edits: int = 5
    max_chars: int = 1500  # inserted + deleted characters, all edits together


@dataclass(frozen=True)
class EditResult:
    content: str
    applied: list[Edit] = field(default_factory=list)
    rejected: list[tuple[Edit, str]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class ParseError:
    """The optimizer's reply could not be read as edits; one line for the log."""

    message: str


def parse_edits(text: str) -> list[Edit] | ParseError:
    """Read `{"edits": [...], "rationale": ...}`, bare or inside a ```json fence."""
    payload = _load_json(text)
    if payload is None:
        return ParseError("no JSON object with an 'edits' list found in the reply")
    raw = payload.get("edits")
    if not isinstance(raw, list):
        return ParseError("'edits' is not a list")
    edits: list[Edit] = []
    problems: list[str] = []
    for i, item in enumerate(raw):
        edit = _edit_from(item)
        if isinstance(edit, str):
            problems.append(f"edit {i}: {edit}")
        else:
            edits.append(edit)
    if problems:
        return ParseError(f"{len(problems)} of {len(raw)} edit(s) malformed; {problems[0]}")
    return edits


def _load_json(text: str) -> dict[str, Any] | None:
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for chunk in candidates:
        try:
            value = json.loads(chunk)
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's reach
            continue
        if isinstance(value, dict) and "edits" in value:
            return value
    return None


def _edit_from(item: Any) -> Edit | str:
    if not isinstance(item, dict):
        return "not an object"
    op, anchor, text = item.get("op"), item.get("anchor", ""), item.get("text", "")
    if op == "append":
        if not isinstance(text, str) or not text.strip():
            return "append needs a non-empty 'text'"
        return Edit("append", "", text)
    if op not in ("add", "replace", "delete"):
        return f"unknown op {op!r}"
    if not isinstance(anchor, str) or not isinstance(text, str):
        return "anchor and text must be strings"
    if op in ("add", "replace") and "text" not in item:
        return f"{op} needs 'text'"
    position = item.get("position", "after")
    if position not in ("after", "before"):
        return f"position must be 'after' or 'before', not {position!r}"
    return Edit(op, anchor, text if op != "delete" else "", position)


def apply_edits(
    content: str, edits: list[Edit], *, editable: Editable, budget: EditBudget
) -> EditResult:
    """Apply what fits, in order; each refusal carries its reason."""
    applied: list[Edit] = []
    rejected: list[tuple[Edit, str]] = []
    chars_used = 0
    for edit in edits:
        outcome = _apply_one(content, edit, editable)
        if isinstance(outcome, str):
            rejected.append((edit, outcome))
            continue
        new_content, cost = outcome
        if len(applied) >= budget.max_edits:
            rejected.append((edit, f"over the edit budget ({budget.max_edits} edits)"))
        elif chars_used + cost > budget.max_chars:
            rejected.append((edit, f"over the character budget ({budget.max_chars} chars)"))
        else:
            content, chars_used = new_content, chars_used + cost
            applied.append(edit)
    counts = {"applied": len(applied), "rejected": len(rejected), "chars_changed": chars_used}
    return EditResult(content, applied, rejected, counts)


def _apply_one(content: str, edit: Edit, editable: Editable) -> tuple[str, int] | str:
    region = editable_region(content, editable)
    if region is None:
        return "the document has no sleepd managed section"
    start, end = region
    inside = content[start:end]
    if edit.op == "append":
        return _checked(content, _append(content, start, end, edit.text), len(edit.text))
    if edit.anchor == "":
        if edit.op == "add" and not inside.strip():
            new = content[:start] + _as_block(edit.text) + content[end:]
            return _checked(content, new, len(edit.text))
        return "empty anchor (allowed only to add to an empty region)"
    hits = _count(inside, edit.anchor)
    if hits == 0:
        where = "outside the editable region" if edit.anchor in content else "not found"
        return f"anchor {where}: {_short(edit.anchor)!r}"
    if hits > 1:
        return f"anchor is ambiguous ({hits} matches): {_short(edit.anchor)!r}"
    at = start + inside.index(edit.anchor)
    after = at + len(edit.anchor)
    if edit.op != "add":
        if edit.anchor.strip() == inside.strip():
            return "whole-region rewrite refused (anchor is the entire editable region)"
        if len(edit.anchor) > MAX_REGION_SHARE * len(inside):
            return f"rewrite refused: the edit replaces over {MAX_REGION_SHARE:.0%} of the region"
    if edit.op == "add":
        new = _insert(content, at, after, edit)
        cost = len(edit.text)
    elif edit.op == "replace":
        new = content[:at] + edit.text + content[after:]
        cost = len(edit.anchor) + len(edit.text)
    else:
        new = content[:at] + content[after:]
        cost = len(edit.anchor)
    return _checked(content, new, cost)


def _insert(content: str, at: int, after: int, edit: Edit) -> str:
    """Add text next to its anchor; a whole-line anchor gets the text as its own line.

    Optimizers write "add this rule after the heading", not "glue these characters
    to the end of the heading", so line boundaries are kept when the anchor has them.
    """
    text = edit.text
    if edit.position == "after":
        at_line_end = after == len(content) or content[after] == "\n"
        if at_line_end and text and not text.startswith("\n"):
            text = "\n" + text.rstrip("\n")
        return content[:after] + text + content[after:]
    at_line_start = at == 0 or content[at - 1] == "\n"
    if at_line_start and text and not text.endswith("\n"):
        text = text + "\n"
    return content[:at] + text + content[at:]


def _append(content: str, start: int, end: int, text: str) -> str:
    """Add `text` as its own lines at the end of the editable region (empty or not).

    The region's end is where the managed section's end marker starts, or the end of
    the body; trailing blank lines of the region stay after the new text.
    """
    inside = content[start:end]
    kept = inside.rstrip("\n")
    tail = inside[len(kept) :] or ("\n" if end < len(content) else "")
    block = text.strip("\n")
    joined = f"{kept}\n{block}" if kept else block
    if not tail.endswith("\n"):
        tail += "\n"
    return content[:start] + joined + tail + content[end:]


def _checked(old: str, new: str, cost: int) -> tuple[str, int] | str:
    before, after = parse(old), parse(new)
    old_lines = before.frontmatter.lines if before.frontmatter else None
    new_lines = after.frontmatter.lines if after.frontmatter else None
    if old_lines != new_lines:
        return "the edit would change the frontmatter"
    return new, cost


def _as_block(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _count(haystack: str, needle: str) -> int:
    """Overlapping occurrences: 'aa' in 'aaa' is ambiguous."""
    return sum(1 for i in range(len(haystack)) if haystack.startswith(needle, i))


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
