"""A `sleepd harvest` and a `sleepd mine` on one SQLite file at the same time.

The harvest writes through the stdlib driver and the mining pass through SQLAlchemy: two
writers on one file, each waiting on the other's lock (the daemon's live harvest while
a person runs `sleepd mine`). Both must finish, and the file must hold what one harvest
on its own stores: the same events, a clean integrity check.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from e2e_support import canonical_dump, integrity, lay_out_copies, lay_out_corpus, query

SLEEPD = [sys.executable, "-m", "sleepd"]


def start(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*SLEEPD, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def finish(proc: subprocess.Popen[str]) -> dict[str, object]:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, (proc.args[3:], err)
    assert "Traceback" not in err, err
    result: dict[str, object] = json.loads(out)
    return result


def home_env(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "SLEEPD_HOME": str(home / "sleepd-home"),
        "SLEEPD_CONFIG": str(home / "config.toml"),
        "CLAUDE_CONFIG_DIR": str(home / "claude"),
        "CODEX_HOME": str(home / "codex"),
    }


def test_a_harvest_beside_a_mining_pass_stores_what_a_harvest_alone_stores(
    corpus_tree: Path, tmp_path: Path
) -> None:
    env = home_env(corpus_tree)
    lay_out_copies(corpus_tree, 1)
    finish(start(["harvest", "--json"], env))
    lay_out_copies(corpus_tree, 2)  # copy 1: new sessions for the second harvest
    db_file = corpus_tree / "sleepd-home" / "sleepd.db"

    mining = start(["mine", "--json"], env)
    # the harvest starts once the mining pass has begun (its run is recorded first); how
    # the two then interleave is up to the machine, and every assertion holds for any order
    deadline = time.monotonic() + 120
    running = "SELECT count(*) FROM job_runs WHERE job = 'mine' AND ended_at IS NULL"
    while mining.poll() is None and not query(db_file, running)[0][0]:
        assert time.monotonic() < deadline, "the mining pass never began"
        time.sleep(0.02)
    harvesting = start(["harvest", "--json"], env)
    harvested = finish(harvesting)
    mined = finish(mining)
    assert int(str(harvested["events_new"])) > 0
    assert int(str(mined["episodes_new"])) > 0
    assert integrity(db_file) == "ok"

    # the same tree harvested in one go, in a home with the same redaction salt
    alone = tmp_path / "alone"
    lay_out_corpus(alone)
    lay_out_copies(alone, 2)
    (alone / "sleepd-home").mkdir(mode=0o700)
    salt = corpus_tree / "sleepd-home" / "redaction.salt"
    shutil.copy2(salt, alone / "sleepd-home" / "redaction.salt")
    finish(start(["harvest", "--json"], home_env(alone)))
    together, apart = canonical_dump(db_file), canonical_dump(alone / "sleepd-home" / "sleepd.db")
    assert together["events"] == apart["events"]
    assert together["sessions"] == apart["sessions"]
