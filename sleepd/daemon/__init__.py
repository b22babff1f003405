"""The long-running daemon: scheduler, live watcher, service files, health.

Exports stay lazy so `sleepd status` can ask about the daemon without paying
for APScheduler, watchdog or SQLAlchemy at import time.
"""

from __future__ import annotations

from typing import Any

__all__ = ["daemon_lock_holder", "daemon_status"]


def __getattr__(name: str) -> Any:
    if name == "daemon_lock_holder":
        from sleepd.daemon.lock import daemon_lock_holder

        return daemon_lock_holder
    if name == "daemon_status":
        from sleepd.daemon.heartbeat import daemon_status

        return daemon_status
    raise AttributeError(name)
