"""mining: a tool Claude Code renamed keyed by its name now

Issue #14: Claude Code renamed three of its tools: its subagent tool `Task` is `Agent`
(2.1.52 was the last version seen with `Task`, 2.1.63 the first with `Agent`), its read of a
background command `BashOutput` is `TaskOutput`, and `KillShell` is `TaskStop`. A history
that spans a change kept one failure under two names ("Agent type <q> not found." under
`Task` in one history outside the repository and under `Agent` in another). Mining now keys
and shows such a tool by its name now (`sleepd.mining.signatures.RENAMED_TOOLS`); this
revision re-keys the stored patterns the same way and merges those that now share a key
(`migrations.rekeying`). The stored signature stays as it is.

The key is 0018's, frozen with that revision, for every other pattern; a pattern of a
renamed tool is keyed by it as if the tool of its name now had failed. A test holds the
keys to mining's.

Downgrade keeps the merged patterns (nothing says how to split them again).

Revision ID: 0019_renamed_tool_pattern_keys
Revises: 0018_search_tool_pattern_keys
Create Date: 2026-12-06
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import keyed_as, rekey_patterns, signature_words

revision: str = "0019_renamed_tool_pattern_keys"
down_revision: str | None = "0018_search_tool_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYED_AS_0018 = importlib.import_module("migrations.versions.0018_search_tool_pattern_keys")
#: Claude Code's renamed tools (the old name lower-cased → the name now), as this revision
#: knew them.
_RENAMED = {"task": "Agent", "bashoutput": "TaskOutput", "killshell": "TaskStop"}


def pattern_key(tool_name: str | None, error_class: str | None, signature: str) -> tuple[str, str]:
    """(new digest, new signature) of a stored pattern: 0018's key, a renamed tool's as if
    the tool of its name now had failed; the signature keeps the tool's own name."""
    now = _RENAMED.get((tool_name or "").lower())
    if now is None:
        return _KEYED_AS_0018.pattern_key(tool_name, error_class, signature)
    text = signature_words(tool_name, error_class, signature)
    return keyed_as(
        _KEYED_AS_0018.pattern_key, tool_name, error_class, text, as_tool=now, as_class=error_class
    )


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
