"""Prompt templates: long requests that are one saved prompt, expanded into the message.

Codex custom prompts (`/prompts:speckit.plan …`), spec-kit's and BMAD's workflows and
the prompts people keep in a notes file arrive as the whole template with the person's
words in a slot ("## User Input ```text do tasks T012 - T016``` … ## Outline 1. Run
`.specify/scripts/bash/check-prerequisites.sh` …"): the store holds no command name
for them. Compared as text, two templates of one workflow share their frame and most
of their vocabulary, so runs of `plan`, `tasks` and `implement` fell into one
"recurring" cluster, while what the person typed, the slot, weighs little.

A template is known by its lines: two expansions of one template share most of their
long lines, whatever was typed into the slot, and two templates share few (their
common frame). So long requests are grouped by the lines they share with an earlier
one (`group_by_lines`); a group of two or more is one template, and its earliest
member names it. Mining gives each template a scope of its own (as a custom slash
command has), so the template is the task's family.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Iterable

#: Shorter requests are typed, not expanded from a saved prompt.
TEMPLATE_MIN_CHARS = 600
#: What is read of a request: a template's slot and its first steps fit.
TEMPLATE_CHARS = 8000
#: Lines shorter than this are too common to tell templates apart ("```", "## Outline").
LINE_MIN_CHARS = 24
#: Lines of a request compared at most (its first ones).
MAX_LINES = 64
#: At least this many long lines, and this many shared with the earlier request.
MIN_SHARED = 6
#: Share of the shorter request's lines the two must share to be one template.
SAME_TEMPLATE = 0.6

_SPACE = re.compile(r"\s+")


def _folded_lines(text: str) -> list[str]:
    """The text's non-empty lines, whitespace folded: how two expansions are compared."""
    return [f for f in (_SPACE.sub(" ", line.strip()) for line in text.splitlines()) if f]


def line_keys(text: str) -> frozenset[int]:
    """The request's long lines (whitespace folded), as hashes."""
    keys: list[int] = []
    for folded in _folded_lines(text[:TEMPLATE_CHARS]):
        if len(folded) >= LINE_MIN_CHARS:
            digest = hashlib.blake2b(folded.encode(), digest_size=8).digest()
            keys.append(int.from_bytes(digest, "big"))
            if len(keys) >= MAX_LINES:
                break
    return frozenset(keys)


def group_by_lines(requests: Iterable[tuple[int, str]]) -> dict[int, int]:
    """Each request's group, as the id of the group's earliest request.

    `requests`: (id, text) in ascending id order. A request joins the first earlier
    group whose founder shares at least `SAME_TEMPLATE` of the shorter one's long lines
    (and `MIN_SHARED` lines); otherwise it founds a group. A request is compared with
    founders only, so a group never changes what it was when a later request arrives:
    the same history gives the same groups, night after night.
    """
    founders: dict[int, int] = {}  # founder id -> how many long lines it has
    holders: dict[int, list[int]] = defaultdict(list)  # line -> founders holding it
    group: dict[int, int] = {}
    for request_id, text in requests:
        keys = line_keys(text)
        if len(keys) < MIN_SHARED:
            continue
        shared: dict[int, int] = defaultdict(int)
        for key in keys:
            for founder in holders.get(key, ()):
                shared[founder] += 1
        joined = None
        for founder in sorted(shared):
            common = shared[founder]
            if common >= MIN_SHARED and common >= SAME_TEMPLATE * min(len(keys), founders[founder]):
                joined = founder
                break
        if joined is None:
            founders[request_id] = len(keys)
            for key in keys:
                holders[key].append(request_id)
            joined = request_id
        group[request_id] = joined
    return group


def templates_of(groups: dict[int, int]) -> dict[int, int]:
    """The requests that are expansions of a template (their group has two or more),
    with the template's founding request."""
    sizes: dict[int, int] = defaultdict(int)
    for founder in groups.values():
        sizes[founder] += 1
    return {request: founder for request, founder in groups.items() if sizes[founder] >= 2}


#: The scope mark of a template's family (after the scope's command mark), with the
#: founding request's episode id.
TEMPLATE_SCOPE = re.compile(r"\x1f/#template-(\d+)$")
#: What is shown of the words typed into a template.
TYPED_CHARS = 200


def template_founder(scope: object) -> int | None:
    """The founding request's episode id, for a cluster scope that is a template's."""
    match = TEMPLATE_SCOPE.search(scope) if isinstance(scope, str) else None
    return int(match.group(1)) if match else None


def typed_part(text: str, references: list[str]) -> str:
    """What the person typed into a template: the lines of `text` that are not lines of
    the template, read as the lines every reference (other expansions of it) shares."""
    shared: set[str] | None = None
    for reference in references:
        # read further than the text: a reference whose slot holds more words reaches the
        # same template lines later
        lines = set(_folded_lines(reference[: 2 * TEMPLATE_CHARS]))
        shared = lines if shared is None else shared & lines
    if not shared:
        return ""
    typed = [line for line in _folded_lines(text[:TEMPLATE_CHARS]) if line not in shared]
    return " ".join(typed)[:TYPED_CHARS]


#: How much of a template's title is shown.
TITLE_CHARS = 60
#: Markdown's marks around a line's words (headings, emphasis, code, list bullets).
_MARKUP = re.compile(r"^[#>*+\-\s]+|[*`]+|(?<!\w)__|__(?!\w)")


def template_titles(founders: dict[int, str]) -> dict[int, str]:
    """Each saved prompt named by the first line of three words or more of its founding
    request that no other founding request holds: spec-kit's `plan`, `tasks` and
    `implement` share their frame ("You **MUST** consider the user input …") and differ in
    their first step; a template with its own heading is named by it ("/butler-exec —
    Execute a ButlerSpec"). Each request's lines are read once."""
    lines = {key: _folded_lines(text[:TEMPLATE_CHARS]) for key, text in founders.items()}
    holders = Counter(line for held in lines.values() for line in set(held))
    return {key: _title(held, holders) for key, held in lines.items()}


def _title(lines: list[str], holders: Counter[str]) -> str:
    fallback = ""
    for line in lines:
        if line.startswith("```"):
            continue
        words = _MARKUP.sub("", line).strip()
        if len(words.split()) < 3:
            continue
        fallback = fallback or words
        if holders[line] == 1:
            return _cut(words)
    return _cut(fallback)


def _cut(words: str) -> str:
    if len(words) <= TITLE_CHARS:
        return words
    return words[:TITLE_CHARS].rsplit(" ", 1)[0] + " …"
