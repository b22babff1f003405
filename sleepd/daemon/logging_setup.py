"""Daemon logging: journald-friendly stderr plus a rotating file in the log dir.

Under systemd (JOURNAL_STREAM names our stderr) the journal adds timestamps, so
lines carry only a `<N>` syslog priority prefix, on every line of a multi-line
record, which journald turns into the entry's priority.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from pathlib import Path
from typing import IO

LOG_FILENAME = "daemon.log"
LOG_MAX_BYTES = 5 * 1024 * 1024
LOG_BACKUPS = 3

#: Python levels to syslog priorities (sd-daemon(3)).
_PRIORITIES = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))


def syslog_priority(levelno: int) -> int:
    for level, priority in _PRIORITIES:
        if levelno >= level:
            return priority
    return 7


class RedactingFormatter(logging.Formatter):
    """A formatter whose every line passes the outbound redaction: a log is stored text,
    and an exception's message (a git remote with its token, a command's arguments, a
    test's output) can hold a secret."""

    def format(self, record: logging.LogRecord) -> str:
        from sleepd.backends.outbound import scrub_text

        return scrub_text(super().format(record))


class JournalFormatter(RedactingFormatter):
    """`<N>logger: message`, the prefix repeated on each line, no timestamp."""

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{syslog_priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())


HUMAN_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


def stderr_is_journal(stream: IO[str] | None = None, env: dict[str, str] | None = None) -> bool:
    """True when JOURNAL_STREAM is set and (when checkable) names this very stream."""
    value = (env if env is not None else os.environ).get("JOURNAL_STREAM", "").strip()
    if not value:
        return False
    stream = stream if stream is not None else sys.stderr
    try:
        device, inode = (int(part) for part in value.split(":", 1))
        info = os.fstat(stream.fileno())
    except (ValueError, OSError, AttributeError):
        return True  # set but not verifiable: trust it
    return (info.st_dev, info.st_ino) == (device, inode)


def configure_logging(
    *, verbose: bool = False, log_dir: Path | None = None, stream: IO[str] | None = None
) -> logging.Logger:
    """Set up the `sleepd` logger tree for the daemon; returns the root sleepd logger."""
    stream = stream if stream is not None else sys.stderr
    logger = logging.getLogger("sleepd")
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logger.propagate = False
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()
    console = logging.StreamHandler(stream)
    console.setFormatter(
        JournalFormatter() if stderr_is_journal(stream) else RedactingFormatter(HUMAN_FORMAT)
    )
    logger.addHandler(console)
    if log_dir is not None:
        try:
            from sleepd.paths import ensure_private_dir

            ensure_private_dir(log_dir)
            # Created 0600 here (rotation renames it and keeps the mode), whatever the umask.
            os.close(os.open(log_dir / LOG_FILENAME, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
            os.chmod(log_dir / LOG_FILENAME, 0o600)
            file_handler = logging.handlers.RotatingFileHandler(
                log_dir / LOG_FILENAME,
                maxBytes=LOG_MAX_BYTES,
                backupCount=LOG_BACKUPS,
                encoding="utf-8",
            )
        except OSError as exc:
            logger.warning("cannot write the log file in %s: %s", log_dir, exc)
        else:
            file_handler.setFormatter(RedactingFormatter(HUMAN_FORMAT))
            logger.addHandler(file_handler)
    # APScheduler and watchdog log under their own names; keep their warnings.
    for name in ("apscheduler", "watchdog"):
        other = logging.getLogger(name)
        other.setLevel(logging.WARNING)
        other.handlers = logger.handlers[:]
        other.propagate = False
    return logger
