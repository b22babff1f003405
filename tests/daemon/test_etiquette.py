"""Priority and the AC-power / idle conditions that postpone a night."""

from __future__ import annotations

import sys
import threading
from collections import namedtuple

import psutil
import pytest

from sleepd.daemon.etiquette import lower_thread_priority, on_ac_power, postpone_reason

Battery = namedtuple("Battery", "percent secsleft power_plugged")


def test_ac_power_detection() -> None:
    assert on_ac_power(lambda: None)  # desktop: no battery
    assert on_ac_power(lambda: Battery(50, 100, True))
    assert not on_ac_power(lambda: Battery(50, 100, False))
    assert on_ac_power(lambda: Battery(50, 100, None))


def test_postpone_on_battery_only_when_configured() -> None:
    on_battery = lambda: Battery(80, 3600, False)  # noqa: E731
    reason = postpone_reason(
        only_on_ac_power=True, only_when_idle=False, idle_cpu_percent=25, battery_probe=on_battery
    )
    assert reason is not None and "battery" in reason
    assert (
        postpone_reason(
            only_on_ac_power=False,
            only_when_idle=False,
            idle_cpu_percent=25,
            battery_probe=on_battery,
        )
        is None
    )


def test_postpone_when_busy() -> None:
    busy = postpone_reason(
        only_on_ac_power=False, only_when_idle=True, idle_cpu_percent=25, cpu_probe=lambda: 80.0
    )
    assert busy is not None and "80%" in busy
    idle = postpone_reason(
        only_on_ac_power=False, only_when_idle=True, idle_cpu_percent=25, cpu_probe=lambda: 3.0
    )
    assert idle is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice is Linux-only")
def test_priority_is_lowered_for_the_calling_thread_only() -> None:
    result: dict[str, object] = {}

    def body() -> None:
        result["applied"] = lower_thread_priority(10)
        result["nice"] = psutil.Process(threading.get_native_id()).nice()

    before = psutil.Process().nice()
    thread = threading.Thread(target=body)
    thread.start()
    thread.join()
    assert result["nice"] == max(10, before)
    assert any(str(a).startswith("nice") for a in result["applied"])  # type: ignore[attr-defined]
    assert psutil.Process().nice() == before  # the main thread keeps its priority
