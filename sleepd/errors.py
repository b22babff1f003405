"""Errors that reach the user as one line and a specific exit status."""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """Exit statuses scripts can rely on."""

    OK = 0
    ERROR = 1
    USAGE = 2
    NOT_FOUND = 3
    CONFLICT = 4
    DB_BEHIND = 5
    LOCKED = 6
    BUDGET = 7
    CHECK_FAILED = 8
    CONFIG = 9
    NO_BACKEND = 10
    NO_TTY = 11
    INTERRUPTED = 130


class SleepdError(Exception):
    """An expected failure: the message is the one line the user sees."""

    exit_code: ExitCode = ExitCode.ERROR


class ConfigError(SleepdError):
    exit_code = ExitCode.CONFIG


class DatabaseBehindError(SleepdError):
    exit_code = ExitCode.DB_BEHIND


class LockedError(SleepdError):
    exit_code = ExitCode.LOCKED


class NotFoundError(SleepdError):
    exit_code = ExitCode.NOT_FOUND


class ConflictError(SleepdError):
    exit_code = ExitCode.CONFLICT


class NoBackendError(SleepdError):
    exit_code = ExitCode.NO_BACKEND


class MissingDriverError(ConfigError):
    """The database URL names a database whose driver is not installed."""
