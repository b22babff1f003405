"""Full-text search over harvested event text, newest first, a page at a time.

Every term must appear in an event (case ignored; accents too, for single words);
a term of several tokens ("exit-code", "src/main.rs") must appear as typed. On SQLite
two FTS5 indexes answer: `events_fts` (words) and `events_fts_cjk` (characters and
character pairs of scripts written without spaces, see `sleepd.store.cjk_index`).
On PostgreSQL the `tsvector` column `events.text_tsv` (GIN index, migration 0008) holds
the same words the SQLite index does (letters and digits, case and Latin accents
folded), so a query matches the same events; words of space-free scripts are matched
as substrings there. Without either index every term is a substring match.

The cost stays that of one page: each index is walked newest first (descending
rowid, which FTS5 gives without sorting) and stops after `offset + limit` matching
events; only that page's rows are read in full, then sorted by time and cut into
snippets. The read goes through the stdlib driver on SQLite
(`sleepd.store.fastread.ReadOnlyDb`), so search never imports SQLAlchemy.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
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
    #: How well the event matches (PostgreSQL's `ts_rank`; None on SQLite, whose index
    #: keeps no positions or sizes to rank with).
    rank: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The `--json` form; `rank` only where the database ranks (PostgreSQL)."""
        from dataclasses import asdict

        out = asdict(self)
        if self.rank is None:
            del out["rank"]
        return out


@dataclass(frozen=True)
class Plan:
    """How a query is answered: an FTS5 query per index, and the substrings to check."""

    word_match: str | None
    side_match: str | None
    substrings: list[str]
    #: The tokens the word index must hold (what `word_match` quotes).
    words: tuple[str, ...] = ()


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
    use_words = word_index and (not spaceless or not side_index)
    word_match = _match(words) if use_words else None
    side_match = _match(side) if side_index else None
    indexed_words = tuple(dict.fromkeys(words)) if use_words else ()
    return Plan(word_match, side_match, substrings, indexed_words)


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


#: `--from`: who wrote the text, as the stored events say it.
SPEAKERS = {
    "person": "e.kind = 'user_prompt'",
    "agent": "e.role = 'assistant'",
    "tools": "e.kind = 'tool_result'",
}


def search_events(
    db: Any,
    query: str,
    *,
    project: str | None = None,
    source: str | None = None,
    speaker: str | None = None,
    limit: int = 20,
    offset: int = 0,
) -> list[SearchHit]:
    """The `limit` matching events after the newest `offset`, newest first."""
    return search_page(
        db, query, project=project, source=source, speaker=speaker, limit=limit, offset=offset
    )[0]


def search_page(
    db: Any,
    query: str,
    *,
    project: str | None = None,
    source: str | None = None,
    speaker: str | None = None,
    limit: int = 20,
    offset: int = 0,
) -> tuple[list[SearchHit], bool]:
    """One page of hits, and whether another page follows (one more row is looked for).
    `speaker`: only the person's typed turns, the agent's words or tools' output
    (`SPEAKERS`)."""
    terms = query.split()
    if not terms or limit <= 0:
        return [], False
    if speaker is not None and speaker not in SPEAKERS:
        raise ValueError(f"speaker must be one of {', '.join(SPEAKERS)}")
    reader = as_reader(db)
    if not reader.is_sqlite:
        return _postgres_page(reader, terms, project, source, speaker, limit, offset)
    tables = _tables(reader)
    word_index = FTS_TABLE in tables  # the side index alone holds only some events
    plan = plan_query(terms, word_index=word_index, side_index=word_index and CJK_TABLE in tables)
    join, where, params = _filters(reader, plan.substrings, project, source, speaker)
    params["n"] = offset + limit + 1
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


def _filters(
    reader: Reader,
    substrings: Sequence[str],
    project: str | None,
    source: str | None,
    speaker: str | None = None,
) -> tuple[str, str, dict[str, Any]]:
    """The join, the extra WHERE conditions and their parameters every path shares."""
    params: dict[str, Any] = {}
    filters = [SPEAKERS[speaker]] if speaker else []
    like = "LIKE" if reader.is_sqlite else "ILIKE"
    for i, term in enumerate(substrings):
        params[f"s{i}"] = like_pattern(term)
        filters.append(f"e.text {like} :s{i} ESCAPE '\\'")
    join = ""
    if project or source:
        join = " JOIN sessions s ON s.id = e.session_id"
        if project:
            from sleepd.projects import recorded_paths

            # the repository's worktrees too: naming it or any of its worktrees finds them
            paths = recorded_paths(reader, project)
            marks = []
            for n, path in enumerate(paths):
                params[f"p{n}"] = path
                marks.append(f":p{n}")
            filters.append(f"s.project_path IN ({', '.join(marks)})" if marks else "1 = 0")
        if source:
            params["source"] = source
            filters.append("s.source = :source")
    return join, "".join(f" AND {f}" for f in filters), params


#: One word of a query as PostgreSQL's index holds it (the function is migration 0008's).
_PG_WORD = "plainto_tsquery('simple', sleepd_search_text(:w{n}))"


def _postgres_page(
    reader: Reader,
    terms: Sequence[str],
    project: str | None,
    source: str | None,
    speaker: str | None,
    limit: int,
    offset: int,
) -> tuple[list[SearchHit], bool]:
    """The same matches as on SQLite through the GIN index, newest first; each hit ranked."""
    plan = plan_query(terms, word_index=True, side_index=False)
    join, where, params = _filters(reader, plan.substrings, project, source, speaker)
    params["n"] = offset + limit + 1
    query = " && ".join(_PG_WORD.format(n=n) for n in range(len(plan.words))) or None
    params.update({f"w{n}": word for n, word in enumerate(plan.words)})
    match = f" AND e.text_tsv @@ ({query})" if query else ""
    rank = f"ts_rank(e.text_tsv, {query})" if query else "NULL"
    sql = (
        f"SELECT e.id, {rank} FROM events e{join} WHERE 1 = 1{match}{where} "
        "ORDER BY e.id DESC LIMIT :n"
    )
    found = reader.rows(sql, params)[offset:]
    ranks = {int(r[0]): (float(r[1]) if r[1] is not None else None) for r in found}
    page = [int(r[0]) for r in found[:limit]]
    hits = [replace(h, rank=ranks[h.event_id]) for h in _hits(reader, page, terms)]
    return hits, len(found) > limit


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


#: A JSON string's escapes, as a record stored as JSON text holds them (a progress record's
#: embedded tool output): "\\n", "\\"", "\\t", "\\\\".
_JSON_ESCAPE = re.compile(r"\\([nrt\"\\/])")
_UNESCAPED = {"n": " ", "r": " ", "t": " ", '"': '"', "\\": "\\", "/": "/"}


def snippet(body: str, terms: Sequence[str], width: int = SNIPPET_CHARS) -> str:
    """About `width` characters around the first term found, on one line; a record stored
    as JSON text shows its strings' escapes as the characters they stand for."""
    lowered = body.lower()
    found = [p for p in (lowered.find(t.lower()) for t in terms) if p >= 0]
    start = max(0, (min(found) if found else 0) - width // 3)
    piece = body[start : start + width]
    if body.lstrip()[:1] in ("{", "["):
        piece = _JSON_ESCAPE.sub(lambda m: _UNESCAPED[m.group(1)], piece)
    piece = " ".join(piece.split())
    return ("…" if start else "") + piece + ("…" if start + width < len(body) else "")
