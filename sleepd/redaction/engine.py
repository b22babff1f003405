"""The redactor: find secrets with the rule set and replace them by placeholders.

A placeholder names the rule and a salted hash of the secret,
``[REDACTED:github-pat:3f9a2c1b]``, so equal secrets stay equal (mining can
still see "the same token twice") without the secret being recoverable.
Only the secret group is replaced; the ``password=`` around it stays.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sleepd.redaction.entropy import looks_random, shannon_entropy
from sleepd.redaction.key_bodies import body_before
from sleepd.redaction.keywords import KeywordIndex
from sleepd.redaction.rules import Allowlist, Rule, RuleSet, default_rules
from sleepd.redaction.table_cells import has_table, named_values

PLACEHOLDER_RE = re.compile(r"\[REDACTED:[a-z0-9-]+:[0-9a-f]{8}\]")
ERROR_RULE = "redaction-error"
#: No rule matches a secret shorter than this, so shorter strings skip all work.
MIN_TEXT_LENGTH = 8
#: Long runs of pure base64 (inline images, PDFs) are payloads, not secrets.
_BLOB_MIN_LENGTH = 4096
_BLOB_RE = re.compile(r"[A-Za-z0-9+/=\r\n]*")
_CONTEXT_BEFORE = re.compile(r"[\w.-]{0,50}\Z", re.ASCII)
_MAX_PASSES = 4
#: redact_many redacts longer texts one by one: their keyword search gains
#: nothing from the join, which would copy them (and widen it if non-ASCII).
_BATCH_MAX_TEXT = 16384
_GENERIC_NEEDS_DIGIT = frozenset({"generic-api-key"})
#: Rules whose match is where a secret ends, not the secret: what stands above the match
#: is (a private key's body above its END line, `key_bodies`).
_SECRET_ABOVE = {"private-key-body": body_before}
#: JSON's escaped line breaks and tabs. A tool call's input, a function call's arguments and
#: a raw line are stored as JSON, where a key that opens a line follows `\n`: a rule that
#: wants a word boundary or no letter before its key (`\bAKIA…`, `(?<![A-Za-z0-9])rpa_…`)
#: would read the escape's `n` as part of the word. Rules match where each escape reads as
#: what it stands for, twice (`_as_read`): a view as long as the text, so a secret's span is
#: the same in both, and a line break that no rule reading one line crosses.
_AS_READ = (("\\n", "\n\n"), ("\\r", "\r\r"), ("\\t", "\t\t"))
#: Every placeholder holds this; PLACEHOLDER_RE is case-sensitive.
_MARK = "[REDACTED:"


@dataclass
class RedactionStats:
    """How many secrets each rule replaced, accumulated over many calls."""

    by_rule: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.by_rule.values())

    def add(self, rule_ids: list[str]) -> None:
        for rule_id in rule_ids:
            self.by_rule[rule_id] = self.by_rule.get(rule_id, 0) + 1


@dataclass(frozen=True)
class _Finding:
    start: int
    end: int
    rule_id: str


class Redactor:
    """Replaces secrets in text; safe to share, holds no per-call state."""

    def __init__(self, salt: bytes | str = b"", rules: RuleSet | None = None) -> None:
        self._salt = salt.encode() if isinstance(salt, str) else bytes(salt)
        self._ruleset = rules or default_rules()
        self._rules = self._ruleset.rules
        self._index = KeywordIndex(k for r in self._rules for k in r.keywords)
        self._rules_by_keyword: dict[str, tuple[int, ...]] = {}
        for number, rule in enumerate(self._rules):
            for keyword in rule.keywords:
                self._rules_by_keyword[keyword] = (
                    *self._rules_by_keyword.get(keyword, ()),
                    number,
                )
        self._dispatch = {
            keyword: tuple((n, self._rules[n].gate, self._rules[n].gate_window) for n in numbers)
            for keyword, numbers in self._rules_by_keyword.items()
        }

    @property
    def rules(self) -> tuple[Rule, ...]:
        return self._rules

    def placeholder(self, rule_id: str, secret: str) -> str:
        """The stable stand-in for ``secret`` under this redactor's salt."""
        digest = hashlib.sha256(self._salt + secret.encode("utf-8", "surrogatepass")).hexdigest()
        return f"[REDACTED:{rule_id}:{digest[:8]}]"

    def redact(self, text: str) -> tuple[str, list[str]]:
        """Return the redacted text and the id of the rule behind each replacement.

        Never raises: if detection itself fails, the whole text is replaced,
        because passing it through unredacted could leak a secret.
        """
        try:
            return self._redact(text if isinstance(text, str) else str(text))
        except Exception:
            return self.placeholder(ERROR_RULE, repr(text)), [ERROR_RULE]

    def redact_counted(self, text: str, stats: RedactionStats) -> str:
        """Like :meth:`redact`, adding the replacements to ``stats``."""
        redacted, rule_ids = self.redact(text)
        if rule_ids:
            stats.add(rule_ids)
        return redacted

    def redact_many(self, texts: Sequence[str]) -> list[tuple[str, list[str]]]:
        """:meth:`redact` of each text, in order, with the same results.

        Faster on many short strings: the texts are lowercased and searched
        for keywords in one pass over their join, and rules then run only on
        the few texts with a keyword hit. Never raises.
        """
        try:
            long_texts = [n for n, size in enumerate(map(len, texts)) if size > _BATCH_MAX_TEXT]
            batched = texts
            if long_texts:  # joining buys nothing for them and costs a copy
                batched = list(texts)
                for number in long_texts:
                    batched[number] = ""
            hits_by_text = self._index.find_many(batched)
        except Exception:  # a text that is not a str: the join refused it
            return [self.redact(text) for text in texts]
        results: list[tuple[str, list[str]]] = [(text, []) for text in texts]
        for number in long_texts:
            results[number] = self.redact(texts[number])
        for number, hits in hits_by_text.items():
            text = texts[number]
            try:
                results[number] = self._redact(text, hits)
            except Exception:
                results[number] = self.placeholder(ERROR_RULE, repr(text)), [ERROR_RULE]
        return results

    def may_find(self, texts: Sequence[str]) -> set[int]:
        """The numbers of the texts in which :meth:`redact` could find a secret.

        One keyword search over them all: no rule looks at a text that holds none of its
        keywords, so :meth:`redact` gives any other text back as it is. No keyword holds
        a space or a NUL, so neither joining strings with a NUL nor reading separators as
        spaces (`separators`) makes a keyword that was not there.
        """
        try:
            return set(self._index.find_many(texts))
        except Exception:  # a text that is not a str: every text may hold one
            return set(range(len(texts)))

    def _redact(
        self, text: str, hits: list[tuple[int, str]] | None = None
    ) -> tuple[str, list[str]]:
        # A replacement can expose a new word boundary ("ghp_...AKIA..." ->
        # "[...]AKIA..."), so repeat until nothing changes: redact() must be
        # idempotent. Clean text, the common case, takes one pass.
        rule_ids: list[str] = []
        cells = True  # a table's cells are read on the first pass
        for _ in range(_MAX_PASSES):
            text, found = self._redact_once(text, hits, cells)
            if not found:
                break
            hits = None  # the text changed: later passes search it afresh
            cells = False
            rule_ids.extend(found)
        return text, rule_ids

    def _redact_cells(self, text: str) -> tuple[str, list[str]]:
        """`text` with the secrets a table holds beside their names replaced (read as
        `NAME=value`, the value's pieces joined when the table wrapped it: `table_cells`),
        every piece of a value that holds one given its placeholder or emptied."""
        found: list[tuple[list[tuple[int, int]], str, str]] = []
        for name, spans in named_values(text):
            value = "".join(text[start:end] for start, end in spans)
            if not _secret_shaped(value):
                continue
            head = f"{name}="
            redacted, rules = self._redact(head + value)
            if rules and redacted.startswith(head):
                found.append((spans, self.placeholder(rules[0], value), rules[0]))
        if not found:
            return text, []
        pieces = sorted(
            (start, end, placeholder if number == 0 else "")
            for spans, placeholder, _ in found
            for number, (start, end) in enumerate(spans)
        )
        return _spliced(text, pieces), [rule for _, _, rule in found]

    def _redact_once(
        self, text: str, hits: list[tuple[int, str]] | None = None, cells: bool = False
    ) -> tuple[str, list[str]]:
        """One pass of the rules over `text`; with `cells`, a table's named values first
        (`_redact_cells`), the pass ending there when one held a secret."""
        if len(text) < MIN_TEXT_LENGTH or _is_blob(text):
            return text, []
        if hits is None:
            hits = self._index.find(text)
        if not hits:
            return text, []
        # a table's secret stands beside a name that holds a keyword (`…_API_KEY`,
        # `PGPASSWORD`) or opens with one (`gsk_`): only a text with a keyword holds one
        if cells and has_table(text):
            redacted, found_in_cells = self._redact_cells(text)
            if found_in_cells:
                return redacted, found_in_cells
        anchors: dict[int, set[int]] = {}
        for position, keyword in hits:
            for number, gate, window in self._dispatch[keyword]:
                if gate is None or gate.search(text, position, position + window):
                    found = anchors.get(number)
                    if found is None:
                        found = anchors[number] = set()
                    found.add(position)
        if not anchors:
            return text, []
        seen = _as_read(text) if "\\" in text else text
        protected = _Spans()
        if _MARK in text:
            for placeholder in PLACEHOLDER_RE.finditer(text):
                protected.add(*placeholder.span())
        taken = _Spans()
        findings: list[_Finding] = []
        for number in sorted(anchors):
            rule = self._rules[number]
            matches: Iterable[re.Match[str] | None]
            if rule.anchored:
                matches = (rule.regex.match(seen, p) for p in sorted(anchors[number]))
            else:
                matches = rule.regex.finditer(seen)
            for match in matches:
                if match is None:
                    continue
                span = self._secret_span(number, match)
                if span is None or protected.overlaps(*span) or taken.overlaps(*span):
                    continue
                if self._is_secret(rule, seen, match, span):
                    findings.append(_Finding(span[0], span[1], rule.id))
                    taken.add(*span)
        if not findings:
            return text, []
        findings.sort(key=lambda f: f.start)
        pieces = [
            (f.start, f.end, self.placeholder(f.rule_id, text[f.start : f.end])) for f in findings
        ]
        return _spliced(text, pieces), [f.rule_id for f in findings]

    def _secret_span(self, number: int, match: re.Match[str]) -> tuple[int, int] | None:
        above = _SECRET_ABOVE.get(self._rules[number].id)
        if above is not None:
            start = above(match.string, match.start())
            return None if start is None else (start, match.start())
        group = self._rules[number].secret_group
        if group is not None:
            start, end = match.span(group)
        else:
            start, end = match.span()
            for candidate in self._rules[number].unnamed_groups:
                if match.start(candidate) >= 0 and match.end(candidate) > match.start(candidate):
                    start, end = match.span(candidate)
                    break
        return (start, end) if end > start >= 0 else None

    def _is_secret(
        self, rule: Rule, text: str, match: re.Match[str], span: tuple[int, int]
    ) -> bool:
        secret = text[span[0] : span[1]]
        if rule.entropy is not None and shannon_entropy(secret) <= rule.entropy:
            return False
        if (
            rule.id in _GENERIC_NEEDS_DIGIT
            and not any(c.isdigit() for c in secret)
            and not looks_random(secret)
        ):
            # a name assigned to a key ("api_key = apiKeyFromEnv") is no secret; letters that
            # change case at random ("client_secret=ocXwvFDovohx…") are, digits or not
            return False
        if _allowed(self._ruleset.allowlist, secret, text, match):
            return False
        return not any(_allowed(a, secret, text, match) for a in rule.allowlists)


