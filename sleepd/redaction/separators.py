"""Finding secrets that sit against a separator in names, paths and URLs.

Many provider rules only see a secret after whitespace or a quote, so a key written as
a branch (`fix/<key>`), a file name (`<key>.txt`), a query (`a=<key>&b`) or in brackets
passes the plain rules. Here the text is also searched with those separators read as
spaces. Both redaction chokepoints use it: the harvest for the short identifier fields
people name (branches, titles, paths, URLs, session meta, parse state) and the outbound
path for every text sent to a model. A NUL counts as a separator too: the harvest
searches a record's short fields joined by NUL, and a rule's closing boundary does not
take it for one.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING

from sleepd.redaction.engine import PLACEHOLDER_RE

if TYPE_CHECKING:
    from sleepd.redaction.engine import Redactor

_SLASHES = r"[/\\@()\[\]{}<>|=,;&\x00]"
#: Two views: a dot counts only before a short extension or at a sentence's end (keys
#: contain dots), and that rule alone would cut such keys, so each view's finds are
#: applied in turn.
_SEPARATOR_VIEWS = (
    re.compile(_SLASHES),
    re.compile(_SLASHES + r"|\.(?=[A-Za-z0-9]{1,5}(?![A-Za-z0-9_.~-])|\s|$)"),
)


def redact_at_separators(engine: Redactor, text: str) -> tuple[str, list[str]]:
    """`text` (already redacted by the plain rules) with the secrets only found when
    separators count as word boundaries, and the rules that found them."""
    rules: list[str] = []
    for separators in _SEPARATOR_VIEWS:
        text = _one_view(engine, text, separators, rules)
    return text, rules


def _one_view(engine: Redactor, text: str, separators: re.Pattern[str], rules: list[str]) -> str:
    """One view: `separators` read as spaces.

    The view has the same length as the text (placeholders left intact), so the spans
    the engine replaced in the view are the secrets' spans in the text.
    """
    if separators.search(text) is None:
        return text
    keep = [m.span() for m in PLACEHOLDER_RE.finditer(text)]
    view = list(separators.sub(" ", text))
    for start, end in keep:
        view[start:end] = text[start:end]
    view_text = "".join(view)
    redacted, hits = engine.redact(view_text)
    if redacted == view_text:
        return text
    rules.extend(hits)
    out: list[str] = []
    matcher = difflib.SequenceMatcher(a=view_text, b=redacted, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        out.append(text[i1:i2] if tag == "equal" else redacted[j1:j2])
    return "".join(out)
