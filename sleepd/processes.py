"""Is a process on this host still alive? (Heartbeats, orphaned runs and status ask.)"""

from __future__ import annotations

import os
import socket
from typing import Any


def pid_alive(pid: int) -> bool:
    """True when `pid` exists; a process we may not signal still counts as alive."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner() -> dict[str, Any]:
    """Who runs a night or job: recorded so a later run can tell if it died."""
    return {"pid": os.getpid(), "host": socket.gethostname()}
