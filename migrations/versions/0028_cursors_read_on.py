"""harvest: cursors that may stand before unread lines are read on at the next harvest

Two kinds of stored cursor matched their file's stat while lines after them were still
to be read, so the plan skipped those files until they changed, which an old session's
file never does: a cursor a killed harvest committed in the middle of a file (with the
file's stat it passed for a file whose last line is unfinished), and a Claude Code file's
held head, which the harvest now settles only when it reads the file. From this revision
a harvest stores such cursors without an mtime; this one clears the mtime of every
stored cursor that may be one of them (short of its file's size, or holding a head), so
the next harvest reads those files from their cursors: nothing new where the last line
is only unfinished, the rest of the file where a harvest was killed. No table copy.

Revision ID: 0028_cursors_read_on
Revises: 0027_episode_plan_handed_on
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0028_cursors_read_on"
down_revision: str | None = "0027_episode_plan_handed_on"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # the parse state is JSON (text on SQLite, `json` on PostgreSQL); a held head is its
    # top-level "held" key, and a string that only looks like one costs a read, no more
    op.execute(
        'UPDATE transcript_files SET mtime_ns = 0 WHERE "offset" < size '
        "OR CAST(parse_state AS TEXT) LIKE '%\"held\": {%' "
        "OR CAST(parse_state AS TEXT) LIKE '%\"held\":{%'"
    )


def downgrade() -> None:
    """Nothing to undo: a cursor without an mtime is read again, as any changed file is."""
