"""Notice suspend/resume: the wall clock jumps while the monotonic clock stood still.

CLOCK_MONOTONIC (Linux) and mach_absolute_time (macOS) do not advance during
sleep, so a wall-minus-monotonic drift larger than a threshold means the machine
slept (or the clock was set); either way scheduled times must be re-checked.
"""

from __future__ import annotations

import time
from collections.abc import Callable

DEFAULT_JUMP_THRESHOLD_S = 90.0


class ClockJumpDetector:
    def __init__(
        self,
        threshold_s: float = DEFAULT_JUMP_THRESHOLD_S,
        wall: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.threshold_s = threshold_s
        self._wall = wall
        self._monotonic = monotonic
        self._offset = wall() - monotonic()

    def check(self) -> float | None:
        """Seconds the wall clock jumped since the last check (either sign), or None."""
        offset = self._wall() - self._monotonic()
        drift = offset - self._offset
        self._offset = offset
        return drift if abs(drift) >= self.threshold_s else None
