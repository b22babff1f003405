"""`sleepd search`: parse, call `sleepd.search.search_page`, render.

A search is the command people type most and wait for, so its whole path imports
neither typer nor SQLAlchemy: `sleepd.cli.app.main` hands a `search` command line
this module understands fully to `lean_search` before the typer app is built; any
other line (`--help`, an unknown or repeated option, a value out of range) goes to
typer, which parses it, reports usage errors and then calls the same `run_search`.
The typer command in `harvest_cmd` and `OPTIONS` below declare the same options; a
test holds them equal.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One option as typer declares it: its flag, type, bounds and default."""

    flag: str
    name: str
    kind: type  # str, int or bool (a flag without a value)
    default: Any = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] | None = None


OPTIONS: tuple[Option, ...] = (
    Option("--project", "project", str),
    Option("--source", "source", str),
    Option("--from", "speaker", str, choices=("person", "agent", "tools")),
    Option("--limit", "limit", int, 20, 1, 1000),
    Option("--page", "page", int, 1, 1),
    Option("--json", "json_out", bool, False),
)
_BY_FLAG = {option.flag: option for option in OPTIONS}
#: The plain decimal integers both parsers read alike (anything else goes to typer).
_INT = re.compile(r"[+-]?[0-9]+")


def parse_lean(args: Sequence[str]) -> dict[str, Any] | None:
    """The arguments of `sleepd search` as `run_search` takes them, or None when the
    line holds anything typer should answer instead (help, an error, an odd form)."""
    values: dict[str, Any] = {}
    query: str | None = None
    items = iter(args)
    for arg in items:
        if arg.startswith("-"):
            flag, eq, inline = arg.partition("=")
            option = _BY_FLAG.get(flag)
            if option is None or option.name in values:
                return None
            if option.kind is bool:
                if eq:
                    return None
                values[option.name] = True
                continue
            raw = inline if eq else next(items, None)
            if raw is None or (not eq and raw.startswith("-")):
                return None
            if option.kind is int:
                value = _bounded_int(raw, option)
                if value is None:
                    return None
                values[option.name] = value
            elif option.choices is not None and raw not in option.choices:
                return None  # typer names the choices
            else:
                values[option.name] = raw
        elif query is None:
            query = arg
        else:
            return None
    if query is None:
        return None
    for option in OPTIONS:
        values.setdefault(option.name, option.default)
    return {"query": query, **values}


def _bounded_int(raw: str, option: Option) -> int | None:
    if _INT.fullmatch(raw) is None:
        return None
    value = int(raw)
    if option.min is not None and value < option.min:
        return None
    if option.max is not None and value > option.max:
        return None
    return value


def lean_search(args: Sequence[str]) -> Any:
    """A callable running the search of `args` without typer, or None (typer parses it)."""
    parsed = parse_lean(args)
    if parsed is None:
        return None
    return lambda: run_search(**parsed)


def run_search(
    query: str,
    *,
    project: str | None = None,
    source: str | None = None,
    speaker: str | None = None,
    limit: int = 20,
    page: int = 1,
    json_out: bool = False,
) -> None:
    """One page of hits on stdout (a table, or JSON); "no matches" on stderr."""
    from sleepd.search import search_page
    from sleepd.store.fastread import ReadOnlyDb, require_head, sqlite_file_missing

    url = database_url()
    hits: list[Any] = []
    more = False
    if not sqlite_file_missing(url):
        db = ReadOnlyDb(url)
        try:
            require_head(db)
            hits, more = search_page(
                db,
                query,
                project=project,
                source=source,
                speaker=speaker,
                limit=limit,
                offset=(page - 1) * limit,
            )
        finally:
            db.close()
    if json_out:
        from sleepd.cli.common import emit_json

        emit_json([h.to_dict() for h in hits])
        return
    if not hits:
        sys.stderr.write("no matches" + (f" on page {page}" if page > 1 else "") + "\n")
        sys.stderr.flush()
        return
    from sleepd.cli.search_view import render_hits

    render_hits(hits, query, page=page, limit=limit, more=more)


def database_url() -> str:
    """The database `load_config` would name. Without a config file or the environment
    variable there is nothing to read or validate, and the answer is the default: the
    config module (a dozen dataclasses, the TOML parser) is then not imported at all."""
    import os

    from sleepd import paths

    if os.environ.get(paths.ENV_DATABASE_URL, "").strip() or paths.config_file().exists():
        from sleepd.config import load_config

        return paths.database_url(load_config().database_url or None)
    return paths.database_url(None)
