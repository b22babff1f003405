"""Names and values in a table's rows, the value whole when the table wrapped it.

A command that lists a project's variables as a table (`railway variables`, a secrets
manager's CLI) or an agent summing up a `.env` file prints each secret beside its name:
`║ OPENAI_API_KEY │ sk-proj- ║`, and when the value is wider than its column, the rest of it
on the rows under it, with the name's cell left blank (`║ │ sOMAbtIsJ6_26yX… ║`). No rule
reads a name and a value a separator apart, nor a key cut into pieces, so such a table was
stored with the keys in it. `named_values` gives each row's name and where the pieces of
its value stand; the redactor reads them as `NAME=value` and, when that holds a secret,
replaces every piece.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: What separates a table's cells: box drawing (`│`, `┃`, `║`) and markdown's `|`.
_SEPARATOR = re.compile(r"[│┃║|]")
#: A row whose first cell names a variable (`║ OPENAI_API_KEY │`, `` | `DB_PASSWORD` | ``);
#: it opens its line (`_opens_line`): at the line's start, after a line break escaped as
#: JSON escapes it (a tool's output is also stored in its record's raw line, inside a JSON
#: string) or after that string's opening quote, so a shell pipe is no row.
_HEAD = re.compile(r"[│┃║|][ \t]*[`'\"]?([A-Za-z_][A-Za-z0-9_.-]{1,80})[`'\"]?[ \t]*[│┃║|]")
#: Where a row opens: after a line break, after one escaped as JSON escapes it, or after
#: the quote that opens a JSON string (each a search of its own, led by a literal).
_SEPARATORS = "│┃║|"
_ROW_OPENERS = tuple(re.compile(lead + r"[ \t]*[│┃║|]") for lead in (r"\n", r"\\n", r"\""))
#: A row whose first cell is blank: the value above it goes on in its second cell.
_GOES_ON = re.compile(r"[ \t]*[│┃║|][ \t]*[│┃║|]")
#: A line's end, real or escaped.
_LINE_END = re.compile(r"\r?\n|(?:\\r)?\\n")
#: What a cell puts around its value (markdown's backticks, quotes) and is no part of it.
_AROUND = "`'\" \t"


def has_table(text: str) -> bool:
    """Whether a row of a table may stand in `text` (a cheap test before `named_values`):
    a separator opening a line, escaped or not, or a JSON string."""
    if "|" not in text and ("│" not in text and "║" not in text and "┃" not in text):
        return False
    if text.lstrip(" \t")[:1] in _SEPARATORS:
        return True
    return any(opener.search(text) for opener in _ROW_OPENERS)


def _heads(text: str) -> Iterator[re.Match[str]]:
    """The rows whose first cell names a variable, each where its line opens."""
    for head in _HEAD.finditer(text):
        if _opens_line(text, head.start()):
            yield head


def _opens_line(text: str, position: int) -> bool:
    """Whether only blanks stand between `position` and its line's start (a line break,
    real or escaped, or a JSON string's opening quote)."""
    before = position
    while before > 0 and text[before - 1] in " \t":
        before -= 1
    return before == 0 or text[before - 1] in '\n"' or text.startswith("\\n", before - 2)


def named_values(text: str) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """Each table row that names a variable, with the spans in `text` of its value: the
    row's second cell and the second cells of the rows under it whose first cell is blank
    (the value wrapped at the column's width)."""
    for head in _heads(text):
        spans: list[tuple[int, int]] = []
        cell_start = head.end()
        while True:
            line_end = _LINE_END.search(text, cell_start)
            end = line_end.start() if line_end else len(text)
            separator = _SEPARATOR.search(text, cell_start, end)
            value = _stripped(text, (cell_start, separator.start() if separator else end))
            if value is not None:
                spans.append(value)
            if line_end is None:
                break
            goes_on = _GOES_ON.match(text, line_end.end())
            if goes_on is None:
                break
            cell_start = goes_on.end()
        if spans:
            yield head[1], spans


def _stripped(text: str, span: tuple[int, int]) -> tuple[int, int] | None:
    """A cell's span without the blanks, backticks and quotes around its value; None for
    an empty cell."""
    start, end = span
    while start < end and text[start] in _AROUND:
        start += 1
    while end > start and text[end - 1] in _AROUND:
        end -= 1
    return (start, end) if end > start else None
