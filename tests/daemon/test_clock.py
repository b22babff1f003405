"""Wake-from-suspend detection: wall time moves, monotonic time did not."""

from __future__ import annotations

from sleepd.daemon.clock import ClockJumpDetector


def test_detects_a_suspend_and_ignores_normal_ticks() -> None:
    clock = {"wall": 1_000_000.0, "mono": 50.0}
    det = ClockJumpDetector(
        threshold_s=90, wall=lambda: clock["wall"], monotonic=lambda: clock["mono"]
    )
    clock["wall"] += 30
    clock["mono"] += 30
    assert det.check() is None  # an ordinary 30 s tick
    clock["wall"] += 8 * 3600 + 30  # slept 8 h
    clock["mono"] += 30
    assert det.check() == 8 * 3600
    clock["wall"] += 30
    clock["mono"] += 30
    assert det.check() is None  # reported once
    clock["wall"] -= 3600  # clock set back an hour
    assert det.check() == -3600
