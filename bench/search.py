"""How long `sleepd search` takes on a large database, beside `sleepd status --json`.

Targets (issue #22): a rare word ≤ 0.15 s wall and within 1.5× of `sleepd status
--json` measured in the same run; a common word ≤ 0.25 s at 1 GB. Builds (once, then
reused) a migrated database of synthetic events: `--mb` megabytes of event text in
sessions of two sources and several projects, a word in every third event, one
event with a rare word, and a share of Japanese and Chinese texts for the side index.
Times whole `sleepd` processes, interleaved, and prints medians; asserts nothing.

    .venv/bin/python bench/search.py [--mb 1000] [--runs 9] [--rebuild]
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "bench" / "_work" / "search"
SLEEPD = Path(sys.executable).with_name("sleepd")
RARE = "zanzibarquux"
COMMON = "error"
CJK_WORD = "最新"
TARGETS = {"rare": 0.15, "common": 0.25}

WORDS = [
    *[
        "the",
        "a",
        "to",
        "of",
        "and",
        "in",
        "is",
        "for",
        "that",
        "it",
        "with",
        "on",
        "this",
        "be",
        "as",
        "are",
        "run",
        "test",
        "file",
        "code",
        "fix",
    ],
    *[
        "build",
        "pytest",
        "import",
        "module",
        "function",
        "class",
        "value",
        "return",
        "config",
        "path",
        "line",
    ],
    *[
        "change",
        "update",
        "check",
        "install",
        "version",
        "cargo",
        "npm",
        "git",
        "commit",
        "branch",
        "merge",
    ],
    *[
        "review",
        "failed",
        "passed",
        "timeout",
        "server",
        "client",
        "request",
        "response",
        "cache",
        "index",
    ],
    *["query", "table", "column"],
]
JAPANESE = (
    "最新バージョンをインストールしてください",
    "テストが失敗しました。ログを確認してください",
    "このファイルの設定を変更してもいいですか",
)
CHINESE = ("我想要最新版本的文档", "请帮我修复这个测试", "数据库连接超时了")


def _text(rng: random.Random, size: int) -> str:
    if rng.random() < 0.04:
        return "".join(rng.choice(JAPANESE + CHINESE) for _ in range(max(1, size // 60)))
    words = rng.choices(WORDS, k=max(3, size // 6))
    if rng.random() < 0.33:
        words.insert(rng.randrange(len(words)), COMMON)
    return " ".join(words)


def build(db_file: Path, megabytes: int) -> None:
    """A migrated database filled through the stdlib driver, indexed as harvest does."""
    from sleepd.store import cjk_index
    from sleepd.store.engine import make_engine
    from sleepd.store.migrate import upgrade

    db_file.parent.mkdir(parents=True, exist_ok=True)
    for leftover in db_file.parent.glob(db_file.name + "*"):
        leftover.unlink()
    engine = make_engine(f"sqlite:///{db_file}")
    upgrade(engine)
    engine.dispose()
    rng = random.Random(7)
    conn = sqlite3.connect(db_file, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("BEGIN")
    target = megabytes * 1_000_000
    written = 0
    event_id = 0
    session = 0
    started = time.monotonic()
    while written < target:
        session += 1
        conn.execute(
            "INSERT INTO sessions (id, source, external_id, kind, event_count, meta, "
            "mined_through_seq, created_at, updated_at, project_path) VALUES "
            "(?, ?, ?, 'main', 0, '{}', 0, '2026-01-01', '2026-01-01', ?)",
            (
                session,
                "claude" if session % 3 else "codex",
                f"session-{session:07d}",
                f"/home/dev/project-{session % 12}",
            ),
        )
        rows = []
        for seq in range(1, 201):
            event_id += 1
            body = _text(rng, int(rng.expovariate(1 / 900)) + 20)
            if event_id == 1234:
                body += f" {RARE}"
            written += len(body.encode())
            ts = f"2026-{1 + event_id % 11:02d}-{1 + event_id % 27:02d} 10:00:00.000000"
            rows.append((event_id, session, seq, f"e{event_id}", body, ts, len(body)))
        conn.executemany(
            "INSERT INTO events (id, session_id, seq, external_id, role, kind, text, ts, "
            "text_size, is_error, input_tokens, output_tokens, cache_read_tokens, "
            "cache_creation_tokens, is_sidechain, is_meta, byte_offset, line_no) "
            "VALUES (?, ?, ?, ?, 'user', 'user_prompt', ?, ?, ?, 0, 0, 0, 0, 0, 0, 0, 0, 0)",
            rows,
        )
        conn.executemany(
            "INSERT INTO events_fts(rowid, text) VALUES (?, ?)", [(r[0], r[4]) for r in rows]
        )
        cjk_index.index_rows(conn, [(r[0], r[4]) for r in rows])
        if session % 50 == 0:
            conn.execute("COMMIT")
            conn.execute("BEGIN")
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    size = db_file.stat().st_size / 1e6
    print(
        f"built {event_id:,} events, {written / 1e6:.0f} MB of text, database {size:.0f} MB "
        f"in {time.monotonic() - started:.0f} s"
    )


def _time(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    proc = subprocess.run(command, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {proc.stderr.decode()[-400:]}")
    return elapsed


def print_query_costs(db_file: Path, runs: int = 5) -> None:
    """The search itself, in this process: what is left once start-up is paid."""
    from sleepd.search import search_page
    from sleepd.store.fastread import ReadOnlyDb

    db = ReadOnlyDb(f"sqlite:///{db_file}")
    try:
        print("  in-process query + snippets (median ms, page of 20):")
        for query, offset in ((RARE, 0), (COMMON, 0), (COMMON, 980), (CJK_WORD, 0), ("新", 0)):
            costs = []
            for _ in range(runs):
                started = time.perf_counter()
                search_page(db, query, limit=20, offset=offset)
                costs.append((time.perf_counter() - started) * 1000)
            print(f"    {query!s:<14} page {offset // 20 + 1:<3} {statistics.median(costs):7.1f}")
    finally:
        db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=int, default=1000, help="megabytes of event text")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    home = WORK / f"{args.mb}mb"
    db_file = home / "state" / "sleepd.db"
    if args.rebuild or not db_file.exists():
        build(db_file, args.mb)
    else:  # a database from an older sleepd: bring it to this one's schema
        from sleepd.store.engine import make_engine
        from sleepd.store.migrate import upgrade

        engine = make_engine(f"sqlite:///{db_file}")
        upgrade(engine)
        engine.dispose()
    (home / "config.toml").touch()
    env = {
        **os.environ,
        "SLEEPD_HOME": str(home / "state"),
        "SLEEPD_CONFIG": str(home / "config.toml"),
        "CLAUDE_CONFIG_DIR": str(home / "claude"),
        "CODEX_HOME": str(home / "codex"),
        "COLUMNS": "120",
    }
    env.pop("SLEEPD_DATABASE_URL", None)
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "--version": [str(SLEEPD), "--version"],
        "status --json": [str(SLEEPD), "status", "--json"],
        "rare": [str(SLEEPD), "search", RARE],
        "common": [str(SLEEPD), "search", COMMON],
        "common --json": [str(SLEEPD), "search", COMMON, "--json"],
        "common page 50": [str(SLEEPD), "search", COMMON, "--page", "50"],
        "cjk": [str(SLEEPD), "search", CJK_WORD],
        "cjk 1 char": [str(SLEEPD), "search", "新"],
        "two words": [str(SLEEPD), "search", "pytest timeout"],
    }
    for command in commands.values():  # warm the page cache once
        _time(command, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):  # interleaved, so a noisy moment hits every command
        for name, command in commands.items():
            times[name].append(_time(command, env))
    status = statistics.median(times["status --json"])
    size = db_file.stat().st_size / 1e6
    print(f"database {size:.0f} MB; medians of {args.runs} interleaved runs (wall, s)")
    for name, values in times.items():
        median = statistics.median(values)
        note = f"  {median / status:.2f}× status"
        target = TARGETS.get(name)
        if target is not None:
            note += f"  (target ≤ {target} s: {'met' if median <= target else 'MISSED'})"
        print(f"  sleepd {name:<16} {median:.3f}  min {min(values):.3f}{note}")
    print_query_costs(db_file)
    rare = statistics.median(times["rare"])
    within = rare <= 1.5 * status
    print(f"rare word within 1.5× of status --json: {'yes' if within else 'NO'}")


if __name__ == "__main__":
    main()
