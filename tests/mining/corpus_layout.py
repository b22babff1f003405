"""Lay the in-repo real transcripts out the way Claude Code and Codex keep them on disk."""

from __future__ import annotations

import shutil
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions"

#: "corpus file  ->  path under $CLAUDE_CONFIG_DIR/projects (claude/) or $CODEX_HOME (codex/)"
_LAYOUT = """
claude/handgemacht-ai__claude-code-log__326189cf-5676-4237-8cde-1ce80aae4a9f.jsonl
  -> projects/-sample/326189cf-5676-4237-8cde-1ce80aae4a9f.jsonl
claude/handgemacht-ai__claude-code-log__4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl
  -> projects/-sample/4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl
claude/handgemacht-ai__claude-code-log__4379d1bf-ccb1-414e-a856-9791b73f3af2.jsonl
  -> projects/-next/4379d1bf-ccb1-414e-a856-9791b73f3af2.jsonl
claude/handgemacht-ai__claude-code-log__7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl
  -> projects/-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl
claude/handgemacht-ai__claude-code-log__agent-3430b97e.jsonl
  -> projects/-JSSoundRecorder/agent-3430b97e.jsonl
claude/handgemacht-ai__claude-code-log__ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl
  -> projects/-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl
claude/handgemacht-ai__claude-code-log__ef958aa1__subagents__agent-a4ca7529859c158c2.jsonl
  -> projects/-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/\
     subagents/agent-a4ca7529859c158c2.jsonl
claude/handgemacht-ai__claude-code-log__ef958aa1__subagents__agent-a4ca7529859c158c2.meta.json
  -> projects/-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/\
     subagents/agent-a4ca7529859c158c2.meta.json
claude/kvsankar__agent-history__real_sessions__claude__session-01.jsonl
  -> projects/-kvsankar/session-01.jsonl
claude/melagiri__code-insights__entire-checkpoints__06_a50ac71f71_0_full.jsonl
  -> projects/-code-insights/a50ac71f71.jsonl
claude/melagiri__code-insights__entire-checkpoints__82_b981cea660_0_full.jsonl
  -> projects/-code-insights/b981cea660.jsonl
codex/AcidicSoil__codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl
  -> sessions/2025/11/17/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl
codex/kvsankar__agent-history__real_sessions__codex__session-01.jsonl
  -> sessions/2026/01/01/rollout-2026-01-01T00-00-00-kvsankar-session-01.jsonl
codex/simonw__claude-code-transcripts__sample_codex_session.jsonl
  -> sessions/2026/01/02/rollout-2026-01-02T00-00-00-simonw-sample.jsonl
"""


def layout() -> list[tuple[str, str]]:
    lines = [ln.strip() for ln in _LAYOUT.strip().splitlines()]
    pairs = zip(lines[::2], lines[1::2], strict=True)
    return [(src, dst.removeprefix("-> ").replace(" ", "")) for src, dst in pairs]


def lay_out(root: Path) -> tuple[Path, Path]:
    """Copy the corpus under `root`; return (CLAUDE_CONFIG_DIR, CODEX_HOME)."""
    homes = {"claude": root / "claude", "codex": root / "codex"}
    for src, dst in layout():
        source = src.split("/", 1)[0]
        target = homes[source] / dst
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(CORPUS / src, target)
    return homes["claude"], homes["codex"]
