"""mining: an old Codex's failures keyed as the later Codex's same failures

Issue #14: Codex before its unified exec (0.2x) worded some failures its own way, and the
signatures kept those words, so one failure was a pattern per wording, and per sandbox.

* A patch whose context is not in the file listed the lines it looked for ("error: Failed
  to find expected lines ["    # Optional analysis", ""] in /src/gen.py"), one list a
  patch, and ran as the argument list `["apply_patch", "*** Begin Patch …"]` of its `shell`
  tool: one failure was a pattern per list, under `shell` or `apply_patch`, beside the
  later "Failed to find expected lines in <path>:".
* A command that failed in the sandbox came inside a note naming the sandbox ("failed in
  sandbox MacosSeatbelt with execution error: …", "… LinuxSeccomp …", "… None …"): a command
  stopped at the time limit ("… command timed out") was a pattern per sandbox, apart from
  the later "command timed out after <n>".

Mining now reads the lines out of the list and the output out of the note
(`sleepd.mining.signatures`) and takes an argument list's first word for the program
(`sleepd.mining.tasks.full_command`); this revision re-signs the stored patterns the same
way, from their stored signatures, and merges those that now share a key
(`migrations.rekeying`):

* a listed patch failure becomes "Failed to find expected lines in <path>:", keyed under
  `apply_patch` whichever tool it was stored under (only a patch prints those words);
* the note's own reason, "command timed out", becomes the time-limit signature, and
  "command was killed by a signal" loses the note;
* a sandbox's refusal with nothing on stdout ("sandbox denied exec error, exit code: <n>,
  stdout: , stderr: …") keeps what the command printed on stderr, as it was stored (a
  shell's own line there keeps the words it was stored with, where mining now writes it
  as `sh: …`).

The key is 0014's, frozen with that revision; a pattern keeps the tool name it was stored
with, as under 0014. A test holds these keys to mining's.

Downgrade keeps the merged patterns (nothing says how to split them again).

Revision ID: 0015_old_codex_pattern_keys
Revises: 0014_tool_family_pattern_keys
Create Date: 2026-12-05
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import keyed_as, rekey_patterns, signature_words

revision: str = "0015_old_codex_pattern_keys"
down_revision: str | None = "0014_tool_family_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYED_AS_0014 = importlib.import_module("migrations.versions.0014_tool_family_pattern_keys")
_PATCH_TOOL = "apply_patch"
_PATCH_LISTED = re.compile(
    r"^(?:error: )?(failed to find expected lines) \[.*\] in (\S+?):?\s*$", re.IGNORECASE
)
_SANDBOX_NOTE = re.compile(
    r"^\s*failed in sandbox(?: \w+)?(?: with execution error)?: (?:sandbox error: )?"
)
_DENIED_QUIET = re.compile(r"^sandbox denied exec error, exit code: -?<n>, stdout: , stderr: ")
_TIMED_OUT = re.compile(r"^command timed out\s*$", re.IGNORECASE)
_TIME_LIMIT_SIGNATURE = "command timed out after <n>"


def resigned(text: str) -> str:
    """A stored signature's text as mining now signs the failure it was made from."""
    listed = _PATCH_LISTED.match(text)
    if listed:
        return f"{listed[1]} in {listed[2]}:"
    note = _SANDBOX_NOTE.match(text)
    if note is None:
        return text
    rest = _DENIED_QUIET.sub("", text[note.end() :], count=1)
    return _TIME_LIMIT_SIGNATURE if _TIMED_OUT.match(rest) else rest


def pattern_key(tool_name: str | None, error_class: str | None, signature: str) -> tuple[str, str]:
    """(new digest, new signature) of a stored pattern: re-signed (`resigned`), then keyed
    as 0014 keys it, a listed patch failure as if apply_patch had failed; the signature
    keeps the tool's own name, as 0014's does."""
    text = signature_words(tool_name, error_class, signature)
    new = resigned(text)
    if new == text:
        return _KEYED_AS_0014.pattern_key(tool_name, error_class, signature)
    return keyed_as(
        _KEYED_AS_0014.pattern_key,
        tool_name,
        error_class,
        new,
        as_tool=_PATCH_TOOL if _PATCH_LISTED.match(text) else tool_name,
        as_class=error_class,
    )


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
