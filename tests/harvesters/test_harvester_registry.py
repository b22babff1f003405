"""Source registry: entry points first, a built-in table when running from a source tree."""

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


def test_unknown_source_names_the_known_ones() -> None:
    with pytest.raises(registry.UnknownSourceError, match="known: claude, codex"):
        registry.load_harvester_class("cursor")


def test_loaded_classes_satisfy_the_harvester_protocol(tmp_path: Path) -> None:
    for name in registry.available_sources():
        harvester = registry.load_harvester_class(name)([tmp_path])
        assert isinstance(harvester, Harvester)
        assert harvester.name == name
        assert list(harvester.discover()) == []
