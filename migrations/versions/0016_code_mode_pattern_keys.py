"""mining: a Codex code-mode script's failures keyed as the tools it ran

Issue #14: Codex Desktop runs commands and patches from a script (its `exec` tool, code
mode: `tools.exec_command({cmd})`, `tools.apply_patch(…)`), and a failure was keyed by
`exec`, apart from the same failure of Codex's own shell and patch tools: in one history
outside the repository, 14 failed patches under `exec` beside 8 under `apply_patch`, and
"command not found: python" under `exec` alone.

Mining now keys a code-mode failure as the shell's, and a patch that did not apply ("Failed
to find expected lines in <path>:") as the patch tool's
(`sleepd.mining.signatures.CODE_MODE_TOOL`); this revision re-keys the stored patterns the
same way and merges those that now share a key (`migrations.rekeying`). The stored
signature stays as it is.

The key is 0015's, frozen with that revision, for every other pattern; a code-mode
pattern is keyed by it as if Codex's `exec_command` had failed, or `apply_patch` for a
patch. A test holds the keys to mining's.

Downgrade keeps the merged patterns (nothing says how to split them again).

Revision ID: 0016_code_mode_pattern_keys
Revises: 0015_old_codex_pattern_keys
Create Date: 2026-12-05
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import keyed_as, rekey_patterns, signature_words

revision: str = "0016_code_mode_pattern_keys"
down_revision: str | None = "0015_old_codex_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYED_AS_0015 = importlib.import_module("migrations.versions.0015_old_codex_pattern_keys")
#: Codex's code-mode tool, as this revision knew it.
_CODE_MODE_TOOL = "exec"
#: A patch's failure as mining signed it when this revision was written.
_PATCHED_LINES_MISSING = "Failed to find expected lines in <path>:"


def pattern_key(tool_name: str | None, error_class: str | None, signature: str) -> tuple[str, str]:
    """(new digest, new signature) of a stored pattern: 0015's key, a code-mode
    pattern's as if the shell (or, for a patch, the patch tool) had failed; the signature
    keeps the tool's own name."""
    if tool_name != _CODE_MODE_TOOL:
        return _KEYED_AS_0015.pattern_key(tool_name, error_class, signature)
    text = signature_words(tool_name, error_class, signature)
    return keyed_as(
        _KEYED_AS_0015.pattern_key,
        tool_name,
        error_class,
        text,
        as_tool="apply_patch" if text == _PATCHED_LINES_MISSING else "exec_command",
        as_class=error_class,
    )


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
