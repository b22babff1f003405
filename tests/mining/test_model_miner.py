"""Model-assisted judge specs: used when valid, heuristic fallback (counted) when not."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.backends.base import FailureKind, ModelRequest, ModelResponse
from sleepd.config import Config
from sleepd.mining.mine import mine
from sleepd.store.engine import read_session
from sleepd.store.models import Task

from .builders import LATER, SessionBuilder

GOOD = {
    "version": 1,
    "checks": [{"type": "must_contain", "value": "pnpm install", "weight": 2.0}],
    "rubric": "Uses pnpm.",
}


@dataclass
class FakeBackend:
    answers: list[ModelResponse]
    requests: list[ModelRequest] = field(default_factory=list)
    name: str = "fake"
    simulated: bool = True

    def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        return self.answers.pop(0)


def reply(text: str, failure: FailureKind | None = None) -> ModelResponse:
    return ModelResponse(text=text, backend="fake", model="m", failure=failure)


def seed(engine: Engine, n: int) -> None:
    for _ in range(n):
        b = SessionBuilder().prompt("Set up the project dependencies").bash("npm install")
        b.prompt("no, use pnpm not npm").save(engine)


def specs(engine: Engine) -> list[dict]:
    with read_session(engine) as db:
        return [t.judge_spec for t in db.scalars(select(Task).order_by(Task.id))]


def test_valid_model_spec_is_used_and_invalid_ones_fall_back(engine: Engine, cfg: Config) -> None:
    cfg.mining.model_assisted = True
    seed(engine, 3)
    # each session's "no, use pnpm not npm" is a correction the rules leave to the model
    # (hard): the model's reading of it comes first, then the judge specs
    backend = FakeBackend(
        [
            *[reply('{"kind": "correction"}')] * 3,
            reply("```json\n" + json.dumps(GOOD) + "\n```"),
            reply('{"version": 1, "checks": [{"type": "bogus", "value": "x"}], "rubric": ""}'),
            reply("", FailureKind.TIMEOUT),
        ]
    )
    report = mine(engine, cfg, now=LATER, backend=backend)
    assert report.tasks_new == 3 and report.miner_fallbacks == 2
    got = specs(engine)
    assert got[0]["checks"][0]["value"] == "pnpm install"
    heuristic = {(c["type"], c["value"]) for c in got[1]["checks"]}
    assert ("must_contain", "pnpm") in heuristic
    request = backend.requests[3]
    assert request.role == "miner" and request.json_schema is not None


def test_without_the_flag_no_model_is_asked(engine: Engine, cfg: Config) -> None:
    seed(engine, 1)
    backend = FakeBackend([])
    assert mine(engine, cfg, now=LATER, backend=backend).tasks_new == 1
    assert backend.requests == []


def test_miner_backend_is_off_by_default_and_reasons_when_unavailable(cfg: Config) -> None:
    from sleepd.config import RoleConfig
    from sleepd.mining.model_miner import miner_backend

    assert miner_backend(cfg) == (None, None)
    cfg.mining.model_assisted = True
    cfg.roles["miner"] = RoleConfig(backend="no-such-backend", model="")
    backend, reason = miner_backend(cfg)
    assert backend is None and reason is not None and "no-such-backend" in reason


def test_the_miner_model_reads_what_a_command_asked(engine: Engine, cfg: Config) -> None:
    """A command's spec is written against its text, not its name ("/release patch")."""
    from datetime import timedelta

    from .builders import T0
    from .test_command_families import command

    cfg.mining.model_assisted = True
    for day in range(2):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt(command("release", "patch")).meta("# Release\n\nBump the patch version.")
        b.bash("npm version patch", "v1.2.4").say("Released v1.2.4.")
        b.save(engine)
    backend = FakeBackend([reply(json.dumps(GOOD)) for _ in range(4)])
    mine(engine, cfg, now=LATER, backend=backend)
    asked = [r for r in backend.requests if "heuristic_spec" in r.messages[0].content]
    assert asked and all(
        "Bump the patch version." in r.messages[0].content
        and "what_the_command_asked" in r.messages[0].content
        for r in asked
    )
