"""A conversation carried on in a new session file reads on from where it stood.

A person who resumes or forks a conversation goes on typing in a new session file: the
next turn answers what came before. Builds write that file three ways: the conversation
so far copied ahead of the new work (Claude Code's resume into a new file), nothing of it
with the first record answering the last record of the old file (a 1.0.x resume), or the
copies marked `forkedFrom`, which the harvest stores with the session they came from
(`/fork`). Read without the conversation before it, the new file's first turn opened a
request of its own: a correction or a follow-up became a task.

Each case is a real session of the labelled set cut at a turn a person labelled, the
first part harvested (and mined) before the second, as a daemon meets them.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from e2e_support import query, write_lines

from sleepd.harvest import harvest
from sleepd.mining.mine import mine

FIXTURES = Path(__file__).parents[1] / "fixtures" / "real_sessions" / "claude"
NEW_SESSION = "ffffffff-0000-4000-8000-00000000c0de"

#: (file, line of the turn the new file opens with, the labelled kind of that turn)
CASES = [
    # "no, I mean, use the lsp directly to see if there's valid return"
    (
        "maxnoobineating__UbuntuDevcontainer_Dotfiles__.claude_projects_-root--vim-vim_"
        "9fb21847-4bea-4aa8-a00e-fa8f804f579e.jsonl",
        43,
        "correction",
    ),
    # "I deleted the key ring on accident bc I didnt want it in the vsla folder how do I
    # download it"
    (
        "Durban-Designer__vsla__docs__history__raw_sessions__-home-kenth56-vsla__"
        "069508a5-1193-487c-a9b5-a6f5f3ae4f98.jsonl",
        55,
        "follow_up",
    ),
]
LAYOUTS = [
    "resumed with the conversation",
    # as Claude Code opens many a resumed file: the titles of the conversations it came from
    "resumed with titles, then the conversation",
    "resumed without it",
    "forked",
]


def records(name: str) -> list[Any]:
    return [json.loads(line) for line in (FIXTURES / name).read_text().splitlines()]


def moved(record: Any, session: str, **extra: Any) -> Any:
    if not isinstance(record, dict):
        return record
    record = copy.deepcopy(record)
    if "sessionId" in record:
        record["sessionId"] = session
    return {**record, **extra}


def carried_on(everything: list[Any], line: int, layout: str) -> tuple[list[Any], list[Any]]:
    """The session cut before `line`: its first file, and the new file the layout writes."""
    before, after = everything[: line - 1], everything[line - 1 :]
    old = first_session(everything)
    new = [moved(r, NEW_SESSION) for r in after]
    if layout in ("resumed with the conversation", "resumed with titles, then the conversation"):
        new = [moved(r, NEW_SESSION) for r in before] + new
    if layout == "resumed with titles, then the conversation":
        title = {"type": "summary", "summary": "Earlier work", "leafUuid": before[-1].get("uuid")}
        new = [title, *new]
    elif layout == "forked":
        copies = [
            moved(r, NEW_SESSION, forkedFrom={"sessionId": old, "messageUuid": r["uuid"]})
            for r in before
            if isinstance(r, dict) and isinstance(r.get("uuid"), str)
        ]
        new = copies + new
    return before, new


def first_session(everything: list[Any]) -> str:
    return str(next(r["sessionId"] for r in everything if isinstance(r, dict) and "sessionId" in r))


def cut_and_mine(
    home: Path, store: Any, cfg: Any, name: str, line: int, layout: str
) -> tuple[str, list[Any]]:
    """The session cut before `line` as `layout` writes it: the first file harvested and
    mined, then the new one, as a daemon meets them. Returns the first session's id and
    the session's records as written."""
    everything = records(name)
    first, second = carried_on(everything, line, layout)
    folder = home / "claude" / "projects" / "-work-carried"
    old = first_session(everything)
    write_lines(folder / f"{old}.jsonl", first)
    harvest(store, cfg)
    mine(store, cfg)
    write_lines(folder / f"{NEW_SESSION}.jsonl", second)
    harvest(store, cfg)
    mine(store, cfg)
    return old, everything


