"""mining: a failure of any of Claude Code's file-writing tools is keyed as an edit's

Issue #14: Claude Code writes files through Edit, MultiEdit, Write and NotebookEdit, and
refuses each the same way when the agent did not read the file first ("File has not been
read yet. Read it first before writing to it.") or when it changed since ("File has been
modified since read, …"). Mining keyed each tool apart, so one mistake was a pattern per
tool (on the labelled sessions: 18 through Edit and 8 through Write). Mining now keys them
all as "edit" (`sleepd.mining.signatures.EDIT_TOOLS`); this revision re-keys the stored
patterns the same way and merges those that now share a key (`migrations.rekeying`). The
stored signature stays as it is.

The key is 0013's, frozen with that revision, for every other pattern; a file-writing
tool's pattern is keyed by it as if a tool named "edit" had failed. A test holds the keys to
mining's.

Downgrade keeps the merged patterns (nothing says how to split them again).

Revision ID: 0014_edit_pattern_keys
Revises: 0013_powershell_pattern_keys
Create Date: 2026-12-05
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import rekey_patterns

revision: str = "0014_edit_pattern_keys"
down_revision: str | None = "0013_powershell_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYED_AS_0013 = importlib.import_module("migrations.versions.0013_powershell_pattern_keys")
#: Claude Code's file-writing tools, lower-cased, as this revision knew them.
_EDIT_TOOLS = frozenset({"edit", "multiedit", "write", "notebookedit"})


def pattern_key(tool_name: str | None, error_class: str | None, signature: str) -> tuple[str, str]:
    """(new digest, new signature) of a stored pattern: 0013's key, a file-writing tool's
    as if a tool named "edit" had failed; the signature keeps the tool's own name."""
    if (tool_name or "").lower() not in _EDIT_TOOLS:
        return _KEYED_AS_0013.pattern_key(tool_name, error_class, signature)
    prefix = f"{tool_name} | {error_class or '-'} | "
    text = signature[len(prefix) :] if signature.startswith(prefix) else signature
    edit = f"edit | {error_class or '-'} | "
    digest, keyed = _KEYED_AS_0013.pattern_key("edit", error_class, edit + text)
    return digest, prefix + keyed[len(edit) :]


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
