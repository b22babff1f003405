"""What the regression watch adds to `sleepd status`: time of its section against store size.

Builds a store per size with one project, half Claude Code and half Codex sessions
(each with a user prompt, a tool call, a result and one mined episode with an outcome
and a cluster), a managed skill that a quarter of the Claude Code sessions load with a
`Skill` tool call, and a managed AGENTS.md; both documents were adopted halfway through
the sessions (audit entries as adoption writes them). Then times the `watch` section of
`collect_status` (linking, episodes, both exact tests) through the stdlib reader, as
`sleepd status` runs it. Wall medians with CPU (process time) beside them: a shared
machine's load moves wall time far more than CPU time. Prints figures; asserts nothing.

    .venv/bin/python bench/watch.py [--sizes 2000,20000] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def build(db_file: Path, sessions: int) -> datetime:
    """The store; returns a moment after its last session."""
    from sqlalchemy import insert

    from sleepd.store.engine import make_engine
    from sleepd.store.migrate import upgrade
    from sleepd.store.models import (
        AuditEntry,
        DocumentVersion,
        Episode,
        Event,
        Proposal,
        TargetDocument,
        TaskCluster,
    )
    from sleepd.store.models import Session as Sess

    engine = make_engine(f"sqlite:///{db_file}")
    upgrade(engine)
    project = "/work/billing"
    start = datetime(2026, 10, 1, tzinfo=UTC)
    adopted_at = start + timedelta(minutes=30 * sessions // 2)
    with engine.begin() as conn:
        conn.execute(insert(TaskCluster), [{"id": c, "key": f"k{c}"} for c in range(1, 6)])
        conn.execute(
            insert(TargetDocument),
            [
                {
                    "id": 1,
                    "project_path": project,
                    "path": f"{project}/.claude/skills/sleepd-learned/SKILL.md",
                    "kind": "skill",
                    "editable": "body",
                },
                {
                    "id": 2,
                    "project_path": project,
                    "path": f"{project}/AGENTS.md",
                    "kind": "agents",
                    "editable": "managed_section",
                },
            ],
        )
        conn.execute(
            insert(DocumentVersion),
            [
                dict(id=d, document_id=d, content_hash="x", content="x", origin="adopted")
                for d in (1, 2)
            ],
        )
        conn.execute(
            insert(Proposal),
            [
                {
                    "id": d,
                    "document_id": d,
                    "base_version_id": d,
                    "base_hash": "a",
                    "new_content": "x",
                    "new_hash": "x",
                    "diff": "",
                    "status": "accepted",
                    "provenance": {"clusters": [1, 2]},
                    "adopted_version_id": d,
                }
                for d in (1, 2)
            ],
        )
        conn.execute(
            insert(AuditEntry),
            [
                {
                    "at": adopted_at,
                    "actor": "bench",
                    "action": "adopt",
                    "object_type": "proposal",
                    "object_id": str(d),
                    "detail": {"document_id": d, "adopted_version_id": d, "backup_version_id": d},
                }
                for d in (1, 2)
            ],
        )
        rows, events, episodes = [], [], []
        for i in range(1, sessions + 1):
            at = start + timedelta(minutes=30 * i)
            source = "claude" if i % 2 else "codex"
            rows.append(
                {"id": i, "source": source, "external_id": f"s{i}", "project_path": project,
                 "started_at": at, "kind": "main"}
            )  # fmt: skip
            loads = source == "claude" and i % 4 == 1
            texts: list[tuple[str, str, str | None, str]] = [
                ("user_prompt", "user", None, "deploy the billing service")
            ]
            texts.append(
                ("tool_call", "assistant", "Skill", '{"skill":"sleepd-learned"}')
                if loads
                else ("tool_call", "assistant", "Bash", '{"command":"make deploy"}')
            )
            texts.append(("tool_result", "tool", None, "ok"))
            for seq, (kind, role, tool, text) in enumerate(texts, 1):
                events.append(
                    {"session_id": i, "seq": seq, "external_id": f"e{i}-{seq}", "role": role,
                     "kind": kind, "tool_name": tool, "text": text, "ts": at}
                )  # fmt: skip
            episodes.append(
                {"session_id": i, "start_seq": 1, "end_seq": 3, "project_path": project,
                 "started_at": at, "outcome": ("success", "failure", "mixed", "unknown")[i % 4],
                 "cluster_id": 1 + i % 5}
            )  # fmt: skip
        conn.execute(insert(Sess), rows)
        conn.execute(insert(Event), events)
        conn.execute(insert(Episode), episodes)
    engine.dispose()
    return start + timedelta(minutes=30 * (sessions + 1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="2000,20000")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from sleepd.config import Config
    from sleepd.store.fastread import ReadOnlyDb
    from sleepd.watch.report import watch_figures

    cfg = Config()
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            db_file = Path(tmp) / "bench.db"
            t0 = time.monotonic()
            now = build(db_file, size)
            built = time.monotonic() - t0
            walls, cpus = [], []
            for _ in range(args.runs):
                db = ReadOnlyDb(f"sqlite:///{db_file}")
                w, c = time.monotonic(), time.process_time()
                figures = watch_figures(db, cfg, now=now)
                walls.append(time.monotonic() - w)
                cpus.append(time.process_time() - c)
                db.close()
            verdicts = [
                f"{a['path'].rsplit('/', 1)[-1]}: {a['verdict']} "
                f"({a['target']['before_total']} + {a['target']['after_total']} episodes, "
                f"{a['sessions_read_after']} of {a['sessions_after']} sessions read it)"
                for a in figures["adoptions"]
            ]
            print(
                f"{size:>7} sessions (built in {built:.1f} s): watch section "
                f"median {statistics.median(walls) * 1000:.0f} ms wall, "
                f"{statistics.median(cpus) * 1000:.0f} ms CPU over {args.runs} runs; "
                f"{'; '.join(verdicts)}"
            )


if __name__ == "__main__":
    main()
