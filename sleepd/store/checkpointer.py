"""WAL checkpoints from a thread of their own while a big harvest writes.

In WAL mode every committed page is written twice: into the WAL at the commit, and into
the database file by a checkpoint, which SQLite runs inside the commit that crosses
`wal_autocheckpoint` pages. For a big harvest those checkpoints were about a quarter of
the writer's time (0.3 of its ~1.3 s per 100 MB), and the writer is the harvest's
critical path. So while workers parse, the writer's group commits skip the checkpoint
(`sleepd.store.dialect.defer_autocheckpoint`) and this thread copies committed frames
into the database file as they come: SQLite releases the GIL meanwhile, and a PASSIVE
checkpoint never waits for or blocks the writer. Its last pass, at `stop`, leaves the WAL
copied in full, as an ordinary commit would have. Past `WAL_LIMIT_FRAMES` the writer lets
it catch up before a new group, so the WAL starts over instead of growing without bound.
Measured on the bench tree: group commits 0.48 -> 0.14 s of the writer's time; in 12
interleaved pairs of whole harvests 10 were faster (median 50.9 -> 52.1 MB/s in a fast
moment of this VM, 33.6 -> 40.9 MB/s in a slow one).
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from sqlalchemy.engine import Engine

from sleepd.store.engine import sqlite_file_for

#: How often the thread looks for newly committed frames. A pass that finds none costs
#: microseconds; a group commit every few hundred milliseconds is what it waits for.
CHECKPOINT_INTERVAL_S = 0.02
#: SQLite starts writing the WAL from its beginning again only when a write transaction
#: begins with every frame copied, which a writer that goes on at once seldom meets: the
#: WAL would grow to the size of the whole harvest. Past this many frames (64 MB of 4 KB
#: pages) the writer waits for the thread to catch up before its next group (`settle`).
WAL_LIMIT_FRAMES = 16384
#: How long a writer waits for that. A reader holding an old snapshot can stop the copy;
#: then commits checkpoint for themselves again, as SQLite's own setting has them do.
SETTLE_TIMEOUT_S = 5.0


class WalCheckpointer:
    """Runs `PRAGMA wal_checkpoint(PASSIVE)` in a thread until stopped; never raises."""

    def __init__(self, db_file: Path, interval_s: float = CHECKPOINT_INTERVAL_S) -> None:
        self.db_file = db_file
        self.interval_s = interval_s
        self.passes = 0
        self.error: str | None = None
        self.wal_frames = 0  # frames in the WAL at the last pass
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._changed = threading.Condition()
        self._begun = 0  # passes begun
        self._clean = 0  # the last pass that found every frame copied
        self._gave_up = False  # a settle timed out: commits checkpoint for themselves

    @classmethod
    def for_engine(cls, engine: Engine) -> WalCheckpointer | None:
        """One for a SQLite file database; None for any other."""
        db_file = sqlite_file_for(engine.url.render_as_string(hide_password=False))
        return cls(db_file) if db_file is not None else None

    @property
    def running(self) -> bool:
        """Started and still checkpointing: commits may leave the checkpoints to it."""
        thread = self._thread
        alive = thread is not None and thread.is_alive() and not self._stop.is_set()
        return alive and not self._gave_up

    def start(self) -> None:
        """Start the thread (once). In a process that forks workers, only after the fork."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._run, name="sleepd-wal-checkpoint", daemon=True
            )
            self._thread.start()

    def settle(self, timeout: float = SETTLE_TIMEOUT_S) -> bool:
        """Wait until a pass begun after this call finds every frame copied (or the
        thread stops); True if one did. A write transaction begun next restarts the WAL.
        If none does in `timeout`, the checkpointer is no longer `running`."""
        with self._changed:
            wanted = self._begun + 1
            self._changed.wait_for(lambda: self._clean >= wanted or not self.running, timeout)
            if self._clean >= wanted:
                return True
            self._gave_up = True
            return False

    def stop(self) -> str | None:
        """One last pass, then the thread ends; returns why it stopped early, if it did."""
        if self._thread is None:
            return None
        self._stop.set()
        self._thread.join()
        return self.error

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(
                str(self.db_file), timeout=0, isolation_level=None, check_same_thread=False
            )
        except (sqlite3.Error, OSError) as exc:
            self.error = f"cannot open the database for WAL checkpoints: {exc}"
            return
        try:
            while True:
                last = self._stop.wait(self.interval_s)
                with self._changed:
                    self._begun += 1
                    number = self._begun
                try:
                    busy, log, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.OperationalError as exc:
                    if not _is_transient(exc):
                        raise
                else:
                    self.wal_frames = log
                    if busy == 0 and log == copied:
                        with self._changed:
                            self._clean = number
                            self._changed.notify_all()
                self.passes += 1
                if last:
                    return
        except (sqlite3.Error, OSError) as exc:
            self.error = f"WAL checkpoint failed: {exc}"
        finally:
            conn.close()
            with self._changed:
                self._changed.notify_all()  # a writer waiting in settle() stops waiting


def _is_transient(exc: sqlite3.OperationalError) -> bool:
    """Another checkpoint or a lock held a moment: the next pass tries again."""
    message = str(exc).lower()
    return "locked" in message or "busy" in message
