"""What a tools-mode rollout costs next to a text rollout, and checkout set-up on 10k files.

Prints figures; asserts nothing. With the SIMULATED agents (fake `claude`/`codex`,
which act instantly), so the figures are sleepd's own overhead per rollout: the
scratch checkout, placing the document, the agent process, the diff, the project's
tests (the demo's `ledger` suite under `python -m unittest` and under pytest) and
clean-up. A real agent adds its model turns on top (minutes, not seconds).

    .venv/bin/python bench/replay.py [--rollouts N] [--files N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sleepd.backends.base import ChatMessage, ModelRequest
from sleepd.backends.budget import BudgetCaps, BudgetGuard, MemoryLedger
from sleepd.backends.sim.backend import SimBackend
from sleepd.config import Config
from sleepd.demo.fake_agents import ENV_PLAYBOOK, install_fake_agents, write_playbook
from sleepd.demo.tools_world import BUGS, make_repository, playbook_rules
from sleepd.dream.checkout import create_checkout
from sleepd.dream.replay import ReplayTask
from sleepd.dream.replay_modes import build_tool_replayer
from sleepd.dream.tool_replay import ReplaySite
from sleepd.mining.replay_site import TestCommand


def cpu_s() -> float:
    """CPU of this process and every child it waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(label: str, n: int, one: Callable[[int], object]) -> None:
    walls, cpus = [], []
    for i in range(n):
        c0, w0 = cpu_s(), time.perf_counter()
        one(i)
        walls.append(time.perf_counter() - w0)
        cpus.append(cpu_s() - c0)
    print(
        f"{label:<46} wall median {statistics.median(walls) * 1000:8.1f} ms"
        f"  (min {min(walls) * 1000:7.1f})   CPU median {statistics.median(cpus) * 1000:7.1f} ms"
    )


def git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.invalid",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.invalid"}  # fmt: skip
    subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=repo, env=env,
                   check=True, capture_output=True)  # fmt: skip


def big_repository(root: Path, files: int) -> str:
    """A repository of `files` small source files in 100 directories, one commit."""
    for i in range(files):
        d = root / f"pkg{i % 100:03d}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"mod{i:05d}.py").write_text(f"VALUE_{i} = {i}\n" * 20)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "big")
    return subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rollouts", type=int, default=8)
    parser.add_argument("--files", type=int, default=10_000)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="sleepd-bench-replay-"))
    os.environ["SLEEPD_HOME"] = str(base / "home")
    install_fake_agents(base / "bin")
    os.environ["PATH"] = os.pathsep.join(
        [str(base / "bin"), str(Path(sys.executable).parent), os.environ["PATH"]]
    )
    os.environ[ENV_PLAYBOOK] = str(write_playbook(base / "playbook.json", playbook_rules()))
    repo = base / "ledger"
    repo.mkdir()
    commit = make_repository(repo)
    print(f"sleepd bench/replay — SIMULATED agents; {os.cpu_count()} CPUs; load "
          f"{os.getloadavg()[0]:.1f}; rollouts per figure: {args.rollouts}")  # fmt: skip

    sim = SimBackend()
    task = ReplayTask("1", BUGS[0].intent, "val", {"project_path": str(repo)})
    request = ModelRequest(messages=[ChatMessage("user", task.intent)], role="target")
    measure("text rollout (simulator, one call)", args.rollouts, lambda i: sim.complete(request))

    guard = BudgetGuard(BudgetCaps(10**9, 10**6, 10**6), MemoryLedger())
    for runner, argv in (("unittest", ("python", "-m", "unittest")), ("pytest", ("pytest", "-q"))):
        site = ReplaySite(str(repo), commit, TestCommand(argv), "AGENTS.md", "ledger",
                          (), "failure")  # fmt: skip
        for agent in ("codex", "claude"):
            tools = build_tool_replayer(Config(), guard, threading.Event())
            tools.settings.nice = 0
            unit = ReplayTask("1", task.intent, "val", task.context, {}, site=site, consumer=agent)
            tools.baseline_tests(site)  # once per task and night; measured apart below

            def rollout(i: int, t: Any = tools, u: ReplayTask = unit) -> object:
                return t.run([u], "Run pytest -q first.\n", "b", [i])

            measure(f"tools rollout ({agent}, {runner})", args.rollouts, rollout)

        def project_tests(i: int, s: ReplaySite = site) -> object:
            return subprocess.run(list(s.test_command.argv), cwd=repo, capture_output=True)

        measure(f"  of which the project's tests ({runner})", args.rollouts, project_tests)
    measure(
        "  of which a checkout of ledger (+ removal)",
        args.rollouts,
        lambda i: create_checkout(repo, commit, root=base / "co").remove(),
    )

    big = base / "big"
    big.mkdir()
    t0 = time.perf_counter()
    big_commit = big_repository(big, args.files)
    print(f"(made a {args.files}-file repository in {time.perf_counter() - t0:.1f} s)")
    measure(
        f"checkout of a {args.files}-file repository (+ removal)",
        max(3, args.rollouts // 2),
        lambda i: create_checkout(big, big_commit, root=base / "co").remove(),
    )
    subprocess.run(["rm", "-rf", str(base)], check=False)


if __name__ == "__main__":
    main()
