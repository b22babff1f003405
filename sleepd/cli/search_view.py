"""The human view of `sleepd search`: a table of hits with the matched words marked."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sleepd.cli.common import stdout_console


def short_path(path: str | None) -> str:
    """A project path as people read it: under the home directory as `~/…`."""
    if not path:
        return "—"
    home = str(Path.home())
    return "~" + path[len(home) :] if path == home or path.startswith(home + "/") else path


def render_hits(hits: Sequence[Any], query: str, *, page: int, limit: int, more: bool) -> None:
    from rich.table import Table
    from rich.text import Text

    terms = query.split()
    first = (page - 1) * limit + 1
    table = Table(
        title=Text(f"hits {first}–{first + len(hits) - 1} for “{query}”, newest first"),
        title_justify="left",
        expand=True,
    )
    table.add_column("time (UTC)", no_wrap=True)
    table.add_column("project", overflow="fold", max_width=28)
    table.add_column("session", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("text", ratio=1, overflow="fold")
    for h in hits:
        snippet = Text(h.snippet)
        snippet.highlight_words(terms, style="bold reverse", case_sensitive=False)
        table.add_row(
            h.ts.strftime("%Y-%m-%d %H:%M") if h.ts else "—",
            short_path(h.project_path),
            f"{h.source}:{h.session_external_id[:8]}",
            h.kind,
            snippet,
        )
    console = stdout_console()
    console.print(table)
    if more:
        console.print(f"more hits: --page {page + 1}", markup=False, highlight=False)
