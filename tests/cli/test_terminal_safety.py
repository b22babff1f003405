"""Human output never hands the terminal a control character from stored text.

A tool's output, a prompt or a file name may carry ANSI and OSC sequences (a window
title, a clipboard write), backspaces and carriage returns that overwrite a line, or
bidi overrides that reorder it. `--json` keeps them (escaped by JSON)."""

from __future__ import annotations

import io
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cli_here import sleepd_here
from rich.table import Table

from sleepd.cli.terminal import safe_console, stripped, visible
from sleepd.config import load_config
from sleepd.demo.samples import ClaudeLog
from sleepd.harvest import harvest
from sleepd.mining.mine import mine
from sleepd.store.open import open_store

#: What a crafted repository's test output can hold: colours, a clipboard write (OSC 52),
#: a window title, a bell, backspaces over "rm -rf /", a carriage return, a bidi override.
HOSTILE = (
    "\x1b[31mFAILED\x1b[0m test_login \x1b]52;c;cm0gLXJmIC8=\x07 \x1b]0;pwned\x07"
    "rm -rf /\x08\x08\x08\x08\x08\x08\x08\x08safe\rzebraquux \u202etxt.exe\u202c \x9b2J"
)
#: Control characters a terminal acts on (newline aside).
CONTROL = [chr(c) for c in (*range(0, 10), *range(11, 32), 127, *range(128, 160))] + [
    "\u202e",
    "\u202c",
]


def _controls(text: str) -> list[str]:
    return sorted({repr(c) for c in text if c in CONTROL})


def test_the_console_removes_the_datas_control_characters_and_keeps_the_layout() -> None:
    buf = io.StringIO()
    console = safe_console(file=buf, width=60, force_terminal=True, color_system="standard")
    table = Table("check", "output")
    table.add_row("login", HOSTILE)
    table.add_row("plain", "all good")
    console.print(table)
    data = re.sub(r"\x1b\[[0-9;]*m", "", buf.getvalue())  # rich's own styles
    assert _controls(data) == []
    assert "rm -rf /safe" in stripped(HOSTILE)
    assert len({len(line) for line in data.splitlines()}) == 1  # the table's rows align


def test_a_line_written_as_it_is_spells_them_out() -> None:
    assert visible("a\x1b]0;x\x07b\u202ec") == "a\\x1b]0;x\\x07b\\u202ec"
    assert visible("tab\tand\nnewline") == "tab\tand\nnewline"


def _hostile_session(home: Path) -> None:
    start = datetime(2026, 11, 30, 9, tzinfo=UTC)
    log = ClaudeLog(
        session="5e55aaaa-aaaa-4bbb-8ccc-000000000001",
        cwd="/work/shop",
        version="2.1.92",
        clock=start,
        step=timedelta(seconds=1),
        uuid=lambda index: f"00000001-0000-4000-8000-{index:012d}",
    )
    log.add("user", {"role": "user", "content": "fix the flaky zebraquux login test " + HOSTILE})
    log.assistant(
        "msg_1",
        [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "pytest"}}],
        {"input_tokens": 10, "output_tokens": 5},
    )
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": HOSTILE}
    log.add("user", {"role": "user", "content": [{**result, "is_error": True}]})
    log.assistant("msg_2", [{"type": "text", "text": "Done: fixed."}], {"input_tokens": 1})
    folder = home / "claude" / "projects" / "-work-shop"
    folder.mkdir(parents=True)
    lines = "".join(json.dumps(r) + "\n" for r in log.records)
    (folder / "5e55aaaa-aaaa-4bbb-8ccc-000000000001.jsonl").write_text(lines)


def test_search_tasks_and_patterns_print_no_control_character(isolated_home: Path) -> None:
    _hostile_session(isolated_home)
    cfg = load_config()
    engine = open_store(cfg, write=True)
    try:
        harvest(engine, cfg)
        mine(engine, cfg, now=datetime(2026, 12, 1, tzinfo=UTC))
    finally:
        engine.dispose()
    shown: dict[str, Any] = {}
    for args in (("search", "zebraquux"), ("tasks", "list"), ("patterns", "--all"), ("status",)):
        ran = sleepd_here(*args, env={"COLUMNS": "120"})
        assert ran.returncode == 0, ran.stderr
        assert _controls(ran.stdout + ran.stderr) == [], args
        shown[args[0]] = ran.stdout
    assert "zebraquux" in shown["search"]
    as_json = sleepd_here("search", "zebraquux", "--json")
    hits = json.loads(as_json.stdout)
    hits = hits["hits"] if isinstance(hits, dict) else hits
    assert any("\x1b]52;c;" in hit["snippet"] for hit in hits)  # the data, as stored
    assert "\x1b" not in as_json.stdout  # JSON spells it \u001b
