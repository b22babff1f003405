"""Many events on one path become one harvest."""

from __future__ import annotations

import threading

from sleepd.daemon.debounce import Debouncer


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_on_one_path_is_one_flush() -> None:
    clock = FakeClock()
    deb = Debouncer(lambda _p: None, quiet_s=2.0, max_wait_s=30.0, clock=clock)
    for _ in range(50):
        deb.add("/t/a.jsonl")
        clock.now += 0.1
    assert deb.take_due() == []  # still busy
    clock.now += 2.0
    assert deb.take_due() == ["/t/a.jsonl"]
    assert deb.take_due() == []


def test_paths_are_debounced_independently() -> None:
    clock = FakeClock()
    deb = Debouncer(lambda _p: None, quiet_s=2.0, clock=clock)
    deb.add("/t/a.jsonl")
    clock.now += 1.5
    deb.add("/t/b.jsonl")
    clock.now += 0.6
    assert deb.take_due() == ["/t/a.jsonl"]
    clock.now += 1.5
    assert deb.take_due() == ["/t/b.jsonl"]


def test_a_constantly_written_file_is_still_flushed_after_max_wait() -> None:
    clock = FakeClock()
    deb = Debouncer(lambda _p: None, quiet_s=2.0, max_wait_s=10.0, clock=clock)
    flushed_at = None
    for _ in range(200):
        deb.add("/t/live.jsonl")
        clock.now += 0.5
        if deb.take_due():
            flushed_at = clock.now
            break
    assert flushed_at is not None and flushed_at - 100.0 <= 10.5


def test_worker_thread_calls_flush_once_for_a_burst() -> None:
    calls: list[list[str]] = []
    done = threading.Event()

    def flush(paths: list[str]) -> None:
        calls.append(paths)
        done.set()

    clock = FakeClock()  # stands still during the burst: nothing is due, however slow the machine
    deb = Debouncer(flush, quiet_s=0.2, clock=clock)
    deb.start()
    try:
        for _ in range(100):
            deb.add("/t/a.jsonl")
        deb.add("/t/b.jsonl")
        clock.now += 0.2  # the burst has been quiet for quiet_s: the worker flushes it
        assert done.wait(60)
    finally:
        deb.stop()  # joins the worker: nothing can arrive after it
    assert deb._thread is None or not deb._thread.is_alive()
    assert calls == [["/t/a.jsonl", "/t/b.jsonl"]]
