"""Which rules read a transcript file: stored with it, so that a better harvest reads it again.

The harvest reads each line once. A later sleepd may read a line otherwise (a record a
person did not type stored as their prompt, a goal objective that is the session's
request, an error kind the older reader missed), and mining reads what the harvest
stored: without more, the history harvested before an upgrade keeps the older reading.

So each transcript file keeps the identity of the harvest that read it
(`transcript_files.read_with`): the package version and a digest of the harvesters, of the
read step and of the redaction rules, and of the settings that change what is stored
(redaction on or off, the longest text kept). A harvest reads again, in place, each file
still on disk that other rules read (`sleepd.harvest.reread`).

Standard library only: the unchanged-tree shortcut of `sleepd harvest` asks for it before
it loads anything else.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sleepd.rules_identity import files_digest, rules_identity

if TYPE_CHECKING:
    from sleepd.config import Config

#: The folder holding `sleepd` and `harvesters` (a checkout, or site-packages).
_TOP = Path(__file__).resolve().parents[2]
#: What reads a line into what the store keeps: (folder, pattern), every match by content.
_PARTS = (
    ("harvesters", "*.py"),
    ("sleepd/harvest", "read.py"),
    ("sleepd/redaction", "*.py"),
    ("sleepd/redaction", "*.toml"),
)


@cache
def code_digest() -> str:
    """A digest of the code that turns a transcript line into stored events."""
    return files_digest(_TOP, [f for folder, glob in _PARTS for f in (_TOP / folder).glob(glob)])


def harvest_rules(cfg: Config) -> str:
    """The identity of the reading a harvest makes of a line, under these settings."""
    return rules_identity(code_digest(), [cfg.harvest.redact, cfg.harvest.max_text_bytes])
