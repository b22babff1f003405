"""Learned rules keep their provenance through adoption and rollback; `sleepd rules` lists
them with age, evidence and last measured contribution."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.review.rollback import execute_rollback, plan_rollback
from sleepd.store.engine import read_session
from sleepd.store.models import LearnedRule
from sleepd.watch.rules import document_without, list_rules, rules_in

from .conftest import AdoptFn

HELPFUL = "- Run the test suite with `pytest -q` before declaring a task done."
SECOND = "- Check the migration with `alembic upgrade head --sql` first.\n  Then apply it."


def test_rules_are_lines_of_the_managed_region_only() -> None:
    doc = (
        "# AGENTS.md\n\n- a user line outside\n\n<!-- sleepd:begin -->\n## Learned\n"
        f"{HELPFUL}\n{SECOND}\n<!-- sleepd:end -->\n"
    )
    assert rules_in(doc, "managed_section") == [HELPFUL, SECOND]
    reduced = document_without(doc, "managed_section", [SECOND])
    assert rules_in(reduced, "managed_section") == [HELPFUL]
    assert "- a user line outside" in reduced and "## Learned" in reduced


def _rows(engine: Engine) -> list[LearnedRule]:
    with read_session(engine) as db:
        rows = list(db.scalars(select(LearnedRule).order_by(LearnedRule.id)))
        db.expunge_all()
        return rows


def test_provenance_survives_adoption_and_rollback(
    engine: Engine, project: Path, adopt: AdoptFn, cli: Any
) -> None:
    agents = project / "AGENTS.md"
    agents.write_text(
        agents.read_text().replace("<!-- sleepd:end -->", "- hand rule\n<!-- sleepd:end -->")
    )
    first = adopt([7], rule=HELPFUL, tasks=[])
    (hand, helpful) = _rows(engine)
    assert hand.proposal_id is None  # there before sleepd adopted anything: not learned
    assert helpful.proposal_id == first.proposal_id and helpful.cluster_ids == [7]
    assert helpful.night_id is not None and helpful.removed_at is None

    second = adopt([8], rule=SECOND)
    rows = {r.text: r for r in _rows(engine)}
    assert rows[SECOND].proposal_id == second.proposal_id
    assert rows[HELPFUL].proposal_id == first.proposal_id  # unchanged by the later adoption

    execute_rollback(engine, plan_rollback(engine, target_path=str(agents)), actor="tester")
    rows = {r.text: r for r in _rows(engine)}
    assert rows[SECOND].removed_at is not None and rows[SECOND].removed_reason == "rollback"
    assert rows[HELPFUL].removed_at is None

    code, out, _ = cli("rules", "--json")
    assert code == 0
    (region,) = json.loads(out)
    listed = {r["text"]: r for r in region["rules"]}
    assert set(listed) == {"- hand rule", HELPFUL}
    assert listed[HELPFUL]["learned"] and listed[HELPFUL]["proposal_id"] == first.proposal_id
    assert listed[HELPFUL]["p_value"] == 0.004 and listed[HELPFUL]["age_days"] == 0.0
    assert listed[HELPFUL]["last_contribution"] is None
    assert not listed["- hand rule"]["learned"]
    assert region["size"] <= region["budget"]
    code, out, _ = cli("rules")
    assert code == 0 and "not measured yet" in out and "written by hand" in out

    later = datetime.now(UTC) + timedelta(days=40)
    (view,) = list_rules(engine, budget=40, now=later)
    assert view.over_budget
    assert {r.text: r.age_days for r in view.rules}[HELPFUL] >= 39.9