def turn_kinds(db_file: Path | str, session: str) -> dict[str, str]:
    """Each typed turn's text in the session, and what mining read it as."""
    kinds: dict[str, str] = {}
    for (turns,) in query(
        db_file,
        "SELECT e.turns FROM episodes e JOIN sessions s ON s.id = e.session_id "
        "WHERE s.external_id = ?",
        (session,),
    ):
        for turn in json.loads(turns) if isinstance(turns, str) else turns or []:
            [(text,)] = query(db_file, "SELECT text FROM events WHERE id = ?", (turn["event_id"],))
            kinds[text] = turn["kind"]
    return kinds


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name, line, labelled", CASES, ids=["correction", "follow-up"])
def test_the_new_files_first_turn_reads_against_the_conversation_before_it(
    isolated_home: Path,
    cfg: Any,
    store: Any,
    db_file: Path,
    name: str,
    line: int,
    labelled: str,
    layout: str,
) -> None:
    _, everything = cut_and_mine(isolated_home, store, cfg, name, line, layout)

    content = everything[line - 1]["message"]["content"]
    typed = content if isinstance(content, str) else content[0]["text"]
    kinds = turn_kinds(db_file, NEW_SESSION)
    assert kinds[typed] == labelled
    # the new session carries the request on, and makes none of its own from the turn
    openings = query(
        db_file,
        "SELECT e.intent_text FROM episodes e JOIN sessions s ON s.id = e.session_id "
        "WHERE s.external_id = ? ORDER BY e.start_seq",
        (NEW_SESSION,),
    )
    assert openings and openings[0] == ("",)
    assert all(typed not in text for (text,) in openings)


