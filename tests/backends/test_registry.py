"""Choosing a backend: auto follows env and PATH, never the simulator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from sleepd.backends.registry import available_backends, make_backend, make_role_backends, pick_auto
from sleepd.backends.settings import BackendSettings, RoleSettings
from sleepd.cli import backends_cmd
from sleepd.errors import ConfigError, NoBackendError

from .fake_clis import CLAUDE, CODEX, install


@pytest.fixture
def empty_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    return bin_dir


def test_nothing_available_raises_clear_error(empty_path: Path) -> None:
    with pytest.raises(NoBackendError, match="ANTHROPIC_API_KEY") as info:
        pick_auto(BackendSettings())
    assert "sim" in str(info.value)  # tells how to run the simulator on purpose
    statuses = {s.name: s for s in available_backends(BackendSettings())}
    assert statuses["sim"].usable and statuses["sim"].test_double
    assert not any(s.usable for s in statuses.values() if s.name != "sim")


def test_api_keys_come_first(empty_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install(empty_path, "claude", CLAUDE)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    assert pick_auto(BackendSettings()) == "openai"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-x")
    assert pick_auto(BackendSettings()) == "anthropic"


def test_installed_cli_is_picked_without_keys(empty_path: Path) -> None:
    install(empty_path, "codex", CODEX)
    assert pick_auto(BackendSettings()) == "codex-cli"
    install(empty_path, "claude", CLAUDE)
    assert pick_auto(BackendSettings()) == "claude-cli"


def test_cli_login_is_reported_best_effort(empty_path: Path, isolated_home: Path) -> None:
    install(empty_path, "claude", CLAUDE)
    install(empty_path, "codex", CODEX)
    statuses = {s.name: s for s in available_backends(BackendSettings())}
    assert "not verified" in statuses["claude-cli"].reason
    (isolated_home / "claude").mkdir()
    (isolated_home / "claude" / ".credentials.json").write_text("{}")
    (isolated_home / "codex").mkdir()
    (isolated_home / "codex" / "auth.json").write_text("{}")
    statuses = {s.name: s for s in available_backends(BackendSettings())}
    assert "login found" in statuses["claude-cli"].reason
    assert "login found" in statuses["codex-cli"].reason


def test_configured_base_url_makes_openai_usable(empty_path: Path) -> None:
    settings = BackendSettings(openai_base_url="http://127.0.0.1:11434/v1")
    assert pick_auto(settings) == "openai"
    assert make_backend("auto", settings).name == "openai"


def test_make_backend_by_name(empty_path: Path) -> None:
    settings = BackendSettings()
    sim = make_backend("sim", settings)
    assert sim.simulated and sim.name == "sim"
    assert make_backend("claude-cli", settings, model="claude-opus-4-7").name == "claude-cli"
    assert make_backend("anthropic", settings, {"ANTHROPIC_API_KEY": "k"}).name == "anthropic"
    with pytest.raises(ConfigError, match="unknown backend"):
        make_backend("gpt-please", settings)


def test_role_backends_share_instances(empty_path: Path) -> None:
    roles = {r: RoleSettings("sim") for r in ("miner", "target", "judge", "optimizer")}
    roles["judge"] = RoleSettings("sim", model="sim-judge")
    built = make_role_backends(BackendSettings(roles=roles))
    assert built["target"] is built["optimizer"] and built["judge"] is not built["target"]


def cli() -> typer.Typer:
    app = typer.Typer()
    backends_cmd.register(app)

    @app.callback()
    def _root() -> None:
        pass

    return app


def test_backends_command_json(empty_path: Path) -> None:
    install(empty_path, "claude", CLAUDE)
    result = CliRunner().invoke(cli(), ["backends", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["auto"] == "claude-cli"
    names = {b["name"]: b for b in data["backends"]}
    assert set(names) == {"anthropic", "openai", "claude-cli", "codex-cli", "sim"}
    assert names["sim"]["test_double"] and not names["anthropic"]["usable"]


def test_backends_command_text_when_nothing_usable(empty_path: Path) -> None:
    result = CliRunner().invoke(cli(), ["backends"], env={"COLUMNS": "240"})
    assert result.exit_code == 0
    assert "auto picks none: no model backend available" in " ".join(result.stdout.split())
    assert "(a test double, not a real model)" in result.stdout
