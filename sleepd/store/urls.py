"""Which SQLite file a database URL names, without importing SQLAlchemy.

The commands that must start fast (`status`, `search`, an unchanged `harvest`, an idle
`mine`) need this before deciding whether to load the database layer at all. It parses as
SQLAlchemy's `make_url` does for SQLite URLs (a test holds the two together).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote


def sqlite_file_for(url: str) -> Path | None:
    """The file of a `sqlite[+driver]:///path` URL; None for other databases and memory."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.split("+", 1)[0] != "sqlite":
        return None
    _host, _, database = rest.partition("/")
    database = unquote(database.split("?", 1)[0])
    if database in ("", ":memory:"):
        return None
    return Path(database).expanduser()
