"""Plain settings for the backend layer; the config module maps TOML onto them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sleepd.backends.base import ROLES, Role


@dataclass(slots=True)
class RoleSettings:
    """Which backend and model serve one role; "auto" picks by environment."""

    backend: str = "auto"
    model: str | None = None


@dataclass(slots=True)
class BackendSettings:
    roles: dict[str, RoleSettings] = field(
        default_factory=lambda: {role: RoleSettings() for role in ROLES}
    )
    anthropic_base_url: str | None = None
    openai_base_url: str | None = None
    anthropic_api_key_env: str = "ANTHROPIC_API_KEY"
    openai_api_key_env: str = "OPENAI_API_KEY"
    anthropic_model: str = "claude-sonnet-4-6"
    openai_model: str = "gpt-5-mini"
    timeout_s: float = 120.0
    cli_timeout_s: float = 600.0
    max_retries: int = 2
    concurrency: int = 4
    claude_executable: str = "claude"
    codex_executable: str = "codex"
    #: Per model, any of input/output/cache_read/cache_write/cache_write_1h (USD per Mtok).
    price_overrides: dict[str, dict[str, float]] = field(default_factory=dict)
    sim_seed: int = 0
    #: All ten catalogue families, so any sample transcript using their keywords is recognised.
    sim_families: int = 10

    def role(self, role: Role | str) -> RoleSettings:
        return self.roles.get(role, RoleSettings())


def settings_from_config(cfg: Any) -> BackendSettings:
    """Map `sleepd.config.Config` onto `BackendSettings` (empty strings mean "default")."""
    section = cfg.backends
    roles: dict[str, RoleSettings] = {}
    for role in ROLES:
        chosen = cfg.role(role)
        roles[role] = RoleSettings(backend=chosen.backend, model=chosen.model or None)
    return BackendSettings(
        roles=roles,
        anthropic_base_url=section.anthropic_base_url or None,
        openai_base_url=section.openai_base_url or None,
        timeout_s=float(section.timeout_seconds),
        max_retries=int(section.max_retries),
        concurrency=int(section.concurrency),
        claude_executable=section.claude_executable,
        codex_executable=section.codex_executable,
        price_overrides={k: dict(v) for k, v in cfg.prices.items()},
    )
