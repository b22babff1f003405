"""`sleepd patterns`: the most frequent failure patterns, with trend and an example."""

from __future__ import annotations

from typing import Any

import typer

from sleepd.cli.common import emit_json


def patterns(
    project: str = typer.Option(None, "--project", help="Only this project path."),
    limit: int = typer.Option(20, "--limit", min=1, max=1000, help="How many patterns."),
    show_all: bool = typer.Option(
        False, "--all", help="Also patterns seen once (default: recurring ones, count >= 2)."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Recurring error signatures: counts, last 7 days vs the 7 before, an example."""
    from sleepd.config import load_config
    from sleepd.mining.figures import top_patterns, why_no_patterns
    from sleepd.mining.signatures import tool_label
    from sleepd.store.fastread import open_reader

    db = open_reader(load_config(), missing_ok=False)
    assert db is not None
    try:
        # one more than asked: whether the list goes on past the limit
        rows = top_patterns(db, project=project, limit=limit + 1, min_count=1 if show_all else 2)
        empty = "" if rows or json_out else why_no_patterns(db, project=project, show_all=show_all)
    finally:
        db.close()
    more, rows = len(rows) > limit, rows[:limit]
    if json_out:
        emit_json([r.to_dict() for r in rows])
        return
    if not rows:
        typer.echo(empty, err=True)
        return
    from rich.text import Text

    from sleepd.cli.common import stdout_console
    from sleepd.cli.view import table

    title = (
        "Failure patterns, most frequent first (with those seen once)"
        if show_all
        else "Recurring failure patterns (an error seen at least twice), most frequent first"
    )
    console = stdout_console()
    bodies = []
    for row in rows:
        example = " ".join(row.example.split())[:200]
        message = _message(row.signature)
        body = Text(message)
        if example and example != message:
            body.append("\ne.g. " + example, style="dim")
        bodies.append(body)
    if console.width < TABLE_MIN_WIDTH:
        # Six columns leave a narrow terminal's pattern column a few words wide: each
        # pattern is a heading line of its figures, then its message and example.
        from rich.padding import Padding

        console.print(Text(title, style="bold"))
        for row, body in zip(rows, bodies, strict=True):
            console.print(
                Text.assemble(
                    (f"{row.count} times", "bold"),
                    f" · {tool_label(row.tool_name) or 'no tool'} · {row.trend}: "
                    f"{row.last_7d} in the last 7 days, {row.previous_7d} in the 7 days before",
                )
            )
            console.print(Padding(body, (0, 0, 0, 2)))
        _say_more(console, more, limit)
        return
    shown = table(
        ["times", "last 7 days", "7 days before", "trend", "tool", "pattern and one example"],
        title=title,
        compact=True,
    )
    for row, body in zip(rows, bodies, strict=True):
        shown.add_row(
            str(row.count),
            str(row.last_7d),
            str(row.previous_7d),
            row.trend,
            tool_label(row.tool_name) or "—",
            body,
        )
    console.print(shown)
    _say_more(console, more, limit)


def _say_more(console: Any, more: bool, limit: int) -> None:
    if more:
        console.print(f"These are the {limit} most frequent; `--limit N` shows more.")


#: Narrower than this, the patterns are listed one under another instead of in a table.
TABLE_MIN_WIDTH = 110


def _message(signature: str) -> str:
    """The pattern's message, without the tool and error-class fields it starts with."""
    parts = signature.split(" | ", 2)
    return parts[2] if len(parts) == 3 else signature


def register(app: typer.Typer) -> None:
    app.command("patterns")(patterns)
