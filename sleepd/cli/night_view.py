"""The human view of a night (`sleepd run`, `sleepd demo`): what each step did, per
project what was tested and decided, readiness in numbers where a night could not
stage anything yet, and the staged proposals with the story behind them.

Reads the night's summary (as `sleepd.dream.night` writes it) and names every figure
in plain words; keys it does not know are left to `--json`, never dumped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from sleepd.cli.view import kv_panel, label, number, words

SPLITS = (("train", "train"), ("val", "validation"), ("test", "sealed test"))

#: The mining step's figures that a person reads, in order, with their words.
MINE_FIGURES = (
    ("sessions_mined", "sessions read"),
    ("episodes_new", "new episodes"),
    ("clusters_new", "new request clusters"),
    ("recurring_clusters", "recurring"),
    ("patterns_total", "failure patterns"),
    ("tasks_new", "new tasks"),
)

PLAN_FIGURES = (
    ("train_rollouts", "train replays"),
    ("val_rollouts_max", "validation replays (at most)"),
    ("test_rollouts", "sealed test replays"),
    ("optimizer_calls", "optimizer calls"),
)
#: Plan keys shown by `plan_rows` in their own words; any other key is shown as a label.
_PLAN_SHOWN = {
    *(k for k, _ in PLAN_FIGURES),
    *("target", "kind", "forecast_usd", "detect_sentence", "backend_usable", "backend_problem"),
}

AA_MEANING = {
    "accept": "a false alarm: the gate preferred the document to an identical copy",
    "reject": "as expected: no difference between the document and an identical copy",
    "inconclusive": "as expected: no difference between the document and an identical copy",
}


def splits_text(tasks: Mapping[str, Any]) -> str:
    """`train 24, validation 24, sealed test 6`."""
    parts = [f"{name} {tasks[key]}" for key, name in SPLITS if key in tasks]
    parts += [f"{label(k)} {words(v)}" for k, v in tasks.items() if k not in dict(SPLITS)]
    return ", ".join(parts) or "none"


def night_title(night_id: int, status: str, *, simulated: bool, dry_run: bool) -> Text:
    title = Text(f"night #{night_id}: {status}")
    if dry_run:
        title.append("  DRY RUN (a plan only: no model calls, nothing staged)", "bold magenta")
    if simulated:
        title.append("  SIMULATED backend (a test double, not a real model)", "bold yellow")
    return title


def mine_line(step: Mapping[str, Any]) -> str:
    parts = [
        f"{number(step[key])} {name}"
        for key, name in MINE_FIGURES
        if isinstance(step.get(key), int)
    ]
    again = step.get("sessions_read_again")
    if isinstance(again, int) and again:
        parts.insert(1, f"{number(again)} of them read again by new rules")
    splits = step.get("tasks_by_split")
    if isinstance(splits, Mapping) and splits:
        parts.append(f"tasks now {splits_text(splits)}")
    return ", ".join(parts) or "nothing new"


def _score_line(before: float | None, after: float | None, what: str) -> str:
    if before is None:
        return "not measured"
    if after is None:
        return f"{before:.3f} without an edit; no candidate was scored to the end on {what} tasks"
    return f"{before:.3f} without the edit → {after:.3f} with it (mean score 0–1 on {what} tasks)"


def plan_rows(plan: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A dry run's plan: the calls (at most), the forecast cost, what the gate can detect."""
    rows: list[tuple[str, str]] = []
    if plan.get("target"):
        rows.append(("plan: document", f"{plan['target']} ({words(plan.get('kind'))})"))
    for key, name in PLAN_FIGURES:
        if key in plan:
            rows.append((f"plan: {name}", words(plan[key])))
    cost = plan.get("forecast_usd")
    if isinstance(cost, Mapping):
        parts = [
            f"{role} ${float(cost[role]):.4f}"
            for role in ("target", "judge", "optimizer")
            if isinstance(cost.get(role), int | float)
        ]
        total = cost.get("total")
        total_text = f"${float(total):.4f}" if isinstance(total, int | float) else "—"
        rows.append(
            (
                "plan: forecast cost",
                f"{total_text} at most" + (f" ({', '.join(parts)})" if parts else ""),
            )
        )
    elif "forecast_usd" in plan:
        rows.append(("plan: forecast cost", "unknown: no backend is usable"))
    if plan.get("detect_sentence"):
        rows.append(("plan: the gate can detect", words(plan["detect_sentence"])))
    if plan.get("backend_usable") is False:
        rows.append(
            (
                "plan: backend",
                f"none usable ({words(plan.get('backend_problem'))}); "
                "a real run would be refused before it starts",
            )
        )
    for key, value in plan.items():
        if key not in _PLAN_SHOWN:
            rows.append((f"plan: {label(key)}", words(value)))
    return rows


def _decisions(decisions: Mapping[str, Any]) -> str:
    if not decisions:
        return "none tested"
    counts: dict[str, int] = {}
    for outcome in decisions.values():
        counts[str(outcome)] = counts.get(str(outcome), 0) + 1
    return ", ".join(f"{n} {outcome}" for outcome, n in counts.items())


