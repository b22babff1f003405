"""Checks a reviewer's edited document must pass before it is adopted.

The size limit exists because an agent reads the whole document into every context;
skills must also keep the frontmatter Claude Code needs to find them at all
(`documents.frontmatter.validate_skill`, the same rule the night applies).
"""

from __future__ import annotations

from pathlib import Path

from sleepd.documents.frontmatter import parse, validate_skill

#: Largest document sleepd will write (an agent pays for every byte, every session).
MAX_DOCUMENT_BYTES = 128 * 1024


def document_problems(kind: str, text: str, *, path: str | None = None) -> list[str]:
    """Every reason `text` cannot be adopted as a document of this kind; empty when fine."""
    problems = []
    size = len(text.encode("utf-8"))
    if not text.strip():
        return ["the document is empty"]
    if size > MAX_DOCUMENT_BYTES:
        problems.append(f"the document is {size} bytes (at most {MAX_DOCUMENT_BYTES})")
    if "\x00" in text:
        problems.append("the document contains a NUL byte")
    if kind == "skill":
        folder = Path(path).parent.name if path and Path(path).name == "SKILL.md" else None
        problems.extend(validate_skill(parse(text), directory_name=folder))
    return problems
