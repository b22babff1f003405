"""A night's tasks: what `staging.load_tasks` hands the replay of each split."""

from __future__ import annotations

from typing import Any

from sleepd.dream.staging import load_tasks
from sleepd.store.engine import write_session
from sleepd.store.models import Task, TaskCluster


def _store(engine: Any, kinds: list[tuple[str, int]], split: str = "train") -> None:
    """`count` tasks of each kind of request, stored kind after kind."""
    with write_session(engine) as db:
        for key, count in kinds:
            cluster = TaskCluster(key=key, representative_intent=key, split=split)
            db.add(cluster)
            db.flush()
            for n in range(count):
                db.add(
                    Task(
                        cluster_id=cluster.id,
                        project_path="/w/app",
                        intent=f"{key} #{n}",
                        split=split,
                        origin="mined",
                    )
                )


def test_a_split_takes_each_kind_of_request_before_a_second_of_any(db_engine: Any) -> None:
    # one owner's history (JaydenXsoe/ocodex, not in the repository): fifteen tasks of
    # "search web for googles latest AI worlds model", stored first, beside other requests
    _store(db_engine, [("search web for the latest worlds model", 15), ("fix the parser", 2)])
    _store(db_engine, [("add web search to ocodex", 1)])
    with write_session(db_engine) as db:
        chosen = [t.intent for t in load_tasks(db, "/w/app", 4)["train"]]
    assert chosen == [
        "search web for the latest worlds model #0",
        "fix the parser #0",
        "add web search to ocodex #0",
        "search web for the latest worlds model #1",
    ]
    with write_session(db_engine) as db:
        every = [t.intent for t in load_tasks(db, "/w/app", 100)["train"]]
    assert len(every) == 18 and every[-1] == "search web for the latest worlds model #14"
