"""Run the real daemon loop whose harvest meets SQLite's corruption error."""

from __future__ import annotations

import sqlite3
import sys
from typing import Any

from sleepd.daemon.main import DaemonJobs, run_daemon


def damaged_harvest(engine: Any, cfg: Any, **kwargs: Any) -> int:
    raise sqlite3.DatabaseError("database disk image is malformed")


def no_night(engine: Any, cfg: Any, **kwargs: Any) -> int:
    return 0


if __name__ == "__main__":
    sys.exit(run_daemon(jobs=DaemonJobs(harvest=damaged_harvest, night=no_night)))
