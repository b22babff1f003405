"""An accepted plan is compared by what it asks, not by the frame every plan shares."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.mining.mine import mine
from sleepd.mining.recurrence import request_of
from sleepd.store.engine import read_session
from sleepd.store.models import Episode

from .builders import DONE, LATER, T0, SessionBuilder

#: The frame of Claude Code's first message after a plan is accepted with a fresh context;
#: titles and sections as in real plans of one repository (ClusterCockpit/cc-backend).
FRAME = """Implement the following plan:

# Plan: {title}

## Context

{context}

## Files to modify

- `internal/repository/stats.go` — the query builder
- `internal/api/rest.go` — the handler
- `web/frontend/src/Jobs.root.svelte`

## Verification

1. `go build ./...`
2. `go test ./internal/repository/...`
3. Open the jobs list in the web UI and check the numbers.
"""

PLANS = [
    (
        "Fix: buildStatsQuery hangs on the users list page",
        "The users list page executes a GROUP BY job.hpc_user stats query; on production "
        "databases with hundreds of thousands of jobs this query never returns.",
    ),
    (
        "Add RRDTool-style Average Consolidation Function to Resampler",
        "The current downsampler offers two algorithms, LTTB and simple decimation; add an "
        "average consolidation so that long ranges keep their mean.",
    ),
    (
        "Line Protocol Parse Errors During Retention",
        "During retention, concurrent /api/write requests fail with truncated line protocol "
        "errors; all of them report end of input at the same second.",
    ),
]


def test_the_request_of_a_plan_is_its_title_and_first_paragraph() -> None:
    title, context = PLANS[0]
    request = request_of(FRAME.format(title=title, context=context))
    assert request.splitlines()[0] == title
    assert "GROUP BY job.hpc_user" in request and "Verification" not in request
    assert request_of("fix the flaky login test") == "fix the flaky login test"


def test_different_plans_of_one_repository_are_different_requests(
    engine: Engine, cfg: Config
) -> None:
    for day, (title, context) in enumerate(PLANS):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt(FRAME.format(title=title, context=context)).say(DONE).save(engine)
    # the first plan accepted again a week later, reworded: the same request
    title, context = PLANS[0]
    again = FRAME.format(title=title.replace("Fix: ", ""), context=context + " Still slow.")
    SessionBuilder(start=T0 + timedelta(days=7)).prompt(again).say(DONE).save(engine)
    report = mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        clusters = list(db.scalars(select(Episode.cluster_id).order_by(Episode.id)))
    assert report.recurring_clusters == 1
    assert clusters[0] == clusters[3] and len(set(clusters)) == 3
