"""mining: one pattern for a patch whose context is not in the file, whichever Codex wrote it

Issue #14: Codex words that failure by version: its own `apply_patch` tool says "apply_patch
verification failed: Failed to find expected lines in x:", and before that tool it ran the
patch through the shell, which said "error: Failed to find expected lines in x:". The
signatures kept the wording, so one failure was two patterns (8 and 7 occurrences on the
labelled sessions). Mining now drops the wording before "Failed to find expected lines"
(`sleepd.mining.signatures.normalize`); this revision re-signs and re-keys the stored
patterns the same way and merges those that now share a key (`migrations.rekeying`). The
stored signature holds the words, so the patterns are re-signed from it, not left to age.

The rules are copied here rather than imported, so this revision keeps doing what it
did when later versions change the live ones. A test holds them to mining's keys.

Downgrade keeps the merged patterns (nothing says how to split them again).

Revision ID: 0012_patch_pattern_keys
Revises: 0011_shell_pattern_keys
Create Date: 2026-12-04
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import rekey_patterns

revision: str = "0012_patch_pattern_keys"
down_revision: str | None = "0011_shell_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_PATCH_WORDING = re.compile(
    r"^\s*(?:apply_patch verification failed: |error: )(?=failed to find expected lines\b)",
    re.IGNORECASE,
)

_SHELL_TOOLS = frozenset({"bash", "shell", "exec_command", "local_shell", "shell_command"})
_NORMALIZED_WRAPPER = re.compile(
    r"exit code:? -?<n>|chunk id: \S+|wall time: .*|process exited with code -?<n>|"
    r"original token count: <n>|output:|process running with session id <n>|"
    r"\[?exit (status|code):? -?<n>\]?",
    re.I,
)
_ERROR_LINE = re.compile(
    r"error|exception|fail|fatal|denied|not found|cannot|can't|unable|invalid|refused|panic",
    re.I,
)
_STOCK_CLASSES = (
    "command not found",
    "permission denied",
    "no such file or directory",
    "segmentation fault",
    "timed out",
    "killed",
)
_STOCK_PHRASE = re.compile(rf"\b({'|'.join(_STOCK_CLASSES)})\b", re.I)


def keyed_class(error_class: str | None, text: str) -> str | None:
    if (
        error_class is not None
        and not error_class.startswith("exit ")
        and error_class not in _STOCK_CLASSES
    ):
        return error_class
    says = _ERROR_LINE.search(text) or _STOCK_PHRASE.search(text)
    if not says or _NORMALIZED_WRAPPER.fullmatch(text):
        return error_class
    return None


def pattern_key(tool_name: str | None, error_class: str | None, signature: str) -> tuple[str, str]:
    """(new digest, new signature) of a stored pattern: a failed patch's wording dropped."""
    prefix = f"{tool_name or '-'} | {error_class or '-'} | "
    text = signature[len(prefix) :] if signature.startswith(prefix) else signature
    text = _PATCH_WORDING.sub("", text, count=1)
    tool = "shell" if (tool_name or "").lower() in _SHELL_TOOLS else tool_name
    key = f"{tool or '-'} | {keyed_class(error_class, text) or '-'} | {text}"
    signed = f"{prefix}{text}" if signature.startswith(prefix) else text
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32], signed


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
