"""When a kind of request counts as recurring: one rule, in Python and in SQL.

A module of its own with no imports, so that `sleepd status` (which stays clear of the
mining machinery to start fast) reads the same rule as `sleepd mine` and `tasks list`.
"""

from __future__ import annotations


def recurs(size: int, sessions: int, min_recurrence: int) -> bool:
    """Whether a kind of request recurred: asked at least `min_recurrence` times, in two
    sessions or more (one session asking again is working on the same thing)."""
    return size >= min_recurrence and sessions >= 2


def recurs_sql(table: str = "") -> str:
    """`recurs` as a SQL condition on `task_clusters` (aliased `table`, if given), with
    `min_recurrence` bound as `:n`."""
    prefix = f"{table}." if table else ""
    return f"{prefix}size >= :n AND {prefix}session_count >= 2"
