"""The widths a harvest fits transcript strings to are the store's column widths."""

from __future__ import annotations

from sleepd.backends.pricing import MODEL_NAME_CHARS
from sleepd.store import records
from sleepd.store.models import BudgetEntry, Event, FailurePattern, Rollout, Session


def width(column: object) -> int | None:
    return getattr(getattr(column, "type", None), "length", None)


def test_the_harvests_widths_are_the_columns_widths() -> None:
    events, sessions = Event.__table__.c, Session.__table__.c
    for column in (events.external_id, events.tool_name, events.call_id, events.message_id):
        assert width(column) == records.ID_CHARS, column
    for column in (sessions.external_id, sessions.parent_external_id):
        assert width(column) == records.ID_CHARS, column
    assert width(events.raw_type) == records.RAW_TYPE_CHARS
    assert width(sessions.git_branch) == records.BRANCH_CHARS
    assert width(sessions.model) == records.MODEL_CHARS
    assert width(sessions.agent_version) == records.VERSION_CHARS
    assert width(sessions.project_path) == records.PATH_CHARS
    for table in (Session, Rollout, BudgetEntry):
        assert width(table.__table__.c.model) == MODEL_NAME_CHARS, table
    patterns = FailurePattern.__table__.c
    assert width(patterns.error_class) == records.ERROR_CLASS_CHARS
