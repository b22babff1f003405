"""Idle cost of `sleepd daemon`: CPU seconds per idle minute and resident memory.

Starts the daemon in a throwaway home (empty transcript roots, sim backend),
waits for it to settle, then samples psutil cpu_times over an idle window.
Targets: < 0.05 s CPU per idle minute, RSS < 100 MB.

    .venv/bin/python bench/daemon.py [--seconds 60]
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

CONFIG = '[backends]\ndefault = "sim"\n'


def wait_running(db: Path, pid: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if db.exists():
            try:
                with sqlite3.connect(db) as conn:
                    row = conn.execute(
                        "select state from daemon_heartbeats where pid = ?", (pid,)
                    ).fetchone()
                if row and row[0] == "running":
                    return
            except sqlite3.Error:
                pass
        time.sleep(0.2)
    raise SystemExit("daemon did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="idle window to measure")
    parser.add_argument("--settle", type=float, default=10.0, help="wait after start")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sleepd-bench-") as tmp:
        base = Path(tmp)
        (base / "config.toml").write_text(CONFIG)
        (base / "claude" / "projects").mkdir(parents=True)
        (base / "codex" / "sessions").mkdir(parents=True)
        env = {
            **os.environ,
            "SLEEPD_HOME": str(base / "home"),
            "SLEEPD_CONFIG": str(base / "config.toml"),
            "CLAUDE_CONFIG_DIR": str(base / "claude"),
            "CODEX_HOME": str(base / "codex"),
        }
        env.pop("NOTIFY_SOCKET", None)
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "sleepd.daemon"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_running(base / "home" / "sleepd.db", proc.pid)
            startup_s = time.monotonic() - started
            time.sleep(args.settle)
            ps = psutil.Process(proc.pid)
            before = ps.cpu_times()
            time.sleep(args.seconds)
            after = ps.cpu_times()
            rss_mb = ps.memory_info().rss / 1e6
            threads = ps.num_threads()
            modules_note = "(sklearn/SDKs are imported only by jobs)"
        finally:
            proc.send_signal(signal.SIGTERM)
            t0 = time.monotonic()
            code = proc.wait(30)
            stop_s = time.monotonic() - t0
        cpu = (after.user - before.user) + (after.system - before.system)
        per_minute = cpu * 60.0 / args.seconds
        print(f"startup until heartbeat 'running': {startup_s:.2f} s")
        print(f"idle window: {args.seconds:.0f} s after {args.settle:.0f} s settle")
        print(f"CPU: {cpu:.3f} s over the window = {per_minute:.4f} s/min (target < 0.05)")
        print(f"RSS: {rss_mb:.1f} MB (target < 100) {modules_note}")
        print(f"threads: {threads}")
        print(f"SIGTERM to exit: {stop_s:.2f} s, exit status {code}")


if __name__ == "__main__":
    main()
