"""The request a conversation carries into a new file, judged over both, in the orders
and shapes a real history holds it (`mining.read_back`, `mining.carried`).

Each case is a real labelled session cut into files as a resume or a fork writes them
(`test_e2e_carried_conversation`'s layouts). Two reviews of stop 95 found each of these
read otherwise than one file holding the conversation: a conversation resumed twice, a
new file (or a Codex fork) read before the first one was stored, a fork taken while the
agent worked (met whole or as it grew), the evidence lent from a copy, requests that
cannot be lent looked up in every batch, and files naming each other read every night.
"""

from __future__ import annotations

import copy
import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from e2e_support import _rewrite_uuids, jsonl_bytes, query, write_lines
from test_e2e_carried_conversation import (
    ASKED_AGAIN,
    CASES,
    NEW_SESSION,
    READ_WHOLE,
    _harvest_and_mine,
    _request_reading,
    carried_on,
    first_session,
    moved,
    records,
)

from sleepd.harvest import harvest
from sleepd.mining import mine as mining_pass
from sleepd.mining import read_back

B_SESSION = "ffffffff-0000-4000-8000-0000000000b1"
C_SESSION = "ffffffff-0000-4000-8000-0000000000c1"


def _three_files(name: str, cuts: tuple[int, int], layout: str) -> list[tuple[str, list[Any]]]:
    """One conversation resumed twice: each new file with the conversation copied ahead
    of it, or with none of it (its first record answering the last file's last)."""
    everything = records(name)
    first = everything[: cuts[0] - 1]
    if layout == "copied":
        second = [moved(r, B_SESSION) for r in everything[: cuts[1] - 1]]
        third = [moved(r, C_SESSION) for r in everything]
    else:
        second = [moved(r, B_SESSION) for r in everything[cuts[0] - 1 : cuts[1] - 1]]
        third = [moved(r, C_SESSION) for r in everything[cuts[1] - 1 :]]
    return [(first_session(everything), first), (B_SESSION, second), (C_SESSION, third)]


def _write_all(
    folder: Path, files: list[tuple[str, list[Any]]], store: Any, cfg: Any, *, nightly: bool
) -> None:
    for session, lines in files:
        write_lines(folder / f"{session}.jsonl", lines)
        if nightly:
            _harvest_and_mine(store, cfg)
    _harvest_and_mine(store, cfg)


@pytest.mark.parametrize("layout", ["copied", "resumed without it"])
@pytest.mark.parametrize("nightly", [True, False], ids=["a file a night", "first harvest"])
def test_a_request_carried_through_three_files_is_judged_by_the_last(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, layout: str, nightly: bool
) -> None:
    """The second file opens with a follow-up, the third with the correction: the
    request the first file ended in reads as one file holding all three reads it."""
    name, _, _ = CASES[0]
    files = _three_files(name, (33, 43), layout)
    folder = isolated_home / "claude" / "projects" / "-work-carried"
    _write_all(folder, files, store, cfg, nightly=nightly)
    opening, outcome, rule = READ_WHOLE["correction"]
    assert _request_reading(db_file, files[0][0], opening)[:2] == (outcome, rule)


@pytest.mark.parametrize("layout", ["copied", "resumed without it"])
@pytest.mark.parametrize("nightly", [True, False], ids=["a file a night", "first harvest"])
def test_three_files_of_one_conversation_are_one_session_to_recurrence(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, layout: str, nightly: bool
) -> None:
    """Harvested a file a night or all at once, the three files name one beginning, and
    a request asked again in the last counts one session."""
    name, line = ASKED_AGAIN
    files = _three_files(name, (25, line), layout)
    folder = isolated_home / "claude" / "projects" / "-work-carried"
    _write_all(folder, files, store, cfg, nightly=nightly)
    began = query(db_file, "SELECT DISTINCT coalesce(conversation_session_id, id) FROM sessions")
    assert len(began) == 1
    assert query(db_file, "SELECT intent FROM tasks WHERE active") == []


@pytest.mark.parametrize("layout", ["resumed without it", "forked"])
def test_a_new_file_read_before_the_first_is_read_again_once_the_first_comes(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, layout: str
) -> None:
    """A history copied in, or a folder added later: the new file is harvested and read
    on a night the file it resumed is not there yet."""
    name, line, _ = CASES[0]
    everything = records(name)
    first, second = carried_on(everything, line, layout)
    folder = isolated_home / "claude" / "projects" / "-work-carried"
    write_lines(folder / f"{NEW_SESSION}.jsonl", second)
    _harvest_and_mine(store, cfg)
    write_lines(folder / f"{first_session(everything)}.jsonl", first)
    _harvest_and_mine(store, cfg)
    opening, outcome, rule = READ_WHOLE["correction"]
    assert _request_reading(db_file, first_session(everything), opening) == (outcome, rule, 1)


