"""Mining figures: clustering quality on the labelled intents, and throughput.

    .venv/bin/python bench/mining.py [--sessions 10000] [--threshold 0.2]
    .venv/bin/python bench/mining.py --memory 100,500,1000   # MB of history
    .venv/bin/python bench/mining.py --hostile               # slow-to-sign error lines

Prints pairwise precision / recall of intent clustering on tests/data/intents.jsonl
(per threshold), then mines N synthetic sessions (events inserted directly) and
prints episodes per second for the first pass, the time of an idle re-run, and the time
of a pass that reads every session again (as the first pass after an upgrade does).

With --hostile it instead times the signing of failed tool results built to be slow: one
64 KB line without spaces in each of several shapes (a minified bundle's dotted names,
a path of a thousand folders, a hidden folder's long name), the largest text a harvest
stores, and the reading of a test run's output holding 200 KB of blank lines. Each
should take a fraction of a second.

With --memory it instead builds stores holding the given megabytes of history (event
text; tool output 2-24 KB, as on real machines) and runs `sleepd mine` in a fresh
process on each: the peak RSS of the first mine, and the wall time of an idle
`sleepd mine` (nothing new) on the same store.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert, update  # noqa: E402

from sleepd.config import Config  # noqa: E402
from sleepd.mining.clusters import plan_clusters  # noqa: E402
from sleepd.mining.mine import mine  # noqa: E402
from sleepd.mining.vectors import IntentVectorizer  # noqa: E402
from sleepd.store.engine import make_engine, write_session  # noqa: E402
from sleepd.store.migrate import upgrade  # noqa: E402
from sleepd.store.models import Event, Session  # noqa: E402

INTENTS = ROOT / "tests" / "data" / "intents.jsonl"


def pairwise(gold: list[str], predicted: list[int]) -> tuple[float, float]:
    tp = fp = fn = 0
    for i, j in itertools.combinations(range(len(gold)), 2):
        same_pred, same_gold = predicted[i] == predicted[j], gold[i] == gold[j]
        tp += same_pred and same_gold
        fp += same_pred and not same_gold
        fn += same_gold and not same_pred
    return tp / max(tp + fp, 1), tp / max(tp + fn, 1)


def quality(thresholds: list[float]) -> None:
    rows = [json.loads(line) for line in INTENTS.read_text(encoding="utf-8").splitlines()]
    texts, gold = [r["text"] for r in rows], [r["label"] for r in rows]
    vectorizer = IntentVectorizer()
    vectorizer.fit_idf(texts)
    vectors = vectorizer.transform(texts)
    print(f"labelled set: {len(texts)} intents, {len(set(gold))} gold clusters")
    print("threshold  precision  recall   clusters")
    for threshold in thresholds:
        plan = plan_clusters(vectors, None, threshold)
        labels = [0] * len(texts)
        for label, group in enumerate(plan.groups):
            for row in group:
                labels[row] = label
        precision, recall = pairwise(gold, labels)
        print(f"{threshold:9.2f}  {precision:9.3f}  {recall:6.3f}  {len(plan.groups):8d}")


def synthetic(engine: object, sessions: int, seed: int = 7) -> int:
    """Insert `sessions` sessions (two intents each, errors, corrections); return events."""
    rng = random.Random(seed)
    rows = [json.loads(line) for line in INTENTS.read_text(encoding="utf-8").splitlines()]
    intents = [r["text"] for r in rows]
    projects = [f"/work/project-{i}" for i in range(8)]
    start = datetime(2026, 10, 1, tzinfo=UTC)
    events_total = 0
    with write_session(engine) as db:  # type: ignore[arg-type]
        session_rows = [
            {
                "source": "claude",
                "external_id": f"bench-{i}",
                "kind": "main",
                "project_path": rng.choice(projects),
                "started_at": start + timedelta(minutes=i),
            }
            for i in range(sessions)
        ]
        db.execute(insert(Session), session_rows)
        ids = [
            row[0] for row in db.execute(Session.__table__.select().with_only_columns(Session.id))
        ]
        batch: list[dict[str, object]] = []
        for sid in ids:
            ts = start + timedelta(minutes=sid)
            steps: list[tuple[str, str, dict[str, object]]] = []
            for _ in range(2):
                steps.append(("user_prompt", rng.choice(intents), {}))
                failed = rng.random() < 0.3
                steps.append(("tool_call", '{"command": "npm test"}', {"tool_name": "Bash"}))
                steps.append(
                    (
                        "tool_result",
                        "Error: ENOENT: no such file, open '/x/y.js'" if failed else "ok",
                        {"is_error": failed, "exit_code": 1 if failed else 0},
                    )
                )
                steps.append(("assistant_text", "Done.", {}))
                if rng.random() < 0.2:
                    steps.append(("user_prompt", "no, use pnpm not npm", {}))
                elif rng.random() < 0.3:
                    steps.append(("user_prompt", "thanks, perfect", {}))
            for seq, (kind, text, extra) in enumerate(steps, start=1):
                call = f"c{sid}-{seq - 1}" if kind == "tool_result" else f"c{sid}-{seq}"
                batch.append(
                    {
                        "session_id": sid,
                        "seq": seq,
                        "external_id": f"{sid}-{seq}",
                        "kind": kind,
                        "role": "user" if kind == "user_prompt" else "assistant",
                        "text": text,
                        "ts": ts + timedelta(seconds=seq),
                        "call_id": call if kind.startswith("tool_") else None,
                        **extra,
                    }
                )
            if len(batch) > 20000:
                db.execute(insert(Event), batch)
                events_total += len(batch)
                batch = []
        if batch:
            db.execute(insert(Event), batch)
            events_total += len(batch)
    return events_total


def throughput(sessions: int, threshold: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{tmp}/bench.db")
        upgrade(engine)
        t0 = time.perf_counter()
        events = synthetic(engine, sessions)
        print(
            f"\ninserted {sessions} sessions, {events} events in {time.perf_counter() - t0:.1f} s"
        )
        cfg = Config()
        cfg.mining.similarity_threshold = threshold
        later = datetime(2027, 1, 1, tzinfo=UTC)
        report = mine(engine, cfg, now=later)
        rate = report.episodes_new / report.duration_s
        print(
            f"first pass: {report.episodes_new} episodes, {report.signals_new} signals, "
            f"{report.clusters_total} clusters ({report.recurring_clusters} recurring), "
            f"{report.patterns_total} patterns, {report.tasks_new} tasks "
            f"{report.tasks_by_split} in {report.duration_s:.1f} s = {rate:,.0f} episodes/s"
        )
        again = mine(engine, cfg, now=later)
        print(f"idle re-run: {again.episodes_new} new episodes in {again.duration_s:.2f} s")
        with write_session(engine) as db:  # as a store an older sleepd mined reads
            db.execute(update(Session).values(mined_with="0.0.0:an-older-reader"))
        reread = mine(engine, cfg, now=later)
        print(
            f"read again (every session, as after an upgrade): {reread.sessions_read_again} "
            f"sessions in {reread.duration_s:.1f} s; {reread.episodes_gone} episodes gone, "
            f"{reread.tasks_retired} tasks retired, {reread.tasks_new} made anew"
        )
        engine.dispose()


def history(engine: object, megabytes: int, seed: int = 11) -> tuple[int, int]:
    """Insert sessions until their event text holds `megabytes` MB; return (sessions,
    events). Each session: 3 requests (some follow-ups and corrections), 6 tool calls
    per request with 2-24 KB outputs, the agent's words."""
    rng = random.Random(seed)
    rows = [json.loads(line) for line in INTENTS.read_text(encoding="utf-8").splitlines()]
    intents = [r["text"] for r in rows]
    words = " ".join(intents).split()
    start = datetime(2026, 6, 1, tzinfo=UTC)
    target = megabytes * 1_000_000
    written = sessions = events = 0
    while written < target:
        with write_session(engine) as db:  # type: ignore[arg-type]
            batch: list[dict[str, object]] = []
            for _ in range(200):
                sessions += 1
                sid_row = {
                    "source": "claude",
                    "external_id": f"hist-{sessions}",
                    "kind": "main",
                    "project_path": f"/work/p{sessions % 40}",
                    "started_at": start + timedelta(minutes=sessions),
                }
                sid = db.execute(insert(Session).returning(Session.id), [sid_row]).scalar_one()
                ts = start + timedelta(minutes=sessions)
                steps: list[tuple[str, str, dict[str, object]]] = []
                for turn in range(3):
                    prompt = rng.choice(intents)
                    if turn and rng.random() < 0.3:
                        prompt = rng.choice(["no, that's wrong, it still fails", "thanks, perfect"])
                    steps.append(("user_prompt", prompt, {}))
                    for _call in range(6):
                        size = rng.randint(2_000, 24_000)
                        out = " ".join(rng.choices(words, k=size // 6))[:size]
                        failed = rng.random() < 0.15
                        steps.append(
                            ("tool_call", '{"command": "make test"}', {"tool_name": "Bash"})
                        )
                        steps.append(
                            (
                                "tool_result",
                                ("Error: ENOENT: no such file\n" if failed else "") + out,
                                {"is_error": failed, "exit_code": 1 if failed else 0},
                            )
                        )
                    steps.append(("assistant_text", "I've updated the module; tests pass.", {}))
                for seq, (kind, text, extra) in enumerate(steps, start=1):
                    written += len(text)
                    call = f"c{sid}-{seq - 1}" if kind == "tool_result" else f"c{sid}-{seq}"
                    batch.append(
                        {
                            "session_id": sid,
                            "seq": seq,
                            "external_id": f"{sid}-{seq}",
                            "kind": kind,
                            "role": "user" if kind == "user_prompt" else "assistant",
                            "text": text,
                            "text_size": len(text),
                            "ts": ts + timedelta(seconds=seq),
                            "call_id": call if kind.startswith("tool_") else None,
                            **extra,
                        }
                    )
            db.execute(insert(Event), batch)
            events += len(batch)
    return sessions, events


#: Runs the CLI and reports the process's own peak RSS (VmHWM of its address space after
#: exec: getrusage's maxrss would carry over this benchmark's own peak from the fork).
_MEASURED = """
import atexit, sys
_out = sys.argv.pop(1)
def _peak():
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM:'):
            open(_out, 'w').write(line.split()[1])
atexit.register(_peak)
from sleepd.cli.app import main
main()
"""


def _sleepd(home: Path, *args: str) -> tuple[float, int]:
    """Run `sleepd ARGS` in a fresh process: (wall seconds, peak RSS in KB)."""
    env = {**os.environ, "SLEEPD_HOME": str(home), "SLEEPD_CONFIG": str(home / "none.toml")}
    peak_file = home / "peak.txt"
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _MEASURED, str(peak_file), *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
    )
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"sleepd {' '.join(args)} failed: {proc.stderr.decode().strip()[-300:]}")
    return wall, int(peak_file.read_text())