def _as_read(text: str) -> str:
    """`text` with JSON's escaped line breaks and tabs written out, each twice."""
    for escape, written in _AS_READ:
        text = text.replace(escape, written)
    return text


def _spliced(text: str, pieces: Iterable[tuple[int, int, str]]) -> str:
    """`text` with each span of `pieces` (in order, none overlapping) replaced by its
    stand-in."""
    parts: list[str] = []
    cursor = 0
    for start, end, stand_in in pieces:
        parts.append(text[cursor:start])
        parts.append(stand_in)
        cursor = end
    parts.append(text[cursor:])
    return "".join(parts)


def _secret_shaped(value: str) -> bool:
    """Whether a table's cell may hold a secret: one token of eight characters or more
    with a digit in it or letters whose case changes at random, never a description
    ("Stripe billing API", "Optional", a link to where the key is made) nor a value the
    table already masked (`gsk_****uIm`) or one redacted before."""
    if len(value) < MIN_TEXT_LENGTH or _MARK in value or "***" in value:
        return False
    if any(character.isspace() for character in value):
        return False
    return any(character.isdigit() for character in value) or looks_random(value)


def _is_blob(text: str) -> bool:
    return len(text) >= _BLOB_MIN_LENGTH and _BLOB_RE.match(text).end() == len(text)  # type: ignore[union-attr]


