"""Rendering helpers every human view shares: plain words for values, key/value
panels, diffs that are never cut, and a pager like git's.

The promise: nothing a person reads is a Python repr. Stored values of any shape
(dicts, lists, None, floats) go through `words`, which names keys in plain words
and joins items, and diffs go through `print_diff`, which writes each line whole
(a long line overflows to the right, where a pager scrolls to it, instead of being
cut or wrapped into the next line).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text


def label(key: str) -> str:
    """A stored key as words: `val_rollouts_max` → `val rollouts max`."""
    return str(key).replace("_", " ").strip()


def number(value: float | int | None, spec: str = ".3f") -> str:
    """A figure, or `—` when there is none."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return format(value, spec)


def words(value: Any) -> str:
    """Any stored value as plain text: never `{'…': …}` or `[…]`."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return ", ".join(f"{label(k)} {words(v)}" for k, v in value.items()) or "—"
    if isinstance(value, Iterable):
        items = list(value)
        sep = "; " if any(isinstance(i, Mapping | list | tuple) for i in items) else ", "
        return sep.join(words(i) for i in items) or "—"
    return str(value)


def kv_table(rows: Iterable[tuple[str, RenderableType | str]]) -> Table:
    """Two columns, label and value; values wrap at word boundaries, labels never."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    for key, value in rows:
        grid.add_row(key, Text(value) if isinstance(value, str) else value)
    return grid


def kv_panel(title: str, rows: Iterable[tuple[str, RenderableType | str]]) -> Panel:
    return Panel(kv_table(rows), title=title, title_align="left", expand=False)


def diff_text(diff: str) -> Text:
    """A unified diff, coloured line by line, with every character kept."""
    text = Text(no_wrap=True, overflow="ignore", end="")
    for line in diff.splitlines():
        if line.startswith(("+++", "---")):
            style = "bold"
        elif line.startswith("@@"):
            style = "cyan"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        else:
            style = ""
        text.append(line + "\n", style=style)
    return text


def print_diff(console: Console, diff: str) -> None:
    """The diff with no line cut or wrapped, whatever the terminal's width."""
    if not diff.strip():
        console.print("(no textual change)", style="dim")
        return
    console.print(diff_text(diff), soft_wrap=True, crop=False, no_wrap=True, overflow="ignore")


def table(
    columns: Sequence[str], *, title: str | None = None, compact: bool = False, **kwargs: Any
) -> Table:
    """A table whose headers are never cut short: a header too long for its column wraps
    between words (or folds), it never ends in `…`; cells fold the same way, so every
    character of a value is shown. Rich fits the table to the terminal's width.

    `compact` drops the vertical rules, for tables with many columns at 80 columns.
    """
    if compact:
        from rich import box

        kwargs.setdefault("box", box.SIMPLE_HEAD)
        kwargs.setdefault("show_edge", False)
    out = Table(title=title, title_justify="left", **kwargs)
    for column in columns:
        out.add_column(column, overflow="fold")
    return out


def _pager_command() -> list[str] | None:
    """$SLEEPD_PAGER, $PAGER or less, as git picks its pager; None means no pager."""
    chosen = os.environ.get("SLEEPD_PAGER") or os.environ.get("PAGER") or "less"
    if chosen in ("", "cat"):
        return None
    import shlex

    parts = shlex.split(chosen)
    return parts if parts and shutil.which(parts[0]) else None


@contextmanager
def paged(console: Console, *, enabled: bool = True) -> Iterator[Console]:
    """Everything printed inside goes through a pager when stdout is a terminal.

    Like git: `less` with FRSX (quit if one screen, colours, long lines scroll
    sideways instead of wrapping, no screen clear) unless $LESS says otherwise.
    """
    command = _pager_command() if enabled and sys.stdout.isatty() else None
    if command is None:
        yield console
        return
    with console.capture() as capture:
        yield console
    env = dict(os.environ)
    env.setdefault("LESS", "FRSX")
    try:
        subprocess.run(command, input=capture.get().encode(), env=env, check=False)
    except OSError:
        sys.stdout.write(capture.get())
        sys.stdout.flush()
