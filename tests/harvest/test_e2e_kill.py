"""SIGKILL at random moments during a harvest loses and duplicates nothing."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from e2e_support import canonical_dump, integrity, lay_out_copies

from sleepd.harvest import harvest
from sleepd.store.engine import make_engine
from sleepd.store.migrate import upgrade

#: Two distinct copies of the corpus (26 files) take under a second to harvest on 2 cores.
COPIES = 2
FILES = 13 * COPIES
KILLS = 12
#: The child reports each file it starts on, so a kill can be aimed at a random file
#: (plus a random few milliseconds) whatever the machine's speed. Small write groups
#: give it many commits to be killed between and inside; every other child parses in
#: worker processes, whose parent then dies under them.
CHILD = """
import sys
import sleepd.harvest.write as writer
from sleepd.config import load_config
from sleepd.harvest import harvest
from sleepd.store.open import open_store

writer.GROUP_EVENTS = 150
cfg = load_config()
jobs = 1
if sys.argv[1] == "workers":
    cfg.harvest.parallel_min_mb = 0
    jobs = 2
engine = open_store(cfg, write=True)
harvest(engine, cfg, progress=lambda source, i, n: print(source, i, flush=True), jobs=jobs)
print("done", flush=True)
"""


def run_child(
    kill_at_file: int | None = None, delay: float = 0.0, workers: bool = False
) -> int | str:
    """Harvest in a child process; SIGKILL it `delay` s after it reaches file `kill_at_file`."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, "workers" if workers else "inline"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )
    assert proc.stdout is not None
    if kill_at_file is not None:
        for _ in range(kill_at_file):
            if not proc.stdout.readline():
                break
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    if proc.returncode not in (0, -signal.SIGKILL):
        return err.decode(errors="replace")[-2000:]  # a crash: show why in the assertion
    return proc.returncode


@pytest.mark.slow
def test_random_kills_then_a_clean_run_equal_one_clean_harvest(
    isolated_home: Path, cfg: Any, db_file: Path
) -> None:
    lay_out_copies(isolated_home, COPIES)
    rng = random.Random(20240611)
    outcomes = [
        run_child(rng.randint(1, FILES), rng.uniform(0.0, 0.06), workers=bool(n % 2))
        for n in range(KILLS)
    ]
    killed = sum(code == -signal.SIGKILL for code in outcomes)
    assert killed >= KILLS // 2, outcomes  # most kills landed inside a running harvest
    assert run_child() == 0

    clean_db = isolated_home / "clean.db"
    engine = make_engine(f"sqlite:///{clean_db}")  # same home, so the same redaction salt
    upgrade(engine)
    harvest(engine, cfg)
    engine.dispose()

    assert integrity(db_file) == "ok"
    killed_dump, clean_dump = canonical_dump(db_file), canonical_dump(clean_db)
    assert len(clean_dump["sessions"]) == 12 * COPIES
    assert len(clean_dump["events"]) > 2000
    for table in clean_dump:
        assert killed_dump[table] == clean_dump[table], table


#: A harvest that dies the moment its reading and writing are done: every group is
#: committed, and nothing after the last commit runs.
DIES_AFTER_THE_LAST_COMMIT = """
import os
import sleepd.harvest.run as run
from sleepd.config import load_config
from sleepd.harvest import harvest
from sleepd.store.open import open_store

read_and_store = run._read_and_store


def then_die(*args, **kwargs):
    read_and_store(*args, **kwargs)
    os._exit(137)


run._read_and_store = then_die
harvest(open_store(load_config(), write=True), load_config())
"""


def test_a_kill_after_the_last_commit_leaves_every_subagent_linked(
    isolated_home: Path, cfg: Any, db_file: Path
) -> None:
    # the rerun finds every file read to its end, so it writes nothing: what the killed
    # harvest committed must already be what one clean harvest leaves, parent links too
    lay_out_copies(isolated_home, 1)
    died = subprocess.run(
        [sys.executable, "-c", DIES_AFTER_THE_LAST_COMMIT], env=os.environ.copy(), check=False
    )
    assert died.returncode == 137
    assert run_child() == 0

    clean_db = isolated_home / "clean.db"
    engine = make_engine(f"sqlite:///{clean_db}")
    upgrade(engine)
    harvest(engine, cfg)
    engine.dispose()
    killed, clean = canonical_dump(db_file)["sessions"], canonical_dump(clean_db)["sessions"]
    assert any(row[2] == "subagent" and row[5] for row in clean)  # a linked subagent is there
    assert killed == clean


#: A harvest that reads in batches of five lines and commits each batch: a file of
#: more lines is committed part by part.
SMALL_GROUPS = """
import sleepd.harvest.write as writer
from sleepd.config import load_config
from sleepd.harvest import harvest
from sleepd.store.open import open_store

writer.GROUP_EVENTS, writer.WRITE_BATCHES = 5, 1
cfg = load_config()
cfg.harvest.batch_lines = 5
harvest(open_store(cfg, write=True), cfg)
"""


def test_a_harvest_killed_inside_a_file_leaves_the_rest_to_the_next(
    isolated_home: Path, cfg: Any, db_file: Path
) -> None:
    """A long session file is committed a group at a time. Killed after the first, the
    file's stat still matched its cursor, which the plan took for a file whose last line
    is unfinished: the rest of an old session, which never changes again, went unread for
    good. The next harvest reads on from the cursor."""
    from e2e_support import claude_prompt, query, write_lines

    from sleepd import crashpoint

    sid = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
    prompts = [
        claude_prompt(sid, f"aaaaaaaa-0000-4000-8000-{n:012d}", f"prompt {n}") for n in range(30)
    ]
    write_lines(isolated_home / "claude" / "projects" / "-work-demo" / f"{sid}.jsonl", prompts)
    env = os.environ.copy() | {crashpoint.ENV: "harvest:group-committed"}
    died = subprocess.run([sys.executable, "-c", SMALL_GROUPS], env=env, check=False)
    assert died.returncode == -signal.SIGKILL
    stored = "SELECT count(*) FROM events WHERE kind = 'user_prompt'"
    assert 0 < query(db_file, stored)[0][0] < 30
    engine = make_engine(f"sqlite:///{db_file}")
    try:
        again = harvest(engine, cfg).totals()
    finally:
        engine.dispose()
    assert again["files_changed"] == 1
    assert query(db_file, stored)[0][0] == 30
    assert integrity(db_file) == "ok"
