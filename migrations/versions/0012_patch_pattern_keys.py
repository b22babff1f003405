"""mining: one pattern for a patch whose context is not in the file, whichever Codex wrote it

Issue #14: Codex words that failure by version: its own `apply_patch` tool says "apply_patch
verification failed: Failed to find expected lines in x:", and before that tool it ran the
patch through the shell, which said "error: Failed to find expected lines in x:". The
signatures kept the wording, so one failure was two patterns (8 and 7 occurrences on the
labelled sessions). Mining now drops the wording before "Failed to find expected lines"
(`sleepd.mining.signatures.normalize`); this revision re-signs and re-keys the stored
patterns the same way and merges those that now share a key (`migrations.rekeying`). The
stored signature holds the words, so the patterns are re-signed from it, not left to age.

The key is 0011's, whose copy of the rules is frozen with that revision, so this one keeps
doing what it did when later versions change the live rules. A test holds them to mining's
keys.

Downgrade keeps the merged patterns (nothing says how to split them again).

Revision ID: 0012_patch_pattern_keys
Revises: 0011_shell_pattern_keys
Create Date: 2026-12-04
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import rekey_patterns

revision: str = "0012_patch_pattern_keys"
down_revision: str | None = "0011_shell_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYED_AS_0011 = importlib.import_module("migrations.versions.0011_shell_pattern_keys")
_PATCH_WORDING = re.compile(
    r"^\s*(?:apply_patch verification failed: |error: )(?=failed to find expected lines\b)",
    re.IGNORECASE,
)


def pattern_key(tool_name: str | None, error_class: str | None, signature: str) -> tuple[str, str]:
    """(new digest, new signature) of a stored pattern: a failed patch's wording dropped,
    then keyed as 0011 keys it (0011's rules are frozen with it, so they serve here too)."""
    prefix = f"{tool_name or '-'} | {error_class or '-'} | "
    stored = signature.startswith(prefix)
    text = _PATCH_WORDING.sub("", signature[len(prefix) :] if stored else signature, count=1)
    return _KEYED_AS_0011.pattern_key(tool_name, error_class, f"{prefix}{text}" if stored else text)


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
