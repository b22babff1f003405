"""Sessions a program started give no tasks; their errors still count."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.mining.figures import top_patterns
from sleepd.mining.mine import mine

from .builders import DONE, LATER, T0, SessionBuilder

#: The opening of a review bot's prompt, the same on every run (a real `claude -p`
#: session of the wild sample, teslamint/entirecontext, entrypoint `sdk-cli`).
BOT = (
    'You are a futures analyst grounded in Kent Beck\'s "Tidy First?" philosophy. '
    "You evaluate code changes through the lens of software design options. Change {n}."
)


def store_runs(engine: Engine, origin: str | None) -> None:
    for n in range(3):
        meta = {"origin": origin} if origin else {}
        b = SessionBuilder(start=T0 + timedelta(days=n), session_meta=meta)
        b.prompt(BOT.format(n=n)).bash("git diff main", "fatal: bad revision 'main'", exit_code=128)
        b.say(DONE).save(engine)


@pytest.mark.both_dbs
@pytest.mark.parametrize("origin", ["sdk-cli", "sdk-ts", "exec", "mcp", "serialized-history"])
def test_a_programs_sessions_give_no_tasks(engine: Engine, cfg: Config, origin: str) -> None:
    store_runs(engine, origin)
    report = mine(engine, cfg, now=LATER)
    assert (report.episodes_new, report.clusters_new, report.tasks_new) == (3, 0, 0)
    (pattern,) = top_patterns(engine, now=LATER)  # their failures are real failures
    assert pattern.count == 3
    again = mine(engine, cfg, now=LATER)  # and a second pass finds nothing new
    assert (again.sessions_mined, again.clusters_new) == (0, 0)


@pytest.mark.parametrize("origin", [None, "cli", "claude-desktop", "claude-vscode", "vscode"])
def test_a_persons_sessions_give_tasks(engine: Engine, cfg: Config, origin: str | None) -> None:
    store_runs(engine, origin)
    assert mine(engine, cfg, now=LATER).tasks_new == 3


def test_mining_a_programs_sessions_can_be_turned_on(engine: Engine, cfg: Config) -> None:
    cfg.mining.mine_automated_sessions = True
    store_runs(engine, "sdk-cli")
    assert mine(engine, cfg, now=LATER).tasks_new == 3
