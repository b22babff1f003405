"""Which transcript sources exist: a new source is one module plus one entry point.

The built-in sources load from the table below. Installed distributions add sources
in the `sleepd.harvesters` entry-point group; their metadata is read only when a
name outside the table is asked for, or the whole list is (reading it costs a
short command more than the rest of its harvester lookups together). A plugin adds
sources; it does not replace a built-in one.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

ENTRY_POINT_GROUP = "sleepd.harvesters"
BUILTIN_HARVESTERS = {
    "claude": "harvesters.claude_code:ClaudeCodeHarvester",
    "codex": "harvesters.codex:CodexHarvester",
}


class UnknownSourceError(LookupError):
    """Raised for a source name no entry point or built-in provides."""


def _entry_points() -> dict[str, EntryPoint]:
    try:
        from importlib.metadata import entry_points

        return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    except Exception:  # broken metadata must not take harvesting down
        return {}


def available_sources() -> list[str]:
    """Every source name, from entry points and the built-in table."""
    return sorted(set(BUILTIN_HARVESTERS) | set(_entry_points()))


def load_harvester_class(name: str) -> type:
    """The harvester class for `name`: the built-in one, else an entry point's."""
    target = BUILTIN_HARVESTERS.get(name)
    if target is None:
        entry = _entry_points().get(name)
        if entry is not None:
            try:
                loaded = entry.load()
            except (ImportError, AttributeError):
                loaded = None
            if isinstance(loaded, type):
                return loaded
        known = ", ".join(available_sources())
        raise UnknownSourceError(f"unknown transcript source {name!r} (known: {known})")
    module_name, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    assert isinstance(cls, type)
    return cls