class _Spans:
    """Disjoint spans of a text, kept by start: whether a new span overlaps one is a
    lookup, not a pass over all of them (a text holding thousands of secrets, a dump of
    an environment, would otherwise cost the square of their number)."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []

    def overlaps(self, start: int, end: int) -> bool:
        # disjoint spans ordered by start are ordered by end too: only the last one
        # starting before `end` can reach past `start`
        before = bisect.bisect_left(self._starts, end)
        return before > 0 and self._ends[before - 1] > start

    def add(self, start: int, end: int) -> None:
        """Add a span that overlaps none of these (`overlaps` was asked first)."""
        at = bisect.bisect_left(self._starts, start)
        self._starts.insert(at, start)
        self._ends.insert(at, end)


def _allowed(allowlist: Allowlist, secret: str, text: str, match: re.Match[str]) -> bool:
    if allowlist.stopwords:
        lowered = secret.lower()
        if any(word in lowered for word in allowlist.stopwords):
            return True
    if not allowlist.regexes:
        return False
    if allowlist.target == "secret":
        target = secret
    elif allowlist.target == "match":
        # Anchored rules start at the keyword; restore gitleaks' identifier
        # context (e.g. "public_" before "key") that the allowlist expects.
        context = _CONTEXT_BEFORE.search(text, max(0, match.start() - 50), match.start())
        start = context.start() if context else match.start()
        target = text[start : match.end()]
    else:
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.end())
        target = text[line_start : line_end if line_end >= 0 else len(text)]
    return any(regex.search(target) for regex in allowlist.regexes)
