"""Sessions a program started: their prompts are a program's, not a person's requests.

Tools run agents too: a review bot calls `claude -p` with the same persona prompt on
every pull request, an orchestrator drives Codex through its MCP server or `codex exec`,
another agent hands a transcript to summarise. Their sessions are harvested like any
other (their tool errors are real failures, and count in the patterns), but their first
prompt is no request a person keeps making: mined as tasks they made one cluster of
identical "recurring" tasks per tool. The transcript says how a session was started:
Claude Code's `entrypoint` (`cli`, `claude-desktop`, `claude-vscode` for a person;
`sdk-cli`, `sdk-ts`, `sdk-py` for a program) and Codex's `source` (`cli`, `vscode` for a
person; `exec` and `mcp` for a program), both stored as the session's `meta.origin`.
Claude Code before 2.1 wrote no entrypoint; a session whose first prompt is a whole
conversation serialized as JSON (`[{"role": "user", "content": …}, …]`, what Goose hands
`claude -p`) was started by a program too, and the harvester stores its origin as
`serialized-history`.
With `mining.mine_automated_sessions` off (the default) such sessions are not clustered
and give no tasks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy import ColumnElement

#: Imported by `sleepd status`, which loads no SQLAlchemy: the query below imports it.
AUTOMATED_ORIGINS = ("sdk-cli", "sdk-ts", "sdk-py", "exec", "mcp", "serialized-history")


def started_by_a_person() -> ColumnElement[bool]:
    """SQL: the session's origin is unknown or one a person starts."""
    from sqlalchemy import or_

    from sleepd.store.models import Session

    origin = Session.meta["origin"].as_string()
    return or_(origin.is_(None), origin.not_in(AUTOMATED_ORIGINS))
