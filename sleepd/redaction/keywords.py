"""Find rule keywords in text fast enough to run on every harvested string.

The main path is one Aho-Corasick DFA (the ``ahocorasick-rs`` package) over
the text's UTF-8 bytes, lowercased as bytes; ``find_many`` runs it once over a
whole batch of texts. Without the package, a regex is the fallback: Python's
``re`` scans an alternation of many literals one branch at a time (under
10 MB/s for a hundred keywords), so each keyword is filed under its rarest
character (its *pivot*); every branch of one pattern starts with its pivot
literal, so the engine skips quickly to the places where a pivot occurs, and
only there tests the keyword's text before and after it with fixed-width
look-arounds."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import accumulate
from operator import itemgetter
from typing import Any

# Characters from rarest to most common, as measured on the decoded strings of
# real Claude Code and Codex transcripts. A keyword pivots on its rarest one.
_RARITY = "%~!&^@$?]|<[}{>#+';\\=*)(`,\"qz:j786_53x9vy4k/w.201fbghpu-mldcinroaste "


_KELVIN = "\u212a"
_SEPARATOR = "\x00"
_SEPARATOR_BYTE = b"\x00"
_START = itemgetter(1)  # of an automaton hit (pattern index, start, end)
_PLUS_ONE = (1).__add__  # a text's length plus its separator, at C speed


def lowered(text: str) -> str:
    """``text.lower()`` with every offset kept: the one letter that lowercases
    to two characters (U+0130, dotted capital I) is left as it is."""
    low = text.lower()
    if len(low) != len(text):
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    return low


def _rank(ch: str) -> int:
    index = _RARITY.find(ch)
    return index if index >= 0 else -1  # unknown characters are rarest of all


def pivot_of(keyword: str) -> int:
    """Index inside ``keyword`` of its rarest character."""
    return min(range(len(keyword)), key=lambda i: _rank(keyword[i]))


class KeywordIndex:
    """Reports every (position, keyword) occurrence, overlaps included."""

    def __init__(self, keywords: Iterable[str]) -> None:
        unique = sorted({k for k in keywords if k})
        if any(_SEPARATOR in k for k in unique):
            raise ValueError("a keyword holds the NUL that separates texts in find_many")
        self.keywords: tuple[str, ...] = tuple(unique)
        by_pivot: dict[str, list[tuple[str, int]]] = {}
        for keyword in unique:
            offset = pivot_of(keyword)
            by_pivot.setdefault(keyword[offset], []).append((keyword, offset))
        branches: list[str] = []
        self._entries = by_pivot
        for pivot_char, entries in sorted(by_pivot.items(), key=lambda kv: _rank(kv[0])):
            alternatives: list[str] = []
            for keyword, offset in entries:
                before, after = keyword[:offset], keyword[offset + 1 :]
                part = f"(?<={re.escape(before + pivot_char)})" if before else ""
                part += f"(?={re.escape(after)})" if after else ""
                alternatives.append(part)
            branches.append(re.escape(pivot_char) + "(?:" + "|".join(alternatives) + ")")
        # Every branch starts with a literal, so ``re`` derives a first-character
        # set and skips positions that hold no pivot without entering the matcher.
        self._pattern = re.compile("|".join(branches)) if branches else None
        self._automaton = _aho_corasick(self.keywords)

    def find(self, text: str) -> list[tuple[int, str]]:
        """Every (start, keyword) in ``text``, ignoring case; starts in characters."""
        if self._automaton is None:
            return self._find_with_re(lowered(text))
        data = self._lowered_bytes(text)
        raw = self._automaton.find_matches_as_indexes(data, overlapping=True)
        if not raw:
            return []
        keywords = self.keywords
        if len(data) == len(text):  # ASCII: byte offsets are character offsets
            return [(start, keywords[index]) for index, start, _end in raw]
        return _char_offsets(data, raw, keywords)

    def find_many(self, texts: Sequence[str]) -> dict[int, list[tuple[int, str]]]:
        """``find`` of every text with a hit, by its number, in one search.

        The texts are searched joined by NUL, which no keyword holds, so no hit
        spans two texts; each hit is mapped back to its text by bisection.
        """
        if self._automaton is None:
            return self._find_many_by_chars(texts, _SEPARATOR.join(texts))
        # Each text is encoded on its own (an ASCII one is copied as it is) rather than
        # joined first: one non-ASCII character would widen the whole join, and every
        # ASCII text with it would then go through the slow encoder. Their byte lengths
        # are the boundaries, so a NUL inside a text (the harvest joins a record's short
        # fields with one) is just another byte: no keyword holds it, so no hit spans it.
        encoded = list(map(_utf8, texts))
        data = _SEPARATOR_BYTE.join(encoded).lower()
        raw = self._automaton.find_matches_as_indexes(data, overlapping=True)
        found: dict[int, list[tuple[int, str]]] = {}
        if not raw:
            return found
        keywords = self.keywords
        starts = list(accumulate(map(_PLUS_ONE, map(len, encoded)), initial=0))
        # All ASCII: byte offsets are character offsets.
        ascii_text = len(data) == sum(map(len, texts)) + len(texts) - 1
        if not ascii_text:
            raw.sort(key=_START)  # so each text's offsets are decoded once, in order
        cursor = (-1, 0, 0)  # (text number, byte offset, its character offset)
        for index, start, _end in raw:
            number = bisect_right(starts, start) - 1
            offset = start - starts[number]
            if not ascii_text and not texts[number].isascii():
                # Decode on from the text's previous hit, not from its start.
                last, byte_at, char_at = cursor
                if last != number or byte_at > offset:
                    byte_at = char_at = 0
                char_at += len(
                    data[starts[number] + byte_at : start].decode("utf-8", "surrogatepass")
                )
                cursor = (number, offset, char_at)
                offset = char_at
            hits = found.get(number)
            if hits is None:
                hits = found[number] = []
            hits.append((offset, keywords[index]))
        return found

    def _find_many_by_chars(
        self, texts: Sequence[str], joined: str
    ) -> dict[int, list[tuple[int, str]]]:
        """find_many without the automaton: the pivot regex over the texts' join."""
        found: dict[int, list[tuple[int, str]]] = {}
        hits = self.find(joined)
        if not hits:
            return found
        starts = list(accumulate(map(_PLUS_ONE, map(len, texts)), initial=0))
        for position, keyword in hits:
            number = bisect_right(starts, position) - 1
            if position - starts[number] < len(texts[number]):  # not the separator
                found.setdefault(number, []).append((position - starts[number], keyword))
        return found

    @staticmethod
    def _lowered_bytes(text: str) -> bytes:
        return _utf8(text).lower()

    def _find_with_re(self, low: str) -> list[tuple[int, str]]:
        """Occurrences as (start, keyword), in text order of their pivots.

        Several keywords can share one pivot position ("sk" and "sk-"), so
        each confirmed pivot is checked against all keywords filed under it.
        """
        if self._pattern is None:
            return []
        entries = self._entries
        found: list[tuple[int, str]] = []
        for match in self._pattern.finditer(low):
            pivot = match.start()
            for keyword, offset in entries[low[pivot]]:
                start = pivot - offset
                if start >= 0 and low.startswith(keyword, start):
                    found.append((start, keyword))
        return found


