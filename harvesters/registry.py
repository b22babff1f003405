"""Which transcript sources exist: a new source is one module plus one entry point.

Installed distributions declare harvesters in the `sleepd.harvesters`
entry-point group; the built-in table covers running from a source tree where
no distribution metadata exists.
"""

from __future__ import annotations

import importlib
from importlib.metadata import EntryPoint, entry_points

ENTRY_POINT_GROUP = "sleepd.harvesters"
BUILTIN_HARVESTERS = {
    "claude": "harvesters.claude_code:ClaudeCodeHarvester",
    "codex": "harvesters.codex:CodexHarvester",
}


class UnknownSourceError(LookupError):
    """Raised for a source name no entry point or built-in provides."""


def _entry_points() -> dict[str, EntryPoint]:
    try:
        return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    except Exception:  # broken metadata must not take harvesting down
        return {}


def available_sources() -> list[str]:
    """Every source name, from entry points and the built-in table."""
    return sorted(set(BUILTIN_HARVESTERS) | set(_entry_points()))


def load_harvester_class(name: str) -> type:
    """The harvester class for `name`; an entry point wins over the built-in table."""
    entry = _entry_points().get(name)
    if entry is not None:
        try:
            loaded = entry.load()
        except (ImportError, AttributeError):
            loaded = None
        if isinstance(loaded, type):
            return loaded
    target = BUILTIN_HARVESTERS.get(name)
    if target is None:
        known = ", ".join(available_sources())
        raise UnknownSourceError(f"unknown transcript source {name!r} (known: {known})")
    module_name, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    assert isinstance(cls, type)
    return cls
