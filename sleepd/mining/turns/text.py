"""The part of a turn's text that can carry feedback, and the small text measures the
classifier shares: words, clauses, what follows a verdict or a contrast, topic overlap.

A pasted log, a fenced block or a transcript copied from elsewhere is data, not the
person's words; every cue reads only `feedback_region`, so a long paste costs nothing.
"""

from __future__ import annotations

import re
import unicodedata

from sleepd.mining.contractions import written_out

#: Quotation marks a keyboard or an editor curls ("smart quotes"), as the straight ones
#: the rules are written with.
_CURLY_QUOTES = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
    }
)
#: Marks with no width that an editor or a paste leaves between letters: zero-width spaces,
#: a word joiner, a byte-order mark, soft hyphens and direction marks (the joiners that
#: shape emoji and Persian or Indic words stay).
_NO_WIDTH = re.compile("[\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")


def as_typed(text: str) -> str:
    """The text as the rules read its words: typography that carries no meaning folded
    away (`in_plain_characters`) and contractions as the words written out
    (`written_out`). For reading only: what the person typed is stored as they typed it."""
    return written_out(in_plain_characters(text))


def in_plain_characters(text: str) -> str:
    """The text in the plain characters the rules are written with: a paste from a web
    page or a document (no-break spaces, zero-width marks), an editor's curled quotes, an
    input method's full-width punctuation ("？", "！") and spaces, letters spelt
    decomposed, and Windows line ends read as their plain forms (Unicode's compatibility
    composition, NFKC, then the quotes). Words are left as spelt: a name compared with
    another, or a request's features, keep "don't" as "don't"."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.isascii():
        return text
    if _NO_WIDTH.search(text):
        text = _NO_WIDTH.sub("", text)  # first, so that a letter and its mark compose
    return unicodedata.normalize("NFKC", text).translate(_CURLY_QUOTES)


_FENCE = re.compile(r"```.*?(```|\Z)", re.DOTALL)


_PASTE_LINE = re.compile(
    r"^\s*(at\s+\S+.*[(:]\d+|File \".*\", line \d+|\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\[\d{2}:\d{2}|"
    r"[{}\[\]]\s*$|\"[\w-]+\"\s*:|[|│┃┌┐└┘├┤─━═║╔╗╚╝╭╮╰╯]|\$ |>>> |srv |main: |npm (ERR|WARN)|"
    r"warning:|#\d+ |\[?\d{1,2}:\d{2}:\d{2}([.,]\d+)?\]? |"
    # an agent's terminal transcript pasted back: Claude Code marks its messages and tool
    # calls with "⏺" or "●", their results with "⎿", its thinking with "✻" or "✽"
    r"[⏺●⎿✻✽])"
)


#: Where a line turns into such a transcript ("SEGUE COM O PLANO    ⎿ Found 3 lines").
_TRANSCRIPT_MARK = re.compile(r"\s*[⏺●⎿✻✽]")


#: What is kept of the typed part: its head and its tail.
REGION_HEAD = 600


REGION_TAIL = 300


def _is_prose(line: str) -> bool:
    """A long line a person typed (a paragraph with no line break), not a long line of
    output (minified JSON, a base64 blob, a log line): mostly letters, with spaces."""
    sample = line[:2000]
    letters = sum(c.isalpha() for c in sample)
    spaces = sample.count(" ")
    return letters >= 0.6 * len(sample) and spaces >= 0.08 * len(sample)


#: A web address pasted into a sentence ("for this im getting an empty https://…?page=1&…").
_WEB_ADDRESS = re.compile(r"\b(?:https?|wss?|ftp)://\S+", re.IGNORECASE)


def _is_output_line(line: str) -> bool:
    """A long line that is output, not typed: judged without the web addresses in it, so
    a sentence around a long query URL stays the person's words."""
    if len(line) <= 400:
        return False
    bare = _WEB_ADDRESS.sub(" ", line)
    return len(bare) > 400 and not _is_prose(bare)


def feedback_region(text: str) -> str:
    """The typed words around a paste: code fences, log and trace lines removed, then
    the head and the tail (a verdict opens or closes a message; a 50 KB log holds none)."""
    text = _FENCE.sub(" ", text[:20000])
    kept = []
    quoted = []
    for line in text.splitlines():
        if _is_output_line(line) or _PASTE_LINE.match(line):
            continue
        mark = _TRANSCRIPT_MARK.search(line)
        if mark:
            line = line[: mark.start()]
        if line.lstrip().startswith(">"):
            quoted.append(line.lstrip()[1:])
            continue
        kept.append(line)
    if not any(re.search(r"\w", line) for line in kept) and any(
        re.search(r"\w", line) for line in quoted
    ):
        # every word is in a quote block: a request written elsewhere and pasted as a
        # quote ("> Por favor, recrie o arquivo …"), not a quote of the agent answered below
        kept = quoted
    region = without_thinking_cues("\n".join(kept)).strip()
    if len(region) > REGION_HEAD + REGION_TAIL:
        region = region[:REGION_HEAD] + "\n" + region[-REGION_TAIL:]
    return region


#: Words that only set how hard the agent thinks ("ultrathink", "think hard"; Claude Code
#: raises its thinking budget on them), with a comma or "and" joining them to the rest.
#: "think hard" after a subject or "to" is the person's own words ("I think hard mode…").
_THINKING_CUE = re.compile(
    r"(\s*,\s*|\s+and\s+)?\b(?<!\bi )(?<!\bwe )(?<!\byou )(?<!\bto )(?<!\bthey )"
    r"(ultrathink|megathink|think (really |very |extra )?(hard(er)?|deeply|deeper))\b"
    r"(\s*,|\s+and\b)?",
    re.IGNORECASE,
)


