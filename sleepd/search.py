"""Full-text search over harvested event text, newest first, a page at a time.

Every term must appear in an event (case ignored; accents too, for single words);
a term of several tokens ("exit-code", "src/main.rs") must appear as typed. On SQLite
two FTS5 indexes answer: `events_fts` (words) and `events_fts_cjk` (characters and
character pairs of scripts written without spaces, see `sleepd.store.cjk_index`);
elsewhere, or without them, every term is a substring match.

The cost stays that of one page: each index is walked newest first (descending
rowid, which FTS5 gives without sorting) and stops after `offset + limit` matching
events; only that page's rows are read in full, then sorted by time and cut into
snippets. The read goes through the stdlib driver on SQLite
(`sleepd.store.fastread.ReadOnlyDb`), so search never imports SQLAlchemy.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sleepd.store.cjk_index import CJK_TABLE, has_run, query_tokens
from sleepd.store.fastread import EngineReader as EngineReader
from sleepd.store.fastread import Reader, as_reader

FTS_TABLE = "events_fts"
#: What the word index's `unicode61` tokenizer keeps as a token.
_TOKEN = re.compile(r"[^\W_]+")
SNIPPET_CHARS = 160


@dataclass(frozen=True)
class SearchHit:
    event_id: int
    session_external_id: str
    source: str
    project_path: str | None
    ts: datetime | None
    kind: str
    snippet: str


@dataclass(frozen=True)
class Plan:
    """How a query is answered: an FTS5 query per index, and the substrings to check."""

    word_match: str | None
    side_match: str | None
    substrings: list[str]


def plan_query(terms: Sequence[str], *, word_index: bool, side_index: bool) -> Plan:
    """User input never becomes FTS5 syntax: every token is quoted and ANDed."""
    words: list[str] = []
    side: list[str] = []
    substrings: list[str] = []
    spaceless = False
    for term in terms:
        if has_run(term):
            spaceless = True
            side.extend(query_tokens(term))
            substrings.append(term)  # the pairs say nothing of their order: check it
            continue
        tokens = _TOKEN.findall(term)
        words.extend(tokens)
        side.extend(tokens)
        if _TOKEN.fullmatch(term) is None:
            substrings.append(term)
    if not word_index:
        return Plan(None, None, list(terms))
    if spaceless and not side_index:
        substrings = list(terms)  # nothing indexes those runs: match every term as typed
        side = []
    word_match = _match(words) if word_index and (not spaceless or not side_index) else None
    side_match = _match(side) if side_index else None
    return Plan(word_match, side_match, substrings)


def _match(tokens: Sequence[str]) -> str | None:
    return " ".join(f'"{t}"' for t in dict.fromkeys(tokens)) or None


def like_pattern(term: str) -> str:
    """`%term%` for LIKE with a backslash escape, so `%` and `_` in a term are literal."""
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _tables(db: Reader) -> set[str]:
    if not db.is_sqlite:
        return set()
    rows = db.rows(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (:a, :b)",
        {"a": FTS_TABLE, "b": CJK_TABLE},
    )
    return {str(r[0]) for r in rows}


def search_events(
    db: Any,
    query: str,
    *,
    project: str | None = None,
    source: str | None = None,
    limit: int = 20,
    offset: int = 0,
) -> list[SearchHit]:
    """The `limit` matching events after the newest `offset`, newest first."""
    return search_page(db, query, project=project, source=source, limit=limit, offset=offset)[0]


def search_page(
    db: Any,
    query: str,
    *,
    project: str | None = None,
    source: str | None = None,
    limit: int = 20,
    offset: int = 0,
) -> tuple[list[SearchHit], bool]:
    """One page of hits, and whether another page follows (one more row is looked for)."""
    terms = query.split()
    if not terms or limit <= 0:
        return [], False
    reader = as_reader(db)
    tables = _tables(reader)
    word_index = FTS_TABLE in tables  # the side index alone holds only some events
    plan = plan_query(terms, word_index=word_index, side_index=word_index and CJK_TABLE in tables)
    params: dict[str, Any] = {"n": offset + limit + 1}
    filters = []
    like = "LIKE" if reader.is_sqlite else "ILIKE"
    for i, term in enumerate(plan.substrings):
        params[f"s{i}"] = like_pattern(term)
        filters.append(f"e.text {like} :s{i} ESCAPE '\\'")
    join = ""
    if project or source:
        join = " JOIN sessions s ON s.id = e.session_id"
        if project:
            params["project"] = project
            filters.append("s.project_path = :project")
        if source:
            params["source"] = source
            filters.append("s.source = :source")
    where = "".join(f" AND {f}" for f in filters)
    ids: set[int] = set()
    indexed = [(t, m) for t, m in ((FTS_TABLE, plan.word_match), (CJK_TABLE, plan.side_match)) if m]
    for table, match in indexed:
        sql = (
            f"SELECT {table}.rowid FROM {table} JOIN events e ON e.id = {table}.rowid{join} "
            f"WHERE {table} MATCH :m{where} ORDER BY {table}.rowid DESC LIMIT :n"
        )
        ids.update(int(r[0]) for r in reader.rows(sql, {**params, "m": match}))
    if not indexed:
        sql = f"SELECT e.id FROM events e{join} WHERE 1 = 1{where} ORDER BY e.id DESC LIMIT :n"
        ids.update(int(r[0]) for r in reader.rows(sql, params))
    ranked = sorted(ids, reverse=True)[offset:]
    return _hits(reader, ranked[:limit], terms), len(ranked) > limit


def _hits(reader: Reader, ids: list[int], terms: Sequence[str]) -> list[SearchHit]:
    """The page's rows in full, newest first by time (the page was cut by recency of id)."""
    if not ids:
        return []
    marks = ", ".join(f":i{n}" for n in range(len(ids)))
    rows = reader.rows(
        "SELECT e.id, s.external_id, s.source, s.project_path, e.ts, e.kind, e.text "
        f"FROM events e JOIN sessions s ON s.id = e.session_id WHERE e.id IN ({marks})",
        {f"i{n}": event_id for n, event_id in enumerate(ids)},
    )
    hits = [
        SearchHit(int(r[0]), r[1], r[2], r[3], _timestamp(r[4]), r[5], snippet(r[6] or "", terms))
        for r in rows
    ]
    hits.sort(key=lambda h: (h.ts is not None, h.ts or datetime.min, h.event_id), reverse=True)
    return hits


def _timestamp(value: Any) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


def snippet(body: str, terms: Sequence[str], width: int = SNIPPET_CHARS) -> str:
    """About `width` characters around the first term found, on one line."""
    lowered = body.lower()
    found = [p for p in (lowered.find(t.lower()) for t in terms) if p >= 0]
    start = max(0, (min(found) if found else 0) - width // 3)
    piece = " ".join(body[start : start + width].split())
    return ("…" if start else "") + piece + ("…" if start + width < len(body) else "")
