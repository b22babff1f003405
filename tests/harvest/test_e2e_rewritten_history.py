"""A session a source writes into its file a second time is stored once.

Claude Code 2.1.11, resuming a session the next day, wrote the session's earlier records
into its file again with new uuids and their original timestamps (a public transcript of
wild sample 49). The copies arrive in a later harvest than the originals, or in the same
one when the whole file is read at once; either way only what the person and the agent
did after the resume may be added.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from e2e_support import (
    append_bytes,
    claude_answer,
    claude_prompt,
    claude_tool_result,
    claude_tool_use,
    line,
    query,
    write_lines,
)
from typer.testing import CliRunner

from sleepd.cli.app import app
from sleepd.harvest import harvest

SID = "5a1e0d2c-7b7f-4c55-9a55-3f4f0c6d1e01"


def transcript(home: Path) -> Path:
    return home / "claude" / "projects" / "-work-demo" / f"{SID}.jsonl"


def at(record: dict[str, Any], timestamp: str) -> dict[str, Any]:
    return {**record, "timestamp": timestamp}


def first_day() -> list[dict[str, Any]]:
    """A request, a failing command, the agent's summary."""
    prompt = at(
        claude_prompt(SID, "11111111-0000-4000-8000-000000000001", "fix the login redirect"),
        "2026-01-17T22:36:09.922Z",
    )
    call = claude_tool_use(
        prompt,
        "11111111-0000-4000-8000-000000000002",
        "toolu_01AAAA",
        {"command": "npm test"},
        timestamp="2026-01-17T22:36:13.318Z",
    )
    result = claude_tool_result(
        call,
        "11111111-0000-4000-8000-000000000003",
        "1 failing: redirects to /home",
        is_error=True,
        timestamp="2026-01-17T22:36:20.066Z",
    )
    summary = claude_answer(
        result,
        "11111111-0000-4000-8000-000000000004",
        "The test fails.",
        timestamp="2026-01-17T22:38:44.183Z",
    )
    return [prompt, call, result, summary]


