"""The one redaction chokepoint of everything sent to a model.

`ModelRequest` (and every other request type a backend accepts) calls `scrub_text` on
each of its texts when it is built, so no backend - HTTP SDK, CLI argv or stdin, batch
entry, simulator - can be handed a request that still holds a secret: the texts a
backend can read are the redacted ones. Task context (intents, branch names, evidence),
system prompts and the skill document all pass here.

Redaction here is always on, whatever `harvest.redact` says: the harvest may keep
secrets in the user's own database by choice, but nothing leaves the machine with one.
Placeholders use the home's redaction salt when it exists, so a secret redacted at
harvest and here gets the same placeholder.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sleepd.redaction import Redactor

_lock = threading.Lock()
_redactor: Redactor | None = None


def _salt() -> bytes:
    from sleepd import paths

    try:
        return (paths.home_dir() / "redaction.salt").read_bytes()
    except OSError:
        return os.urandom(16)


def redactor() -> Redactor:
    """The process's outbound redactor (rules compiled once)."""
    global _redactor
    with _lock:
        if _redactor is None:
            from sleepd.redaction import Redactor

            _redactor = Redactor(salt=_salt())
        return _redactor


#: A JSON `\uXXXX` escape or escaped slash, however many times the text was encoded.
_ESCAPE_RE = re.compile(r"\\+(?:u([0-9a-fA-F]{4})|/)")


def scrub_text(text: str) -> str:
    r"""`text` with every secret replaced by a placeholder; never raises.

    A secret written with JSON escapes (`\u0073k-ant-...`, `https:\/\/user:pw@...`) is
    found in the unescaped text; such a text is sent unescaped (the same meaning to a
    model) with the secret redacted.
    """
    if not text:
        return text
    engine = redactor()
    clean = _widened(engine, engine.redact(text)[0])
    if "\\" not in clean or _ESCAPE_RE.search(clean) is None:
        return clean
    decoded = _unescape(clean)
    redacted = _widened(engine, engine.redact(decoded)[0])
    return clean if redacted == decoded else redacted


def _widened(engine: Redactor, text: str) -> str:
    """`text` with the secrets only found when separators count as word boundaries."""
    from sleepd.redaction.separators import redact_at_separators

    return redact_at_separators(engine, text)[0]


def _unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        return "/" if code is None else chr(int(code, 16))

    out = _ESCAPE_RE.sub(one, text)
    # Escaped surrogate pairs became two lone surrogates: join them back.
    return out.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def scrub_optional(text: str | None) -> str | None:
    return None if text is None else scrub_text(text)


def scrub_value(value: Any) -> Any:
    """Strings redacted, lists/tuples/mappings walked, other values kept."""
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, Mapping):
        return {k: scrub_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(scrub_value(v) for v in value)
    return value


def reset_for_tests() -> None:
    """Forget the compiled redactor (a test that changes SLEEPD_HOME's salt)."""
    global _redactor
    with _lock:
        _redactor = None
