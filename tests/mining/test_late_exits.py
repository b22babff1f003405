"""Exits a Codex rollout recorded only at a command's end (`sleepd.mining.late_exits`)."""

from __future__ import annotations

import json
from pathlib import Path

from harvesters.codex import CodexHarvester
from harvesters.records import EventRecord, SourceFile
from sleepd.mining.episodes import EventView
from sleepd.mining.errors import judge_errors
from sleepd.mining.late_exits import COMMAND_END, with_late_exits

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions"
CARGO = (
    "rsync -a programs/cfo_oracle/ /tmp/check/ && cargo test --manifest-path /tmp/check/Cargo.toml"
)
FAILED = (
    "warning: spurious network error (1 try remaining): [6] Couldn't resolve host name\n"
    "error: failed to get `anchor-lang` as a dependency of package `cfo_oracle v0.1.0`\n"
)


def _exec(i: int, cmd: str) -> EventView:
    return EventView(
        i, i, "tool_call", "assistant", json.dumps({"cmd": cmd}), "exec_command", f"c{i}"
    )


def _poll(i: int, session: int) -> EventView:
    args = json.dumps({"session_id": session, "chars": "", "yield_time_ms": 1000})
    return EventView(i, i, "tool_call", "assistant", args, "write_stdin", f"c{i}")


def _result(i: int, call: int, text: str, exit_code: int | None = None) -> EventView:
    return EventView(i, i, "tool_result", "tool", text, None, f"c{call}", exit_code=exit_code)


def _running(session: int, output: str = "") -> str:
    return (
        "Chunk ID: 890540\nWall time: 1.0021 seconds\n"
        f"Process running with session ID {session}\nOriginal token count: 0\nOutput:\n{output}"
    )


def _end(i: int, call: int, exit_code: int, tail: str) -> EventView:
    return EventView(
        i, i, "meta", "system", tail, None, f"c{call}", exit_code=exit_code, is_meta=True,
        raw_type=COMMAND_END,
    )  # fmt: skip


def test_an_exit_only_the_end_recorded_goes_to_the_commands_last_poll() -> None:
    # anmol0b/Trezo-Ai e31ed1dc26 lines 143-153: `cargo test` still runs at the last poll,
    # then ends with 101; the person stops the turn before the model polls again
    events = [
        _exec(1, CARGO),
        _result(2, 1, _running(24629)),
        _poll(3, 24629),
        _result(4, 3, _running(24629, "    Updating crates.io index\n")),
        _end(5, 1, 101, FAILED),
    ]
    got = with_late_exits(events)
    assert got[:3] == events[:3] and got[4] == events[4]
    assert (got[3].exit_code, got[3].is_error) == (101, True)
    assert got[3].text.startswith(events[3].text) and "failed to get `anchor-lang`" in got[3].text
    verdict = judge_errors(got).verdicts[4]
    assert (verdict.kind, verdict.command) == ("root", CARGO)
    assert judge_errors(events).verdicts == {}  # without it: a success


def test_a_command_nothing_polled_takes_its_own_exit() -> None:
    events = [_exec(1, CARGO), _result(2, 1, _running(7)), _end(3, 1, 101, FAILED)]
    got = with_late_exits(events)
    assert got[1].exit_code == 101 and judge_errors(got).verdicts[2].kind == "root"


def test_an_exit_a_poll_reports_is_not_given_twice() -> None:
    # codemie-ai/codemie-code rollout 019e1625 lines 265-272: the end is written between two
    # polls, and the second poll reports "Process exited with code 1" itself
    events = [
        _exec(1, "npm test -- --run src/a.test.ts"),
        _result(2, 1, _running(83395)),
        _poll(3, 83395),
        _result(4, 3, _running(83395, "> vitest --run\n")),
        _end(5, 1, 1, "FAIL src/a.test.ts\n"),
        _poll(6, 83395),
        _result(
            7, 6, "Chunk ID: 922caa\nProcess exited with code 1\nOutput:\nFAIL src/a.test.ts", 1
        ),
    ]
    assert with_late_exits(events) == events


def test_a_session_id_used_again_belongs_to_the_newer_command() -> None:
    events = [
        _exec(1, "sleep 1"),
        _result(2, 1, _running(5)),
        _exec(3, CARGO),
        _result(4, 3, _running(5)),  # the same id, a new command
        _end(5, 1, 2, "x\n"),  # the first command's end: not the second's exit
        _end(6, 3, 101, FAILED),
    ]
    got = with_late_exits(events)
    assert got[1].exit_code == 2  # its own result took it
    assert got[3].exit_code == 101


def test_without_an_end_event_nothing_changes() -> None:
    events = [_exec(1, CARGO), _result(2, 1, _running(9))]
    assert with_late_exits(events) == events


def test_the_real_session_reads_its_late_exits(tmp_path: Path) -> None:
    # anmol0b/Trezo-Ai e31ed1dc26 as harvested: `cargo test` ended with 101 after its last
    # poll (line 151) and `rg --files` with 2 after its only result (line 22); the other
    # commands' ends repeat what a result reported
    name = "anmol0b__Trezo-Ai__codex-session__e31ed1dc26.jsonl"
    path = tmp_path / "rollout-2026-04-20T10-19-00-019daa66.jsonl"
    path.write_bytes((FIXTURES / "codex" / name).read_bytes())
    file = SourceFile(str(path), "codex", "main")
    records = [e for b in CodexHarvester([tmp_path]).read(file, None) for e in b.events]
    views = [_view(n, r) for n, r in enumerate(records)]
    ends = [v for v in views if v.raw_type == COMMAND_END]
    assert [v.exit_code for v in ends] == [2, 128, 101, 101, 101]  # the failed ends only
    got = with_late_exits(views)
    changed = {v.call_id: v for old, v in zip(views, got, strict=True) if old != v}
    assert set(changed) == {"call_GxRUt2xIu6rjP48ZVCbp5waJ", "call_cXY1uIHFM0gOQhz5THka3Zzw"}
    cargo = changed["call_cXY1uIHFM0gOQhz5THka3Zzw"]
    assert cargo.exit_code == 101 and "Could not resolve host: index.crates.io" in cargo.text
    verdicts = judge_errors(got).verdicts
    assert verdicts[got.index(cargo)].kind == "root"
    # the search listed its hits and failed only on folders it could not read
    search = changed["call_GxRUt2xIu6rjP48ZVCbp5waJ"]
    assert "Interrupted system call (os error 4)" in search.text
    assert verdicts[got.index(search)].kind == "benign"


def _view(n: int, r: EventRecord) -> EventView:
    return EventView(
        n, n, r.kind, r.role, r.text, r.tool_name, r.call_id, r.is_error, r.exit_code,
        r.is_meta, raw_type=r.raw_type,
    )  # fmt: skip