def _fork_during_the_work() -> tuple[str, list[Any], list[Any], list[Any]]:
    """A session forked in the middle of the agent's work on its last request, and the
    fork going on with a follow-up of its own: the first file whole, the first file as
    it stood at the fork, and the fork's file."""
    name, _, _ = CASES[1]
    everything = records(name)
    old = first_session(everything)
    first = everything[:54]  # the request and all of the agent's work on it
    before = everything[:46]  # the fork: during that work
    forked_at = datetime.fromisoformat(before[-1]["timestamp"].replace("Z", "+00:00"))
    copies = [
        moved(r, NEW_SESSION, forkedFrom={"sessionId": old, "messageUuid": r["uuid"]})
        for r in before
        if isinstance(r, dict) and isinstance(r.get("uuid"), str)
    ]
    own = []
    for n, record in enumerate(everything[54:61]):  # a follow-up and its answer, in the fork
        record = moved(record, NEW_SESSION)
        record["timestamp"] = (forked_at + timedelta(seconds=1 + n)).isoformat()
        own.append(record)
    own[0]["parentUuid"] = before[-1]["uuid"]
    return old, first, before, [*copies, *own]


@pytest.mark.parametrize("order", ["first file whole", "first file at the fork"])
def test_a_fork_taken_while_the_agent_worked_leaves_the_first_file_its_reading(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, order: str
) -> None:
    """The agent went on in the first file after the fork, and the fork went another way:
    the first file's reading stands, whether the daemon met the first file whole before
    the fork, or as it stood at the fork and then grown."""
    old, first, before, fork = _fork_during_the_work()
    folder = isolated_home / "claude" / "projects" / "-work-carried"
    if order == "first file whole":
        write_lines(folder / f"{old}.jsonl", first)
        _harvest_and_mine(store, cfg)
        alone = _request_reading(db_file, old, "Verify Cuda is working")
        write_lines(folder / f"{NEW_SESSION}.jsonl", fork)
        _harvest_and_mine(store, cfg)
        assert _request_reading(db_file, old, "Verify Cuda is working") == alone
    else:
        write_lines(folder / f"{old}.jsonl", before)  # the agent still at work
        _harvest_and_mine(store, cfg)
        write_lines(folder / f"{NEW_SESSION}.jsonl", fork)
        _harvest_and_mine(store, cfg)
        write_lines(folder / f"{old}.jsonl", first)  # and on in the first file
        _harvest_and_mine(store, cfg)
        _harvest_and_mine(store, cfg)  # (the fork is read again: still not all of it)
    assert _request_reading(db_file, old, "Verify Cuda is working")[2] == 0


