"""A Codex thread the person rolled back: the request taken back is read as Codex reads it.

Codex writes `thread_rolled_back {"num_turns": N}` when the person goes back over their
last N messages (its edit-a-message key, or a client's rollback): those turns, and all that
followed them, are no longer part of the conversation, though they stay in the rollout.
The next message is typed in their place. Read as written, the request taken back was an
episode the person left with the agent's done claim standing (a success), and the message
sent in its place, often the same request edited, a request of its own that looked like
the same job asked again.

These rollouts are constructed after codex-rs (`drop_last_n_user_turns`, the
`ThreadRolledBack` event); no labelled rollout holds a rollback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from codex_thread import answered, envelope, episodes, meta, mined, rollout, said
from e2e_support import query

from sleepd.harvest import harvest


def rolled_back(turns: int, second: int) -> dict[str, Any]:
    return envelope("event_msg", {"type": "thread_rolled_back", "num_turns": turns}, second)


REQUEST = "add a --json flag to the export command"
DONE = "Done: `export --json` now prints the records as JSON, and the tests pass."


@pytest.mark.both_dbs
def test_a_request_said_again_after_a_rollback_goes_on_with_its_episode(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    again = "add a --json flag to the export command, and keep csv as the default"
    records = [
        meta(),
        said(REQUEST, 10),
        *answered(DONE, 10),
        rolled_back(1, 30),
        said(again, 40),
        *answered("Done: `--json` added; csv stays the default.", 40),
    ]
    mined(isolated_home, store, cfg, records)

    # one request, said better: one episode, not the same job asked twice
    [(intent, outcome)] = episodes(db_file)
    assert intent == REQUEST
    assert outcome != "abandoned"
    [(kinds,)] = query(db_file, "SELECT turns FROM episodes WHERE parent_episode_id IS NULL")
    assert "said again after rolling the thread back" in str(kinds)


OTHER = "write the changelog entry for release 0.4.2"


def another_request_after(marker: dict[str, Any]) -> list[dict[str, Any]]:
    """The request answered, the record, then another request answered."""
    return [
        meta(),
        said(REQUEST, 10),
        *answered(DONE, 10),
        marker,
        said(OTHER, 40),
        *answered("Done: CHANGELOG.md has the 0.4.2 entry.", 40),
    ]


# codex-rs: a rollback past the first message keeps only what came before it
@pytest.mark.parametrize("turns", [1, 5])
def test_a_request_taken_back_for_another_one_was_withdrawn(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, turns: int
) -> None:
    mined(isolated_home, store, cfg, another_request_after(rolled_back(turns, 30)))

    # the agent's done claim for the request taken back is not a success
    assert episodes(db_file) == [(REQUEST, "abandoned"), (OTHER, "success")]


def test_a_request_taken_back_with_nothing_typed_after_was_withdrawn(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    records = [meta(), said(REQUEST, 10), *answered(DONE, 10), rolled_back(1, 30)]
    mined(isolated_home, store, cfg, records)

    assert episodes(db_file) == [(REQUEST, "abandoned")]


def test_taking_back_a_later_message_leaves_the_request_standing(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    records = [
        meta(),
        said(REQUEST, 10),
        *answered(DONE, 10),
        said("also print the record count at the end", 30),
        *answered("Done: the count is printed last.", 30),
        rolled_back(1, 50),
        said("also print the record count on stderr", 60),
        *answered("Done: the count goes to stderr.", 60),
    ]
    mined(isolated_home, store, cfg, records)

    [(intent, outcome)] = episodes(db_file)
    assert intent == REQUEST
    assert outcome == "success"


@pytest.mark.parametrize("count", ["0", "-1", '"1"', "null", "1.5", '{"n": 1}'])
def test_a_rollback_record_that_takes_back_nothing_changes_nothing(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, count: str
) -> None:
    import json

    payload = {"type": "thread_rolled_back", "num_turns": json.loads(count)}
    mined(isolated_home, store, cfg, another_request_after(envelope("event_msg", payload, 30)))

    assert dict(episodes(db_file))[REQUEST] == "success"


def test_a_rollback_harvested_after_its_request_was_mined_still_withdraws_it(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    from e2e_support import append_bytes, line

    from sleepd.mining.mine import mine

    mined(isolated_home, store, cfg, [meta(), said(REQUEST, 10), *answered(DONE, 10)])
    later = [rolled_back(1, 30), said(OTHER, 40), *answered("Done: the 0.4.2 entry.", 40)]
    append_bytes(rollout(isolated_home), b"".join(line(r) for r in later))
    harvest(store, cfg)
    mine(store, cfg)

    assert episodes(db_file) == [(REQUEST, "abandoned"), (OTHER, "success")]


def test_a_rollback_over_two_requests_withdraws_both(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    second = OTHER
    again = "add a --json flag to the export command, csv stays the default"
    records = [
        meta(),
        said(REQUEST, 10),
        *answered(DONE, 10),
        said(second, 30),
        *answered("Done: CHANGELOG.md has the 0.4.2 entry.", 30),
        rolled_back(2, 50),
        said(again, 60),
        *answered("Done: `--json` added; csv stays the default.", 60),
    ]
    mined(isolated_home, store, cfg, records)

    # the person went back to before the first request: what they typed stands in its
    # place, a request of its own, and neither request taken back kept its success
    assert episodes(db_file) == [
        (REQUEST, "abandoned"),
        (second, "abandoned"),
        (again, "success"),
    ]


def test_a_greeting_is_a_message_a_rollback_counts(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    # Codex counts every message the person sent: taking back one turn after "hi" takes
    # back the greeting, and the request before it stands
    records = [
        meta(),
        said(REQUEST, 10),
        *answered(DONE, 10),
        said("hi", 30),
        *answered("Hi! What would you like to do next?", 30),
        rolled_back(1, 50),
    ]
    mined(isolated_home, store, cfg, records)

    [(intent, outcome)] = episodes(db_file)
    assert (intent, outcome) == (REQUEST, "success")
