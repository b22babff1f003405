"""Which documents sleepd may edit, of what kind, and which part of them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sleepd.documents.frontmatter import frontmatter_span

Kind = Literal["skill", "agents", "claude"]
Editable = Literal["managed_section", "body"]

BEGIN_MARKER = "<!-- sleepd:begin -->"
END_MARKER = "<!-- sleepd:end -->"
MANAGED_SKILL_NAME = "sleepd-learned"
_FILE_KINDS: dict[str, Kind] = {"SKILL.md": "skill", "AGENTS.md": "agents", "CLAUDE.md": "claude"}


@dataclass(frozen=True)
class TargetSpec:
    """One document sleepd may propose edits to."""

    path: Path
    kind: Kind
    editable: Editable


def kind_for(path: Path) -> Kind:
    """The target kind from the file name; anything else is not a target."""
    try:
        return _FILE_KINDS[path.name]
    except KeyError:
        raise ValueError(f"{path.name}: not a SKILL.md, AGENTS.md or CLAUDE.md") from None


def default_targets(project: Path) -> list[TargetSpec]:
    """A managed skill and a managed section in AGENTS.md: sleepd never edits user text."""
    return [
        TargetSpec(
            project / ".claude" / "skills" / MANAGED_SKILL_NAME / "SKILL.md", "skill", "body"
        ),
        TargetSpec(project / "AGENTS.md", "agents", "managed_section"),
    ]


def user_target(path: Path, text: str, *, whole_body: bool = True) -> TargetSpec | None:
    """An existing user document: its managed section if marked, else (if allowed) its body."""
    if BEGIN_MARKER in text and END_MARKER in text:
        return TargetSpec(path, kind_for(path), "managed_section")
    return TargetSpec(path, kind_for(path), "body") if whole_body else None


def initial_content(spec: TargetSpec) -> str:
    """What a target that does not exist yet starts as."""
    section = f"{BEGIN_MARKER}\n{END_MARKER}\n"
    if spec.kind == "skill":
        name = spec.path.parent.name if spec.path.parent.name else MANAGED_SKILL_NAME
        return (
            "---\n"
            f"name: {name}\n"
            "description: Lessons sleepd learned from replaying this project's recurring "
            "tasks. Use when working in this project.\n"
            "---\n"
            "# Learned lessons\n\n" + (section if spec.editable == "managed_section" else "")
        )
    title = "AGENTS.md" if spec.kind == "agents" else "CLAUDE.md"
    return f"# {title}\n\n{section}"


def editable_region(text: str, editable: Editable) -> tuple[int, int] | None:
    """[start, end) character offsets sleepd may change; None when the markers are missing."""
    if editable == "managed_section":
        begin = text.find(BEGIN_MARKER)
        end = text.find(END_MARKER, begin + len(BEGIN_MARKER)) if begin >= 0 else -1
        if begin < 0 or end < 0:
            return None
        start = begin + len(BEGIN_MARKER)
        if text.startswith("\n", start):
            start += 1
        return start, end
    return frontmatter_span(text), len(text)
