"""Whole-pipeline harvest throughput next to its floors, interleaved in one run.

Builds a tree of corpus copies (ids rewritten so each copy is distinct sessions) in
bench/_work/, then runs each arm below once per round, every run in a fresh process
(a user's `sleepd harvest` pays the first use of the redaction rules and of the
store's statements; the interpreter's start and imports are not timed), arms in a
rotating order so a change in the machine's speed falls on all of them:
  * default     — the new path as `sleepd harvest` runs it with the product's defaults:
                  redaction and FTS on, fresh home, and (the tree being over
                  `harvest.parallel_min_mb`) one spawned worker process per CPU, at most
                  four, parsing; none on a one-CPU machine;
  * serial      — the same with `jobs=1`: everything in the harvesting process;
  * slow-gc     — serial with the garbage collector's young generation at 100,000
                  allocations (the pace the old harvest set), to see whether it pays;
  * skillopt    — the anchor: SkillOpt-Sleep 0.2.0's digest-only scan of the same tree
                  (`skillopt_sleep.harvest.harvest` over the Claude projects folder and
                  `digest_codex_archived_session` over every Codex rollout; it stores
                  nothing), from the `skillopt` 0.2.0 wheel on PyPI:
                  `pip install --no-deps skillopt==0.2.0`;
  * orjson      — a plain `orjson.loads` of every line of the same tree.
Medians over the rounds, the new path's ratio to the anchor (target: within 3x of its
time; the serial path's ratio and both CPU ratios beside it), and each piece's median
gain over the same path without it (kept only if it gains >= 15 %). Then the unchanged
re-harvest (whole `sleepd harvest` process, wall, per file: it stays O(files)) and
ingesting ~1 % appended bytes with `sleepd harvest`.

    .venv/bin/python bench/harvest.py [--copies N] [--rounds N] [--arms a,b,...]
    .venv/bin/python bench/harvest.py --database-url postgresql://…  (PostgreSQL next to
        SQLite: harvest MB/s and `status --json` latency, see bench/harvest_stores.py)
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parents[1]
TEST_SUPPORT = REPO / "tests" / "harvest"
# Imported where used, not here: worker processes re-import this main module, and the
# test helpers pull in pytest, which a worker of the real CLI never pays for.

WORK = REPO / "bench" / "_work" / "harvest"
ARMS = ("default", "serial", "slow-gc", "skillopt", "orjson")
ANCHOR_FACTOR = 3.0
PAYS = 0.15
TARGET_INCREMENTAL_S = 0.25
RESULT_MARK = "\n@@result@@ "


def use_home(work: Path) -> dict[str, str]:
    env = {
        "SLEEPD_HOME": str(work / "sleepd-home"),
        "SLEEPD_CONFIG": str(work / "config.toml"),
        "CLAUDE_CONFIG_DIR": str(work / "claude"),
        "CODEX_HOME": str(work / "codex"),
    }
    os.environ.update(env)
    os.environ.pop("SLEEPD_DATABASE_URL", None)
    return env


def build_tree(work: Path, copies: int) -> int:
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    sys.path.insert(0, str(TEST_SUPPORT))
    from e2e_support import lay_out_copies

    return lay_out_copies(work, copies)


def tree_files(work: Path) -> list[Path]:
    return sorted(
        p
        for p in [*(work / "claude").rglob("*.jsonl"), *(work / "codex").rglob("*.jsonl")]
        if p.is_file()
    )


def run_arm(arm: str) -> dict[str, Any]:
    """One run of `arm` over the tree already built; wall seconds and bytes covered."""
    if arm == "orjson":
        files = tree_files(WORK)
        start, cpu = time.perf_counter(), time.process_time()
        size = lines = 0
        for path in files:
            with path.open("rb") as handle:
                for line in handle:
                    size += len(line)
                    if line.strip():
                        orjson.loads(line)
                        lines += 1
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        return {"wall_s": wall, "cpu_s": cpu, "bytes": size, "lines": lines}
    if arm == "skillopt":
        from skillopt_sleep.harvest import harvest as digest_claude
        from skillopt_sleep.harvest_codex import digest_codex_archived_session

        files = tree_files(WORK)
        start, cpu = time.perf_counter(), time.process_time()
        digests = len(digest_claude(str(WORK / "claude" / "projects")))
        for path in files:
            if "codex" in path.parts and digest_codex_archived_session(str(path)) is not None:
                digests += 1
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        size = sum(p.stat().st_size for p in files)
        return {"wall_s": wall, "cpu_s": cpu, "bytes": size, "digests": digests}
    from sleepd.config import load_config
    from sleepd.harvest import harvest
    from sleepd.store.open import open_store

    shutil.rmtree(WORK / "sleepd-home", ignore_errors=True)
    cfg = load_config()
    engine = open_store(cfg, write=True)
    if arm == "slow-gc":
        _, second, third = gc.get_threshold()
        gc.set_threshold(100_000, second, third)
    start, cpu, workers_cpu = time.perf_counter(), time.process_time(), children_cpu()
    report = harvest(engine, cfg, jobs=cfg.harvest.workers if arm == "default" else 1)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    cpu += children_cpu() - workers_cpu  # reaped when the pool shut down
    engine.dispose()
    totals = report.totals()
    assert totals["errors"] == 0, report.to_dict()
    return {
        "workers": max(source.workers for source in report.sources.values()),
        "wall_s": wall,
        "cpu_s": cpu,
        "bytes": totals["bytes_read"],
        "events": totals["events_new"],
    }


def fresh_process(arm: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--one-run", arm], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{arm} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = orjson.loads(done.stdout.rpartition(RESULT_MARK)[2])
    return result


def children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def sleepd_harvest(env: dict[str, str]) -> tuple[float, float, dict[str, Any]]:
    """`sleepd harvest --json` as a user runs it; wall and CPU time of the whole process."""
    exe = Path(sys.executable).with_name("sleepd")
    cpu_start = children_cpu()
    start = time.perf_counter()
    done = subprocess.run(
        [str(exe), "harvest", "--json"],
        env={**os.environ, **env},
        capture_output=True,
        check=True,
    )
    elapsed = time.perf_counter() - start
    return elapsed, children_cpu() - cpu_start, orjson.loads(done.stdout)


#: When the appended lines happen: after every record of the corpus, as a real append is.
APPENDED_AT = datetime(2027, 1, 1, tzinfo=UTC)


def appended_after(path: Path) -> datetime:
    """When lines appended to `path` now happen: after the corpus, and after the lines an
    earlier round appended to the same file. A bench appends round after round; lines
    again at times already stored would be history written again, which the harvest checks
    and stores once, and the round would time that check instead of new lines."""
    size = path.stat().st_size
    with path.open("rb") as handle:
        handle.seek(max(0, size - 65536))
        tail = handle.read().splitlines()
    for raw in reversed(tail):
        try:
            record = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue  # the tail's first line, cut by the seek
        stamp = record.get("timestamp") if isinstance(record, dict) else None
        if isinstance(stamp, str):
            try:
                at = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
            except ValueError:
                continue
            return max(APPENDED_AT, at + timedelta(seconds=1))
    return APPENDED_AT


def fresh_line(raw: bytes, index: int = 0, start: datetime = APPENDED_AT) -> bytes | None:
    """A copy of a transcript line that a harvest stores as new (a fresh uuid where the
    record has one, and the time `start`, `index` milliseconds on: the same record under a
    new id at its old time is history written again, which the harvest stores once), with
    its newline; None for a line that is no JSON."""
    try:
        record = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if isinstance(record, dict) and "uuid" in record:
        record["uuid"] = str(uuid.uuid4())
    if isinstance(record, dict) and "timestamp" in record:
        at = start + timedelta(milliseconds=index)
        record["timestamp"] = at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return orjson.dumps(record) + b"\n"


def append_one_percent(work: Path, total_bytes: int) -> int:
    """Append fresh lines (new uuids, same sessions) to every 10th file, ~1 % of all bytes
    (a line that would take a file past its share is left out, unless it is the first)."""
    files = sorted(
        p for p in work.rglob("*.jsonl") if "sleepd-home" not in p.parts and p.stat().st_size
    )
    chosen = files[::10]
    quota = total_bytes // 100 // max(1, len(chosen)) + 1
    appended = 0
    for path in chosen:
        out = bytearray()
        start = appended_after(path)
        for index, raw in enumerate(path.read_bytes().splitlines()[1:]):
            if len(out) >= quota:
                break
            line = fresh_line(raw, index, start)
            if line is None:
                continue
            if len(out) + len(line) > quota and out:
                continue  # a line this long would overshoot the 1 %: a shorter one fits
            out += line
        with path.open("ab") as handle:
            handle.write(out)
        appended += len(out)
    return appended


def machine_speed() -> float:
    """Seconds a fixed pure-Python loop takes now (lower is faster): the best of three,
    so a moment's hiccup does not count as the machine's state."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        total = 0
        for number in range(1_000_000):
            total += number
        best = min(best, time.process_time() - start)
    return best