def _utf8(text: str) -> bytes:
    """The text's UTF-8 bytes, as the automaton searches them once lowercased as bytes.

    Keywords are ASCII, so lowercasing the UTF-8 bytes (ASCII letters only, several
    times faster than str.lower on non-ASCII text) finds what str.lower would, once the
    one non-ASCII letter that lowercases to an ASCII one (U+212A KELVIN SIGN) is mapped:
    one character for one, so character offsets stay. surrogatepass keeps lone
    surrogates (valid in decoded JSON) searchable instead of raising.
    """
    if text.isascii():
        return text.encode("ascii")
    if _KELVIN in text:
        text = text.replace(_KELVIN, "k")
    return text.encode("utf-8", "surrogatepass")


def _char_offsets(
    data: bytes, raw: list[tuple[int, int, int]], keywords: tuple[str, ...]
) -> list[tuple[int, str]]:
    """Byte-offset hits as character offsets, decoding each gap once (linear).

    Keywords are ASCII, so every hit starts on a character boundary.
    """
    found: list[tuple[int, str]] = []
    byte_at = char_at = 0
    for index, start, _end in sorted(raw, key=_START):
        char_at += len(data[byte_at:start].decode("utf-8", "surrogatepass"))
        byte_at = start
        found.append((char_at, keywords[index]))
    return found


def _aho_corasick(keywords: tuple[str, ...]) -> Any:
    """A compiled byte Aho-Corasick DFA (about 30x the pivot regex), when installed."""
    if not keywords or not all(k.isascii() for k in keywords):
        return None
    try:
        import ahocorasick_rs
    except ImportError:  # pragma: no cover - the pure-Python path stays correct
        return None
    return ahocorasick_rs.BytesAhoCorasick(
        [k.encode("ascii") for k in keywords],
        matchkind=ahocorasick_rs.MatchKind.Standard,
        implementation=ahocorasick_rs.Implementation.DFA,
    )
