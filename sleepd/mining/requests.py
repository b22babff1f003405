"""Which episodes are people's requests: the one selection clustering reads.

A request is an episode of a main session (not a subagent's work, which the lead agent
asked for), with a request's words (not the agent's work before a session's first
request), that is not a planning whose plan was taken as the next request (one request
with the episode it went to, `Episode.plan_handed_on`), and, unless configured otherwise
(`mining.mine_automated_sessions`), of a session a person started. Clustering selects
them, and a pass's check for a request still waiting for its cluster selects the same;
this module imports no clustering, so that check stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleepd.mining.automation import started_by_a_person
from sleepd.store.models import Episode, Session

if TYPE_CHECKING:
    from sqlalchemy import ColumnElement

    from sleepd.config import MiningConfig


def people_s_requests(cfg: MiningConfig) -> list[ColumnElement[bool]]:
    """SQL conditions on `Episode` joined to its `Session`: the episode is a request."""
    conditions: list[ColumnElement[bool]] = [
        Session.kind != "subagent",
        Episode.parent_episode_id.is_(None),
        Episode.intent_text != "",
        Episode.plan_handed_on.is_(False),
    ]
    if not cfg.mine_automated_sessions:
        conditions.append(started_by_a_person())
    return conditions
