"""Fidelity screening, each consumer judged, and the rubric judge in tools mode."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd.backends.base import ModelRequest, ModelResponse
from sleepd.config import Config
from sleepd.dream.judges import Judgement
from sleepd.dream.replay import ReplayTask, RolloutResult
from sleepd.dream.replay_modes import build_tool_replayer, consumer_regressions, screen_fidelity
from sleepd.dream.tool_replay import ReplaySite
from sleepd.mining.replay_site import TestCommand
from sleepd.store.engine import write_session
from sleepd.store.models import Task, TaskReplaySite

PYTEST = TestCommand(("pytest", "-q"))


def test_an_edit_that_hurts_one_consumer_is_refused_for_it() -> None:
    baseline = {"1@claude": [0.0, 0.0], "1@codex": [1.0, 1.0], "2@codex": [0.0, 1.0], "3": [0.0]}
    candidate = {"1@claude": [1.0, 1.0], "1@codex": [0.0, 1.0], "2@codex": [1.0, 1.0], "3": [0.0]}
    assert consumer_regressions(baseline, candidate) == []  # codex: -0.5 and +0.5
    candidate["2@codex"] = [0.0, 1.0]
    assert consumer_regressions(baseline, candidate) == ["codex"]
    assert consumer_regressions(baseline, {"1@claude": [None, None]}) == []


class StubReplayer:
    """Succeeds on the units named in `succeed`; records what it was asked."""

    def __init__(self, succeed: set[str]) -> None:
        self.succeed = succeed
        self.calls: list[tuple[list[str], str, str]] = []

    def run(
        self, tasks: Sequence[ReplayTask], document: str, arm: str, indices: Sequence[int]
    ) -> list[RolloutResult]:
        self.calls.append(([t.unit for t in tasks], document, arm))
        out = []
        for task in tasks:
            for index in indices:
                ok = task.unit in self.succeed
                response = ModelResponse(text="", backend="stub", model="")
                judgement = Judgement(1.0 if ok else 0.0, ok, {})
                out.append(RolloutResult(task, arm, index, "h", response, judgement))
        return out


def test_tasks_that_do_not_reproduce_their_outcome_are_not_gated(db_engine: Engine) -> None:
    with Session(db_engine) as db:
        ids = []
        for outcome in ("failure", "failure", "success"):
            task = Task(intent="fix it", split="val", project_path="/p", outcome=outcome)
            db.add(task)
            db.flush()
            db.add(TaskReplaySite(task_id=task.id, repo_root="/nonexistent", commit="a" * 40))
            ids.append(task.id)
        db.commit()
    units = [
        ReplayTask(str(i), "fix it", "val", site=_site(outcome), consumer="codex")
        for i, outcome in zip(ids, ("failure", "failure", "success"), strict=True)
    ]
    text_unit = ReplayTask("99", "explain it", "val")
    # unit 1 fails as it did (faithful); unit 2 now passes (unfaithful); unit 3 passes as it did
    stub = StubReplayer({f"{ids[1]}@codex", f"{ids[2]}@codex"})

    def db_write() -> AbstractContextManager[Any]:
        return write_session(db_engine)

    kept, report = screen_fidelity(
        db_write, stub, [*units, text_unit], "DOC", k=2, index_offset=0, min_fidelity=0.5,
        night_id=None,  # type: ignore[arg-type]
    )  # fmt: skip
    assert [u.unit for u in kept] == [f"{ids[0]}@codex", f"{ids[2]}@codex", "99"]
    assert report["excluded_low_fidelity"] == 1 and report["measured_units"] == 3
    assert stub.calls[0][1] == "DOC" and stub.calls[0][2] == "fidelity"
    with Session(db_engine) as db:
        fidelity = dict(db.execute(select(TaskReplaySite.task_id, TaskReplaySite.fidelity)).all())
    assert fidelity == {ids[0]: 1.0, ids[1]: 0.0, ids[2]: 1.0}


def _site(outcome: str, repo: str = "/nonexistent", commit: str = "a" * 40) -> ReplaySite:
    return ReplaySite(repo, commit, PYTEST, "AGENTS.md", "ledger", (), outcome)


class StubJudge:
    def __init__(self, score: float) -> None:
        self.score = score
        self.requests: list[ModelRequest] = []
        self.stopped_by = None

    def run(self, requests: Sequence[ModelRequest]) -> list[ModelResponse]:
        self.requests.extend(requests)
        text = f'{{"score": {self.score}, "reason": "stub"}}'
        return [ModelResponse(text=text, backend="stub", model="") for _ in requests]


def test_the_rubric_judge_sees_the_diff_and_tests_fenced_and_can_veto(
    ledger: tuple[Path, str], agents: Path, tmp_path: Path
) -> None:
    repo, commit = ledger
    wanted = ("tests/test_total_price.py::TestTotalPrice::test_total_price",)
    site = ReplaySite(str(repo), commit, PYTEST, "AGENTS.md", "ledger", wanted, "failure")
    unit = ReplayTask(
        "1", "The unit test for total_price fails, please fix the summing in ledger", "val",
        site=site, consumer="codex",
    )  # fmt: skip
    verdicts = {}
    for score in (1.0, 0.0):
        tools = build_tool_replayer(Config(), None, threading.Event())
        tools.settings.nice = 0
        tools.checkout_root = tmp_path / f"co{score}"
        tools.judge = StubJudge(score)
        [result] = tools.run([unit], "Always run pytest -q first.\n", "c1", [0])
        verdicts[score] = result.judgement
        [request] = tools.judge.requests
        prompt = request.messages[0].content
        assert "<transcript-data>" in prompt and "--- diff ---" in prompt
        assert "return sum(items)" in prompt and "passed" in prompt
    assert verdicts[1.0].success is True and verdicts[1.0].detail["tests_after"]["failed"] == 3
    assert verdicts[0.0].success is False and verdicts[0.0].detail["verdict"]


def test_a_rollout_with_the_network_cut_is_told_so_and_judged_so(
    ledger: tuple[Path, str], agents: Path, tmp_path: Path
) -> None:
    """A request that ends "… then push and open a PR" cannot be finished offline: the
    agent is told which steps cannot be done there, and the judge not to count them, so
    that the task is not judged a failure on every rollout (and dropped by the fidelity
    screen for never ending as the session did). With the network on, neither is said."""
    import json

    from sleepd.dream.prompts import OFFLINE_NOTE, OFFLINE_TASK_NOTE

    repo, commit = ledger
    wanted = ("tests/test_total_price.py::TestTotalPrice::test_total_price",)
    site = ReplaySite(str(repo), commit, PYTEST, "AGENTS.md", "ledger", wanted, "success")
    unit = ReplayTask(
        "1", "The unit test for total_price fails, please fix the summing in ledger, then "
        "push and open a PR", "val",
        site=site, consumer="codex",
    )  # fmt: skip
    for network in (False, True):
        tools = build_tool_replayer(Config(), None, threading.Event())
        tools.settings.nice = 0
        tools.settings.network = network
        tools.checkout_root = tmp_path / f"co-{network}"
        tools.judge = StubJudge(1.0)
        for old in agents.glob("*.json") if agents.exists() else []:
            old.unlink()
        tools.run([unit], "Always run pytest -q first.\n", "c1", [0])
        [run] = [json.loads(p.read_text()) for p in agents.glob("*.json")]
        [request] = tools.judge.requests
        judged = request.messages[0].content
        assert (OFFLINE_TASK_NOTE in run["prompt"]) is not network
        assert (OFFLINE_NOTE in judged) is not network
        # ours, after the fence: never inside the quoted task
        if not network:
            assert judged.rindex(OFFLINE_NOTE) > judged.rindex("</transcript-data>")
