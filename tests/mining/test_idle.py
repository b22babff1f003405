"""`sleepd mine` with nothing pending: answered without a pass, and only when that is true.

The guarantee under test: whenever `idle_report` answers, a full pass would add nothing; and
whenever there is something to mine (new events, a session gone quiet, an interrupted pass,
changed settings, someone else's change to the mined tables), it does not answer.
"""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from sleepd import paths
from sleepd.config import Config
from sleepd.mining import idle
from sleepd.mining import mine as mine_module
from sleepd.mining.idle import idle_report, record_idle_run, run_pass
from sleepd.mining.mine import mine
from sleepd.store import integrity

from .builders import LATER, T0, SessionBuilder


@pytest.fixture
def db_cfg(engine: Engine, cfg: Config) -> Config:
    cfg.database_url = engine.url.render_as_string(hide_password=False)
    return cfg


def recurring(engine: Engine, intent: str, start: object = T0) -> int:
    b = SessionBuilder(start=start)  # type: ignore[arg-type]
    b.prompt(intent).bash("npm install", "EACCES: permission denied", exit_code=1)
    b.bash("pnpm install", "done").prompt("thanks, works now")
    return b.save(engine)


def db_file(cfg: Config) -> Path:
    return Path(cfg.database_url.removeprefix("sqlite:///"))


def new_counts(report: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in report.items() if k.endswith("_new") or k == "sessions_mined"}


def test_after_a_pass_nothing_is_pending_and_a_pass_indeed_adds_nothing(
    engine: Engine, db_cfg: Config
) -> None:
    recurring(engine, "install the dependencies with pnpm")
    recurring(engine, "please install deps via pnpm", T0 + timedelta(days=1))
    first = run_pass(engine, db_cfg, now=LATER)
    assert first["tasks_new"] == 2
    quick = idle_report(db_cfg, now=LATER)
    assert quick is not None
    assert set(new_counts(quick).values()) == {0}
    for key in ("episodes_total", "clusters_total", "recurring_clusters", "tasks_by_split"):
        assert quick[key] == first[key]
    again = mine(engine, db_cfg, now=LATER).to_dict()
    assert set(new_counts(again).values()) == {0}
    assert {k: again[k] for k in ("episodes_total", "tasks_by_split")} == {
        k: quick[k] for k in ("episodes_total", "tasks_by_split")
    }


def test_new_sessions_are_pending_until_mined(engine: Engine, db_cfg: Config) -> None:
    recurring(engine, "install the dependencies with pnpm")
    run_pass(engine, db_cfg, now=LATER)
    recurring(engine, "please install deps via pnpm", T0 + timedelta(days=1))
    assert idle_report(db_cfg, now=LATER) is None
    assert run_pass(engine, db_cfg, now=LATER)["episodes_new"] == 1
    assert idle_report(db_cfg, now=LATER) is not None


def test_events_appended_to_a_mined_session_are_pending(engine: Engine, db_cfg: Config) -> None:
    b = SessionBuilder()
    b.prompt("install the dependencies with pnpm").bash("pnpm install", "done")
    session_id = b.save(engine)
    run_pass(engine, db_cfg, now=LATER)
    before = len(b.rows)
    b.prompt("now run the tests").bash("pnpm test", "1 failed", exit_code=1)
    b.append(engine, session_id, before)
    assert idle_report(db_cfg, now=LATER) is None


def test_an_open_episode_is_pending_once_its_session_went_quiet(
    engine: Engine, db_cfg: Config
) -> None:
    recurring(engine, "install the dependencies with pnpm")
    soon = T0 + timedelta(minutes=30)  # the session is still going: its episode stays open
    run_pass(engine, db_cfg, now=soon)
    assert idle_report(db_cfg, now=soon) is not None
    quiet = T0 + idle.IDLE_CLOSE + timedelta(minutes=5)
    assert idle_report(db_cfg, now=quiet) is None
    run_pass(engine, db_cfg, now=quiet)
    assert idle_report(db_cfg, now=quiet) is not None


