"""`sleepd nights`: one row per night; `--jsonl` is the training log."""

from __future__ import annotations

import typer

from sleepd.cli.common import ExitCode, emit_json, emit_jsonl, info
from sleepd.cli.review_cmd import CommandError


def _fmt(value: object, spec: str = "") -> str:
    return "—" if value is None else format(value, spec)


def nights(
    json_out: bool = typer.Option(False, "--json", help="Print one JSON array."),
    jsonl: bool = typer.Option(False, "--jsonl", help="One JSON object per line, stable keys."),
    limit: int = typer.Option(30, "--limit", min=1, help="The most recent N nights."),
) -> None:
    """Tasks, candidates, gate outcomes, scores before/after, cost and duration per night."""
    if json_out and jsonl:
        raise CommandError("--json and --jsonl are exclusive", ExitCode.USAGE)
    from sleepd.config import load_config
    from sleepd.review.nights import night_rows
    from sleepd.store.fastread import open_reader

    db = open_reader(load_config())
    try:
        rows = night_rows(db, limit=limit) if db is not None else []
    finally:
        if db is not None:
            db.close()
    if jsonl:
        emit_jsonl(rows)
        return
    if json_out:
        emit_json(rows)
        return
    if not rows:
        info("no nights yet; `sleepd run` starts one")
        return
    from rich.text import Text

    from sleepd.cli.common import stdout_console
    from sleepd.cli.view import table

    shown = table(
        [
            "night",
            "started",
            "replayed",
            "scores (0–1, without → with the edit)",
            "cost",
            "outcome",
        ],
        title="Nights, oldest first",
        compact=True,
    )
    for r in rows:
        night = Text(f"#{r['id']}")
        if r["dry_run"]:
            night.append("\nDRY RUN", "bold magenta")
        if r["simulated"]:
            night.append("\nSIMULATED", "bold yellow")
        replayed = [f"{r['tasks_replayed']} tasks", f"{r['candidates_proposed']} edits"]
        if r.get("replay_mode"):
            replayed.insert(0, f"{r['replay_mode']} mode")
        for key, name in (
            ("accepted", "accepted"),
            ("rejected", "rejected"),
            ("inconclusive", "undecided"),
        ):
            if r[key]:
                replayed.append(f"{r[key]} {name}")
        scores = (
            f"validation {_fmt(r['val_before'], '.2f')} → {_fmt(r['val_after'], '.2f')}\n"
            f"sealed test {_fmt(r['test_before'], '.2f')} → {_fmt(r['test_after'], '.2f')}"
        )
        shown.add_row(
            night,
            r["started_at"][:16].replace("T", "\n"),
            "\n".join(replayed),
            scores,
            f"${r['cost_usd']:.2f}\n{_fmt(r['duration_s'], '.0f')} s",
            Text(r["stop_reason"] or r["status"]),
        )
    stdout_console().print(shown)


def register(app: typer.Typer) -> None:
    app.command("nights")(nights)
