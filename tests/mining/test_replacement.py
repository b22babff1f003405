"""Which command stood in for one that failed: the only failures a judge spec may tell the
judge to avoid. Pairs from the labelled real sessions (`tests/fixtures/real_sessions`),
where each later command was the first, or among the first, that worked after the failure."""

from __future__ import annotations

import pytest

from sleepd.mining.replacement import command_core, replaces


@pytest.mark.parametrize(
    ("failing", "working"),
    [
        ("npm install", "pnpm install"),  # another program for the same verb
        # a wrapper dropped
        ("rtk bun run test 2>&1 | tail -20", "bun run test 2>&1 | tail -20"),
        ("python -m pytest tests/test_decision_verify.py -v --tb=short 2>&1 | tail -30",
         "uv run python -m pytest tests/test_decision_verify.py -v --tb=short 2>&1 | tail -40"),
        ("powercfg /change monitor-timeout-ac 10 && powercfg /change monitor-timeout-dc 10",
         "powercfg -change -monitor-timeout-ac 10"),  # the flags written another way
        ("uv run pytest tests/ -v --timeout=10 2>&1 | tail -20",
         "uv run pytest tests/ -v 2>&1 | tail -25"),  # a flag the runner did not know
        ("python - <<'PY'", "python3 - <<'PY'"),
        ("ssh-add -l", "/usr/bin/env SSH_AUTH_SOCK=/tmp/agent.sock ssh-add -l"),
        ("bash .specify/scripts/bash/setup-plan.sh --json",
         ".specify/scripts/bash/setup-plan.sh --json"),
        ("uv pip index versions punt-tts 2>&1 | head -5",
         "pip index versions punt-tts 2>&1 | head -5"),
    ],
)  # fmt: skip
def test_a_command_that_did_the_job_another_way_replaced_it(failing: str, working: str) -> None:
    assert replaces(failing, working)


@pytest.mark.parametrize(
    ("failing", "working"),
    [
        ("make lint 2>&1", "make lint 2>&1"),  # the same check, passing once the code was fixed
        ("mise run test", "mise run test"),
        ("uv run ty check", "uv run ty check 2>&1 | tail -5"),  # the same command, cut short
        ("npm install -g ccusage", "npm install -g ccusage 2>&1"),
        ('ls -la "C:/Users/me/Documents/M-Claude/Projects"',
         'ls -la "C:/Users/me/Documents/M-Claude/Projects/"'),
        ("bun run test 2>&1 | tail -20", "bun run lint:fix 2>&1 | tail -5"),  # the next step
        ('cd "C:/Users/me/M-Claude" && git log --oneline -5',
         'cd "C:/Users/me/M-Claude" && git status'),
        ("npx prettier --write .planning/ROADMAP.md .planning/STATE.md",
         "git add .planning/ROADMAP.md .planning/STATE.md"),  # shares only the files
        ("tailscale status", "ping -n 1 10.0.0.2"),
        ("bash -c '", "zsh -c '"),  # a first line with an open quote names no command
        # a PowerShell array opened on the first line (set 19's Windows session)
        ("$v = @(", "$w = @("),
        ("for f in *.md; do", "for f in docs/*.md; do"),
        ("grep -rn TODO src \\", "rg -n TODO src \\"),
        ("", "pnpm install"),
        ("npm install", ""),
        ("&& ||", "; |"),
        ("tmp=$(mktemp); bash \"$tmp\"", "tmpdir=$(mktemp -d); bash \"$tmpdir/x\""),
    ],
)  # fmt: skip
def test_the_same_command_or_another_step_replaced_nothing(failing: str, working: str) -> None:
    assert not replaces(failing, working)


def test_the_core_leaves_out_where_and_how_a_command_runs() -> None:
    core = command_core("cd /repo && export CI=1 && bun run test 2>&1 | tail -20 > out.txt")
    assert core == ("bun", "run", "test")
    # a pipe into a program that does work is part of what ran; a hostile line is no error
    assert command_core("git diff | patch -p1") == ("git", "diff")
    assert command_core("\x00 ; ; ") == ("\x00",)
    assert command_core("\x00 ; ; && ") is None  # the list goes on below
    assert command_core("cd /repo") is None  # nothing ran but the change of folder
    assert command_core("(cd app && make)") == ("make",)
    assert command_core("echo 'unterminated") is None
    assert command_core("a" * 100_000) == ("a" * 100_000,)
