"""A task names the commits its session had made before the request.

The summary lines are real: entireio/git-sync's history ("[main 322747c] Hint at
--force-blind on receive-pack lease failures") and entireio/cli's; the rest constructed.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import select, update
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.dream.prompts import target_user_message
from sleepd.mining.mine import mine
from sleepd.mining.session_commits import MAX_COMMITS, commits_before
from sleepd.store.engine import read_session, write_session
from sleepd.store.models import Episode, Session

from .builders import LATER, T0, SessionBuilder
from .test_command_families import command
from .test_command_text import _tasks

_FIRST = (
    "[main d02d15a] Split --force into --force-with-lease and --force-blind\n"
    " 19 files changed, 412 insertions(+), 97 deletions(-)"
)
_SECOND = (
    "[main 322747c] Hint at --force-blind on receive-pack lease failures\n"
    " 2 files changed, 40 insertions(+)"
)


def _commits_of(engine: Engine, cfg: Config, session_id: int) -> list[list[str]]:
    """The commits each episode of the session names, once the store is mined."""
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        episodes = list(db.scalars(select(Episode).where(Episode.session_id == session_id)))
        return list(commits_before(db, episodes).values())


@pytest.mark.both_dbs
def test_a_request_after_the_sessions_commits_names_them(engine: Engine, cfg: Config) -> None:
    for day in range(2):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt("split --force into --force-with-lease and --force-blind").say("On it.")
        b.bash('git commit -m "Split --force"', _FIRST)
        b.bash("git commit -m 'nothing'", "nothing to commit, working tree clean", exit_code=1)
        b.bash('git commit -m "Hint"', _SECOND).say("Both committed.")
        b.prompt(command("simplify")).meta("# Simplify\n\nReview all changed files.")
        b.bash("git diff", "").say("Nothing left to simplify.")
        # a commit after the request is the request's own work, never its context
        b.bash('git commit -m "later"', "[main 9f8e7d6] later\n 1 file changed")
        b.save(engine)
    simplify = [t for t in _tasks(engine, cfg) if t.intent.startswith("/simplify")]
    assert simplify
    assert simplify[0].context["committed_before"] == [
        "d02d15a Split --force into --force-with-lease and --force-blind",
        "322747c Hint at --force-blind on receive-pack lease failures",
    ]
    message = target_user_message(simplify[0].intent, simplify[0].context)
    assert "the session had committed" in message and "- 322747c Hint at" in message
    assert "9f8e7d6" not in json.dumps(simplify[0].context)


def test_the_persons_own_commit_counts_and_another_sessions_does_not(
    engine: Engine, cfg: Config
) -> None:
    other = SessionBuilder(start=T0)
    other.prompt("add a --json flag").bash('git commit -m "json"', "[main aaaaaaa] json\n 1 file")
    other.save(engine)
    b = SessionBuilder(start=T0 + timedelta(hours=1))
    b.prompt("fix the typo in the README").say("Fixed.")
    b.prompt("<bash-input>git commit -am 'typo'</bash-input>")
    b.meta("<bash-stdout>[soph/docs (root-commit) 1a2b3c4] typo\n 1 file changed</bash-stdout>")
    b.prompt(command("review")).meta("Review the changes on this branch.").say("Looks fine.")
    named = _commits_of(engine, cfg, b.save(engine))
    assert ["1a2b3c4 typo"] in named
    assert not any("aaaaaaa" in line for lines in named for line in lines)


def test_only_the_newest_commits_are_named(engine: Engine, cfg: Config) -> None:
    b = SessionBuilder(start=T0)
    b.prompt("do the whole migration, one commit per table").say("On it.")
    for n in range(MAX_COMMITS + 2):
        b.bash(f'git commit -m "table {n}"', f"[main {n:07x}] migrate table {n}\n 1 file changed")
    b.prompt(command("review")).meta("Review the changes on this branch.").say("Fine.")
    [named] = [lines for lines in _commits_of(engine, cfg, b.save(engine)) if lines]
    assert len(named) == MAX_COMMITS
    assert named[0].endswith("migrate table 2") and named[-1].endswith(f"table {MAX_COMMITS + 1}")


def test_hostile_lines_name_no_commit(engine: Engine, cfg: Config) -> None:
    """Output that only looks like git's line in part, or goes on for ever, names nothing
    it does not hold, and a subject is clipped."""
    b = SessionBuilder(start=T0)
    b.prompt("do it")
    b.bash("cat notes", "[" * 50_000 + "\n[main zzzzzzz] not a hex id\n[main 1234567]")
    b.bash("git commit -m x", "[main abcdef1] " + "x" * 5_000 + "\n 1 file changed")
    b.prompt(command("review")).meta("Review the changes on this branch.").say("Fine.")
    lines = [line for lines in _commits_of(engine, cfg, b.save(engine)) for line in lines]
    assert lines and all(line.startswith("abcdef1 ") for line in lines)
    assert max(len(line) for line in lines) <= 8 + 120


def test_the_commits_a_conversation_made_before_a_resume_are_named_after_it(
    engine: Engine, cfg: Config
) -> None:
    """A conversation resumed or forked into a new file: what it committed in the first
    file came before the new file's requests, by time, as its own commits do; a commit
    the first file made after the request (a fork that went on) does not."""
    first = SessionBuilder(start=T0)
    first.prompt("split --force into --force-with-lease and --force-blind").say("On it.")
    first.bash('git commit -m "Split --force"', _FIRST).say("Committed.")
    first_id = first.save(engine)
    new = SessionBuilder(start=T0 + timedelta(hours=1), kind="fork", parent_id=first_id)
    new.bash('git commit -m "Hint"', _SECOND)
    new.prompt(command("simplify")).meta("# Simplify\n\nReview all changed files.")
    new.say("Nothing left to simplify.")
    new_id = new.save(engine)
    late = SessionBuilder(start=T0 + timedelta(hours=3))
    late.bash('git commit -m "later"', "[main 9f8e7d6] later\n 1 file changed")
    late_id = late.save(engine)
    mine(engine, cfg, now=LATER)
    with write_session(engine) as db:
        # (the fork's own file names no copy or record of the first: told here)
        db.execute(
            update(Session)
            .where(Session.id.in_([new_id, late_id]))
            .values(conversation_session_id=first_id)
        )
    with read_session(engine) as db:
        [simplify] = db.scalars(
            select(Episode).where(
                Episode.session_id == new_id, Episode.intent_text.startswith("/simplify")
            )
        )
        named = commits_before(db, [simplify]).get(simplify.id)
    assert named == [
        "d02d15a Split --force into --force-with-lease and --force-blind",
        "322747c Hint at --force-blind on receive-pack lease failures",
    ]
