"""Dry runs spend nothing; A/A calibration is stored and shown by `sleepd status`."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from sleepd.cli.app import app
from sleepd.dream.night import NightOptions, run_night
from sleepd.store.models import BudgetEntry, Candidate, GateDecisionRecord, Night, Rollout

from .support import BackendCapture, add_tasks, small_config


def count(db: Session, model: type) -> int:
    return int(db.scalar(select(func.count()).select_from(model)) or 0)


def test_dry_run_makes_no_model_call_and_plans_each_project(
    engine: Engine, tmp_path: Path, capture: BackendCapture
) -> None:
    add_tasks(engine, tmp_path / "api")
    add_tasks(engine, tmp_path / "web", train=4, val=6, test=2)
    cfg = small_config()
    result = run_night(engine, cfg, NightOptions(skip_harvest=True, dry_run=True))

    # The backends are built only to say whether they are usable; no call is made.
    assert result.status == "completed"
    plans = {p["project"]: p for p in result.summary["projects"]}
    assert set(plans) == {str(tmp_path / "api"), str(tmp_path / "web")}
    api = plans[str(tmp_path / "api")]
    assert api["status"] == "planned"
    k, rounds, n_cand = 2, cfg.gate.sequential_rounds, cfg.dream.candidates_per_night
    assert api["plan"]["train_rollouts"] == 6 * k
    assert api["plan"]["val_rollouts_max"] == 8 * rounds * (n_cand + 1)
    assert api["plan"]["test_rollouts"] == 4 * k * 2
    assert plans[str(tmp_path / "web")]["plan"]["train_rollouts"] == 4 * k
    assert api["plan"]["target"].startswith(str(tmp_path / "api"))
    assert api["plan"]["backend_usable"] is True and api["plan"]["backend_problem"] is None
    assert api["plan"]["forecast_usd"]["total"] == 0.0  # the simulator costs nothing
    assert 0 < api["plan"]["detect_detectable_lift"] < 1
    assert "with 8 validation tasks x 3 rollouts" in api["plan"]["detect_sentence"]
    with Session(engine) as db:
        for model in (Rollout, BudgetEntry, Candidate, GateDecisionRecord):
            assert count(db, model) == 0, model.__name__
        night = db.get(Night, result.night_id)
        assert night is not None and night.dry_run and night.tokens == 0


def test_aa_calibration_is_stored_and_counted_by_status(
    engine: Engine, project: Path, capture: BackendCapture
) -> None:
    add_tasks(engine, project)
    result = run_night(
        engine, small_config(), NightOptions(skip_harvest=True, backend="sim", calibrate=True)
    )
    assert result.status == "completed", result.stop_reason
    with Session(engine) as db:
        aa = db.scalars(
            select(GateDecisionRecord).where(GateDecisionRecord.calibration.is_(True))
        ).all()
        assert len(aa) == 1
        assert aa[0].night_id == result.night_id and aa[0].candidate_id is None
        arms = {r.arm for r in db.scalars(select(Rollout))}
        assert "baseline-aa" in arms
    assert result.summary["projects"][0]["calibration"] == aa[0].outcome

    shown = CliRunner().invoke(app, ["status", "--json"])
    assert shown.exit_code == 0, (shown.stdout, shown.stderr)
    gate = json.loads(shown.stdout)["gate"]
    assert gate["aa_trials"] >= 1
    assert gate["aa_false_accept_rate"] == (1.0 if aa[0].outcome == "accept" else 0.0)


def test_no_calibration_row_without_calibrate(
    engine: Engine, project: Path, capture: BackendCapture
) -> None:
    add_tasks(engine, project)
    run_night(
        engine, small_config(), NightOptions(skip_harvest=True, backend="sim", calibrate=False)
    )
    with Session(engine) as db:
        stored = db.scalars(
            select(GateDecisionRecord).where(GateDecisionRecord.calibration.is_(True))
        ).all()
        assert stored == []
