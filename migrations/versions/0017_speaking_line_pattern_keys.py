"""mining: a failure that names itself is one pattern whatever code the program exited with

Issue #14: a pattern was keyed by the exit code too unless its line sounded like an error,
and a program's own message or a compiler's diagnostic often has no error word in it: "cat:
illegal option -- A" was a pattern under `exit 1` and another where a pipe hid the code,
"<path>: <q> imported and not used" one under `exit 1` and one from Codex's shell with none.
On the thirteen histories outside the repository, 19 of 1,499 patterns stood so beside
another with the same words, some of them one occurrence each, so a recurring failure was
shown as two that had not recurred.

Mining now drops the exit code from the key when the line is a program or a file speaking
in its own name ("cat: …", "sh: no matches found: …", "<path>: …", a runner's `[lint:go]`
tag before it) or says "could not" (`sleepd.mining.signatures.keyed_class`); a silent
failure ("rtk: printed nothing") keeps its exit code, which is all that tells such
failures apart.

And a path a program names bare in its word that the path is missing or of the wrong kind
("rg: tests: No such file or directory (os error 2)", "grep: src: …") is `<path>`, as one
with a slash was: in jdx/mise's history "rg: tests" (14) stood beside "rg: <path>" (19).
And git's word that a rebase stopped on a commit it could not apply is one failure, the
commit's subject left out, whether an output kept its "error: could not apply <hex>… Fix"
or, cut to its end, its last "Could not apply <hex>… # fix": the subject had stayed where
it opened with no capital.
Claude Code's Grep and Glob refusing a path ("Path does not exist: <path>") are one
failure with or without the note later versions add ("Note: your current working directory
is <path>"), five histories of thirteen having both, and whatever the path looks like.
A compiler's error relayed by golangci-lint ("… imported and not used (typecheck)") is the
compiler's own error.
A duration written in two units ("E2E Tests fail 3m20s …", `gh pr checks`) is a number,
as one in a single unit was. And a task runner's tag before a program's line (mise's
"[lint:go] ", "[stderr] ") is left out: "[lint:go] <path>: … (errcheck)" had stood beside
the same finding run alone, 17 such pairs in three histories; the runner's own verdict
("[lint] ERROR task failed") keeps the task's name, all it says.

This revision re-signs such a stored signature the same way, from its text, re-keys the
stored patterns and merges those that now share a key (`migrations.rekeying`). Any other
stored signature stays as it is.

The key is 0016's, frozen with that revision, for every pattern whose class still keys it;
a pattern whose class no longer does is keyed by it as if stored with no class. A test
holds the keys to mining's.

Downgrade keeps the merged patterns (nothing says how to split them again).

Revision ID: 0017_speaking_line_pattern_keys
Revises: 0016_code_mode_pattern_keys
Create Date: 2026-12-06
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence

from alembic import op

from migrations.rekeying import keyed_as, rekey_patterns, signature_head

revision: str = "0017_speaking_line_pattern_keys"
down_revision: str | None = "0016_code_mode_pattern_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYED_AS_0016 = importlib.import_module("migrations.versions.0016_code_mode_pattern_keys")

# The rules of `sleepd.mining.signatures.keyed_class` as this revision knew them.
_ERROR_LINE = re.compile(
    r"error|exception|fail|fatal|denied|not found|cannot|can't|unable|invalid|refused|panic|"
    r"missing script|no tests found|no test files found|not allowed",
    re.I,
)
# (the stock phrases are 0011's, unchanged since)
_KEYED_AS_0011 = importlib.import_module("migrations.versions.0011_shell_pattern_keys")
_STOCK_CLASSES: tuple[str, ...] = _KEYED_AS_0011._STOCK_CLASSES
_STOCK_PHRASE: re.Pattern[str] = _KEYED_AS_0011._STOCK_PHRASE
_SAYS_WHAT_FAILED = re.compile(r"\b(could not|couldn'?t|no matches found)\b", re.I)
_SPEAKS_IN_ITS_NAME = re.compile(
    r"^(?:\[[\w:./@-]+\]\s+)?"
    r"(?!(?:info|debug|trace|notice|note|hint|warn|warning|help):)"
    r"(?:<path>|[a-z][\w.+-]*)(?::<n>)*: \S"
)
_SAID_NOTHING = re.compile(r": printed (?:nothing|only matches)$")
_REBASE_STOPPED = re.compile(r"^(?:error: )?could not apply <(?:hex|n)>\.\.\.(?:\s.*)?$", re.I)
_REBASE_STOPPED_SIGNATURE = "error: could not apply <hex>..."
_MISSING_OPERAND = re.compile(
    r"^(?!(?:error|fatal|warning)\b)([\w.-]+): (?!<)[^\s:<>]+: "
    r"(No such file or directory|Not a directory|Is a directory|Permission denied)\b"
)
_WORKING_FOLDER_NOTE = re.compile(r"\s+Note: your current working directory is <path>\.?$")
_PATH_MISSING = re.compile(r"^(Path does not exist): (?!<path>$).+$")
_RELAYED_BY_TYPECHECK = re.compile(r" \(typecheck\)$")
# (a tag is read here once normalised: a timestamp's is `[<ts>]`, a number's `[<n>]`)
_TASK_TAG = re.compile(r"^\[[\w:./@<>-]+\]\s+(?:›\s+)?(?!(?:ERROR|WARN)\b)")
_RULE_OPENS = re.compile(r"^\s*[=_*#-]{3,}\s+")
_DURATION = re.compile(r"\b\d+h(?:\d+m)?(?:\d+(?:\.\d+)?s)?(?=\W|$)|\b\d+m\d+(?:\.\d+)?s(?=\W|$)")
_NUMBERS_RUN = re.compile(r"<n>(?:\s+<n>)+")
_GNU_CANNOT = re.compile(
    r"^(?!(?:error|fatal|warning)\b)([\w.-]+): cannot (?:access|stat|open) <q>:"
)


def _class_keys(error_class: str, text: str) -> bool:
    """Whether the stored class still keys the pattern (it is no exit code nor stock
    phrase, or the line does not say what went wrong)."""
    if not error_class.startswith("exit ") and error_class not in _STOCK_CLASSES:
        return True
    says = (
        _ERROR_LINE.search(text)
        or _STOCK_PHRASE.search(text)
        or _SAYS_WHAT_FAILED.search(text)
        or (_SPEAKS_IN_ITS_NAME.match(text) and not _SAID_NOTHING.search(text))
    )
    return not says


def pattern_key(tool_name: str | None, error_class: str | None, signature: str) -> tuple[str, str]:
    """(new digest, new signature) of a stored pattern: re-signed as mining now signs it
    (`resigned`), then 0016's key, or, when its class no longer keys it, 0016's key for
    the same words stored with no class."""
    prefix = signature_head(tool_name, error_class)
    if not signature.startswith(prefix):
        return _KEYED_AS_0016.pattern_key(tool_name, error_class, signature)
    text = resigned(signature[len(prefix) :])
    if error_class is None or _class_keys(error_class, text):
        return _KEYED_AS_0016.pattern_key(tool_name, error_class, prefix + text)
    return keyed_as(
        _KEYED_AS_0016.pattern_key, tool_name, error_class, text, as_tool=tool_name, as_class=None
    )


def resigned(text: str) -> str:
    """A stored signature's text as mining now signs it: a task runner's tag before a
    program's line is left out (not its verdict, `[lint] ERROR task failed`); a path a
    program names bare in its word that the path is missing or of the wrong kind becomes
    `<path>` (as does any path Claude Code's Grep and Glob say does not exist, the note on
    the working folder later versions add left out); a compiler's error relayed by
    golangci-lint loses its "(typecheck)"; a duration in two units ("3m20s") is a number;
    git's word that it could not apply a commit loses the commit's subject."""
    untagged = _TASK_TAG.sub("", text, count=1)
    if untagged != text:
        text = _GNU_CANNOT.sub(r"\1: <path>:", _RULE_OPENS.sub("", untagged))
    text = _NUMBERS_RUN.sub("<n>", _DURATION.sub("<n>", text))
    text = _REBASE_STOPPED.sub(_REBASE_STOPPED_SIGNATURE, text)
    text = _MISSING_OPERAND.sub(r"\1: <path>: \2", text, count=1)
    text = _WORKING_FOLDER_NOTE.sub("", text)
    text = _RELAYED_BY_TYPECHECK.sub("", text)
    return _PATH_MISSING.sub(r"\1: <path>", text)


def upgrade() -> None:
    rekey_patterns(op.get_bind(), pattern_key)


def downgrade() -> None:
    """Merged patterns stay merged: nothing records how to split them again."""
