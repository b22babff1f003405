"""Contractions written out: "it's empty" read as "it is empty", "dont" as "do not".

People type the same words contracted, written out, or fast without the apostrophe, and
none of the three says anything the others do not. The rules read a text once it is
written out (`turns.text.as_typed`, and the feedback lexicon's own patterns), so each
reads one form whatever was typed. A program's own words (a pasted error, a log line) are
nearly always written out already and stay as they are.
"""

from __future__ import annotations

import re

#: A subject after a contracted negation that opens its clause makes a question ("can't
#: you just …", "why isn't it wrapping?"; `_opens_a_question`): written out, its "not"
#: would go after the subject ("can you not …"), so it keeps its form.
_SUBJECT = (
    r"(you|u|we|they|it|i|he|she|there|the|this|that|these|those|my|our|your|its|their|"
    # a name ("can't Claude just read the file?", "doesn't React batch these?")
    r"(?-i:[A-Z][a-z][\w-]*))"
)
#: The contractions English writes, with the apostrophe or, where the word without it is
#: no other word, typed fast without it ("dont", "doesnt", "thats", "theres", "youre"):
#: a negation, a pronoun's "is"/"has", "are", "am", "have" and "will". Left as typed:
#: those whose short form is another word ("its", "were", "well", "ill", "lets", "hows",
#: German's "im"), "let's" (a request's own form), and "'d" (had or would).
_CONTRACTION = re.compile(
    r"\b(?P<verb>do|does|did|is|are|was|were|has|have|had|could|should|would|must|need|ca|wo)"
    r"(?P<neg>n'?t)\b(?P<subject>(?=\s+" + _SUBJECT + r"\b))?"
    r"|\b(?P<who>it|that|what|there|here|who|where|how|he|she)'s\b(?P<has>(?=\s+(been|got|gotten)\b))?"
    r"|\b(?P<who_fast>that|what|there|where|here|who)s\b"
    r"(?P<has_fast>(?=\s+(been|got|gotten)\b))?"
    r"|\b(?P<are>you|we|they|who|what)'re\b|\b(?P<are_fast>you|they)re\b"
    r"|\b(?P<am>i)'m\b"
    r"|\b(?P<have>i|you|we|they|could|should|would|might|must)'ve\b"
    r"|\b(?P<have_fast>you|they|we)ve\b"
    r"|\b(?P<will>i|you|we|they|it|that|he|she|there)'ll\b|\b(?P<will_fast>you|they|it|that)ll\b",
    re.IGNORECASE,
)


def _write_out(match: re.Match[str]) -> str:
    said = match.group(0)
    if said.isupper() and len(said) > 2:
        return said  # "DON'T", "IT'S": capitals are emphasis, kept as typed
    if match.group("verb"):
        verb = match.group("verb")
        if match.group("subject") is not None and _opens_a_question(match):
            return said if "'" in said else f"{verb}n't"  # the question's own form
        if said.lower() == "dont" and not _ENGLISH_BEFORE.search(_before(match)):
            return said  # French's "dont" ("ce dont je parlais"), unless English leads it
        if verb.lower() == "ca":
            return f"{verb}nnot"
        if verb.lower() == "wo":
            return f"{'W' if verb[0] == 'W' else 'w'}ill not"
        return f"{verb} not"
    who = match.group("who") or match.group("who_fast")
    if who:
        has = match.group("has") is not None or match.group("has_fast") is not None
        return f"{who} {'has' if has else 'is'}"
    are = match.group("are") or match.group("are_fast")
    if are:
        return f"{are} are"
    if match.group("am"):
        return f"{match.group('am')} am"
    have = match.group("have") or match.group("have_fast")
    if have:
        return f"{have} have"
    return f"{match.group('will') or match.group('will_fast')} will"


#: What may stand before a negation that opens a question: the start of a clause, or the
#: word that asks ("why isn't it …", "so can't we …"). After a subject ("that isn't it")
#: the negation is a statement's, and is written out.
_QUESTION_BEFORE = re.compile(
    r"(^|[.!?,;:(\n]|\b(why|how|where|what|when|who|so|but|and|or|then|also|oh|hmm+|ok|okay|"
    r"well|yes|no|wait|like|really|seriously)\b)\W*$",
    re.IGNORECASE,
)


def _opens_a_question(match: re.Match[str]) -> bool:
    return bool(_QUESTION_BEFORE.search(_before(match)))


def _before(match: re.Match[str]) -> str:
    return match.string[max(0, match.start() - 40) : match.start()]


#: What stands before an English "dont" typed without its apostrophe: the start of a
#: clause, a subject, or a word that leads a request ("i dont", "the tests that dont pass",
#: "please dont"). French's "dont" ("of which") follows a noun or "ce": left as typed.
_ENGLISH_BEFORE = re.compile(
    r"(^|[.!?,;:(\n]|\b(i|you|u|we|they|it|he|she|that|which|who|people|just|please|pls|and|"
    r"but|so|still|really|also|then|why|if|when|because|guys)\b)\W*$",
    re.IGNORECASE,
)


def written_out(text: str) -> str:
    """The text with its contractions written out ("it's empty" as "it is empty", "dont"
    as "do not"), so a rule reads the same words however they were typed: contracted,
    written out, or typed fast without the apostrophe. A negation that opens its clause
    before its subject keeps its contracted form ("can't you …"), the one a question
    takes; "that isn't it" reads "that is not it"."""
    starts = sorted(_word_starts(text))
    if not starts:
        return text
    parts: list[str] = []
    done = 0
    for start in starts:
        if start < done:
            continue
        found = _CONTRACTION.match(text, start)
        if found is None or _in_a_name(text, start, found.end()):
            continue
        parts += (text[done:start], _write_out(found))
        done = found.end()
    return "".join(parts) + text[done:] if parts else text


#: Characters that join a word into a name: a branch, a path, a file, an identifier.
_NAME_JOINS = "-/_.@#~:"


def _in_a_name(text: str, start: int, end: int) -> bool:
    """The word is part of a name ("whats-new/dont-panic", "wont-fix", "v2.dont"), which
    says nothing in words and is left as typed."""
    if start and text[start - 1] in _NAME_JOINS:
        return True
    after = text[end : end + 1]
    if after and after in _NAME_JOINS and after not in ".:":
        return True
    # a stop or a colon ends a sentence, unless a name goes on after it ("isnt.y")
    return after in (".", ":") and text[end + 1 : end + 2].isalnum()


#: Where a contraction may end: scans that look for a literal first, so a text is read
#: in one quick pass and `_CONTRACTION` tried only at the words they point to, not at
#: every place of every text the rules read (docs/mining-measured.md, stop 96).
_NEGATION_END = re.compile(r"n'?t\b")
_VERB_END = re.compile(r"'(?:s|re|m|ve|ll)\b", re.IGNORECASE)
_TYPED_FAST = (
    "thats",
    "whats",
    "theres",
    "wheres",
    "heres",
    "whos",
    "youre",
    "theyre",
    "youve",
    "theyve",
    "weve",
    "youll",
    "theyll",
    "itll",
    "thatll",
)


def _word_starts(text: str) -> set[int]:
    """Where each word that may be a contraction begins."""
    ends = [found.start() for found in _NEGATION_END.finditer(text)]
    if "'" in text:
        ends += [found.start() for found in _VERB_END.finditer(text)]
    lower = text.lower()
    for word in _TYPED_FAST:
        at = lower.find(word)
        while at >= 0:
            ends.append(at + len(word) - 1)
            at = lower.find(word, at + 1)
    starts: set[int] = set()
    for end in ends:
        start = end
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        starts.add(start)
    return starts