def project_panel(p: Mapping[str, Any]) -> Any:
    rows: list[tuple[str, str]] = [("result", str(p.get("status", "?")))]
    if p.get("reason"):
        rows.append(("why", str(p["reason"])))
    rows.append(("tasks", splits_text(p.get("tasks") or {})))
    if p.get("candidates"):
        rows.append(
            ("candidate edits", f"{p['candidates']} ({_decisions(p.get('decisions') or {})})")
        )
    if p.get("rollouts"):
        rows.append(("replays", number(p["rollouts"])))
    if p.get("calibration"):
        meaning = AA_MEANING.get(str(p["calibration"]), "")
        rows.append(("A/A check", f"{p['calibration']}" + (f" ({meaning})" if meaning else "")))
    plan = p.get("plan")
    if isinstance(plan, Mapping) and plan:
        rows.extend(plan_rows(plan))
    if p.get("val_before") is not None:
        rows.append(
            ("validation score", _score_line(p.get("val_before"), p.get("val_after"), "validation"))
        )
        rows.append(
            (
                "sealed test score",
                _score_line(p.get("test_before"), p.get("test_after"), "sealed test")
                if p.get("test_before") is not None
                else "not run (it runs only for an edit the gate accepted)",
            )
        )
    if p.get("proposal_id"):
        rows.append(("staged", f"proposal #{p['proposal_id']} (see below, or `sleepd review`)"))
    return kv_panel(str(p.get("project", "?")), rows)


def render_summary(
    result: Any, console: Console, *, dry_run: bool = False, cfg: Any = None
) -> None:
    summary = result.summary or {}
    dry = bool(dry_run or summary.get("dry_run"))
    console.rule(
        night_title(
            result.night_id, result.status, simulated=bool(summary.get("simulated")), dry_run=dry
        )
    )
    if result.stop_reason:
        console.print(Text(f"outcome: {result.stop_reason}"))
    steps = summary.get("steps") or {}
    harvest = steps.get("harvest")
    if isinstance(harvest, Mapping):
        console.print(
            Text(
                f"harvest: {number(harvest.get('events_new', 0))} new events from "
                f"{number(harvest.get('files_changed', 0))} changed files"
            )
        )
    mine = steps.get("mine")
    if isinstance(mine, Mapping):
        console.print(Text(f"mine: {mine_line(mine)}"))
    projects = summary.get("projects") or []
    for p in projects:
        if isinstance(p, Mapping):
            console.print(project_panel(p))
    if cfg is not None and (not projects or any(p.get("status") == "skipped" for p in projects)):
        render_readiness(console, cfg)
    budget = summary.get("budget") or {}
    console.print(
        Text(
            f"spent: {number(budget.get('tokens', 0))} tokens, ${budget.get('usd', 0):.4f}; "
            f"took {summary.get('duration_s', 0):.1f} s"
        )
    )


def render_readiness(console: Console, cfg: Any) -> None:
    """Per project: tasks it has, tasks a night needs, roughly how much more history."""
    from sleepd import paths
    from sleepd.readiness import project_readiness
    from sleepd.store.fastread import ReadOnlyDb, sqlite_file_missing

    url = paths.database_url(cfg.database_url or None)
    if sqlite_file_missing(url):
        return
    db = ReadOnlyDb(url)
    try:
        rows = [r for r in project_readiness(db, cfg) if not r.ready]
    finally:
        db.close()
    if not rows:
        return
    from sleepd.cli.view import table

    shown = table(
        ["project", "sessions", "tasks", "what is missing", "more history (rough)"],
        title="Not enough mined tasks yet",
    )
    for r in rows[:10]:
        if r.more_sessions is None:
            more = "no request has recurred yet"
        else:
            more = f"~{r.more_sessions} sessions"
            if r.more_days is not None:
                from sleepd.readiness import days_text

                more += f" ({days_text(r.more_days)})"
        shown.add_row(
            r.project,
            str(r.sessions),
            splits_text(r.tasks),
            "; ".join(r.shortfalls()),
            more,
        )
    console.print(shown)
    if len(rows) > 10:
        console.print(f"and {len(rows) - 10} more projects")


def print_proposals(proposal_ids: list[int], console: Console) -> None:
    """Each staged proposal: header, the story behind it, the diff (never cut)."""
    if not proposal_ids:
        console.print("No proposal was staged tonight.")
        return
    from sleepd.config import load_config
    from sleepd.errors import NotFoundError
    from sleepd.review.queue import get_proposal
    from sleepd.review.render import render_diff, render_header, render_story
    from sleepd.review.story import gather_story
    from sleepd.store.open import open_store

    engine = open_store(load_config())
    for pid in proposal_ids:
        try:
            view = get_proposal(engine, pid)
        except NotFoundError:
            continue
        console.rule(f"proposal #{pid} staged for review")
        render_header(console, view)
        render_story(console, view, gather_story(engine, pid))
        console.rule("the change to the document", align="left")
        render_diff(console, view.diff)
