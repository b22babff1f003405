"""Fake `claude` and `codex` executables reproducing their output and failure modes.

Each fake records its argv, cwd, cwd listing and stdin state to `$FAKE_RECORD`
(JSON) and behaves per `$FAKE_MODE`: ok, error, exit, garbage, hang, or report (prints
`$FAKE_REPORT`).
In `hang` it starts a child (its pid written to `$FAKE_CHILD_PID`) and sleeps,
so tests can check the timeout kills the whole process group.
"""

from __future__ import annotations

import os
import stat
import sys
import textwrap
from pathlib import Path

_PRELUDE = """
import json, os, stat, subprocess, sys, time
mode = os.environ.get("FAKE_MODE", "ok")
devnull = os.stat("/dev/null")
st = os.fstat(0)
stdin_devnull = stat.S_ISCHR(st.st_mode) and st.st_rdev == devnull.st_rdev
stdin_text = "" if stdin_devnull else sys.stdin.read()
record = {"argv": sys.argv[1:], "cwd": os.getcwd(), "cwd_listing": os.listdir("."),
          "stdin_devnull": stdin_devnull, "stdin": stdin_text}
with open(os.environ["FAKE_RECORD"], "w") as fh:
    json.dump(record, fh)
if mode == "hang":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    with open(os.environ["FAKE_CHILD_PID"], "w") as fh:
        fh.write(str(child.pid))
    time.sleep(60)
if mode == "garbage":
    print("Welcome!! \\x1b[31m not json {{{")
    sys.exit(0)
if mode == "report":  # the lines of $FAKE_REPORT as the CLI's whole output
    sys.stdout.write(os.environ["FAKE_REPORT"])
    sys.exit(0)
"""

CLAUDE = (
    _PRELUDE
    + """
if mode == "exit":
    sys.stderr.write("Not logged in - Please run /login\\n")
    sys.exit(1)
if mode == "error":
    print(json.dumps({"type": "result", "subtype": "error_during_execution", "is_error": True,
                      "result": "API Error: 429 rate limit exceeded", "total_cost_usd": 0}))
    sys.exit(1)
print(json.dumps({
    "type": "result", "subtype": "success", "is_error": False, "duration_ms": 1200,
    "num_turns": 1, "result": "claude says hi", "session_id": "sess-123",
    "total_cost_usd": 0.0123,
    "usage": {"input_tokens": 11, "output_tokens": 22, "cache_read_input_tokens": 33,
              "cache_creation_input_tokens": 44},
    "modelUsage": {"claude-sonnet-4-6": {"inputTokens": 11}},
}))
"""
)

CODEX = (
    _PRELUDE
    + """
def emit(obj):
    print(json.dumps(obj), flush=True)
emit({"type": "thread.started", "thread_id": "thread-9"})
emit({"type": "turn.started"})
if mode == "error":
    emit({"type": "turn.failed", "error": {"message": "stream error: 401 Unauthorized"}})
    sys.exit(1)
if mode == "exit":
    sys.stderr.write("boom\\n")
    sys.exit(2)
emit({"type": "item.completed", "item": {"id": "i0", "type": "reasoning", "text": "thinking"}})
emit({"type": "item.completed", "item": {"id": "i1", "type": "agent_message",
                                          "text": "codex says hi"}})
emit({"type": "turn.completed", "usage": {"input_tokens": 1000, "cached_input_tokens": 400,
                                          "output_tokens": 50}})
"""
)


def install(bin_dir: Path, name: str, body: str) -> Path:
    path = bin_dir / name
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def prepend_path(bin_dir: Path) -> str:
    return f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
