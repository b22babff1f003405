"""The body of a private key whose BEGIN line is not there.

A key's armor (`-----BEGIN … PRIVATE KEY-----` … `-----END … PRIVATE KEY-----`) is what the
`private-key` rule finds. A tool's output can hold the body and its END line without the
BEGIN line: gpg quotes the lines it could not read ("gpg: invalid armor header: lQcYBGlX…"
over the rest of the key), `tail` prints a key's last lines, and a long output is cut
between the two. The `private-key-body` rule finds the END line; `body_before` says where
the body above it starts, so the body is what is replaced and the END line is left to say
what it was.
"""

from __future__ import annotations

import re

#: How far above its END line a body is looked for: more than the largest key's armor
#: (an 8192-bit RSA key, or a PGP key with its subkeys), so the walk stays linear.
REACH_CHARS = 65536
#: The fewest base64 characters a body holds (the `private-key` rule asks the same).
MIN_BODY_CHARS = 64

# The text above the END line is read backwards (reversed), so that one anchored match
# walks up from the END line over the body and stops where the body does. It takes, in
# that order: PGP's checksum line (`=UTah`) right above the END line; the body's last
# line, which may be short; the lines above it, each a long run of base64 (a line of
# ordinary words above the body is never one, so it is never taken for part of the key).
# Between them stand blanks and line breaks, real or escaped as in JSON (`\n`, `\r\n`,
# and `\\n` escaped twice).
_BREAK = r"(?:\s|n\\|r\\|\\)+"
_BODY_REVERSED = re.compile(
    rf"(?:{_BREAK})?"
    rf"(?:[A-Za-z0-9+/]{{4}}={_BREAK})?"
    r"={0,2}[A-Za-z0-9+/]{2,}"
    rf"(?:{_BREAK}={{0,2}}[A-Za-z0-9+/]{{16,}})*"
)
_BASE64 = re.compile(r"[A-Za-z0-9+/]")


def body_before(text: str, end: int) -> int | None:
    """Where the key body that ends at `end` (the start of its END line) starts, or None
    when no body stands right above it (the END line alone, quoted in prose or code)."""
    lowest = max(0, end - REACH_CHARS)
    # a body holds no dash: the window starts after the armor line above, if any, so many
    # END lines in one text each read only what stands between them
    above = text.rfind("-----", lowest, end)
    window = text[lowest if above < 0 else above + 5 : end]
    found = _BODY_REVERSED.match(window[::-1])
    if found is None:
        return None
    start = end - found.end()
    if len(_BASE64.findall(text, start, end)) < MIN_BODY_CHARS:
        return None
    return start
