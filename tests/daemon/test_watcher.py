"""The transcript watcher: native mode, polling fallback, late roots, event filter."""

from __future__ import annotations

import errno
import threading
import time
from pathlib import Path
from typing import Any

from watchdog.events import FileClosedNoWriteEvent, FileModifiedEvent, FileOpenedEvent

from sleepd.daemon.watcher import TranscriptWatcher, _handler


class FakeInotifyObserver:
    """Behaves like watchdog's InotifyObserver hitting the watch limit."""

    def __init__(self, fail_with: int = errno.ENOSPC) -> None:
        self.fail_with = fail_with
        self.stopped = False

    def schedule(self, *_a: Any, **_k: Any) -> None:
        pass

    def start(self) -> None:
        raise OSError(self.fail_with, "inotify watch limit reached")

    def stop(self) -> None:
        self.stopped = True

    def is_alive(self) -> bool:
        return False

    def join(self, _timeout: float | None = None) -> None:
        pass


class FakePollingObserver(FakeInotifyObserver):
    def __init__(self) -> None:
        super().__init__()
        self.scheduled: list[str] = []
        self.alive = False

    def schedule(self, _handler: Any, path: str, recursive: bool = False) -> None:
        assert recursive
        self.scheduled.append(path)

    def start(self) -> None:
        self.alive = True

    def is_alive(self) -> bool:
        return self.alive


def test_falls_back_to_polling_when_inotify_limit_is_hit(tmp_path: Path) -> None:
    natives: list[FakeInotifyObserver] = []
    polls: list[FakePollingObserver] = []

    def native() -> FakeInotifyObserver:
        natives.append(FakeInotifyObserver())
        return natives[-1]

    def polling() -> FakePollingObserver:
        polls.append(FakePollingObserver())
        return polls[-1]

    watcher = TranscriptWatcher(
        [tmp_path], lambda _p: None, native_factory=native, polling_factory=polling
    )
    assert watcher.start() == "polling"
    assert watcher.mode == "polling"
    assert natives[0].stopped
    assert polls[0].scheduled == [str(tmp_path)]
    assert watcher.failure is not None and "inotify watch limit" in watcher.failure


def test_off_when_even_polling_fails(tmp_path: Path) -> None:
    watcher = TranscriptWatcher(
        [tmp_path],
        lambda _p: None,
        native_factory=lambda: FakeInotifyObserver(errno.EMFILE),
        polling_factory=lambda: FakeInotifyObserver(errno.EMFILE),
    )
    assert watcher.start() == "off"
    assert watcher.failure is not None and "too many open files" in watcher.failure


def test_a_dead_native_observer_is_replaced_by_polling(tmp_path: Path) -> None:
    class DyingInotifyObserver(FakePollingObserver):
        pass

    dying = DyingInotifyObserver()
    watcher = TranscriptWatcher(
        [tmp_path],
        lambda _p: None,
        native_factory=lambda: dying,
        polling_factory=FakePollingObserver,
    )
    assert watcher.start() == "inotify"
    dying.alive = False
    watcher.check()
    assert watcher.mode == "polling"


def test_a_root_created_later_is_picked_up(tmp_path: Path) -> None:
    late = tmp_path / "later" / "projects"
    observer = FakePollingObserver()
    watcher = TranscriptWatcher(
        [tmp_path / "exists", late],
        lambda _p: None,
        native_factory=lambda: observer,
    )
    (tmp_path / "exists").mkdir()
    watcher.start()
    assert observer.scheduled == [str(tmp_path / "exists")]
    assert watcher.check() == []
    late.mkdir(parents=True)
    assert watcher.check() == [late]
    assert observer.scheduled[-1] == str(late)
    assert watcher.check() == []


def test_handler_ignores_reads_directories_and_other_files() -> None:
    seen: list[str] = []
    handler = _handler(seen.append)
    handler.dispatch(FileOpenedEvent("/t/a.jsonl"))
    handler.dispatch(FileClosedNoWriteEvent("/t/a.jsonl"))  # our own harvester reading
    handler.dispatch(FileModifiedEvent("/t/notes.txt"))
    handler.dispatch(FileModifiedEvent("/t/a.jsonl"))
    assert seen == ["/t/a.jsonl"]


def test_real_native_observer_reports_an_append(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    (root / "p").mkdir(parents=True)
    seen: list[str] = []
    got = threading.Event()

    def on_path(path: str) -> None:
        seen.append(path)
        got.set()

    watcher = TranscriptWatcher([root], on_path)
    mode = watcher.start()
    try:
        assert mode in ("inotify", "fsevents", "kqueue", "polling")
        # The observer may still be arming its watches: append until one is reported.
        deadline = time.monotonic() + (5 if mode != "polling" else 25)
        while not got.is_set() and time.monotonic() < deadline:
            with (root / "p" / "s.jsonl").open("a") as fh:
                fh.write('{"type":"user"}\n')
            got.wait(0.2)
        assert got.is_set()
    finally:
        watcher.stop()
    assert str(root / "p" / "s.jsonl") in seen
    assert watcher.mode == "off"
