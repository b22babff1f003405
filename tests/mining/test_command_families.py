"""A custom slash command's name is its task's family."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.mining.mine import mine
from sleepd.store.engine import read_session
from sleepd.store.models import Episode

from .builders import DONE, LATER, T0, SessionBuilder


def command(name: str, args: str = "") -> str:
    """A custom command as Claude Code stores it (`<command-name>` and friends)."""
    return (
        f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>\n"
        f"<command-args>{args}</command-args>"
    )


@pytest.mark.both_dbs
def test_runs_of_one_command_recur_and_two_commands_stay_apart(engine: Engine, cfg: Config) -> None:
    # the BMAD workflow commands of a real project (wild sample, ShamsiievDmytro/metrics)
    prompts = [
        command("bmad-dev-story"),
        command("bmad-create-story"),
        command("bmad-dev-story", "@_bmad-output/prd.md"),
        command("bmad-create-story"),
        command("release", "patch"),
        command("release", "minor"),
        "release a patch version of the cli",
    ]
    for day, prompt in enumerate(prompts):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt(prompt).say(DONE).save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        rows = db.execute(select(Episode.intent_text, Episode.cluster_id).order_by(Episode.id))
        cluster = {text: cid for text, cid in rows}
    assert cluster["/bmad-dev-story"] == cluster["/bmad-dev-story @_bmad-output/prd.md"]
    assert cluster["/bmad-create-story"] != cluster["/bmad-dev-story"]
    assert cluster["/release patch"] == cluster["/release minor"]
    assert cluster["release a patch version of the cli"] != cluster["/release patch"]
