"""SIMULATED agents: fake `claude` and `codex` executables that act on a checkout.

A test double for tools-mode replay (the demo, the tests and `bench/replay.py` use
it; it never stands in for a real model). The fake reads the documents the real
agent would read in its working directory (`.claude/skills/*/SKILL.md` and
`CLAUDE.md` for claude, `AGENTS.md` for codex) and follows a playbook (JSON, path in
`$SLEEPD_FAKE_AGENT_PLAYBOOK`): the first rule whose `prompt_contains` appears in
the task and whose `document_contains` appears in what it read gives the edits it
makes; otherwise the rule's `otherwise` edits. It prints the output format of the
real CLI (`stream-json` for claude, `--json` JSONL for codex) with its tool calls.

`$SLEEPD_FAKE_AGENT_LOG` (a directory) receives one JSON record per run (argv, cwd,
what was read); `$SLEEPD_FAKE_AGENT_HOLD` (a path) makes the agent write
`<path>.started` and wait until `<path>` disappears, so a test can kill it mid-run
without guessing at timing.
"""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path
from typing import Any

ENV_PLAYBOOK = "SLEEPD_FAKE_AGENT_PLAYBOOK"
ENV_LOG = "SLEEPD_FAKE_AGENT_LOG"
ENV_HOLD = "SLEEPD_FAKE_AGENT_HOLD"

AGENT_SOURCE = r"""
import glob, json, os, sys, time, uuid

argv = sys.argv[1:]
is_codex = bool(argv) and argv[0] == "exec"
if is_codex:
    prompt = argv[argv.index("--") + 1] if "--" in argv else ""
    workdir = argv[argv.index("-C") + 1] if "-C" in argv else os.getcwd()
    docs = ["AGENTS.md"]
else:
    prompt = sys.stdin.read()
    workdir = os.getcwd()
    docs = sorted(glob.glob(".claude/skills/*/SKILL.md")) + ["CLAUDE.md"]
os.chdir(workdir)
read = {}
for name in docs:
    if os.path.isfile(name):
        with open(name, encoding="utf-8") as fh:
            read[name] = fh.read()
for name, body in list(read.items()):  # Claude Code follows @imports in CLAUDE.md
    for line in body.splitlines():
        ref = line.strip()[1:] if line.strip().startswith("@") else ""
        if ref and not is_codex and os.path.isfile(ref) and ref not in read:
            with open(ref, encoding="utf-8") as fh:
                read[ref] = fh.read()
text = "\n".join(read.values()).lower()
log_dir = os.environ.get("SLEEPD_FAKE_AGENT_LOG")
if log_dir:
    os.makedirs(log_dir, exist_ok=True)
    with open(os.path.join(log_dir, uuid.uuid4().hex + ".json"), "w") as fh:
        json.dump({"argv": argv, "cwd": os.getcwd(), "read": sorted(read),
                   "agent": "codex" if is_codex else "claude", "prompt": prompt}, fh)
hold = os.environ.get("SLEEPD_FAKE_AGENT_HOLD")
if hold:
    open(hold + ".started", "w").close()
    while os.path.exists(hold):
        time.sleep(0.02)
playbook = {"rules": []}
if os.environ.get("SLEEPD_FAKE_AGENT_PLAYBOOK"):
    with open(os.environ["SLEEPD_FAKE_AGENT_PLAYBOOK"], encoding="utf-8") as fh:
        playbook = json.load(fh)
edits, message = [], "I looked around and changed nothing."
for rule in playbook.get("rules", []):
    if rule.get("prompt_contains", "").lower() not in prompt.lower():
        continue
    if rule.get("document_contains", "").lower() in text:
        edits, message = rule.get("edits", []), rule.get("message", "Done.")
    else:
        edits = rule.get("otherwise", [])
        message = rule.get("otherwise_message", "Done, it should work now.")
    break
applied = []
for edit in edits:
    path = edit["path"]
    try:
        with open(path, encoding="utf-8") as fh:
            body = fh.read()
    except OSError:
        continue
    if edit["old"] in body:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(body.replace(edit["old"], edit["new"], 1))
        applied.append(path)
usage = {"input_tokens": 1200 + 10 * len(prompt) // 40, "output_tokens": 180,
         "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}
def emit(obj):
    print(json.dumps(obj), flush=True)
if is_codex:
    emit({"type": "thread.started", "thread_id": uuid.uuid4().hex})
    emit({"type": "turn.started"})
    for i, path in enumerate(applied):
        emit({"type": "item.completed", "item": {"id": f"f{i}", "type": "file_change",
              "changes": [{"path": path, "kind": "update"}], "status": "completed"}})
    emit({"type": "item.completed", "item": {"id": "m", "type": "agent_message",
                                              "text": "[simulated agent] " + message}})
    emit({"type": "turn.completed", "usage": {"input_tokens": usage["input_tokens"],
          "cached_input_tokens": 0, "output_tokens": usage["output_tokens"]}})
else:
    emit({"type": "system", "subtype": "init", "cwd": os.getcwd(), "tools": ["Read", "Edit"]})
    blocks = [{"type": "tool_use", "id": f"t{i}", "name": "Edit", "input": {"file_path": p}}
              for i, p in enumerate(applied)]
    emit({"type": "assistant", "message": {"content": blocks + [
        {"type": "text", "text": "[simulated agent] " + message}]}})
    emit({"type": "result", "subtype": "success", "is_error": False, "num_turns": 1 + len(applied),
          "result": "[simulated agent] " + message, "session_id": uuid.uuid4().hex,
          "total_cost_usd": 0.0, "usage": usage})
"""


def install_fake_agents(bin_dir: Path) -> dict[str, Path]:
    """Write executable fake `claude` and `codex` into `bin_dir`; returns their paths."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    written = {}
    for name in ("claude", "codex"):
        path = bin_dir / name
        path.write_text(
            f"#!{sys.executable}\n# SIMULATED agent (sleepd test double)\n" + AGENT_SOURCE
        )
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        written[name] = path
    return written


def write_playbook(path: Path, rules: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"rules": rules}, indent=1), encoding="utf-8")
    return path