def test_an_interrupted_pass_leaves_the_next_one_to_run_in_full(
    engine: Engine, db_cfg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    recurring(engine, "install the dependencies with pnpm")
    run_pass(engine, db_cfg, now=LATER)
    assert idle_report(db_cfg, now=LATER) is not None

    def killed(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(mine_module, "mine", killed)
    with pytest.raises(KeyboardInterrupt):
        run_pass(engine, db_cfg, now=LATER)
    assert idle_report(db_cfg, now=LATER) is None


def test_changed_settings_mean_a_full_pass(engine: Engine, db_cfg: Config) -> None:
    recurring(engine, "install the dependencies with pnpm")
    run_pass(engine, db_cfg, now=LATER)
    db_cfg.mining.min_recurrence += 1
    assert idle_report(db_cfg, now=LATER) is None


def test_new_mining_rules_mean_a_full_pass_that_reads_every_session_again(
    engine: Engine, db_cfg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    recurring(engine, "install the dependencies with pnpm")
    run_pass(engine, db_cfg, now=LATER)
    assert idle_report(db_cfg, now=LATER) is not None
    upgraded = "0.1.0:an-upgraded-reader"  # what an upgrade of the mining code gives
    monkeypatch.setattr(idle, "reading_rules", lambda _mining: upgraded)
    monkeypatch.setattr(mine_module, "reading_rules", lambda _mining: upgraded)
    assert idle_report(db_cfg, now=LATER) is None
    assert run_pass(engine, db_cfg, now=LATER)["sessions_read_again"] == 1
    assert idle_report(db_cfg, now=LATER) is not None


def test_someone_elses_change_to_the_mined_tables_means_a_full_pass(
    engine: Engine, db_cfg: Config
) -> None:
    recurring(engine, "install the dependencies with pnpm")
    recurring(engine, "please install deps via pnpm", T0 + timedelta(days=1))
    run_pass(engine, db_cfg, now=LATER)
    with sqlite3.connect(db_file(db_cfg)) as conn:
        conn.execute("UPDATE tasks SET active = 0 WHERE id = (SELECT min(id) FROM tasks)")
    assert idle_report(db_cfg, now=LATER) is None


def test_a_missing_bad_or_foreign_record_means_a_full_pass(engine: Engine, db_cfg: Config) -> None:
    recurring(engine, "install the dependencies with pnpm")
    assert idle_report(db_cfg, now=LATER) is None  # never mined
    run_pass(engine, db_cfg, now=LATER)
    record = paths.home_dir() / idle.RECORD_NAME
    saved = record.read_bytes()
    for hostile in (b"", b"\x00\xff not json", b"[1, 2]", b'{"key": null}'):
        record.write_bytes(hostile)
        assert idle_report(db_cfg, now=LATER) is None
    record.write_bytes(saved)
    assert idle_report(db_cfg, now=LATER) is not None
    other = Config()
    other.database_url = "postgresql://nobody@127.0.0.1:1/none"
    assert idle_report(other, now=LATER) is None


def test_a_file_marked_damaged_means_a_full_pass(engine: Engine, db_cfg: Config) -> None:
    recurring(engine, "install the dependencies with pnpm")
    run_pass(engine, db_cfg, now=LATER)
    integrity.marker_for(db_file(db_cfg)).write_text("test")
    assert idle_report(db_cfg, now=LATER) is None


def test_an_idle_run_is_recorded_as_a_finished_mine_job(engine: Engine, db_cfg: Config) -> None:
    recurring(engine, "install the dependencies with pnpm")
    run_pass(engine, db_cfg, now=LATER)
    quick = idle_report(db_cfg, now=LATER)
    assert quick is not None
    record_idle_run(db_cfg, quick)
    with sqlite3.connect(db_file(db_cfg)) as conn:
        job, outcome, ended = conn.execute(
            "SELECT job, outcome, ended_at FROM job_runs ORDER BY id DESC LIMIT 1"
        ).fetchone()
    assert (job, outcome) == ("mine", "ok") and ended is not None


def test_the_quiet_time_is_the_miners() -> None:
    assert idle.IDLE_CLOSE == mine_module.IDLE_CLOSE
