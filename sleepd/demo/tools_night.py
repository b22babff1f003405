"""The demo's tools-mode night: SIMULATED agents acting in real git, judged by real tests.

The `ledger` world (`tools_world`) is laid out in the demo home: a real repository
whose tests fail at the sessions' commit, and Codex sessions (synthetic samples) in
which an agent failed to fix them. The fake `claude` and `codex` (`fake_agents`, test
doubles clearly named as such) go first on PATH for this process only. The night is
kept small (three tasks per split, one rollout per task and round) so the demo stays
quick; a real tools night costs minutes per rollout.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

from sleepd.config import Config, TargetConfig
from sleepd.demo.fake_agents import ENV_PLAYBOOK, install_fake_agents
from sleepd.demo.run import DemoHome
from sleepd.demo.tools_world import ToolsWorld, build


def prepare_tools_night(home: DemoHome, cfg: Config) -> tuple[ToolsWorld, Config]:
    """Lay out the world and the simulated agents; the night's config (small, tools mode)."""
    repo = home.projects / "ledger"
    codex_home = home.root / "codex"
    if (repo / ".git").exists():  # a kept --home: the world is there already
        import subprocess

        commit = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
        world = ToolsWorld(repo, commit, home.projects / "fake-agent-playbook.json", [])
    else:
        world = build(home.projects, codex_home, runner="unittest")
    install_fake_agents(home.root / "bin")
    os.environ["PATH"] = os.pathsep.join(
        [str(home.root / "bin"), str(Path(sys.executable).parent), os.environ.get("PATH", "")]
    )
    os.environ[ENV_PLAYBOOK] = str(world.playbook)
    tools_cfg = replace(
        cfg,
        dream=replace(
            cfg.dream, rollouts_per_task=1, candidates_per_night=2, max_tasks_per_split=3
        ),
        gate=replace(cfg.gate, min_tasks=3, calibrate=False, sequential_rounds=1),
        replay=replace(cfg.replay, mode="tools", nice=0, rollout_wall_seconds=60),
        # The simulated agents report made-up token counts: priced at nothing.
        prices={**cfg.prices, "gpt-5": dict.fromkeys(("input", "output", "cache_read"), 0.0)},
        targets=[
            *cfg.targets,
            TargetConfig(project=str(repo), path=str(repo / "AGENTS.md"), kind="agents"),
        ],
    )
    return world, tools_cfg
