"""Which backends can run here, which one `auto` picks, and building one by name.

What is checked (nothing is called over the network):
- anthropic: the API key variable (default ANTHROPIC_API_KEY) is set;
- openai: OPENAI_API_KEY is set, or an `openai_base_url` is configured (local servers);
- claude-cli: `claude` (or the configured path) is executable; login is best-effort:
  `$CLAUDE_CONFIG_DIR/.credentials.json` (default `~/.claude`) or ANTHROPIC_API_KEY.
  On macOS Claude Code keeps its login in the Keychain, so a missing file is reported
  as "not verified", not as unusable;
- codex-cli: `codex` is executable; login: `$CODEX_HOME/auth.json` or OPENAI_API_KEY;
- sim: always usable, and always labelled a test double; `auto` never picks it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from sleepd.backends.base import Backend
from sleepd.backends.settings import BackendSettings
from sleepd.errors import ConfigError, NoBackendError
from sleepd.paths import claude_config_dir, codex_home

BACKEND_NAMES: tuple[str, ...] = ("anthropic", "openai", "claude-cli", "codex-cli", "sim")
AUTO_ORDER: tuple[str, ...] = ("anthropic", "openai", "claude-cli", "codex-cli")


@dataclass(frozen=True, slots=True)
class BackendStatus:
    name: str
    usable: bool
    reason: str
    test_double: bool = False


def _env(env: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if env is None else env


def _executable(name_or_path: str, env: Mapping[str, str]) -> str | None:
    import shutil

    if os.sep in name_or_path:
        return name_or_path if os.access(name_or_path, os.X_OK) else None
    return shutil.which(name_or_path, path=env.get("PATH"))


def available_backends(
    settings: BackendSettings, env: Mapping[str, str] | None = None
) -> list[BackendStatus]:
    env = _env(env)
    return [
        _anthropic_status(settings, env),
        _openai_status(settings, env),
        _claude_status(settings, env),
        _codex_status(settings, env),
        BackendStatus("sim", True, "simulated world, never picked by auto", True),
    ]


def _anthropic_status(settings: BackendSettings, env: Mapping[str, str]) -> BackendStatus:
    var = settings.anthropic_api_key_env
    if env.get(var, "").strip():
        return BackendStatus("anthropic", True, f"{var} is set")
    return BackendStatus("anthropic", False, f"{var} is not set")


def _openai_status(settings: BackendSettings, env: Mapping[str, str]) -> BackendStatus:
    var = settings.openai_api_key_env
    if env.get(var, "").strip():
        return BackendStatus("openai", True, f"{var} is set")
    if settings.openai_base_url:
        return BackendStatus("openai", True, f"base_url {settings.openai_base_url} configured")
    return BackendStatus("openai", False, f"{var} is not set and no base_url configured")


def _claude_status(settings: BackendSettings, env: Mapping[str, str]) -> BackendStatus:
    path = _executable(settings.claude_executable, env)
    if path is None:
        return BackendStatus("claude-cli", False, f"{settings.claude_executable} not found on PATH")
    credentials = claude_config_dir() / ".credentials.json"
    if credentials.is_file():
        login = f"login found ({credentials})"
    elif env.get("ANTHROPIC_API_KEY", "").strip():
        login = "ANTHROPIC_API_KEY is set"
    else:
        login = "login not verified (no .credentials.json; macOS keeps it in the Keychain)"
    return BackendStatus("claude-cli", True, f"{path}; {login}")


def _codex_status(settings: BackendSettings, env: Mapping[str, str]) -> BackendStatus:
    path = _executable(settings.codex_executable, env)
    if path is None:
        return BackendStatus("codex-cli", False, f"{settings.codex_executable} not found on PATH")
    auth = codex_home() / "auth.json"
    if auth.is_file():
        login = f"login found ({auth})"
    elif env.get("OPENAI_API_KEY", "").strip():
        login = "OPENAI_API_KEY is set"
    else:
        login = f"login not verified (no {auth}; run `codex login`)"
    return BackendStatus("codex-cli", True, f"{path}; {login}")


def pick_auto(settings: BackendSettings, env: Mapping[str, str] | None = None) -> str:
    """An API key first, then an installed CLI; never the simulator."""
    statuses = {s.name: s for s in available_backends(settings, env)}
    for name in AUTO_ORDER:
        if statuses[name].usable:
            return name
    raise NoBackendError(
        "no model backend available: set ANTHROPIC_API_KEY or OPENAI_API_KEY, configure an"
        " openai base_url, or install and log in to the `claude` or `codex` CLI"
        " (the simulator runs only when asked for by name: --backend sim)"
    )


def make_backend(
    name: str,
    settings: BackendSettings,
    env: Mapping[str, str] | None = None,
    *,
    model: str | None = None,
) -> Backend:
    """Build backend `name` ("auto" resolves first); SDKs are imported only here."""
    env = _env(env)
    if name == "auto":
        name = pick_auto(settings, env)
    from sleepd.backends.pricing import PriceTable

    prices = PriceTable.with_overrides(settings.price_overrides)
    if name == "anthropic":
        from sleepd.backends.anthropic_api import AnthropicBackend

        return AnthropicBackend(
            api_key=env.get(settings.anthropic_api_key_env) or None,
            base_url=settings.anthropic_base_url,
            model=model or settings.anthropic_model,
            timeout_s=settings.timeout_s,
            max_retries=settings.max_retries,
            prices=prices,
        )
    if name == "openai":
        from sleepd.backends.openai_api import OpenAIBackend

        return OpenAIBackend(
            api_key=env.get(settings.openai_api_key_env) or None,
            base_url=settings.openai_base_url,
            model=model or settings.openai_model,
            timeout_s=settings.timeout_s,
            max_retries=settings.max_retries,
            prices=prices,
        )
    if name == "claude-cli":
        from sleepd.backends.claude_cli import ClaudeCliBackend

        return ClaudeCliBackend(
            executable=settings.claude_executable,
            model=model,
            timeout_s=settings.cli_timeout_s,
            prices=prices,
        )
    if name == "codex-cli":
        from sleepd.backends.codex_cli import CodexCliBackend

        return CodexCliBackend(
            executable=settings.codex_executable,
            model=model,
            timeout_s=settings.cli_timeout_s,
            prices=prices,
        )
    if name == "sim":
        from sleepd.backends.sim import SimBackend, SimWorld

        return SimBackend(SimWorld(settings.sim_seed, settings.sim_families))
    raise ConfigError(f"unknown backend {name!r}; choose one of: auto, {', '.join(BACKEND_NAMES)}")


def make_role_backends(
    settings: BackendSettings, env: Mapping[str, str] | None = None
) -> dict[str, Backend]:
    """One backend per role; roles with the same backend and model share an instance."""
    from sleepd.backends.base import ROLES

    built: dict[tuple[str, str | None], Backend] = {}
    out: dict[str, Backend] = {}
    for role in ROLES:
        chosen = settings.role(role)
        name = pick_auto(settings, env) if chosen.backend == "auto" else chosen.backend
        key = (name, chosen.model)
        if key not in built:
            built[key] = make_backend(name, settings, env, model=chosen.model)
        out[role] = built[key]
    return out
