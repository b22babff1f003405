"""Source registry: the built-in table, and entry points for the sources plugins add."""

from __future__ import annotations

from pathlib import Path

import pytest

from harvesters import registry
from harvesters.base import Harvester
from harvesters.claude_code import ClaudeCodeHarvester
from harvesters.codex import CodexHarvester


def test_builtin_sources_load_without_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_entry_points", dict)
    assert registry.available_sources() == ["claude", "codex"]
    assert registry.load_harvester_class("claude") is ClaudeCodeHarvester
    assert registry.load_harvester_class("codex") is CodexHarvester


def test_builtin_sources_read_no_package_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    """Package metadata is slow to read; the built-in sources never need it."""

    def refuse() -> dict[str, object]:
        raise AssertionError("entry points read for a built-in source")

    monkeypatch.setattr(registry, "_entry_points", refuse)
    assert registry.load_harvester_class("claude") is ClaudeCodeHarvester
    assert registry.load_harvester_class("codex") is CodexHarvester


def test_a_plugin_source_loads_from_its_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    class CursorHarvester:
        name = "cursor"

    class Entry:
        def load(self) -> type:
            return CursorHarvester

    monkeypatch.setattr(registry, "_entry_points", lambda: {"cursor": Entry()})
    assert registry.load_harvester_class("cursor") is CursorHarvester
    assert registry.available_sources() == ["claude", "codex", "cursor"]


def test_unknown_source_names_the_known_ones() -> None:
    with pytest.raises(registry.UnknownSourceError, match="known: claude, codex"):
        registry.load_harvester_class("cursor")


def test_loaded_classes_satisfy_the_harvester_protocol(tmp_path: Path) -> None:
    for name in registry.available_sources():
        harvester = registry.load_harvester_class(name)([tmp_path])
        assert isinstance(harvester, Harvester)
        assert harvester.name == name
        assert list(harvester.discover()) == []
