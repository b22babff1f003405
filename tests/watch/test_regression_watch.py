"""After an adoption, live sessions decide: helping, no evidence yet, or looks worse.

Every session is a synthetic Codex rollout written into CODEX_HOME and read back through
the real harvest and mining (Codex reads AGENTS.md every session). The adoption is real
(`adopt_proposal`); the sessions after it start a few milliseconds after its recorded time,
so the status command's own clock already lies past them (polled, never slept), and
mining runs with an injected clock a day later so every session is over.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.status import collect_status
from sleepd.store.fastread import ReadOnlyDb
from sleepd.watch.report import WatchSettings, watch_adoptions

from .conftest import AdoptFn
from .sessions import DEPLOY, FLAKY, cluster_of, codex_session, harvest_and_mine

# (deploy successes, deploy total, flaky successes, flaky total) before, then after
SCENARIOS = {
    "better": ((1, 6, 3, 4), (6, 6, 3, 4), "helping", True),
    "same": ((3, 6, 3, 4), (3, 6, 3, 4), "no evidence yet", True),
    "worse": ((6, 6, 3, 4), (1, 6, 3, 4), "looks worse", False),
}


def _sessions(project: Path, start: datetime, step: timedelta, figures: tuple[int, ...]) -> None:
    deploy_ok, deploy_n, flaky_ok, flaky_n = figures
    moment = start
    for i in range(deploy_n):
        codex_session(project, moment, DEPLOY[i % 3], success=i < deploy_ok)
        moment += step
    for i in range(flaky_n):
        codex_session(project, moment, FLAKY[i % 3], success=i < flaky_ok)
        moment += step


def _wait_past(moment: datetime) -> None:
    """Poll (never sleep a fixed time) until the wall clock is past `moment`."""
    deadline = datetime.now(UTC) + timedelta(seconds=5)
    while datetime.now(UTC) <= moment:
        assert datetime.now(UTC) < deadline, "the clock did not pass the last session"


def run_scenario(
    engine: Engine, cfg: Config, project: Path, adopt: AdoptFn, name: str
) -> tuple[Any, datetime]:
    before, after, _verdict, _ok = SCENARIOS[name]
    first = datetime.now(UTC) - timedelta(days=10)
    _sessions(project, first, timedelta(hours=3), before)
    harvest_and_mine(engine, cfg, datetime.now(UTC))
    deploy = cluster_of(engine, DEPLOY[0])
    adopted = adopt([deploy])
    # after the adoption: one millisecond apart, so they are in the past a moment later
    last = adopted.at + timedelta(milliseconds=1 + sum(after[1::2]))
    _sessions(project, adopted.at + timedelta(milliseconds=1), timedelta(milliseconds=1), after)
    harvest_and_mine(engine, cfg, adopted.at + timedelta(days=1))
    _wait_past(last)
    return adopted, last


@pytest.mark.both_dbs
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_each_report_and_the_check(
    name: str, engine: Engine, cfg: Config, project: Path, adopt: AdoptFn, cli: Any
) -> None:
    adopted, _last = run_scenario(engine, cfg, project, adopt, name)
    before, after, verdict, check_ok = SCENARIOS[name]
    watches = watch_adoptions(_reader(engine), WatchSettings.from_config(cfg))
    assert len(watches) == 1
    w = watches[0]
    assert w.proposal_id == adopted.proposal_id and w.in_force
    assert w.verdict == verdict, w.reason
    t = w.target.comparison
    assert (t.before_success, t.before_total) == before[:2]
    assert (t.after_success, t.after_total) == after[:2]
    o = w.others.comparison
    assert (o.before_total, o.after_total) == (before[3], after[3])
    assert w.sessions_read_after == w.sessions_after == after[1] + after[3]

    code, out, err = cli("status", "--json", "--check")
    report = json.loads(out)
    shown = report["watch"]["adoptions"][0]
    assert shown["verdict"] == verdict
    assert shown["target"]["after_total"] == after[1]
    if check_ok:
        assert "looks worse" not in err
    else:
        assert code != 0
        command = f"sleepd rollback --target {adopted.path}"
        assert report["watch"]["looks_worse"][0]["rollback_command"] == command
        assert f"run `{command}`" in err

    code, out, _ = cli("status")
    assert code == 0 and verdict in out
    if not check_ok:
        assert f"sleepd rollback --target {adopted.path}" in out
    code, out, _ = cli("history", "--json")
    versions = {v["id"]: v for v in json.loads(out)}
    assert versions[adopted.version_id]["watch"]["verdict"] == verdict
    code, out, _ = cli("history")
    assert code == 0 and verdict in out
    code, out, _ = cli("review", "show", str(adopted.proposal_id), "--json")
    assert json.loads(out)["watch"]["verdict"] == verdict
    code, out, _ = cli("review", "show", str(adopted.proposal_id), "--no-pager")
    assert code == 0 and "after adoption" in out and verdict in out
    if not check_ok:
        assert f"sleepd rollback --target {adopted.path}" in out


def test_too_few_sessions_after_is_no_evidence_yet(
    engine: Engine, cfg: Config, project: Path, adopt: AdoptFn
) -> None:
    """Even a collapse is not called before the minimum sample is reached."""
    first = datetime.now(UTC) - timedelta(days=10)
    _sessions(project, first, timedelta(hours=3), (6, 6, 0, 0))
    harvest_and_mine(engine, cfg, datetime.now(UTC))
    adopted = adopt([cluster_of(engine, DEPLOY[0])])
    _sessions(project, adopted.at + timedelta(minutes=1), timedelta(minutes=1), (0, 3, 0, 0))
    now = adopted.at + timedelta(days=1)
    harvest_and_mine(engine, cfg, now)
    report = collect_status(_reader(engine), cfg, now=now)
    (shown,) = report["watch"]["adoptions"]
    assert shown["verdict"] == "no evidence yet"
    assert (shown["target"]["after_success"], shown["target"]["after_total"]) == (0, 3)
    assert "needs 6 episodes" in shown["reason"]
    assert report["watch"]["looks_worse"] == []


def _reader(engine: Engine) -> ReadOnlyDb:
    return ReadOnlyDb(engine.url.render_as_string(hide_password=False))
