"""The CLI's last line of defence: any exception becomes one line and an exit status.

`exit_status` classifies what escaped a command; it cannot raise itself (a failure
while classifying falls back to a generic line), so no command ends in a traceback.
The full traceback of an *unexpected* error goes to `logs/errors.log` in the home
(0600), or to stderr with SLEEPD_DEBUG=1, and every line is redacted first.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Callable
from typing import Any

from sleepd.errors import ExitCode, SleepdError
from sleepd.store.integrity import is_corruption, sqlite_cause

MAX_LINE = 400


def say(message: str) -> None:
    """One line on stderr, whatever the message held (newlines, secrets, odd bytes)."""
    try:
        text = " ".join(str(message).split())
        try:
            from sleepd.backends.outbound import scrub_text

            text = scrub_text(text)
        except Exception:  # redaction unavailable: the line still goes out, clipped
            pass
        if len(text) > MAX_LINE:
            text = text[: MAX_LINE - 1] + "…"
        sys.stderr.write(f"sleepd: {text}\n")
        sys.stderr.flush()
    except Exception:
        os.write(2, b"sleepd: error (the message could not be printed)\n")


def _click_exceptions() -> Any:
    """Click's exceptions module, or the copy recent typer releases vendor."""
    try:
        import click.exceptions as module
    except ImportError:
        from typer._click import exceptions as module  # type: ignore[no-redef,unused-ignore]
    return module


def is_disk_full(exc: BaseException) -> bool:
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    cause = sqlite_cause(exc)
    if cause is not None:
        name = str(getattr(cause, "sqlite_errorname", "") or "")
        return name.startswith("SQLITE_FULL") or "disk is full" in str(cause).lower()
    return False


def guarded(command: Callable[[], Any]) -> int:
    """Run a CLI entry point the way every sleepd process starts, and map its outcome.

    Everything sleepd creates (database, logs, locks, temp files) is private whatever
    umask the shell or service manager gave (documents it adopts set their own mode);
    temp folders of dead sleepd processes are removed and their half-done document
    writes settled first. Returns the exit status; never raises.
    """
    previous_umask = os.umask(0o077)
    try:
        from sleepd.paths import clean_stale_tmp

        clean_stale_tmp()
        settle_interrupted_writes()
        result = command()
        return result if isinstance(result, int) else 0
    except BaseException as exc:  # classified, never re-raised
        return exit_status(exc)
    finally:
        os.umask(previous_umask)


def settle_interrupted_writes() -> None:
    """Finish document writes a killed sleepd left half-done (see `review.recover`)."""
    from sleepd.review.intents import has_pending

    if not has_pending():
        return
    try:
        from sleepd.config import load_config
        from sleepd.review.recover import reconcile_if_needed
        from sleepd.store.open import open_store

        for note in reconcile_if_needed(lambda: open_store(load_config(), write=True)):
            say(note)
    except Exception as exc:  # the command itself still runs (and may report the cause)
        say(f"warning: could not settle an interrupted adoption yet ({type(exc).__name__})")


def exit_status(exc: BaseException) -> int:
    """One line on stderr for `exc` and the exit status; never raises."""
    try:
        return _classify(exc)
    except BaseException:  # the handler must end the command, not crash it
        with contextlib.suppress(BaseException):
            say(f"error: unexpected {type(exc).__name__} (and the error report failed)")
        return int(ExitCode.ERROR)


def _classify(exc: BaseException) -> int:
    import typer

    if isinstance(exc, SystemExit):
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    if isinstance(exc, typer.Exit):
        return int(exc.exit_code)
    if isinstance(exc, KeyboardInterrupt | typer.Abort):
        say("interrupted" if isinstance(exc, KeyboardInterrupt) else "aborted")
        return int(ExitCode.INTERRUPTED)
    if isinstance(exc, SleepdError):
        say(f"error: {exc}")
        return int(exc.exit_code)
    click = _click_exceptions()
    if isinstance(exc, click.UsageError):
        exc.show()
        return int(ExitCode.USAGE)
    if isinstance(exc, click.ClickException):
        exc.show()
        return int(exc.exit_code)
    if is_disk_full(exc):
        where = getattr(exc, "filename", None)
        say(
            "error: the disk is full"
            + (f" (writing {where})" if where else "")
            + "; nothing stored was lost; free space and run the command again"
        )
        return int(ExitCode.ERROR)
    cause = sqlite_cause(exc)
    if cause is not None and is_corruption(cause):
        from sleepd.store.integrity import mark_damaged

        db_file = mark_damaged(str(cause))
        say(
            f"error: the database {db_file or ''} is damaged ({cause}); "
            "nothing more was written to it; run `sleepd db check`"
        )
        return int(ExitCode.CHECK_FAILED)
    if cause is not None:
        say(f"error: database: {cause}")
        return int(ExitCode.ERROR)
    server = server_error(exc)
    if server is not None:
        say(f"error: database: {server}")
        return int(ExitCode.ERROR)
    if isinstance(exc, OSError):
        target = f" ({exc.filename})" if exc.filename else ""
        say(f"error: {exc.strerror or exc}{target}")
        return int(ExitCode.ERROR)
    if isinstance(exc, MemoryError):
        say("error: out of memory")
        return int(ExitCode.ERROR)
    where = _log_traceback(exc)
    say(
        f"error: unexpected {type(exc).__name__}: {exc}"
        + (f" (traceback in {where})" if where else "")
    )
    return int(ExitCode.ERROR)


def server_error(exc: BaseException) -> str | None:
    """The database server's own words for `exc` (PostgreSQL: cannot connect, permission
    denied, …), without SQLAlchemy's wrapping and link; None if it is no database error."""
    orig = getattr(exc, "orig", None)
    if type(exc).__module__.startswith("psycopg"):  # a read straight through the driver
        orig = exc
    elif orig is None or not type(exc).__module__.startswith("sqlalchemy"):
        return None
    text = " ".join(str(orig).split())
    return text or type(orig).__name__


def _log_traceback(exc: BaseException) -> str | None:
    """The redacted traceback to stderr (SLEEPD_DEBUG=1) or `logs/errors.log`."""
    import traceback

    text = "".join(traceback.format_exception(exc))
    try:
        from sleepd.backends.outbound import scrub_text

        text = scrub_text(text)
    except Exception:
        return None
    if os.environ.get("SLEEPD_DEBUG", "").strip() not in ("", "0"):
        sys.stderr.write(text)
        return "stderr"
    try:
        from datetime import UTC, datetime

        from sleepd import paths

        log_dir = paths.ensure_private_dir(paths.log_dir())
        log = log_dir / "errors.log"
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as handle:
            handle.write(f"--- {datetime.now(UTC).isoformat()} pid {os.getpid()}\n{text}")
        return str(log)
    except Exception:
        return None
