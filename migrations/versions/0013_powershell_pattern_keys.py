"""mining: a failure run through Claude Code's PowerShell tool is keyed as a shell's

Issue #14: on Windows, Claude Code 2.1 runs commands through a `PowerShell` tool beside
`Bash` (polecatspeaks/StarCar's sessions of the labelled set: 147 calls). Mining did not
count it among the shell tools, so a failure it ran was a pattern of its own, apart from
the same failure run through Bash, and a failure its exit status hid was not read at all.
Mining now keys it as "shell" (`sleepd.mining.signatures.SHELL_TOOLS`); this revision
re-keys the stored patterns the same way and merges those that now share a key
(`migrations.rekeying`). The stored signature stays as it is.

The key is 0012's, frozen with that revision, for every other pattern; a PowerShell
pattern is keyed by it as if Bash had run it. A test holds the keys to mining's.

Downgrade keeps the merged patterns (nothing says how to split them again).

Revision ID: 0013_powershell_pattern_keys
Revises: 0012_patch_pattern_keys
Create Date: 2026-12-04
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import rekey_patterns

revision: str = "0013_powershell_pattern_keys"
down_revision: str | None = "0012_patch_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYED_AS_0012 = importlib.import_module("migrations.versions.0012_patch_pattern_keys")


def pattern_key(tool_name: str | None, error_class: str | None, signature: str) -> tuple[str, str]:
    """(new digest, new signature) of a stored pattern: 0012's key, a PowerShell pattern's
    as if Bash had run it; the signature keeps the tool's own name."""
    if (tool_name or "").lower() != "powershell":
        return _KEYED_AS_0012.pattern_key(tool_name, error_class, signature)
    prefix = f"{tool_name} | {error_class or '-'} | "
    text = signature[len(prefix) :] if signature.startswith(prefix) else signature
    shell = f"Bash | {error_class or '-'} | "
    digest, keyed = _KEYED_AS_0012.pattern_key("Bash", error_class, shell + text)
    return digest, prefix + keyed[len(shell) :]


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