def precompile() -> None:
    """Byte-compile the package as a wheel install does, so the `sleepd` processes timed
    below do not compile it on every run (a checkout under PYTHONDONTWRITEBYTECODE would)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "sleepd", "harvesters", "migrations"],
        cwd=REPO,
        env=env,
        check=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=35, help="corpus copies")
    parser.add_argument("--rounds", type=int, default=6, help="interleaved rounds (>= 6)")
    parser.add_argument("--arms", default=",".join(ARMS), help="which arms, comma-separated")
    parser.add_argument("--one-run", help=argparse.SUPPRESS)
    parser.add_argument(
        "--database-url",
        help="also (or, without --arms, only) harvest MB/s and status --json latency on this "
        "PostgreSQL database next to SQLite (bench/harvest_stores.py; the database is emptied)",
    )
    args = parser.parse_args()
    if args.database_url:
        from harvest_stores import compare

        given = {a.split("=")[0] for a in sys.argv}
        copies = args.copies if "--copies" in given else 3  # both stores filled each round
        compare(args.database_url, copies=copies, rounds=3)
        if "--arms" not in given:
            return
    if args.one_run:  # one run of one arm over the tree already built, as JSON
        use_home(WORK)
        sys.stdout.write(RESULT_MARK + orjson.dumps(run_arm(args.one_run)).decode())
        return
    corpus = REPO / "tests" / "fixtures" / "real_sessions"
    if not corpus.is_dir():
        raise SystemExit(f"corpus not found at {corpus}")
    arms = [a for a in args.arms.split(",") if a]
    if "skillopt" in arms:
        try:
            import skillopt_sleep.harvest  # noqa: F401
        except ImportError:
            raise SystemExit(
                "the anchor needs SkillOpt-Sleep 0.2.0: pip install --no-deps skillopt==0.2.0"
            ) from None
    env = use_home(WORK)
    total = build_tree(WORK, args.copies)
    files = len(tree_files(WORK))
    print(f"tree: {total / 1e6:.1f} MB, {files} files, {args.copies} corpus copies under {WORK}")
    print(f"machine: {os.cpu_count()} CPUs; speed loop {machine_speed():.3f} s")

    rates: dict[str, list[float]] = {arm: [] for arm in arms}
    walls: dict[str, list[float]] = {arm: [] for arm in arms}
    cpus: dict[str, list[float]] = {arm: [] for arm in arms}
    worker_counts: dict[str, list[int]] = {}
    for number in range(args.rounds):
        order = arms[number % len(arms) :] + arms[: number % len(arms)]
        figures = []
        for arm in order:
            result = fresh_process(arm)
            walls[arm].append(result["wall_s"])
            cpus[arm].append(result["cpu_s"])
            worker_counts.setdefault(arm, []).append(result.get("workers", 0))
            rates[arm].append(result["bytes"] / result["wall_s"] / 1e6)
            figures.append(f"{arm} {rates[arm][-1]:6.1f}")
        print(f"round {number + 1}: " + "  ".join(figures) + " MB/s")
    print(f"machine: speed loop {machine_speed():.3f} s after the rounds")
    print(f"{'arm':<10}{'median MB/s':>12}{'median wall s':>15}{'median CPU s':>14}")
    for arm in arms:
        print(
            f"{arm:<10}{statistics.median(rates[arm]):12.1f}{statistics.median(walls[arm]):15.2f}"
            f"{statistics.median(cpus[arm]):14.2f}"
        )
    workers = max(worker_counts.get("default", [0]))
    for arm, label in (("default", "new path"), ("serial", "new path, serial")):
        if arm not in arms or "skillopt" not in arms:
            continue
        ratio = statistics.median(walls[arm]) / statistics.median(walls["skillopt"])
        cpu_ratio = statistics.median(cpus[arm]) / statistics.median(cpus["skillopt"])
        how = f"{workers} worker processes" if arm == "default" else "in-process"
        verdict = (
            f"  target <= {ANCHOR_FACTOR:.0f}x: {'met' if ratio <= ANCHOR_FACTOR else 'MISSED'}"
            if arm == "default"
            else ""
        )
        print(
            f"{label} ({how}) / SkillOpt-Sleep 0.2.0 digest-only scan (one process), wall: "
            f"{ratio:.2f}x{verdict}  (CPU: {cpu_ratio:.2f}x)"
        )
    for arm in ("default", "serial"):
        if arm in arms and "orjson" in arms:
            ratio = statistics.median(walls[arm]) / statistics.median(walls["orjson"])
            print(f"{arm} path / plain orjson.loads of every line, wall: {ratio:.2f}x")
    pieces = (("default", f"{workers} worker processes"), ("slow-gc", "a slowed collector"))
    for arm, piece in pieces:
        if arm in arms and "serial" in arms:
            gains = [s / w - 1 for s, w in zip(walls["serial"], walls[arm], strict=True)]
            gain = statistics.median(gains)
            verdict = "pays" if gain >= PAYS else "does not pay"
            print(
                f"{piece}: median gain {gain:+.0%} over serial in {len(gains)} interleaved "
                f"pairs ({', '.join(f'{g:+.0%}' for g in gains)}): {verdict} (>= {PAYS:.0%})"
            )

    precompile()
    shutil.rmtree(WORK / "sleepd-home", ignore_errors=True)
    sleepd_harvest(env)  # the tree stored once, as the product's defaults do it
    unchanged: list[float] = []
    unchanged_cpu: list[float] = []
    for _ in range(3):
        wall, cpu, detail = sleepd_harvest(env)
        assert detail["events_new"] == 0, detail
        unchanged.append(wall)
        unchanged_cpu.append(cpu)
    best = min(unchanged)
    print(
        f"unchanged re-harvest: {best:7.3f} s wall (best of 3: "
        f"{', '.join(f'{w:.3f}' for w in unchanged)}; CPU {min(unchanged_cpu):.3f} s; "
        f"{detail['files_scanned']} files, {best / max(1, detail['files_scanned']) * 1e6:.0f} "
        "µs a file)"
    )
    appended = append_one_percent(WORK, total)
    wall, cpu, detail = sleepd_harvest(env)
    print(
        f"1 % appended:        {wall:8.3f} s wall, {cpu:.3f} s CPU "
        f"({appended / 1e6:.2f} MB appended to "
        f"{detail['files_changed']} files, {detail['events_new']:,} new events, "
        f"{detail['bytes_read'] / 1e6:.2f} MB read); the target, <= {TARGET_INCREMENTAL_S} s, "
        f"is at 1 GB: bench/speed.py measures it there"
    )


if __name__ == "__main__":
    main()
