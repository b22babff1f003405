"""Translate gitleaks' Go RE2 patterns into Python ``re`` syntax.

The vendored rules are kept verbatim so they can be refreshed from upstream;
the few places where RE2 and Python disagree are rewritten here at load time:

* a flag group such as ``(?i)`` in the middle of a pattern (Python only
  accepts global flags at the very start) becomes a scoped group ``(?i:...)``
  running to the end of the enclosing group, reopened after each ``|`` of
  that group because RE2 flags survive alternation;
* ``\\z`` (end of text) becomes Python's ``\\Z``;
* gitleaks' leading context ``[\\w.-]{0,50}?`` is dropped: only the secret
  group is redacted, and the lazy prefix makes every scan ~50x slower.
"""

from __future__ import annotations

import re

CONTEXT_PREFIX = r"[\w.-]{0,50}?"
_FLAG_GROUP = re.compile(r"\(\?([imsU-]+)\)")


def go_to_python(pattern: str) -> str:
    """Return a Python ``re`` pattern equivalent to the RE2 ``pattern``."""
    pattern = pattern.replace(CONTEXT_PREFIX, "")
    out: list[str] = []
    # For each open group depth: the flag strings opened at that depth.
    scopes: list[list[str]] = [[]]
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            out.append("\\Z" if nxt == "z" and not in_class else ch + nxt)
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
            out.append(ch)
            i += 1
            continue
        if ch == "[":
            in_class = True
            out.append(ch)
            i += 1
            # A ']' right after '[' or '[^' is a literal member in both dialects.
            if i < n and pattern[i] == "^":
                out.append("^")
                i += 1
            if i < n and pattern[i] == "]":
                out.append("]")
                i += 1
            continue
        flag = _FLAG_GROUP.match(pattern, i)
        if flag:
            flags = flag.group(1)
            out.append(f"(?{flags}:")
            scopes[-1].append(flags)
            i = flag.end()
            continue
        if ch == "(":
            scopes.append([])
            out.append(ch)
        elif ch == ")":
            out.append(")" * len(scopes.pop()) if len(scopes) > 1 else "")
            out.append(ch)
        elif ch == "|":
            opened = scopes[-1]
            out.append(")" * len(opened) + "|" + "".join(f"(?{f}:" for f in opened))
        else:
            out.append(ch)
        i += 1
    out.append(")" * len(scopes[0]))
    return "".join(out)