#: What the first file's last request reads when the file is read whole (the labels call
#: both a success: `mixed` is a success after a correction), by its opening words
READ_WHOLE = {
    "correction": ("how to test if one identifier", "mixed", "corrected_then_moved_on"),
    "follow-up": ("Verify Cuda is working", "success", "answered_without_complaint"),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(
    "name, line, case", [(n, line, c) for (n, line, _), c in zip(CASES, READ_WHOLE, strict=True)]
)
def test_the_request_the_first_file_ends_in_is_judged_over_both_files(
    isolated_home: Path,
    cfg: Any,
    store: Any,
    db_file: Path,
    name: str,
    line: int,
    case: str,
    layout: str,
) -> None:
    """Its episode in the first file ends where the file does; the new file's turns (a
    correction and the agent's fix, a follow-up answered) say how it ended. Its outcome is
    the one read over both, as in one file, and a failure task its first file alone made
    (the follow-up's case: the agent's last call failed) goes."""
    old, _ = cut_and_mine(isolated_home, store, cfg, name, line, layout)

    opening, outcome, rule = READ_WHOLE[case]
    [request] = query(
        db_file,
        "SELECT e.outcome, e.outcome_rule FROM episodes e JOIN sessions s ON s.id = e.session_id "
        "WHERE s.external_id = ? AND e.intent_text LIKE ?",
        (old, f"{opening}%"),
    )
    assert tuple(request) == (outcome, rule)
    assert query(db_file, "SELECT intent FROM tasks WHERE active") == []


def _request_reading(db_file: Path | str, session: str, opening: str) -> tuple[Any, ...]:
    [row] = query(
        db_file,
        "SELECT e.outcome, e.outcome_rule, "
        "(SELECT count(*) FROM episodes c WHERE c.carries_on_episode_id = e.id) "
        "FROM episodes e JOIN sessions s ON s.id = e.session_id "
        "WHERE s.external_id = ? AND e.intent_text LIKE ?",
        (session, f"{opening}%"),
    )
    return tuple(row)


def _harvest_and_mine(store: Any, cfg: Any) -> None:
    harvest(store, cfg)
    mine(store, cfg)


@pytest.mark.parametrize("layout", ["resumed without it", "forked"])
def test_the_reading_over_both_files_holds_whichever_is_read_first_or_again(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, layout: str
) -> None:
    """The new file harvested before the first one (a first harvest meets them in any
    order), and both read again (an upgrade reads every session again): the first file's
    request keeps the outcome read over both. (A resume that copies the conversation,
    harvested first, holds the conversation as its own: the first file is then the copy.)"""
    name, line, _ = CASES[0]
    everything = records(name)
    first, second = carried_on(everything, line, layout)
    folder = isolated_home / "claude" / "projects" / "-work-carried"
    old = first_session(everything)
    write_lines(folder / f"{NEW_SESSION}.jsonl", second)
    harvest(store, cfg)
    write_lines(folder / f"{old}.jsonl", first)
    _harvest_and_mine(store, cfg)
    opening, outcome, rule = READ_WHOLE["correction"]
    assert _request_reading(db_file, old, opening) == (outcome, rule, 1)

    from sleepd.mining.mine import read_everything_again

    assert read_everything_again(store) == 2
    mine(store, cfg)
    assert _request_reading(db_file, old, opening) == (outcome, rule, 1)


def test_a_first_file_that_went_on_after_the_resume_keeps_its_own_reading(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """The person came back to the first file and typed on in the same request after the
    new file began (two branches of one conversation): what the new file read of the
    request is no longer all of it, and the first file's reading stands."""
    name, line, _ = CASES[0]
    old, everything = cut_and_mine(isolated_home, store, cfg, name, line, "resumed without it")
    first, _ = carried_on(everything, line, "resumed without it")
    folder = isolated_home / "claude" / "projects" / "-work-carried"
    opening, outcome, rule = READ_WHOLE["correction"]
    assert _request_reading(db_file, old, opening) == (outcome, rule, 1)

    typed = next(  # the request's own record, as a template of a typed turn
        r
        for r in first
        if isinstance(r, dict) and opening in json.dumps(r.get("message", {}).get("content"))
    )
    last_uuid = next(r["uuid"] for r in reversed(first) if isinstance(r, dict) and "uuid" in r)
    went_on = {
        **copy.deepcopy(typed),
        "uuid": "0000feed-0000-4000-8000-000000000001",
        "parentUuid": last_uuid,
        "timestamp": "2099-01-01T00:00:00.000Z",
        "message": {"role": "user", "content": "and does the same hold for the hover docs?"},
    }
    write_lines(folder / f"{old}.jsonl", [*first, went_on])
    _harvest_and_mine(store, cfg)
    reading = _request_reading(db_file, old, opening)
    assert reading[2] == 0  # no longer carried on: the new file did not read all of it
    assert reading[:2] != (outcome, rule)  # the correction is the other branch's


#: Asked once in each part of the conversation: "I very much like this idea, … Can you
#: list, in 5 bullet points, what are the strengths of …", then "I actually don't like
#: much this idea, … what are the weak points …"
ASKED_AGAIN = (
    "handgemacht-ai__claude-code-log__03eb5929-52b3-4b13-ada3-b93ae35806b8.jsonl",
    38,
)


@pytest.mark.both_dbs  # a team's PostgreSQL counts a cluster's sessions in a function
@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_request_asked_again_in_the_carried_conversation_recurs_in_one_session(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path | str, layout: str
) -> None:
    """One conversation in two files is one occasion of the request: a request asked
    again after the resume is no kind of request asked in two sessions, and makes no task
    (in one file it made none)."""
    name, line = ASKED_AGAIN
    cut_and_mine(isolated_home, store, cfg, name, line, layout)

    both = query(
        db_file,
        "SELECT c.size, c.session_count FROM task_clusters c WHERE c.id IN "
        "(SELECT cluster_id FROM episodes WHERE intent_text LIKE 'I very much like this idea%')",
    )
    assert both == [(2, 1)]
    assert query(db_file, "SELECT intent FROM tasks WHERE active") == []
