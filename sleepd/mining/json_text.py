"""JSON read out of what a transcript holds: a tool call's input, a result's body.

That text may be anything a hostile file put there. A Codex call's `arguments` is a
string inside its line, so no line parser limits how deep it nests, and the standard
parser gives up past the interpreter's recursion limit with a `RecursionError`, not the
`ValueError` of text that is not JSON. Every reader of such text goes through `json_value`,
so either way it is text that holds no JSON value, never a stopped mining pass.
"""

from __future__ import annotations

import json
from typing import Any

#: What a caller passes as `default` to tell text that holds no JSON from JSON `null`.
NOT_JSON = object()


def json_value(text: str, default: Any = None) -> Any:
    """The value `text` holds as JSON, or `default` when it holds none (not JSON, or
    nested deeper than the parser goes)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return default