def written_again(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records as the resume writes them: new uuids, parents re-linked, same times."""
    renamed = {r["uuid"]: r["uuid"].replace("11111111", "22222222") for r in records}
    return [
        {
            **r,
            "uuid": renamed[r["uuid"]],
            "parentUuid": renamed.get(r["parentUuid"]) if r["parentUuid"] else None,
            "version": "2.1.11",
        }
        for r in records
    ]


def next_day(parent: dict[str, Any]) -> dict[str, Any]:
    return {
        **at(
            claude_prompt(SID, "33333333-0000-4000-8000-000000000001", "keep going"),
            "2026-01-18T07:03:18.385Z",
        ),
        "parentUuid": parent["uuid"],
    }


def stored(db_file: Path | str) -> list[tuple[Any, ...]]:
    return query(
        db_file,
        "SELECT e.seq, e.kind, e.text FROM events e JOIN sessions s ON s.id = e.session_id "
        "WHERE s.external_id = ? ORDER BY e.seq",
        (SID,),
    )


def errors(db_file: Path | str) -> int:
    [(count,)] = query(db_file, "SELECT count(*) FROM events WHERE is_error OR kind = 'error'")
    return int(count)


def prompts(db_file: Path | str) -> list[str]:
    return [text for _, kind, text in stored(db_file) if kind == "user_prompt"]


@pytest.mark.both_dbs
def test_history_written_again_in_a_later_harvest_is_stored_once(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    day_one = first_day()
    path = write_lines(transcript(isolated_home), day_one)
    harvest(store, cfg)
    before = stored(db_file)
    errors_before = errors(db_file)

    copies = written_again(day_one)
    append_bytes(path, b"".join(line(r) for r in [*copies, next_day(copies[-1])]))
    report = harvest(store, cfg).totals()

    assert report["events_new"] == 1
    assert report["rewritten_copies"] == len(before)
    after = stored(db_file)
    assert after[: len(before)] == before
    assert prompts(db_file) == ["fix the login redirect", "keep going"]
    assert [seq for seq, _, _ in after] == list(range(1, len(after) + 1))
    assert errors(db_file) == errors_before


def test_history_written_again_in_the_same_harvest_is_stored_once(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    day_one = first_day()
    copies = written_again(day_one)
    write_lines(transcript(isolated_home), [*day_one, *copies, next_day(copies[-1])])

    report = harvest(store, cfg).totals()

    # the failed command is two events, its result and the error
    assert report["rewritten_copies"] == len(day_one) + 1
    assert report["events_new"] == len(day_one) + 2
    assert prompts(db_file) == ["fix the login redirect", "keep going"]
    assert harvest(store, cfg).totals()["events_new"] == 0


def test_a_record_out_of_order_or_a_request_repeated_later_is_kept(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    prompt, call, result, summary = first_day()
    # the tool result lands after the summary but carries the earlier time it ran at
    late = at(result, "2026-01-17T22:36:20.066Z")
    path = write_lines(transcript(isolated_home), [prompt, call, summary, late])
    harvest(store, cfg)
    # the same words typed again the next day are a new request, not a copy
    again = at(
        claude_prompt(SID, "44444444-0000-4000-8000-000000000001", "fix the login redirect"),
        "2026-01-18T09:00:00.000Z",
    )
    append_bytes(path, line(again))

    report = harvest(store, cfg).totals()

    assert report["rewritten_copies"] == 0
    assert prompts(db_file) == ["fix the login redirect", "fix the login redirect"]
    assert len(stored(db_file)) == 6


def test_the_same_record_at_the_same_instant_in_another_file_is_no_copy(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """Two files whose records carry one session id (Claude Code 2.0 kept subagents
    started together beside their session, each file opening with the same "Warmup"
    prompt at the same instant): a record of one file is never a copy of the other's."""
    folder = transcript(isolated_home).parent
    for n, name in enumerate(
        ("6e0a7c2e-1a1b-4c1d-8e1f-000000000001", "6e0a7c2e-1a1b-4c1d-8e1f-000000000002")
    ):
        warmup = at(
            claude_prompt(SID, f"7777777{n}-0000-4000-8000-000000000001", "Warmup"),
            "2026-01-06T06:41:30.513Z",
        )
        ready = claude_answer(
            warmup,
            f"7777777{n}-0000-4000-8000-000000000002",
            "Ready.",
            timestamp="2026-01-06T06:41:35.000Z",
        )
        write_lines(folder / f"{name}.jsonl", [ready, warmup])

    report = harvest(store, cfg).totals()

    assert report["rewritten_copies"] == 0
    [(sessions, warmups)] = query(
        db_file,
        "SELECT count(DISTINCT session_id), count(*) FROM events WHERE text = 'Warmup'",
    )
    assert (sessions, warmups) == (1, 2)


def test_bookkeeping_repeated_within_a_millisecond_is_kept(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """Claude Code 2.1.38 writes some hook progress records twice at the same instant."""
    prompt, call, result, summary = first_day()
    progress = {
        "parentUuid": call["uuid"],
        "type": "progress",
        "sessionId": SID,
        "cwd": "/work/demo",
        "data": {"type": "hook_progress", "hookEvent": "PreToolUse", "hookName": "PreToolUse:Edit"},
        "toolUseID": "toolu_01AAAA",
        "timestamp": "2026-01-17T22:36:14.000Z",
    }
    twice = [
        {**progress, "uuid": "55555555-0000-4000-8000-000000000001"},
        {**progress, "uuid": "55555555-0000-4000-8000-000000000002"},
    ]
    write_lines(transcript(isolated_home), [prompt, call, summary, *twice, result])

    report = harvest(store, cfg).totals()

    assert report["rewritten_copies"] == 0
    [(hooks,)] = query(db_file, "SELECT count(*) FROM events WHERE text LIKE '%hook_progress%'")
    assert hooks == 2


def test_the_harvest_panel_names_the_copies_it_skipped(isolated_home: Path, db_file: Path) -> None:
    day_one = first_day()
    copies = written_again(day_one)
    write_lines(transcript(isolated_home), [*day_one, *copies, next_day(copies[-1])])

    result = CliRunner().invoke(app, ["harvest"])
    assert result.exit_code == 0, result.stderr
    assert "copied history skipped" in result.stdout
    assert "5 events written again by a resumed session" in result.stdout

    again = CliRunner().invoke(app, ["harvest", "--json"])
    assert json.loads(again.stdout)["rewritten_copies"] == 0


def test_a_file_read_again_from_the_start_counts_no_copies(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """A replaced file is read again as a new generation: its records come back under the
    ids they were stored with, duplicates the store's own key skips, not history written
    again."""
    day_one = first_day()
    path = write_lines(transcript(isolated_home), day_one)
    harvest(store, cfg)
    # rewritten with a different head: no longer the file its cursor describes
    summary = {"type": "summary", "summary": "Login redirect", "leafUuid": day_one[-1]["uuid"]}
    path.unlink()
    write_lines(path, [summary, *day_one, next_day(day_one[-1])])

    report = harvest(store, cfg).totals()

    # new: the summary line and the next day's prompt
    assert (report["files_reset"], report["events_new"], report["rewritten_copies"]) == (1, 2, 0)
    assert prompts(db_file) == ["fix the login redirect", "keep going"]


def test_a_slash_command_written_again_is_stored_once(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """A command is stored as a meta record, and mining reads it as the person's turn: a
    copy of it, like a copy of a typed prompt, would be the command run twice
    (Smartagent-so/Personal_AI_Infrastructure 351b5d6c, written again as 2.1.11 writes a
    resumed session: `/jarvisOn` read twice, with two outcomes). The CLI's bookkeeping at
    one instant is still all kept."""
    command = at(
        claude_prompt(
            SID,
            "11111111-0000-4000-8000-000000000011",
            "<command-message>jarvisOn is running…</command-message>\n"
            "<command-name>/jarvisOn</command-name>",
        ),
        "2026-01-17T22:30:01.100Z",
    )
    output = {
        **at(
            claude_prompt(
                SID,
                "11111111-0000-4000-8000-000000000012",
                "<local-command-stdout>Jarvis mode on</local-command-stdout>",
            ),
            "2026-01-17T22:30:01.100Z",
        ),
        "parentUuid": command["uuid"],
    }
    hooks = [
        {
            "type": "progress",
            "uuid": f"11111111-0000-4000-8000-00000000002{n}",
            "parentUuid": output["uuid"],
            "sessionId": SID,
            "timestamp": "2026-01-17T22:30:01.200Z",
            "data": {"type": "hook_progress", "hookEvent": "UserPromptSubmit"},
        }
        for n in range(2)
    ]
    day_one = [command, output, *hooks, *first_day()]
    copies = written_again([command, output, *first_day()])
    write_lines(transcript(isolated_home), [*day_one, *copies, next_day(copies[-1])])

    harvest(store, cfg)

    texts = [text for _, kind, text in stored(db_file) if kind == "meta"]
    assert sum("/jarvisOn" in text for text in texts) == 1
    assert sum("Jarvis mode on" in text for text in texts) == 1
    assert sum("UserPromptSubmit" in text for text in texts) == 2  # both hooks kept
    assert prompts(db_file) == ["fix the login redirect", "keep going"]
