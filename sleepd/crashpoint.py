"""Named points where a test can kill the process, to prove a kill there is survivable.

`reach("adopt:file-written")` does nothing unless SLEEPD_CRASH_AT names that point, in
which case the process dies at once by SIGKILL (no cleanup, no finally blocks), as a
power cut or `kill -9` would. The kill-sweep tests set it in a real subprocess.
"""

from __future__ import annotations

import os
import signal

ENV = "SLEEPD_CRASH_AT"


def reach(name: str) -> None:
    if os.environ.get(ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)
