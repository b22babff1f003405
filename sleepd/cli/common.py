"""Shared CLI plumbing: exit codes, output streams, JSON emission, failures.

Imports typer only where a helper needs it, so the lean commands (`search`) that
use `emit_json` never load it.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

from sleepd.cli.terminal import safe_console, visible
from sleepd.errors import ExitCode

__all__ = ["ExitCode", "emit_json", "emit_jsonl", "fail", "info", "warn"]


def _default(obj: Any) -> Any:
    if hasattr(obj, "isoformat"):
        return obj.isoformat()
    if isinstance(obj, set | frozenset):
        return sorted(obj)
    if hasattr(obj, "__fspath__"):
        return str(obj)
    raise TypeError(f"not JSON serializable: {type(obj).__name__}")


def emit_json(data: Any) -> None:
    """Data goes to stdout as one JSON document."""
    import orjson  # not at import: the table views of lean commands never need it

    sys.stdout.buffer.write(
        orjson.dumps(data, default=_default, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS)
    )
    sys.stdout.buffer.write(b"\n")
    sys.stdout.flush()


def emit_jsonl(rows: Any) -> None:
    import orjson

    for row in rows:
        sys.stdout.buffer.write(orjson.dumps(row, default=_default, option=orjson.OPT_NON_STR_KEYS))
        sys.stdout.buffer.write(b"\n")
    sys.stdout.flush()


def warn(message: str) -> None:
    """A diagnostic on stderr, one line."""
    import typer

    typer.echo(f"sleepd: warning: {visible(message)}", err=True)


def info(message: str) -> None:
    import typer

    typer.echo(f"sleepd: {visible(message)}", err=True)


def fail(message: str, code: ExitCode = ExitCode.ERROR) -> NoReturn:
    """One clear line on stderr and a specific exit status; never a traceback."""
    import typer

    typer.echo(f"sleepd: error: {visible(message)}", err=True)
    raise typer.Exit(int(code))


def stdout_console() -> Any:
    return safe_console()


def stderr_console() -> Any:
    return safe_console(stderr=True)


def finite(value: float | None) -> float | None:
    """Typer callback for number flags: nan and inf would disable a cap silently."""
    import math

    import typer

    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a finite number")
    return value
