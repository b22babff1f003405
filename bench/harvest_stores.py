"""Harvest MB/s and `sleepd status --json` latency on PostgreSQL next to SQLite, one run.

`bench/harvest.py --database-url URL` runs this comparison (so does this script). It
lays out corpus copies (ids rewritten: each copy is distinct sessions) in
bench/_work/stores/, then, in rounds that alternate the order of the two stores, runs
the whole `sleepd harvest --json` command as a user does (a fresh process, defaults: one
parsing process) into a fresh SQLite file and into the PostgreSQL database emptied
first, and after each harvest times `sleepd status --json` on the store it filled.
Medians over the rounds. CPU is the sleepd processes' own (user + system, children
included); the PostgreSQL server's CPU is not in it.

Without `--database-url` a throwaway cluster is started from the PostgreSQL binaries on
the machine (as the tests do) and stopped at the end. The database named by a URL is
upgraded to head and EMPTIED (every sleepd table truncated): give a scratch database.

    .venv/bin/python bench/harvest_stores.py [--database-url URL] [--copies N] [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "bench" / "_work" / "stores"
STATUS_RUNS = 3


def _env(store: str, url: str | None) -> dict[str, str]:
    env = {
        **os.environ,
        "SLEEPD_HOME": str(WORK / f"home-{store}"),
        "SLEEPD_CONFIG": str(WORK / "config.toml"),
        "CLAUDE_CONFIG_DIR": str(WORK / "claude"),
        "CODEX_HOME": str(WORK / "codex"),
    }
    env.pop("SLEEPD_DATABASE_URL", None)
    if url:
        env["SLEEPD_DATABASE_URL"] = url
    return env


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _sleepd(args: list[str], env: dict[str, str]) -> tuple[float, float, bytes]:
    """One `sleepd` command as a user runs it: wall and CPU seconds, and its stdout."""
    exe = Path(sys.executable).with_name("sleepd")
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run([str(exe), *args], env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"sleepd {' '.join(args)} failed: {done.stderr.decode()[-2000:]}")
    return wall, _children_cpu() - cpu, done.stdout


def _empty_postgres(url: str) -> None:
    """The database at head with every sleepd table empty (ids restarted)."""
    from sqlalchemy import text

    from sleepd.store.engine import make_engine
    from sleepd.store.migrate import upgrade
    from sleepd.store.models import Base

    engine = make_engine(url)
    try:
        upgrade(engine)
        names = ", ".join(f'"{t}"' for t in Base.metadata.tables)
        with engine.begin() as conn:
            conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    finally:
        engine.dispose()


def _one_round(store: str, url: str | None) -> dict[str, float]:
    home = WORK / f"home-{store}"
    shutil.rmtree(home, ignore_errors=True)
    if url:
        _empty_postgres(url)
    env = _env(store, url)
    wall, cpu, out = _sleepd(["harvest", "--json"], env)
    report: dict[str, Any] = orjson.loads(out)
    assert report["errors"] == 0 and report["events_new"] > 0, report
    status, status_cpu = [], []
    for _ in range(STATUS_RUNS):
        status_wall, cpu_s, out = _sleepd(["status", "--json"], env)
        assert orjson.loads(out)["database"]["at_head"]
        status.append(status_wall)
        status_cpu.append(cpu_s)
    return {
        "mb_s": report["bytes_read"] / wall / 1e6,
        "wall_s": wall,
        "cpu_s": cpu,
        "events": report["events_new"],
        "status_s": min(status),
        "status_cpu_s": min(status_cpu),
    }


def compare(url: str, copies: int, rounds: int) -> None:
    """Print the two stores' figures side by side (interleaved rounds, medians)."""
    sys.path.insert(0, str(REPO / "tests" / "harvest"))
    from e2e_support import lay_out_copies

    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    total = lay_out_copies(WORK, copies)
    load = os.getloadavg()[0]
    print(
        f"stores: {total / 1e6:.1f} MB of transcripts ({copies} corpus copies); "
        f"{os.cpu_count()} CPUs, load {load:.1f}"
    )
    stores = {"sqlite": None, "postgresql": url}
    results: dict[str, list[dict[str, float]]] = {s: [] for s in stores}
    for number in range(rounds):
        order = list(stores) if number % 2 == 0 else list(stores)[::-1]
        line = []
        for store in order:
            figures = _one_round(store, stores[store])
            results[store].append(figures)
            line.append(f"{store} {figures['mb_s']:.1f} MB/s")
        print(f"round {number + 1}: " + "  ".join(line))
    events = {s: {r["events"] for r in rs} for s, rs in results.items()}
    assert events["sqlite"] == events["postgresql"], events  # the same events stored
    print(
        f"{'store':<12}{'harvest MB/s':>14}{'wall s':>9}{'CPU s':>8}"
        f"{'status --json s':>17}{'its CPU s':>11}  (medians of {rounds}; status best of "
        f"{STATUS_RUNS})"
    )
    for store, rows in results.items():

        def med(key: str, rows: list[dict[str, float]] = rows) -> float:
            return statistics.median(r[key] for r in rows)

        print(
            f"{store:<12}{med('mb_s'):14.1f}{med('wall_s'):9.2f}{med('cpu_s'):8.2f}"
            f"{med('status_s'):17.3f}{med('status_cpu_s'):11.3f}"
        )
    print(f"load after: {os.getloadavg()[0]:.1f} (CPU excludes the PostgreSQL server's own)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="a scratch PostgreSQL database (emptied)")
    parser.add_argument("--copies", type=int, default=3, help="corpus copies")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per store")
    args = parser.parse_args(argv)
    if args.database_url:
        compare(args.database_url, args.copies, args.rounds)
        return
    sys.path.insert(0, str(REPO / "tests"))
    import pgcluster

    base, url = pgcluster.start()
    try:
        compare(url, args.copies, args.rounds)
    finally:
        pgcluster.stop(base)


if __name__ == "__main__":
    main()
