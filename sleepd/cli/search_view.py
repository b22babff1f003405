"""The human view of `sleepd search`: a table of hits with the matched words marked."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath
from typing import Any

from sleepd.cli.common import stdout_console


def project_name(path: str | None) -> str:
    """A project as people name it: its directory's name (the full path is in --json)."""
    if not path:
        return "—"
    return PurePath(path).name or path


def render_hits(hits: Sequence[Any], query: str, *, page: int, limit: int, more: bool) -> None:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    terms = query.split()
    first = (page - 1) * limit + 1
    table = Table(
        title=Text(f"hits {first}–{first + len(hits) - 1} for “{query}”, newest first"),
        title_justify="left",
        expand=True,
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    # every cell and header is a Text: a plain string would be parsed as markup, which
    # loads rich's markup and emoji tables on the command people wait for most
    table.add_column(Text("time (UTC)"), no_wrap=True)
    table.add_column(Text("project"), overflow="fold", max_width=16)
    table.add_column(Text("session"), no_wrap=True)
    table.add_column(Text("kind · text"), ratio=1, overflow="fold", min_width=24)
    for h in hits:
        snippet = Text.assemble((f"{h.kind} · ", "dim"), h.snippet)
        snippet.highlight_words(terms, style="bold reverse", case_sensitive=False)
        table.add_row(
            Text(h.ts.strftime("%Y-%m-%d %H:%M") if h.ts else "—"),
            Text(project_name(h.project_path)),
            Text(f"{h.source}:{h.session_external_id[:8]}"),
            snippet,
        )
    console = stdout_console()
    console.print(table)
    if more:
        console.print(Text(f"more hits: --page {page + 1}"))
