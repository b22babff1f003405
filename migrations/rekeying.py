"""Re-keying stored failure patterns, for the revisions that change how a failure is keyed.

Each such revision brings its own copy of the key (so it keeps doing what it did when the
live rules change later) and hands it to `rekey_patterns`, which gives every stored
pattern its new key and merges the patterns that now share one: their occurrences move to
the oldest, counts add up, the first and last sightings span them all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

#: (tool name, error class, stored signature) → (new digest, new signature).
PatternKey = Callable[[str | None, str | None, str], tuple[str, str]]


def signature_head(tool_name: str | None, error_class: str | None) -> str:
    """What a stored signature holds before its words: "<tool> | <class> | "."""
    return f"{tool_name or '-'} | {error_class or '-'} | "


def signature_words(tool_name: str | None, error_class: str | None, signature: str) -> str:
    """A stored signature's words, without its head (the whole of it when it has none)."""
    head = signature_head(tool_name, error_class)
    return signature[len(head) :] if signature.startswith(head) else signature


def keyed_as(
    key: PatternKey,
    tool_name: str | None,
    error_class: str | None,
    words: str,
    *,
    as_tool: str | None,
    as_class: str | None,
) -> tuple[str, str]:
    """`key`'s (digest, signature) for a pattern's `words` as if `as_tool` had failed with
    `as_class`: the digest is that failure's, and the signature keeps the pattern's own
    tool name and class before the words `key` gives back."""
    head = signature_head(as_tool, as_class)
    digest, keyed = key(as_tool, as_class, head + words)
    return digest, signature_head(tool_name, error_class) + keyed[len(head) :]


def _earliest(values: list[Any]) -> Any:
    known = [v for v in values if v is not None]
    return min(known) if known else None


def _latest(values: list[Any]) -> Any:
    known = [v for v in values if v is not None]
    return max(known) if known else None


def rekey_patterns(conn: sa.Connection, pattern_key: PatternKey) -> None:
    rows = conn.execute(
        sa.text(
            "SELECT id, signature_hash, signature, tool_name, error_class, count, "
            "first_seen, last_seen FROM failure_patterns ORDER BY id"
        )
    ).all()
    groups: dict[str, list[Any]] = {}
    signatures: dict[int, str] = {}
    for row in rows:
        digest, signature = pattern_key(row.tool_name, row.error_class, row.signature)
        groups.setdefault(digest, []).append(row)
        signatures[row.id] = signature
    moves: list[tuple[str, Any, list[Any]]] = []
    for digest, members in groups.items():
        keeper, merged = members[0], members[1:]
        if merged or keeper.signature_hash != digest or signatures[keeper.id] != keeper.signature:
            moves.append((digest, keeper, merged))
    for _, keeper, merged in moves:
        for row in merged:
            conn.execute(
                sa.text(
                    "UPDATE pattern_occurrences SET pattern_id = :keeper WHERE pattern_id = :id"
                ),
                {"keeper": keeper.id, "id": row.id},
            )
            conn.execute(sa.text("DELETE FROM failure_patterns WHERE id = :id"), {"id": row.id})
        # Parked first: a keeper's new key may be another keeper's old one.
        conn.execute(
            sa.text("UPDATE failure_patterns SET signature_hash = :parked WHERE id = :id"),
            {"parked": f"re-keying {keeper.id}", "id": keeper.id},
        )
    for digest, keeper, merged in moves:
        members = [keeper, *merged]
        conn.execute(
            sa.text(
                "UPDATE failure_patterns SET signature_hash = :digest, signature = :signature, "
                "count = :count, first_seen = :first, last_seen = :last WHERE id = :id"
            ),
            {
                "digest": digest,
                "signature": signatures[keeper.id],
                "count": sum(int(row.count or 0) for row in members),
                "first": _earliest([row.first_seen for row in members]),
                "last": _latest([row.last_seen for row in members]),
                "id": keeper.id,
            },
        )
