"""Which transcript sources are on, and where each one's files live.

Kept free of the database layer so the watcher and the quick unchanged-tree
check can use it without importing SQLAlchemy.
"""

from __future__ import annotations

from pathlib import Path

from sleepd import paths
from sleepd.config import Config

SOURCES = ("claude", "codex")


def roots_for(source: str, cfg: Config) -> list[Path]:
    if source == "claude":
        extra = [Path(p).expanduser() for p in cfg.sources.claude_projects_dirs]
        return paths.distinct_places([*paths.claude_projects_dirs(), *extra])
    extra = [Path(p).expanduser() for p in cfg.sources.codex_session_dirs]
    return paths.distinct_places([*paths.codex_session_dirs(), *extra])


def enabled_sources(cfg: Config, requested: str = "all") -> list[str]:
    if requested != "all":
        return [requested]
    return [s for s in SOURCES if getattr(cfg.sources, s)]
