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


#: The driver sleepd uses for PostgreSQL (psycopg 3), and the extra that installs it.
POSTGRES_DRIVER = "psycopg"
POSTGRES_EXTRA = "sleepd[postgres]"


def is_postgres(url: str) -> bool:
    scheme = url.partition("://")[0].split("+", 1)[0]
    return scheme in ("postgresql", "postgres")


def driver_url(url: str) -> str:
    """`url` with the driver sleepd uses: `postgresql://` and `postgres://` mean psycopg 3.

    SQLAlchemy alone would pick psycopg2, which sleepd neither needs nor installs; a URL
    that names a driver itself is left as it is.
    """
    scheme, sep, rest = url.partition("://")
    if sep and scheme in ("postgresql", "postgres"):
        return f"postgresql+{POSTGRES_DRIVER}://{rest}"
    return url


def require_driver(url: str) -> None:
    """A PostgreSQL URL without its driver installed is one line naming the extra."""
    if not is_postgres(url):
        return
    scheme = url.partition("://")[0]
    module = scheme.split("+", 1)[1] if "+" in scheme else POSTGRES_DRIVER
    import importlib.util

    if importlib.util.find_spec(module) is None:
        from sleepd.errors import MissingDriverError

        raise MissingDriverError(
            f"a PostgreSQL database needs its driver: pip install '{POSTGRES_EXTRA}' "
            f"({module} is not installed)"
        )
