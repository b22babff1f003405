"""Be a good neighbour: nights run at low CPU/IO priority and only when allowed.

Priority is lowered for the calling thread only. On Linux nice and ioprio are
per-thread (psutil.Process(<native thread id>)), and processes the thread spawns
(CLI backends) inherit them; the daemon runs each night on a fresh thread so the
rest of the daemon keeps its priority. macOS cannot renice a single thread this
way: there the launchd agent's Nice / LowPriorityIO / ProcessType=Background
cover the whole process, as the systemd unit's Nice= and IOSchedulingClass= do.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

NIGHT_NICE = 10
IDLE_SAMPLE_SECONDS = 2.0


def lower_thread_priority(nice: int = NIGHT_NICE) -> list[str]:
    """Renice and idle-ionice the calling thread where the OS allows; says what it did."""
    import psutil

    applied: list[str] = []
    if not sys.platform.startswith("linux"):
        return applied
    try:
        me = psutil.Process(threading.get_native_id())
        if me.nice() < nice:
            me.nice(nice)
        applied.append(f"nice {me.nice()}")
    except (psutil.Error, OSError) as exc:
        log.debug("cannot renice the night thread: %s", exc)
    try:
        me = psutil.Process(threading.get_native_id())
        me.ionice(psutil.IOPRIO_CLASS_IDLE)
        applied.append("ionice idle")
    except (psutil.Error, OSError, AttributeError, ValueError) as exc:
        log.debug("cannot set idle IO priority: %s", exc)
    return applied


def on_ac_power(battery_probe: Callable[[], Any] | None = None) -> bool:
    """True on AC or on a machine without a battery (or when it cannot be told)."""
    probe: Callable[[], Any] | None = battery_probe
    if probe is None:
        import psutil

        probe = getattr(psutil, "sensors_battery", None) or (lambda: None)
    try:
        battery = probe()
    except (OSError, RuntimeError, NotImplementedError):
        return True
    if battery is None or battery.power_plugged is None:
        return True
    return bool(battery.power_plugged)


def cpu_busy_percent(sample_s: float = IDLE_SAMPLE_SECONDS) -> float:
    import psutil

    return float(psutil.cpu_percent(interval=sample_s))


def postpone_reason(
    *,
    only_on_ac_power: bool,
    only_when_idle: bool,
    idle_cpu_percent: float,
    battery_probe: Callable[[], Any] | None = None,
    cpu_probe: Callable[[], float] | None = None,
) -> str | None:
    """Why a night must wait now, or None when it may run."""
    if only_on_ac_power and not on_ac_power(battery_probe):
        return "on battery power (schedule.only_on_ac_power)"
    if only_when_idle:
        busy = (cpu_probe or cpu_busy_percent)()
        if busy >= idle_cpu_percent:
            return (
                f"machine busy: CPU {busy:.0f}% ≥ {idle_cpu_percent:.0f}% (schedule.only_when_idle)"
            )
    return None