def without_thinking_cues(text: str) -> str:
    """`text` without the words that only ask the agent to think harder: "continue,
    ultrathink" says what "continue" says, and "Yes please, think hard and continue" sent
    again after an interrupt says what "Yes please" said."""
    return _THINKING_CUE.sub(" ", text) if "hink" in text else text


CONTENT_WORD = re.compile(r"[a-z][a-z0-9_.-]{3,}")


STOP_WORDS = frozenset(
    [
        "this",
        "that",
        "with",
        "from",
        "have",
        "what",
        "when",
        "where",
        "which",
        "would",
        "could",
        "should",
        "there",
        "their",
        "them",
        "they",
        "then",
        "than",
        "your",
        "just",
        "like",
        "make",
        "sure",
        "also",
        "into",
        "about",
        "some",
        "more",
        "only",
        "very",
        "much",
        "want",
        "need",
        "does",
        "doesn",
        "done",
        "been",
        "being",
        "will",
        "were",
        "please",
        "thanks",
        "okay",
        "let's",
        "lets",
        "can't",
        "don't",
    ]
)


def topic_overlap(text: str, context: str) -> float:
    """Share of the turn's content words that the running episode already used."""
    words = {w for w in CONTENT_WORD.findall(text.lower()[:1500]) if w not in STOP_WORDS}
    if not words:
        return 0.0
    seen = set(CONTENT_WORD.findall(context.lower()[-6000:]))
    return len(words & seen) / len(words)


_CONTRAST = re.compile(r"\b(but|however|though|although|except|yet)\b", re.IGNORECASE)


WORD = re.compile(r"\w+", re.UNICODE)


#: Work in the checkout asked after something else ("… and then fix it", "… about the
#: flaky test and fix the test"): what precedes it is not all the request asks.
THEN_WORK = re.compile(
    r"\b(and|then|also)\s+(then\s+|also\s+)?(fix|add|change|update|implement|remove|write|"
    r"make|refactor|create|use|move|rename|delete|test|build)\b",
    re.IGNORECASE,
)


SENTENCE_END = re.compile(r"(?<=[.?!])\s+|\.\.+\s*|\n+|;\s+")


#: Something pasted, not typed: an image or a document as harvested ("[image: image/png,
#: 66273 bytes]"), and the placeholders Claude Code writes into the typed text where the
#: person pasted ("[Image #1]", "[Pasted text #1 +36 lines]"). They say that something was
#: pasted, never what was asked, so they are no words of the person's.
ATTACHMENT = re.compile(
    r"\[(?:image|document): [^\]\n]*\]\s*|\[(?:image|pasted text) #\d+(?: \+\d+ lines)?\]\s*",
    re.IGNORECASE,
)


#: The end of a sentence: a stop followed by a space or the end, not a dot in a file name.
SENTENCE_STOP = re.compile(r"[.!?。！？](\s|$)|\n")


def first_sentence(text: str) -> str:
    """The text up to its first sentence stop (`SENTENCE_STOP`), so a dotted name ("the
    README.md should mention …") does not end it; all of it when it has none."""
    stop = SENTENCE_STOP.search(text)
    return text[: stop.start()] if stop else text


def request_region(text: str) -> str:
    """A request as its words are read (`as_typed`), pasted images out."""
    return ATTACHMENT.sub(" ", as_typed(text)).strip()


def without_transcript(text: str) -> str:
    """The text up to where an agent's pasted terminal transcript begins."""
    mark = _TRANSCRIPT_MARK.search(text)
    if mark is None or not _PASTE_LINE.match(text[mark.start() :].lstrip(" \t")):
        return text
    return text[: mark.start()]


def first_clause(text: str) -> str:
    match = re.search(r"[.!?\n。！？]|\b(but|however)\b", text, re.IGNORECASE)
    return text[: match.start()] if match else text


def after_contrast(text: str) -> str:
    match = _CONTRAST.search(text)
    return text[match.end() :] if match else ""


def stem(word: str) -> str:
    return word[:5]


#: Han, kana and hangul: written without spaces, about two characters to a word.
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def word_count(text: str) -> int:
    """Words typed, a pasted image's placeholder left out, CJK text counted by characters."""
    text = ATTACHMENT.sub("", text)
    cjk = len(CJK.findall(text))
    return len(WORD.findall(CJK.sub(" ", text))) + (cjk + 1) // 2


def has_words(text: str) -> bool:
    """The turn holds typed words, not only a pasted image's placeholder."""
    return bool(re.search(r"\w", ATTACHMENT.sub("", text)))


def flattened(text: str) -> str:
    """`text` with case and spacing set aside: lowercased, each run of white space one
    space, none at either end."""
    return " ".join(text.lower().split())


def one_word(region: str) -> bool:
    return bool(re.fullmatch(r"\W*[a-z]+\W*", region, re.IGNORECASE))


def after_first(text: str) -> str:
    return text[len(first_clause(text)) :].strip(" .,!;:-\n")


def text_after_verdict(text: str) -> str:
    """What follows a verdict's clause, its sentence or, in Chinese, Japanese and Korean,
    its comma."""
    return after_first(text) or after_cjk_comma(text)


def after_cjk_comma(text: str) -> str:
    """What follows the first comma of a text in Chinese, Japanese or Korean, where a
    verdict often ends ("好了，现在加一个导出按钮", "ありがとう、次は…を追加して", "고마워요, 이제
    … 추가해줘") as an English one would end its sentence; "" for any other text."""
    if not CJK.search(text) or not re.search(r"[，、,]", text):
        return ""
    return re.split(r"[，、,]", text, maxsplit=1)[1].strip(" .,!;:-\n。！")
