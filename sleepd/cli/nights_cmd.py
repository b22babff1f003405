"""`sleepd nights`: one row per night; `--jsonl` is the training log."""

from __future__ import annotations

import typer

from sleepd.cli.common import ExitCode, emit_json, emit_jsonl, info
from sleepd.cli.review_cmd import CommandError


def _fmt(value: object, spec: str = "") -> str:
    return "-" if value is None else format(value, spec)


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
    from sleepd.store.open import database_exists, open_store

    cfg = load_config()
    rows = night_rows(open_store(cfg), limit=limit) if database_exists(cfg) else []
    if jsonl:
        emit_jsonl(rows)
        return
    if json_out:
        emit_json(rows)
        return
    if not rows:
        info("no nights yet; `sleepd run` starts one")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table()
    for column in (
        "night", "started", "mode", "tasks", "cand", "acc/rej/inc", "val", "test",
        "tokens", "cost", "time", "stop",
    ):  # fmt: skip
        table.add_column(column)
    for r in rows:
        sim = " [bold red]SIM[/]" if r["simulated"] else ""
        table.add_row(
            f"#{r['id']}{sim}",
            r["started_at"][:16].replace("T", " "),
            r["replay_mode"] or "-",
            str(r["tasks_replayed"]),
            str(r["candidates_proposed"]),
            f"{r['accepted']}/{r['rejected']}/{r['inconclusive']}",
            f"{_fmt(r['val_before'], '.2f')}→{_fmt(r['val_after'], '.2f')}",
            f"{_fmt(r['test_before'], '.2f')}→{_fmt(r['test_after'], '.2f')}",
            str(r["tokens"]),
            f"${r['cost_usd']:.2f}",
            f"{_fmt(r['duration_s'], '.0f')} s",
            r["stop_reason"] or r["status"],
        )
    Console().print(table)


def register(app: typer.Typer) -> None:
    app.command("nights")(nights)
