"""Per-path debounce: many change events on one file become one harvest.

A path is flushed once it has been quiet for `quiet_s`, or `max_wait_s` after its
first event, so a transcript that is appended to every second (a live session)
is still harvested regularly instead of never. Due paths are flushed together.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class Debouncer:
    def __init__(
        self,
        flush: Callable[[list[str]], None],
        quiet_s: float,
        max_wait_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._flush = flush
        self.quiet_s = max(0.0, quiet_s)
        self.max_wait_s = max_wait_s if max_wait_s is not None else max(5 * quiet_s, 10.0)
        self._clock = clock
        self._first: dict[str, float] = {}
        self._last: dict[str, float] = {}
        self._cond = threading.Condition()
        self._stopped = False
        self._thread: threading.Thread | None = None

    def add(self, path: str) -> None:
        now = self._clock()
        with self._cond:
            self._first.setdefault(path, now)
            self._last[path] = now
            self._cond.notify()

    def pending(self) -> int:
        with self._cond:
            return len(self._last)

    def _deadline(self, path: str) -> float:
        return min(self._last[path] + self.quiet_s, self._first[path] + self.max_wait_s)

    def take_due(self, now: float | None = None) -> list[str]:
        """Remove and return the paths whose time has come (callers hold no lock)."""
        now = self._clock() if now is None else now
        with self._cond:
            return self._take_due_locked(now)

    def _take_due_locked(self, now: float) -> list[str]:
        due = sorted(p for p in self._last if self._deadline(p) <= now)
        for path in due:
            del self._first[path], self._last[path]
        return due

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="sleepd-debounce", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stopped:
                    if not self._last:
                        self._cond.wait()  # idle: sleeps until an event arrives
                        continue
                    now = self._clock()
                    wait = min(self._deadline(p) for p in self._last) - now
                    if wait <= 0:
                        break
                    self._cond.wait(wait)
                if self._stopped:
                    return
                due = self._take_due_locked(self._clock())
            if due:
                try:
                    self._flush(due)
                except Exception:
                    log.exception("harvest of %d changed file(s) failed", len(due))
