"""How long `sleepd status --json` takes from an installed wheel (target: < 0.4 s wall).

Builds the wheel, installs it into a fresh virtual environment under bench/_work/,
creates a database with some harvested data, and times the whole process several
times. Prints figures; asserts nothing.

    .venv/bin/python bench/status.py [--runs 10] [--reuse]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "bench" / "_work" / "status"
TARGET_S = 0.4


def build_venv(reuse: bool) -> Path:
    venv = WORK / "venv"
    sleepd = venv / "bin" / "sleepd"
    if reuse and sleepd.exists():
        return sleepd
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    dist = WORK / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(REPO)],
        check=True,
        capture_output=True,
    )
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    wheel = next(dist.glob("sleepd-*.whl"))
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(wheel)], check=True)
    return sleepd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--reuse", action="store_true", help="reuse the venv from a last run")
    args = parser.parse_args()
    sleepd = build_venv(args.reuse)
    home = Path(tempfile.mkdtemp(prefix="sleepd-status-bench-"))
    env = {
        **os.environ,
        "SLEEPD_HOME": str(home / "state"),
        "SLEEPD_CONFIG": str(home / "config.toml"),
        "CLAUDE_CONFIG_DIR": str(home / "claude"),
        "CODEX_HOME": str(home / "codex"),
    }
    env.pop("SLEEPD_DATABASE_URL", None)
    corpus = REPO / "tests" / "fixtures" / "real_sessions" / "claude"
    projects = home / "claude" / "projects" / "-bench"
    projects.mkdir(parents=True)
    for sample in sorted(corpus.glob("*.jsonl")):
        shutil.copyfile(sample, projects / sample.name)
    subprocess.run([str(sleepd), "harvest"], env=env, check=True, capture_output=True, cwd=home)
    times = []
    for _ in range(args.runs + 1):
        started = time.perf_counter()
        subprocess.run(
            [str(sleepd), "status", "--json"], env=env, check=True, capture_output=True, cwd=home
        )
        times.append(time.perf_counter() - started)
    times = times[1:]  # the first run warms the page cache and bytecode
    median = statistics.median(times)
    verdict = "met" if median < TARGET_S else "MISSED"
    print(
        f"sleepd status --json (installed wheel, {args.runs} runs): median {median:.3f} s, "
        f"best {min(times):.3f} s, worst {max(times):.3f} s  target < {TARGET_S} s  {verdict}"
    )
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
