"""mining: one key for a failure whichever tool of a family showed it

Issue #14: a failure was keyed by the tool that showed it, so one mistake became a pattern
per tool when several tools show it alike.

* Claude Code writes files through Edit, MultiEdit, Write and NotebookEdit, and refuses each
  the same way when the agent did not read the file first ("File has not been read yet.
  Read it first before writing to it.") or when it changed since ("File has been modified
  since read, …"): on the labelled sessions 18 through Edit and 8 through Write. Mining
  keys them all as "edit" (`sleepd.mining.signatures.EDIT_TOOLS`).
* Codex runs a long command on and reads its end with `write_stdin` polls: a failure a poll
  shows is the command's, keyed apart from the same failure of a command that ended at
  once. Mining keys the poll as "shell" (`sleepd.mining.signatures.POLL_TOOL`).

This revision re-keys the stored patterns the same way and merges those that now share a
key (`migrations.rekeying`). The stored signature stays as it is.

The key is 0013's, frozen with that revision, for every other pattern; a pattern of a
file-writing tool is keyed by it as if a tool named "edit" had failed, a poll's as if
Codex's `exec_command` had. A test holds the keys to mining's.

Downgrade keeps the merged patterns (nothing says how to split them again).

Revision ID: 0014_tool_family_pattern_keys
Revises: 0013_powershell_pattern_keys
Create Date: 2026-12-05
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import keyed_as, rekey_patterns, signature_words

revision: str = "0014_tool_family_pattern_keys"
down_revision: str | None = "0013_powershell_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYED_AS_0013 = importlib.import_module("migrations.versions.0013_powershell_pattern_keys")
#: Claude Code's file-writing tools, lower-cased, as this revision knew them.
_EDIT_TOOLS = frozenset({"edit", "multiedit", "write", "notebookedit"})
#: The tool each family is keyed as, by 0013's key.
_FAMILY_KEYED_AS = {"edit": "edit", "write_stdin": "exec_command"}


def _family(tool_name: str | None) -> str | None:
    if (tool_name or "").lower() in _EDIT_TOOLS:
        return "edit"
    return "write_stdin" if tool_name == "write_stdin" else None


def pattern_key(tool_name: str | None, error_class: str | None, signature: str) -> tuple[str, str]:
    """(new digest, new signature) of a stored pattern: 0013's key, a family member's as
    if the family's tool had failed; the signature keeps the tool's own name."""
    family = _family(tool_name)
    if family is None:
        return _KEYED_AS_0013.pattern_key(tool_name, error_class, signature)
    text = signature_words(tool_name, error_class, signature)
    return keyed_as(
        _KEYED_AS_0013.pattern_key,
        tool_name,
        error_class,
        text,
        as_tool=_FAMILY_KEYED_AS[family],
        as_class=error_class,
    )


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
