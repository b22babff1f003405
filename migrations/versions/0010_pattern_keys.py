"""mining: one failure pattern per failure, whatever exit code or hint came with it

Issue #14: a failure's signature was keyed by its exit code and by its whole error line,
so the same failure was counted as two patterns when a pipe hid the exit code
(`cmd 2>&1 | tail`: no code) or a newer tool version appended a hint ("File does not
exist. Note: your current working directory is …"). Each half then looked less
recurring than the failure is. Signatures are now keyed by the first sentence of the
error line (when it has three words or more), and without an exit code when that
sentence is an error message (`sleepd.mining.signatures`). This revision re-keys the
stored patterns the same way and merges those that now share a key: their occurrences
move to the oldest pattern, counts add up, the first and last sightings span both.

The rules are copied here rather than imported, so this revision keeps doing what it
did when later versions change the live ones. A test holds the two to the same keys.

Downgrade keeps the merged patterns (nothing says how to split them again); the old
code then keys new errors its own way next to them.

Revision ID: 0010_pattern_keys
Revises: 0009_watch_learned_rules
Create Date: 2026-12-02
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import rekey_patterns

revision: str = "0010_pattern_keys"
down_revision: str | None = "0009_watch_learned_rules"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_NORMALIZED_WRAPPER = re.compile(
    r"exit code:? -?<n>|chunk id: \S+|wall time: .*|process exited with code -?<n>|"
    r"original token count: <n>|output:|process running with session id <n>|"
    r"\[?exit (status|code):? -?<n>\]?",
    re.I,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_ERROR_LINE = re.compile(
    r"error|exception|fail|fatal|denied|not found|cannot|can't|unable|invalid|refused|panic",
    re.I,
)


def keyed_class(error_class: str | None, text: str) -> str | None:
    if error_class is not None and not error_class.startswith("exit "):
        return error_class
    if not _ERROR_LINE.search(text) or _NORMALIZED_WRAPPER.fullmatch(text):
        return error_class
    return None


def pattern_key(tool_name: str | None, error_class: str | None, signature: str) -> tuple[str, str]:
    """(new digest, new signature) of a stored pattern, from its stored signature."""
    prefix = f"{tool_name or '-'} | {error_class or '-'} | "
    text = signature[len(prefix) :] if signature.startswith(prefix) else signature
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    text = first if len(first.split()) >= 3 else text
    key = f"{tool_name or '-'} | {keyed_class(error_class, text) or '-'} | {text}"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32], prefix + text


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
