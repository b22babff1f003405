"""`sleepd patterns`: the most frequent failure patterns, with trend and an example."""

from __future__ import annotations

import typer

from sleepd.cli.common import emit_json


def patterns(
    project: str = typer.Option(None, "--project", help="Only this project path."),
    limit: int = typer.Option(20, "--limit", min=1, max=1000, help="How many patterns."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Recurring error signatures: counts, last 7 days vs the 7 before, an example."""
    from sleepd.config import load_config
    from sleepd.mining.figures import top_patterns
    from sleepd.store.open import open_store

    engine = open_store(load_config())
    rows = top_patterns(engine, project=project, limit=limit)
    if json_out:
        emit_json([r.to_dict() for r in rows])
        return
    if not rows:
        typer.echo("no failure patterns (run `sleepd mine` after `sleepd harvest`)", err=True)
        return
    for row in rows:
        example = " ".join(row.example.split())[:100]
        typer.echo(
            f"{row.count:>5}  {row.trend:<7} {row.last_7d:>3}/{row.previous_7d:<3} {row.signature}"
        )
        typer.echo(f"       e.g. {example}")


def register(app: typer.Typer) -> None:
    app.command("patterns")(patterns)