def memory(sizes: list[int]) -> None:
    print("\nsleepd mine in a fresh process (peak RSS of the first pass; idle = nothing new)")
    print("history MB  sessions   events  first s  peak RSS MB  idle s  idle RSS MB")
    for megabytes in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            home = Path(tmp)
            engine = make_engine(f"sqlite:///{home / 'sleepd.db'}")
            upgrade(engine)
            sessions, events = history(engine, megabytes)
            engine.dispose()
            first, rss = _sleepd(home, "mine", "--json")
            idle, idle_rss = _sleepd(home, "mine", "--json")
            print(
                f"{megabytes:>10}  {sessions:>8}  {events:>7}  {first:7.1f}  {rss / 1024:11.0f}"
                f"  {idle:6.2f}  {idle_rss / 1024:11.0f}"
            )


def hostile() -> None:
    from sleepd.mining.signatures import example_of, signature_of

    size = 64 * 1024
    shapes = {
        "dotted names (a minified bundle)": "x " + "ab." * (size // 3),
        "a path of many folders": "a/" * (size // 2),
        "a hidden folder's long name": "." + "a-" * (size // 2) + "/x",
        "accented dotted words": "ls: " + "é." * (size // 2),
    }
    print(f"{'error line':<36}{'signature s':>12}{'example s':>11}")
    for name, line in shapes.items():
        text = f"Exit code 1\nError: {line}"
        start = time.perf_counter()
        signature_of(text, "Bash", 1)
        signed = time.perf_counter() - start
        start = time.perf_counter()
        example_of(text, 1)
        shown = time.perf_counter() - start
        print(f"{name:<36}{signed:12.3f}{shown:11.3f}")
    _hostile_test_output()


def _hostile_test_output() -> None:
    """A test run's output with long runs of blank or space-only lines (a runner that
    pads, a log full of empty lines), 200 KB, and the safety lint reading an edit as
    long: each line pattern reads one line, so reading it stays linear."""
    from sleepd.dream.safety import normalise
    from sleepd.mining.errors import output_shows_failure
    from sleepd.mining.signals import run_status
    from sleepd.mining.test_report import parse_test_output

    size = 200 * 1024
    runs = {
        "blank lines": "\n" * size,
        "lines of one space": " \n" * (size // 2),
        "CRLF blank lines": "\r\n" * (size // 2),
        "Markdown link openings '[a]('": "[a](" * (size // 4),
        "Markdown brackets '['": "[" * size,
        "autolink openings '<http://'": "<http://" * (size // 8),
    }
    readers = {
        "test report": parse_test_output,
        "run status": run_status,
        "failure shown": output_shows_failure,
        "edit's lint": normalise,  # the safety lint's reading of an edit that long
    }
    header = "".join(f"{name + ' s':>16}" for name in readers)
    print(f"\n{'test output or edit, 200 KB of':<36}{header}")
    for name, run in runs.items():
        text = f"Tests:       1 failed, 2 passed, 3 total\n{run}  ✕ adds (3 ms)\n"
        row = ""
        for read in readers.values():
            start = time.perf_counter()
            read(text)
            row += f"{time.perf_counter() - start:16.3f}"
        print(f"{name:<36}{row}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--threshold", type=float, default=0.2)
    parser.add_argument("--memory", default="", help="MB of history, comma-separated")
    parser.add_argument("--hostile", action="store_true", help="time slow-to-sign error lines")
    args = parser.parse_args()
    if args.hostile:
        hostile()
        return
    if args.memory:
        memory([int(x) for x in args.memory.split(",")])
        return
    quality([0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.55])
    throughput(args.sessions, args.threshold)


if __name__ == "__main__":
    main()
