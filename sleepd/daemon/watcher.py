"""Live harvest: watchdog observes the transcript roots and hands changed files on.

The native observer (inotify, FSEvents, kqueue) costs nothing while idle. When it
cannot start (inotify watch/instance limits: ENOSPC, EMFILE) or dies later, the
watcher falls back to a PollingObserver; when even that fails, mode is "off".
The periodic sweep stays the source of truth in every mode.
"""

from __future__ import annotations

import errno
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

WATCHED_SUFFIXES = (".jsonl", ".json")
#: Events that mean "content may have changed"; opened/closed_no_write are our own reads.
CHANGE_EVENTS = frozenset({"modified", "created", "moved", "closed"})
POLL_INTERVAL_S = 10.0
LIMIT_ERRNOS = {errno.ENOSPC: "inotify watch limit reached", errno.EMFILE: "too many open files"}

ObserverFactory = Callable[[], Any]


def mode_of(observer: Any) -> str:
    """'inotify', 'fsevents', 'kqueue', 'polling' or 'native' from the observer's class."""
    name = type(observer).__name__.lower()
    for mode in ("inotify", "fsevents", "kqueue", "polling"):
        if mode in name:
            return mode
    return "native"


def _native_factory() -> Any:
    from watchdog.observers import Observer

    return Observer()


def _polling_factory(interval_s: float) -> ObserverFactory:
    def make() -> Any:
        from watchdog.observers.polling import PollingObserver

        return PollingObserver(timeout=interval_s)

    return make


def _handler(on_path: Callable[[str], None]) -> Any:
    from watchdog.events import FileSystemEventHandler

    class TranscriptEvents(FileSystemEventHandler):
        def on_any_event(self, event: Any) -> None:
            if event.is_directory or event.event_type not in CHANGE_EVENTS:
                return
            path = event.dest_path if event.event_type == "moved" else event.src_path
            path = path.decode() if isinstance(path, bytes) else str(path)
            if path.endswith(WATCHED_SUFFIXES):
                on_path(path)

    return TranscriptEvents()


def describe_failure(exc: BaseException) -> str:
    code = getattr(exc, "errno", None)
    if code in LIMIT_ERRNOS:
        return f"{LIMIT_ERRNOS[code]} ({exc})"
    return f"{type(exc).__name__}: {exc}"


class TranscriptWatcher:
    """Watches roots recursively; roots that do not exist yet are picked up by `check()`."""

    def __init__(
        self,
        roots: list[Path],
        on_path: Callable[[str], None],
        *,
        native_factory: ObserverFactory | None = None,
        polling_factory: ObserverFactory | None = None,
        poll_interval_s: float = POLL_INTERVAL_S,
    ) -> None:
        self.roots = _unique(roots)
        self._handler = _handler(on_path)
        self._native = native_factory or _native_factory
        self._polling = polling_factory or _polling_factory(poll_interval_s)
        self._observer: Any = None
        self._watched: set[Path] = set()
        self._lock = threading.Lock()
        self.mode = "off"
        self.failure: str | None = None

    def start(self) -> str:
        with self._lock:
            if not self._try(self._native):
                self._try(self._polling)
            return self.mode

    def _try(self, factory: ObserverFactory) -> bool:
        observer: Any = None
        try:
            observer = factory()
            watched = set()
            for root in self.roots:
                if root.is_dir():
                    observer.schedule(self._handler, str(root), recursive=True)
                    watched.add(root)
            observer.start()
        except Exception as exc:
            self.failure = describe_failure(exc)
            log.warning("file watcher %s failed: %s", mode_of(observer), self.failure)
            _stop_quietly(observer)
            self.mode = "off"
            return False
        self._observer, self._watched, self.mode = observer, watched, mode_of(observer)
        log.info("watching %d transcript root(s) (%s)", len(watched), self.mode)
        return True

    def check(self) -> list[Path]:
        """Periodic health check: fall back when the observer died, add new roots.

        Returns the roots that appeared since the last check (they need a sweep).
        """
        with self._lock:
            if self._observer is None:
                return []
            if not _healthy(self._observer):
                log.warning("file watcher (%s) stopped working; switching to polling", self.mode)
                _stop_quietly(self._observer)
                self._observer = None
                if self.mode == "polling" or not self._try(self._polling):
                    self.mode = "off"
                return []
            appeared = [r for r in self.roots if r not in self._watched and r.is_dir()]
            for root in appeared:
                try:
                    self._observer.schedule(self._handler, str(root), recursive=True)
                    self._watched.add(root)
                except Exception as exc:
                    log.warning("cannot watch %s: %s", root, describe_failure(exc))
            return appeared

    def stop(self, timeout: float = 5.0) -> None:
        with self._lock:
            _stop_quietly(self._observer, timeout)
            self._observer = None
            self.mode = "off"


def _healthy(observer: Any) -> bool:
    if not observer.is_alive():
        return False
    return all(emitter.is_alive() for emitter in getattr(observer, "emitters", ()))


def _stop_quietly(observer: Any, timeout: float = 5.0) -> None:
    if observer is None:
        return
    try:
        observer.stop()
        if observer.is_alive():
            observer.join(timeout)
    except Exception as exc:
        log.debug("stopping the watcher: %s", exc)


def _unique(roots: list[Path]) -> list[Path]:
    seen: list[Path] = []
    for root in roots:
        resolved = Path(root).expanduser().absolute()
        if resolved not in seen:
            seen.append(resolved)
    return seen
