"""A resumed session's new file that opens with the conversation so far counts it once.

Claude Code 2.0 and 2.1, resuming a conversation, could start a new session file and
write the earlier session's records into it first, each with its own uuid and time but
under the new session's id, then the new work (a 2.1.12 session of entireio/cli's public
checkpoint history: its request "I want to invert that flag logic…" and the work on it
sit in two session files, record for record). Stored as the new session's own, the
request was mined twice and looked recurring, and its failed command counted twice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from e2e_support import (
    claude_answer,
    claude_prompt,
    claude_tool_result,
    claude_tool_use,
    query,
    session_prompts,
    write_lines,
)
from typer.testing import CliRunner

from sleepd.cli.app import app
from sleepd.harvest import harvest

FIRST = "b4dcf65c-0000-4000-8000-000000000001"
RESUMED = "e1bc91d1-0000-4000-8000-000000000002"
AGAIN = "c0ffee00-0000-4000-8000-000000000003"
REQUEST = "I want to invert that flag logic: telemetry on by default, a flag to turn it off"


def folder(home: Path) -> Path:
    return home / "claude" / "projects" / "-work-demo"


def at(record: dict[str, Any], timestamp: str) -> dict[str, Any]:
    return {**record, "timestamp": timestamp}


def first_session() -> list[dict[str, Any]]:
    """A request, a command that fails, the agent's answer."""
    prompt = at(
        claude_prompt(FIRST, "11111111-0000-4000-8000-000000000001", REQUEST),
        "2026-01-20T04:15:00.614Z",
    )
    call = claude_tool_use(
        prompt,
        "11111111-0000-4000-8000-000000000002",
        "toolu_01FLAG",
        {"command": "go test ./..."},
        timestamp="2026-01-20T04:15:09.807Z",
    )
    result = claude_tool_result(
        call,
        "11111111-0000-4000-8000-000000000003",
        "--- FAIL: TestTelemetryDefault",
        is_error=True,
        timestamp="2026-01-20T04:15:20.066Z",
    )
    answer = claude_answer(
        result,
        "11111111-0000-4000-8000-000000000004",
        "The flag is inverted; one test still expects the old default.",
        timestamp="2026-01-20T04:16:44.183Z",
    )
    return [prompt, call, result, answer]


