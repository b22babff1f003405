"""Which rules read a session: stored with it, so that better rules read it again.

Mining is incremental: a session is read once, and a later pass reads only what was
appended. Without more, a store keeps the readings of the sleepd that first read each
session: an upgrade that reads people better (a failure report no longer taken for a new
task, an error kind no longer missed) would reach new sessions only, and the nights would
go on learning from the old misreadings of everything before it.

So each session keeps the identity of the rules that read it (`sessions.mined_with`), and a
pass reads again, from its first event, every session read by other rules. The identity is
the package version and a digest of the mining code and of the settings that change a
reading (the extra correction and approval patterns), so a change nobody remembered to
announce still counts. A session read by a newer sleepd is left as it is: machines sharing
a PostgreSQL store while one is upgraded must not undo each other's readings each night.

A session whose hard turns the miner model's per-pass cap left to the rules is stamped as
read by rules of its own (`left_unasked`), so the next passes read it again and ask what is
left, keeping the verdicts they have, until every hard turn was asked.

Standard library only: the idle check (`mining.idle`) asks for the identity before it
loads anything else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sleepd.rules_identity import RULES_CHARS, by_an_older_release, files_digest, rules_identity

if TYPE_CHECKING:
    from sleepd.config import MiningConfig


@cache
def code_digest() -> str:
    """A digest of the mining package's source: every module, by path and content."""
    root = Path(__file__).parent
    return files_digest(root, root.rglob("*.py"))


def reading_rules(cfg: MiningConfig) -> str:
    """The identity of the rules a pass reads sessions with, under these settings."""
    return rules_identity(
        code_digest(), [list(cfg.correction_patterns), list(cfg.approval_patterns)]
    )


#: Marks a reading that left hard turns unasked (the miner model's per-pass cap): with
#: rules of its own, the session is read again by a later pass, which asks what is left.
UNASKED = "+unasked"


def left_unasked(rules: str) -> str:
    """The rules a session is stamped with when the cap left some of its hard turns to
    the rules: a later pass reads it again, keeps the verdicts it has, asks the rest."""
    return f"{rules}{UNASKED}"[:RULES_CHARS]


def read_by_a_newer_release(stored: str, current: str) -> bool:
    """The session was read by a later release than this one: this one leaves it alone."""
    return by_an_older_release(current, stored)


#: The stamps of the mined sessions not stamped `:rules`, with how many sessions hold each
#: (portable SQL: the idle check runs it on the stdlib driver, `sleepd status` on its reader).
OTHER_STAMPS_SQL = (
    "SELECT mined_with, count(*) FROM sessions "
    "WHERE mined_with != :rules AND mined_through_seq > 0 GROUP BY mined_with"
)


def to_read_again(stored: str, rules: str) -> bool:
    """A session stamped `stored` is read again by a pass with `rules`: other rules read it,
    and no later release."""
    return stored != rules and not read_by_a_newer_release(stored, rules)


def count_to_read_again(stamps: Iterable[Sequence[Any]], rules: str) -> int:
    """How many sessions `OTHER_STAMPS_SQL`'s rows hold that a pass with `rules` reads again."""
    return sum(int(count) for stored, count in stamps if to_read_again(str(stored), rules))