def test_the_evidence_lent_from_a_copy_is_the_first_files_own(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """The signals lent name the events the new file's copy of the conversation holds;
    the request's evidence is read where it happened, so a replay task still knows
    which command stood in for one that failed (`task_mining`)."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session as DbSession

    from sleepd.mining import task_mining
    from sleepd.store.models import Episode, Signal

    name, line, _ = CASES[1]
    everything = records(name)
    first, second = carried_on(everything, line, "resumed with the conversation")
    folder = isolated_home / "claude" / "projects" / "-work-carried"

    def recovered() -> list[tuple[str, str]]:
        with DbSession(store) as db:
            episode = db.scalars(
                select(Episode).where(Episode.intent_text.like("Verify Cuda%"))
            ).one()
            signals = db.scalars(select(Signal).where(Signal.episode_id == episode.id)).all()
            events, commands = task_mining._load_events(db, signals)
            evidence = task_mining._evidence(episode, signals, events, commands)
            return [(failed, worked) for _, failed, worked in evidence.recovered]

    write_lines(folder / f"{first_session(everything)}.jsonl", first)
    _harvest_and_mine(store, cfg)
    alone = recovered()
    assert alone  # (a command that failed, then the one that worked)
    write_lines(folder / f"{NEW_SESSION}.jsonl", second)
    _harvest_and_mine(store, cfg)
    assert recovered() == alone


def test_a_request_that_cannot_be_lent_is_looked_for_once(
    isolated_home: Path, cfg: Any, store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty conversations whose first file went on after the resume (never lent), read
    in one pass of a batch a session: each carried request is looked for once, not again
    after every later batch."""
    name, line, _ = CASES[0]
    everything = records(name)
    first, second = carried_on(everything, line, "resumed without it")
    typed = next(
        r for r in first if isinstance(r, dict) and "how to test if one identifier" in json.dumps(r)
    )
    went_on = {
        **copy.deepcopy(typed),
        "uuid": "0000feed-0000-4000-8000-000000000001",
        "parentUuid": next(
            r["uuid"] for r in reversed(first) if isinstance(r, dict) and "uuid" in r
        ),
        "timestamp": "2026-06-01T03:00:00.000Z",
        "message": {"role": "user", "content": "and does the same hold for the hover docs?"},
    }
    folder = isolated_home / "claude" / "projects" / "-work-carried"
    folder.mkdir(parents=True)
    for n in range(20):
        for session, lines in (
            (first_session(everything), [*first, went_on]),
            (NEW_SESSION, second),
        ):
            name_n = _rewrite_uuids(session.encode(), n).decode()
            (folder / f"{name_n}.jsonl").write_bytes(_rewrite_uuids(jsonl_bytes(lines), n))
    harvest(store, cfg)
    monkeypatch.setattr(mining_pass, "SESSION_BATCH", 1)
    looked: list[int] = []
    original = read_back._request_episode

    def counted(db: Any, carried: Any) -> Any:
        looked.append(carried.episode_id)
        return original(db, carried)

    monkeypatch.setattr(read_back, "_request_episode", counted)
    mining_pass.mine(store, cfg)
    assert 0 < len(looked) <= 2 * 20


def test_files_naming_each_other_are_not_read_again_every_night(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broken or hostile files: each one's first record answers the other's last. While
    another session grows night after night, neither is read again."""
    name, line, _ = CASES[0]
    everything = records(name)
    old = first_session(everything)
    first = [moved(r, old) for r in everything[: line - 1]]
    second = [moved(r, NEW_SESSION) for r in everything[line - 1 :]]
    opening = next(r for r in first if isinstance(r, dict) and "parentUuid" in r)
    opening["parentUuid"] = next(r["uuid"] for r in reversed(second) if "uuid" in r)
    folder = isolated_home / "claude" / "projects" / "-work-carried"
    write_lines(folder / f"{old}.jsonl", first)
    write_lines(folder / f"{NEW_SESSION}.jsonl", second)
    _harvest_and_mine(store, cfg)
    read: list[int] = []
    original = mining_pass.mine_session

    def counted(db: Any, item: Any, *args: Any, **kwargs: Any) -> Any:
        read.append(item.id)
        return original(db, item, *args, **kwargs)

    monkeypatch.setattr(mining_pass, "mine_session", counted)
    other = records(CASES[1][0])
    for night in range(3):
        other_folder = isolated_home / "claude" / "projects" / "-work-other"
        write_lines(other_folder / "other.jsonl", other[: 20 + 10 * night])
        _harvest_and_mine(store, cfg)
    pair = {
        i
        for (i,) in query(
            db_file, "SELECT id FROM sessions WHERE external_id IN (?, ?)", (old, NEW_SESSION)
        )
    }
    assert not pair & set(read)


_ROLLOUT = (
    "codex/ivanma9__ship__.codex_sessions_2026_03_12_"
    "rollout-2026-03-12T12-46-14-019ce327-fd76-76e3-b79a-9d5f69966253.jsonl"
)
_CODEX_FORK = "019ce327-0000-7000-8000-00000000f0c5"


@pytest.mark.parametrize("order", ["first rollout first", "fork first"])
def test_a_codex_fork_read_before_its_first_rollout_is_read_again_once_it_comes(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, order: str
) -> None:
    """A Codex fork (`codex fork`: its header names the first session, whose records it
    replays) harvested on a night its first rollout was not there yet: once that rollout
    is stored, the fork is read again, names the conversation and lends the request it
    goes on with."""
    from tests.bench_scripts import load_bench

    path = Path(__file__).parents[1] / "fixtures" / "real_sessions" / _ROLLOUT
    everything = [json.loads(line) for line in path.read_text().splitlines()]
    before, after = everything[:550], everything[550:]
    fork = [r for _, r in load_bench("carried_real").codex_forked(before, after, _CODEX_FORK)]
    folder = isolated_home / "codex" / "sessions" / "2026" / "03" / "12"
    files = [
        (folder / _ROLLOUT.split("sessions_2026_03_12_")[1], before),
        (folder / f"rollout-2026-03-12T13-00-00-{_CODEX_FORK}.jsonl", fork),
    ]
    if order == "fork first":
        files.reverse()
    for file, lines in files:
        write_lines(file, lines)
        _harvest_and_mine(store, cfg)
    _harvest_and_mine(store, cfg)
    [(began_in,)] = query(
        db_file,
        "SELECT conversation_session_id FROM sessions WHERE external_id = ?",
        (_CODEX_FORK,),
    )
    assert began_in is not None
    [(lent,)] = query(
        db_file,
        "SELECT (SELECT count(*) FROM episodes c WHERE c.carries_on_episode_id = e.id) "
        "FROM episodes e JOIN sessions s ON s.id = e.session_id "
        "WHERE s.external_id LIKE '019ce327-fd76%' AND e.intent_text != '' "
        "ORDER BY e.start_seq DESC LIMIT 1",
    )
    assert lent == 1
