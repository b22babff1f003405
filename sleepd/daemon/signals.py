"""Signal handlers that only set flags; the main loop does the work.

SIGTERM / SIGINT ask for a clean stop, SIGHUP for a config reload. Handlers run
on the main thread between bytecodes and must not touch locks or the database.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType


class SignalFlags:
    def __init__(self) -> None:
        self.wake = threading.Event()
        self.stop_signal: str | None = None
        self.reload = False

    def request_stop(self, why: str) -> None:
        if self.stop_signal is None:
            self.stop_signal = why
        self.wake.set()

    def request_reload(self) -> None:
        self.reload = True
        self.wake.set()

    def install(self) -> None:
        """Must be called from the main thread."""

        def on_stop(signum: int, _frame: FrameType | None) -> None:
            self.request_stop(signal.Signals(signum).name)

        def on_hup(_signum: int, _frame: FrameType | None) -> None:
            self.request_reload()

        signal.signal(signal.SIGTERM, on_stop)
        signal.signal(signal.SIGINT, on_stop)
        signal.signal(signal.SIGHUP, on_hup)
