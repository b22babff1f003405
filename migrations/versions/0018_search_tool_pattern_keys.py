"""mining: Claude Code's Grep and Glob keyed as one family

Issue #14: Claude Code's Grep and Glob both run its own ripgrep, and a failure either meets
is the same failure: in one history outside the repository (entireio/cli) ripgrep would not
start ("ENOENT: no such file or directory, posix_spawn '…/vendor/ripgrep/…/rg'") 7 times
under Grep and 4 under Glob, shown as two patterns. Mining now keys both as "search"
(`sleepd.mining.signatures.SEARCH_TOOLS`) and shows such a pattern as "Grep/Glob"; this
revision re-keys the stored patterns the same way and merges those that now share a key
(`migrations.rekeying`). The stored signature stays as it is.

The key is 0017's, frozen with that revision, for every other pattern; a pattern of Grep or
Glob is keyed by it as if a tool named "search" had failed. 0017's key only: its re-signing
is not done again, since every stored signature is signed as 0017 signs (re-signed by it,
or signed by mining since), and done again it would leave out a second tag before a line
("[<ts>] [ConcurrencyLimiter] Task <n> failed" keeps its second). A test holds the keys to
mining's.

Downgrade keeps the merged patterns (nothing says how to split them again).

Revision ID: 0018_search_tool_pattern_keys
Revises: 0017_speaking_line_pattern_keys
Create Date: 2026-12-06
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import keyed_as, rekey_patterns, signature_head, signature_words

revision: str = "0018_search_tool_pattern_keys"
down_revision: str | None = "0017_speaking_line_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYED_AS_0017 = importlib.import_module("migrations.versions.0017_speaking_line_pattern_keys")
_KEYED_AS_0016 = importlib.import_module("migrations.versions.0016_code_mode_pattern_keys")
#: Claude Code's tools that search files, lower-cased, as this revision knew them.
_SEARCH_TOOLS = frozenset({"grep", "glob"})
#: The name the family is keyed under, by 0017's key.
_FAMILY = "search"


def _keyed_as_0017(
    tool_name: str | None, error_class: str | None, signature: str
) -> tuple[str, str]:
    """0017's key of a signature already signed as 0017 signs: 0016's key, or, when the
    class no longer keys the pattern, 0016's key for the same words with no class."""
    prefix = signature_head(tool_name, error_class)
    if not signature.startswith(prefix):
        return _KEYED_AS_0016.pattern_key(tool_name, error_class, signature)
    text = signature[len(prefix) :]
    if error_class is None or _KEYED_AS_0017._class_keys(error_class, text):
        return _KEYED_AS_0016.pattern_key(tool_name, error_class, signature)
    return keyed_as(
        _KEYED_AS_0016.pattern_key, tool_name, error_class, text, as_tool=tool_name, as_class=None
    )


def pattern_key(tool_name: str | None, error_class: str | None, signature: str) -> tuple[str, str]:
    """(new digest, new signature) of a stored pattern: 0017's key, a search tool's as if
    the family's tool had failed; the signature keeps the tool's own name."""
    if (tool_name or "").lower() not in _SEARCH_TOOLS:
        return _keyed_as_0017(tool_name, error_class, signature)
    text = signature_words(tool_name, error_class, signature)
    return keyed_as(
        _keyed_as_0017, tool_name, error_class, text, as_tool=_FAMILY, as_class=error_class
    )


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
