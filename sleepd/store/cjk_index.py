"""A side index that finds words in text written without spaces (CJK, Thai, …).

The main index (`events_fts`, FTS5 `unicode61`) keeps a run of letters as one token,
so "我想要最新版本" is a single token and a search for "最新" inside it finds nothing;
"Pythonの最新" is one token too, so even "python" misses it. Events whose text holds
such a script get a second entry in `events_fts_cjk` (SQLite only): every character
of those runs on its own and every pair of neighbours (unigrams and bigrams), plus
the text's other words, as distinct tokens. A query term in such a script becomes
its characters (one) or its bigrams (two or more), and is then checked as a
substring of the event text, so a hit is always the term as typed.

Most events are plain ASCII and cost one `str.isascii()` here. Only this index's
rows are touched by the triggers migration 0004 made: deleting an event deletes its
entry; changing an event's text drops the entry (sleepd never rewrites event text).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator

CJK_TABLE = "events_fts_cjk"

#: Scripts written without spaces between words: Han, kana, Hangul, Thai, Lao,
#: Myanmar, Khmer (and their compatibility forms).
_RUN_CHARS = (
    "\u0e00-\u0eff"  # Thai, Lao
    "\u1000-\u109f"  # Myanmar
    "\u1100-\u11ff"  # Hangul Jamo
    "\u1780-\u17ff"  # Khmer
    "\u2e80-\u2fdf"  # CJK radicals
    "\u3005-\u3007"  # 々 〆 〇
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3100-\u312f"  # Bopomofo
    "\u3130-\u318f"  # Hangul compatibility Jamo
    "\u31a0-\u31ff"  # Bopomofo ext., Katakana ext.
    "\u3400-\u4dbf"  # CJK ext. A
    "\u4e00-\u9fff"  # CJK unified
    "\ua960-\ua97f"  # Hangul Jamo ext. A
    "\uac00-\ud7ff"  # Hangul syllables, Jamo ext. B
    "\uf900-\ufaff"  # CJK compatibility
    "\uff66-\uff9f"  # half-width Katakana
    "\U00020000-\U0003134f"  # CJK ext. B–G
)
_RUN = re.compile(f"[{_RUN_CHARS}]+")
#: One such character: whether a text has a run needs no more, and `re` scans for a
#: lone character class with a tight loop, which it does not do for a repeat.
_RUN_CHAR = re.compile(f"[{_RUN_CHARS}]")
#: What the index's `unicode61` tokenizer keeps as a token (as in `sleepd.search`).
_WORD = re.compile(r"[^\W_]+")

#: The DDL migration 0004 runs (kept here so tests and the rebuild agree with it).
CREATE_TABLE = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {CJK_TABLE} USING fts5("
    "grams, tokenize='unicode61 remove_diacritics 2', columnsize=0, detail=none)"
)
TRIGGERS = (
    f"CREATE TRIGGER IF NOT EXISTS {CJK_TABLE}_ad AFTER DELETE ON events BEGIN "
    f"DELETE FROM {CJK_TABLE} WHERE rowid = old.id; END",
    f"CREATE TRIGGER IF NOT EXISTS {CJK_TABLE}_au AFTER UPDATE OF text ON events BEGIN "
    f"DELETE FROM {CJK_TABLE} WHERE rowid = old.id; END",
)
DROP = (
    f"DROP TRIGGER IF EXISTS {CJK_TABLE}_au",
    f"DROP TRIGGER IF EXISTS {CJK_TABLE}_ad",
    f"DROP TABLE IF EXISTS {CJK_TABLE}",
)
#: SQLite's GLOB compares code points: this keeps rows with a character above U+2FFF
#: or in the Thai–Khmer block, so a rebuild reads only texts that may need an entry.
NON_ASCII_GLOB = "*[^\x01-\u0dff]*"


def has_run(text: str) -> bool:
    """Whether `text` holds a character of a space-free script."""
    return not text.isascii() and _RUN_CHAR.search(text) is not None


def _grams(run: str) -> Iterator[str]:
    yield from run
    for i in range(len(run) - 1):
        yield run[i : i + 2]


def index_tokens(text: str) -> str:
    """The distinct tokens an event's side entry holds, space-separated."""
    tokens: list[str] = []
    for match in _RUN.finditer(text):
        tokens.extend(_grams(match.group()))
    tokens.extend(_WORD.findall(_RUN.sub(" ", text)))
    return " ".join(dict.fromkeys(tokens))


def query_tokens(term: str) -> list[str]:
    """The side index's tokens for one search term (its runs as unigram or bigrams)."""
    tokens: list[str] = []
    for match in _RUN.finditer(term):
        run = match.group()
        tokens.extend(run if len(run) == 1 else (run[i : i + 2] for i in range(len(run) - 1)))
    tokens.extend(_WORD.findall(_RUN.sub(" ", term)))
    return list(dict.fromkeys(tokens))


def index_rows(conn: sqlite3.Connection, rows: Iterable[tuple[int, str]]) -> int:
    """Add side entries for the rows (event id, text) that need one; how many did."""
    entries = [(event_id, index_tokens(text)) for event_id, text in rows if has_run(text)]
    if entries:
        conn.executemany(f"INSERT INTO {CJK_TABLE}(rowid, grams) VALUES (?, ?)", entries)
    return len(entries)


def index_events_after(conn: sqlite3.Connection, after_id: int, chunk: int = 2000) -> int:
    """Side entries for the events with id > `after_id` (the table must exist).

    Read in chunks, so a rebuild over years of history holds one chunk of text.
    """
    done = 0
    reader = conn.execute(
        "SELECT id, text FROM events WHERE id > ? AND text GLOB ? ORDER BY id",
        (after_id, NON_ASCII_GLOB),
    )
    try:
        while rows := reader.fetchmany(chunk):
            done += index_rows(conn, rows)
    finally:
        reader.close()
    return done


def rebuild(conn: sqlite3.Connection) -> int:
    """Empty the side index and fill it from every stored event."""
    conn.execute(f"DELETE FROM {CJK_TABLE}")
    return index_events_after(conn, 0)