def copied_into(session: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records as a resume writes them into its new file: same uuids and times."""
    return [{**r, "sessionId": session} for r in records]


def typed(session: str, uuid: str, text: str, parent: dict[str, Any], when: str) -> dict[str, Any]:
    return {**at(claude_prompt(session, uuid, text), when), "parentUuid": parent["uuid"]}


def resumed_into(
    session: str, earlier: list[dict[str, Any]], uuid: str, text: str, when: str
) -> list[dict[str, Any]]:
    """The new file `session` a resume writes: the conversation so far, then `text`,
    typed after the resume."""
    copy = copied_into(session, earlier)
    return [*copy, typed(session, uuid, text, copy[-1], when)]


def resumed_session(earlier: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first session resumed, and one request typed after."""
    return resumed_into(
        RESUMED,
        earlier,
        "22222222-0000-4000-8000-000000000001",
        "now update the test to the new default",
        "2026-01-21T09:00:00.000Z",
    )


def counted(db_file: Path | str) -> tuple[int, int, int]:
    """Typed requests of REQUEST's words, failed results, output tokens, over every session."""
    [(requests,)] = query(
        db_file, "SELECT count(*) FROM events WHERE kind = 'user_prompt' AND text = ?", (REQUEST,)
    )
    [(failed,)] = query(db_file, "SELECT count(*) FROM events WHERE is_error OR kind = 'error'")
    [(tokens,)] = query(db_file, "SELECT coalesce(sum(output_tokens), 0) FROM events")
    return int(requests), int(failed), int(tokens)


@pytest.mark.both_dbs
@pytest.mark.parametrize("order", ["first session first", "resumed file first", "both at once"])
def test_a_resumed_files_copy_of_the_conversation_is_counted_once(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, order: str
) -> None:
    earlier = first_session()
    files = {
        FIRST: (folder(isolated_home) / f"{FIRST}.jsonl", earlier),
        RESUMED: (folder(isolated_home) / f"{RESUMED}.jsonl", resumed_session(earlier)),
    }
    sequence = [RESUMED, FIRST] if order == "resumed file first" else [FIRST, RESUMED]
    for session in sequence:
        write_lines(*files[session])
        if order != "both at once":
            harvest(store, cfg)
    if order == "both at once":
        report = harvest(store, cfg).totals()
        assert report["resumed_history"] > 0

    # one failed result is two events (the result and its error)
    assert counted(db_file) == (1, 2, 7 * 2)
    everything = session_prompts(db_file, FIRST) + session_prompts(db_file, RESUMED)
    assert sorted(everything) == sorted([REQUEST, "now update the test to the new default"])
    assert "now update the test to the new default" in session_prompts(db_file, RESUMED)
    # nothing was dropped: the copy is kept as the resumed session's context
    [(stored,)] = query(db_file, "SELECT count(*) FROM events")
    assert stored == 2 * (len(earlier) + 1) + 1


def test_the_copy_is_kept_as_context_and_named_in_the_harvest_report(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    earlier = first_session()
    write_lines(folder(isolated_home) / f"{FIRST}.jsonl", earlier)
    harvest(store, cfg)
    write_lines(folder(isolated_home) / f"{RESUMED}.jsonl", resumed_session(earlier))

    report = harvest(store, cfg).totals()

    assert report["resumed_history"] == len(earlier) + 1  # with the failed result's error
    kinds = query(
        db_file,
        "SELECT e.kind, e.raw_type, e.is_error FROM events e "
        "JOIN sessions s ON s.id = e.session_id WHERE s.external_id = ? ORDER BY e.seq",
        (RESUMED,),
    )
    assert [kind for kind, _, _ in kinds] == ["meta"] * (len(earlier) + 1) + ["user_prompt"]
    assert all(str(raw).startswith("history:") for _, raw, _ in kinds[:-1])
    assert not any(error for _, _, error in kinds)


def test_the_harvest_panel_says_how_much_history_it_kept_as_context(
    isolated_home: Path, cfg: Any, store: Any
) -> None:
    earlier = first_session()
    write_lines(folder(isolated_home) / f"{FIRST}.jsonl", earlier)
    harvest(store, cfg)
    write_lines(folder(isolated_home) / f"{RESUMED}.jsonl", resumed_session(earlier))

    result = CliRunner().invoke(app, ["harvest"])

    assert result.exit_code == 0, result.stderr
    assert "history of resumed sessions" in result.stdout
    assert "5 events kept as context, counted once" in result.stdout


def test_a_copy_of_a_resumed_session_holds_two_sessions_history(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """Resumed twice: the third file copies the first session's records and the second
    session's own, and only what was typed after the second resume is its own."""
    earlier = first_session()
    second = resumed_session(earlier)
    write_lines(folder(isolated_home) / f"{FIRST}.jsonl", earlier)
    write_lines(folder(isolated_home) / f"{RESUMED}.jsonl", second)
    harvest(store, cfg)
    own = "33333333-0000-4000-8000-000000000001"
    third = resumed_into(AGAIN, second, own, "and release it", "2026-01-22T10:00:00.000Z")
    write_lines(folder(isolated_home) / f"{AGAIN}.jsonl", third)

    report = harvest(store, cfg).totals()

    assert report["resumed_history"] == len(second) + 1
    assert session_prompts(db_file, AGAIN) == ["and release it"]
    assert counted(db_file)[:2] == (1, 2)


def test_a_start_hooks_own_record_before_the_copy_does_not_hide_it(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    earlier = first_session()
    write_lines(folder(isolated_home) / f"{FIRST}.jsonl", earlier)
    harvest(store, cfg)
    hook = {
        "parentUuid": None,
        "type": "system",
        "subtype": "informational",
        "content": "SessionStart:resume hook success",
        "uuid": "44444444-0000-4000-8000-000000000001",
        "sessionId": RESUMED,
        "cwd": "/work/demo",
        "timestamp": "2026-01-21T08:59:59.000Z",
    }
    write_lines(folder(isolated_home) / f"{RESUMED}.jsonl", [hook, *resumed_session(earlier)])

    harvest(store, cfg)

    assert session_prompts(db_file, RESUMED) == ["now update the test to the new default"]
    assert counted(db_file)[:2] == (1, 2)


def test_sessions_that_share_words_or_one_stray_record_keep_their_own_work(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """The same request typed again in a new session is a second request; a record that
    also reached another session in the middle of its work (a misdelivered message,
    anthropics/claude-code#66454) leaves that session's work its own."""
    earlier = first_session()
    write_lines(folder(isolated_home) / f"{FIRST}.jsonl", earlier)
    harvest(store, cfg)
    retyped = at(
        claude_prompt(RESUMED, "55555555-0000-4000-8000-000000000001", REQUEST),
        "2026-02-01T10:00:00.000Z",
    )
    answer = claude_answer(
        retyped, "55555555-0000-4000-8000-000000000002", "Done.", timestamp="2026-02-01T10:01:00Z"
    )
    stray = {**earlier[0], "sessionId": RESUMED, "parentUuid": answer["uuid"]}
    write_lines(folder(isolated_home) / f"{RESUMED}.jsonl", [retyped, answer, stray])

    report = harvest(store, cfg).totals()

    assert report["resumed_history"] == 0
    assert session_prompts(db_file, RESUMED) == [REQUEST, REQUEST]


def test_a_resumed_request_is_mined_once(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    from sleepd.mining.mine import mine

    earlier = first_session()
    write_lines(folder(isolated_home) / f"{FIRST}.jsonl", earlier)
    write_lines(folder(isolated_home) / f"{RESUMED}.jsonl", resumed_session(earlier))
    harvest(store, cfg)

    mine(store, cfg)

    [(episodes,)] = query(
        db_file, "SELECT count(*) FROM episodes WHERE intent_text LIKE 'I want to invert%'"
    )
    assert episodes == 1


# flop-labs/technocore-chat (a 2.1 session's checkpoint, lines 67, 77 and 78; MIT): a
# message typed while the agent worked, with its queue's records and its attachment.
QUEUED = "also deploy latest image to technocore box"


def queued_session() -> list[dict[str, Any]]:
    """A request, a message queued while the agent works on it, the agent's answers."""
    prompt = at(
        claude_prompt(FIRST, "11111111-0000-4000-8000-000000000001", REQUEST),
        "2026-08-13T11:37:00.000Z",
    )
    enqueue = {
        "type": "queue-operation",
        "operation": "enqueue",
        "timestamp": "2026-08-13T11:37:30.105Z",
        "sessionId": FIRST,
        "content": QUEUED,
    }
    working = claude_answer(
        prompt,
        "11111111-0000-4000-8000-000000000002",
        "Inverting the flag now.",
        timestamp="2026-08-13T11:37:40.000Z",
    )
    remove = {**enqueue, "operation": "remove", "timestamp": "2026-08-13T11:37:59.691Z"}
    attachment = {
        "parentUuid": working["uuid"],
        "isSidechain": False,
        "attachment": {
            "type": "queued_command",
            "prompt": QUEUED,
            "commandMode": "prompt",
            "origin": {"kind": "human"},
            "timestamp": "2026-08-13T11:37:30.104Z",
        },
        "type": "attachment",
        "uuid": "11111111-0000-4000-8000-000000000003",
        "timestamp": "2026-08-13T11:37:59.692Z",
        "sessionId": FIRST,
        "cwd": "/work/demo",
    }
    deployed = claude_answer(
        attachment,
        "11111111-0000-4000-8000-000000000004",
        "Deployed the latest image.",
        timestamp="2026-08-13T11:39:00.000Z",
    )
    return [prompt, enqueue, working, remove, attachment, deployed]


def test_a_copy_holding_a_message_typed_ahead_is_a_copy_to_its_end(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """A resume copies the conversation's records, not the queue's bookkeeping: the message
    typed ahead comes back from its attachment alone, where the first file told it from its
    queue. It is the same record all the same (one uuid), and the copy goes on past it:
    ended there, the rest of the copy had been stored as the new session's own."""
    earlier = queued_session()
    write_lines(folder(isolated_home) / f"{FIRST}.jsonl", earlier)
    harvest(store, cfg)
    conversation = [r for r in earlier if "uuid" in r]
    own = "22222222-0000-4000-8000-000000000001"
    resumed = resumed_into(
        RESUMED, conversation, own, "now tag the release", "2026-08-14T09:00:00Z"
    )
    write_lines(folder(isolated_home) / f"{RESUMED}.jsonl", resumed)

    report = harvest(store, cfg).totals()

    assert session_prompts(db_file, RESUMED) == ["now tag the release"]
    [(steering,)] = query(
        db_file, "SELECT count(*) FROM events WHERE kind = 'user_prompt' AND text = ?", (QUEUED,)
    )
    assert steering == 1
    assert report["resumed_history"] >= len(conversation)
