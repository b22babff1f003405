"""Property: a task's replay context never holds text from after the intent's turn (a
command's own text, written right after it, is part of that turn)."""

from __future__ import annotations

import itertools
import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.mining.mine import mine
from sleepd.store.engine import read_session
from sleepd.store.models import Episode, Event, Task

from .builders import LATER, SessionBuilder
from .test_command_families import command

STEP = st.sampled_from(
    [
        *("task", "correction", "approval", "continue", "ok", "fail", "pasted"),
        *("command", "order", "late_skill"),
    ]
)
_marks = itertools.count(1)
MARK = re.compile(r"(?<!cmd)zq\d+x")


def mark() -> str:
    return f"zq{next(_marks)}x"


def build(steps: list[str]) -> SessionBuilder:
    b = SessionBuilder(project="/work/leak")
    b.prompt(f"Please update the module {mark()}.py and its tests")
    for step in steps:
        if step == "task":
            b.prompt(f"Please update the module {mark()}.py and its tests")
        elif step == "correction":
            b.prompt(f"no, use {mark()} not {mark()}")
        elif step == "approval":
            b.prompt(f"thanks {mark()}")
        elif step == "continue":
            b.prompt(f"continue with {mark()}")
        elif step == "pasted":
            b.prompt(f"Error: still broken {mark()}")
        elif step == "command":
            # a command's own text is part of its turn: carried, and marked so the check
            # below does not look for it
            b.prompt(command("release", "patch")).meta(f"Bump the version, tag cmd{mark()}")
        elif step == "order":
            b.prompt(command("superpowers:brainstorm"))
            b.meta("Invoke the superpowers:brainstorming skill and follow it exactly\n")
        elif step == "late_skill":
            # a skill's text after the person typed again belongs to that turn
            b.prompt(f"now look at {mark()}")
            b.meta(f"Base directory for this skill: /x/skills/brainstorming\n\n# {mark()}")
        elif step == "fail":
            b.bash(f"make {mark()}", f"error {mark()}", exit_code=2)
        else:
            b.bash(f"make {mark()}", f"built {mark()}")
    return b


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.lists(STEP, min_size=1, max_size=8), min_size=1, max_size=3))
def test_context_holds_nothing_from_after_the_intent(
    engine: Engine, cfg: Config, sessions: list[list[str]]
) -> None:
    for steps in sessions:
        b = build(steps)
        b.say("Done: I've updated the module.")
        b.prompt(f"no, use {mark()} not {mark()}")  # a final correction: always a task
        b.save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        tasks = list(db.scalars(select(Task)))
        assert tasks
        for task in tasks:
            episode = db.get(Episode, task.episode_id)
            assert episode is not None
            later = db.scalars(
                select(Event.text).where(
                    Event.session_id == episode.session_id, Event.seq > episode.start_seq
                )
            ).all()
            context = json.dumps(task.context)
            for text in later:
                for token in MARK.findall(text):
                    assert token not in context, (token, task.context)
