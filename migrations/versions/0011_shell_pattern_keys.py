"""mining: one pattern per failure, whichever shell tool ran it, with or without its exit code

Issue #14: a failure's key held the name of the tool that ran the failed command, and a
shell command runs under several names: Claude Code's `Bash`, and Codex's, which changed
from version to version (`shell`, `local_shell`, `shell_command`, `exec_command`). One
person's `command not found: pytest` under three Codex versions was three patterns, each
seen once. And a failure whose exit code a pipe hid took a stock phrase of its text as
its class ("no such file or directory"), which the key kept, while the same failure
with its exit code was keyed without a class (0010): `ls: cannot access …` was two
patterns. Mining now keys every shell tool as "shell" and drops a stock-phrase class as
it drops an exit code (`sleepd.mining.signatures.tool_key`, `keyed_class`); this revision
re-keys the stored patterns the same way and merges those that now share a key
(`migrations.rekeying`). A pattern keeps the tool name and class of its first sighting
for display.

The rules are copied here rather than imported, so this revision keeps doing what it
did when later versions change the live ones. A test holds the two to the same keys.

Downgrade keeps the merged patterns (nothing says how to split them again).

Revision ID: 0011_shell_pattern_keys
Revises: 0010_pattern_keys
Create Date: 2026-12-03
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import rekey_patterns

revision: str = "0011_shell_pattern_keys"
down_revision: str | None = "0010_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

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
    """(new digest, signature) of a stored pattern: the signature stays as stored."""
    prefix = f"{tool_name or '-'} | {error_class or '-'} | "
    text = signature[len(prefix) :] if signature.startswith(prefix) else signature
    tool = "shell" if (tool_name or "").lower() in _SHELL_TOOLS else tool_name
    key = f"{tool or '-'} | {keyed_class(error_class, text) or '-'} | {text}"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32], signature


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
