"""mining: a line a program marks as failed keys alike with its exit code or without one

Issue #14: a line that opens with a program's mark of a failure ("❌ …", "✗ …", biome's
"× Some warnings were emitted while running checks.") says what went wrong as a line
with an error word does, and mining now keys it without the exit code, as it keys such
lines: the same failure seen with its exit code and behind a pipe that hid it had been two
patterns (1 and 4 of that biome line in one history outside the repository). This revision
re-keys the stored patterns the same way and merges those that now share a key
(`migrations.rekeying`). The stored signature stays as it is.

The key is 0019's, frozen with that revision, for every other pattern; a pattern whose
words open with a failure mark and whose class is an exit code or a stock phrase is keyed
by it as if it had been stored with no class. A test holds the keys to mining's.

Downgrade keeps the merged patterns (nothing says how to split them again).

Revision ID: 0020_failure_mark_pattern_keys
Revises: 0019_renamed_tool_pattern_keys
Create Date: 2026-12-06
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import keyed_as, rekey_patterns, signature_head

revision: str = "0020_failure_mark_pattern_keys"
down_revision: str | None = "0019_renamed_tool_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYED_AS_0019 = importlib.import_module("migrations.versions.0019_renamed_tool_pattern_keys")
_KEYED_AS_0011 = importlib.import_module("migrations.versions.0011_shell_pattern_keys")
#: A program's mark of a failure at a line's start, as this revision knew them.
_FAILED_MARK = re.compile(r"^(?:[❌✗✘🔴⛔]\s*|× )\S")
#: The stock phrases a line that says what went wrong makes moot as a class, besides exit
#: codes (frozen with 0011, as 0017 takes them).
_STOCK_CLASSES: tuple[str, ...] = _KEYED_AS_0011._STOCK_CLASSES


def pattern_key(tool_name: str | None, error_class: str | None, signature: str) -> tuple[str, str]:
    """(new digest, new signature) of a stored pattern: 0019's key, or, for words that
    open with a failure mark under an exit code or a stock phrase, 0019's key for the same
    words stored with no class; the signature keeps its class."""
    head = signature_head(tool_name, error_class)
    words = signature[len(head) :]
    moot = error_class is not None and (
        error_class.startswith("exit ") or error_class in _STOCK_CLASSES
    )
    if not (moot and signature.startswith(head) and _FAILED_MARK.match(words)):
        return _KEYED_AS_0019.pattern_key(tool_name, error_class, signature)
    return keyed_as(
        _KEYED_AS_0019.pattern_key, tool_name, error_class, words, as_tool=tool_name, as_class=None
    )


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
