"""A forked session's copy of the session it forked is stored once, with that session.

Claude Code's `/fork` (and `--fork-session`) starts a new session file that opens with the
conversation so far, copied record by record: each copy keeps its uuid and time, carries
the new session's id, and names where it came from in `forkedFrom`. Those records are the
first session's turns and work; read as the fork's, every task before the fork point was
mined twice (and looked recurring, once in each session), and the fork's first request
had the copied exchange as the work it followed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from e2e_support import claude_answer, claude_prompt, query, session_prompts, write_lines

from sleepd.harvest import harvest

ORIGIN = "39be975c-3f9c-47c1-900d-1bf212060db9"
FORK = "cdce7e9e-7052-48dd-9017-ffce2307866c"

# melagiri/code-insights (its maintainer's history, a session forked with /fork, line 6,
# byte for byte; MIT), Claude Code 2.1.76: the first session's request as the fork copied it.
FORKED_COPY = (
    '{"parentUuid":"c17dd8b3-2799-4fdd-bb26-1286ddf84cf3","isSidechain":false,"promptId":'
    '"cf33a0ee-fec2-4264-af1b-b634ee72af65","type":"user","message":{"role":"user","content":'
    '"We have recently added a lot of features. Audit the changes done till now from the '
    'release 3.6.1 and list down the plan here for packing it as v4."},"uuid":'
    '"ca9b1af4-2161-4124-8af1-eb9b0c1b208b","timestamp":"2026-03-15T15:23:16.350Z",'
    '"permissionMode":"bypassPermissions","userType":"external","cwd":'
    '"/Users/melagiri/Workspace/codeInsights/code-insights","sessionId":'
    '"cdce7e9e-7052-48dd-9017-ffce2307866c","version":"2.1.76","gitBranch":"master",'
    '"forkedFrom":{"sessionId":"39be975c-3f9c-47c1-900d-1bf212060db9","messageUuid":'
    '"ca9b1af4-2161-4124-8af1-eb9b0c1b208b"}}'
)
REQUEST = (
    "We have recently added a lot of features. Audit the changes done till now from the "
    "release 3.6.1 and list down the plan here for packing it as v4."
)


#: When the first session's agent answered the request (the copy keeps the time).
PLANNED = "2026-03-15T15:24:33.000Z"


def folder(home: Path) -> Path:
    return home / "claude" / "projects" / "-Users-melagiri-Workspace-codeInsights-code-insights"


def original_session() -> list[dict[str, Any]]:
    """The first session as its own file has it: the request, the plan, and a request the
    person typed there after the fork."""
    request = orjson.loads(FORKED_COPY)
    del request["forkedFrom"]
    request["sessionId"] = ORIGIN
    plan = claude_answer(
        request, "a0000000-0000-4000-8000-000000000001", "The plan.", timestamp=PLANNED
    )
    later = {
        **claude_prompt(ORIGIN, "a0000000-0000-4000-8000-000000000002", "pack it as v4 now"),
        "parentUuid": plan["uuid"],
        "timestamp": "2026-03-15T16:00:00.000Z",
    }
    return [request, plan, later]


def forked_session() -> list[Any]:
    """The fork's file: the copied request and plan, then what was typed in the fork."""
    copied = claude_answer(
        orjson.loads(FORKED_COPY),
        "a0000000-0000-4000-8000-000000000001",
        "The plan.",
        timestamp=PLANNED,
    )
    plan = {**copied, "forkedFrom": {"sessionId": ORIGIN, "messageUuid": copied["uuid"]}}
    own = {
        **claude_prompt(FORK, "f0000000-0000-4000-8000-000000000001", "update the web repo first"),
        "parentUuid": plan["uuid"],
        "timestamp": "2026-03-16T00:50:08.493Z",
    }
    return [FORKED_COPY, plan, own]


@pytest.mark.both_dbs
@pytest.mark.parametrize("fork_first", [True, False], ids=["fork harvested first", "both at once"])
def test_a_forks_copy_of_its_first_session_is_that_sessions_and_stored_once(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, fork_first: bool
) -> None:
    write_lines(folder(isolated_home) / f"{FORK}.jsonl", forked_session())
    if fork_first:
        harvest(store, cfg)
    write_lines(folder(isolated_home) / f"{ORIGIN}.jsonl", original_session())
    harvest(store, cfg)

    assert session_prompts(db_file, ORIGIN) == [REQUEST, "pack it as v4 now"]
    assert session_prompts(db_file, FORK) == ["update the web repo first"]
    [(kind, parent)] = query(
        db_file, "SELECT kind, parent_external_id FROM sessions WHERE external_id = ?", (FORK,)
    )
    assert (kind, parent) == ("fork", ORIGIN)
    [(plans,)] = query(db_file, "SELECT count(*) FROM events WHERE text = 'The plan.'")
    assert plans == 1


def test_a_fork_whose_first_session_is_gone_keeps_the_copy_as_that_sessions(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """The first session's file deleted, its copy is all that is left of it: still its
    turn, not the fork's."""
    write_lines(folder(isolated_home) / f"{FORK}.jsonl", forked_session())
    harvest(store, cfg)

    assert session_prompts(db_file, ORIGIN) == [REQUEST]
    assert session_prompts(db_file, FORK) == ["update the web repo first"]


@pytest.mark.both_dbs
@pytest.mark.parametrize(
    "origin",
    [
        pytest.param("x" * 5000, id="a name longer than any session id"),
        pytest.param("", id="empty"),
        pytest.param({"id": ORIGIN}, id="not a string"),
        pytest.param("../../etc/passwd", id="a path"),
    ],
)
def test_a_fork_mark_that_names_no_session_leaves_the_record_where_it_is(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, origin: Any
) -> None:
    copy = orjson.loads(FORKED_COPY)
    copy["forkedFrom"]["sessionId"] = origin
    write_lines(folder(isolated_home) / f"{FORK}.jsonl", [copy])
    harvest(store, cfg)

    assert session_prompts(db_file, FORK) == [REQUEST]
    [(count,)] = query(db_file, "SELECT count(*) FROM sessions")
    assert count == 1
