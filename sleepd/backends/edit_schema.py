"""The bounded-edit format the optimizer emits and the documents module applies.

One schema serves OpenAI structured output (strict mode: every object closed,
every property required) and validation of what any backend returned.
"""

from __future__ import annotations

from typing import Any

_ANCHOR = {"type": "string", "description": "verbatim text of the current document"}

_ADD: dict[str, Any] = {
    "type": "object",
    "properties": {
        "op": {"type": "string", "enum": ["add"]},
        "anchor": _ANCHOR,
        "position": {"type": "string", "enum": ["after", "before"]},
        "text": {"type": "string"},
    },
    "required": ["op", "anchor", "position", "text"],
    "additionalProperties": False,
}

_REPLACE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "op": {"type": "string", "enum": ["replace"]},
        "anchor": _ANCHOR,
        "text": {"type": "string"},
    },
    "required": ["op", "anchor", "text"],
    "additionalProperties": False,
}

_DELETE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "op": {"type": "string", "enum": ["delete"]},
        "anchor": _ANCHOR,
    },
    "required": ["op", "anchor"],
    "additionalProperties": False,
}

_APPEND: dict[str, Any] = {
    "type": "object",
    "properties": {
        "op": {"type": "string", "enum": ["append"]},
        "text": {"type": "string", "description": "added at the end of the editable region"},
    },
    "required": ["op", "text"],
    "additionalProperties": False,
}

EDIT_SCHEMA: dict[str, Any] = {
    "title": "skill_document_edits",
    "type": "object",
    "properties": {
        "edits": {"type": "array", "items": {"anyOf": [_ADD, _REPLACE, _DELETE, _APPEND]}},
        "rationale": {"type": "string"},
    },
    "required": ["edits", "rationale"],
    "additionalProperties": False,
}
