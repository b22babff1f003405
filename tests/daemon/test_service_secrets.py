"""The service sees the installing shell's locations; secrets never enter the unit/plist."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from sleepd.daemon.service import (
    build_spec,
    describe_spec,
    load_service_env,
    render_launchd_plist,
    render_systemd_unit,
    write_env_file,
)

PASSWORD = "s3cr3t-Pw-" + "x7Qz" * 3
DB_URL = f"postgresql://sleepd:{PASSWORD}@db.internal:5432/sleepd"


@pytest.fixture
def shell(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-alt"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-alt"))
    monkeypatch.setenv("SLEEPD_DATABASE_URL", DB_URL)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-api03-" + "k" * 90 + "AA")
    return tmp_path


def test_every_path_variable_is_carried(shell: Path, fake_install: Path) -> None:
    spec = build_spec(str(fake_install))
    assert spec.environment["CLAUDE_CONFIG_DIR"] == str(shell / "claude-alt")
    assert spec.environment["CODEX_HOME"] == str(shell / "codex-alt")
    for name in ("SLEEPD_HOME", "SLEEPD_CONFIG", "CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        assert name in spec.environment
    said = "\n".join(describe_spec(spec))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "SLEEPD_DATABASE_URL"):
        assert name in said
    unit = render_systemd_unit(spec)
    assert f"CODEX_HOME={shell / 'codex-alt'}" in unit
    assert str(shell / "claude-alt") in next(
        line for line in unit.splitlines() if line.startswith("ReadWritePaths=")
    )


def test_database_password_and_keys_go_to_a_private_env_file(
    shell: Path, fake_install: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    os.umask(0o000)  # a careless shell: the file is still 0600
    try:
        spec = build_spec(str(fake_install), copy_api_keys=True)
        unit = render_systemd_unit(spec)
        plist = render_launchd_plist(spec)
        assert PASSWORD not in unit and PASSWORD not in plist
        assert "sk-ant-api03" not in unit + plist
        assert f"EnvironmentFile=-{spec.env_file}" in unit
        write_env_file(spec)
    finally:
        os.umask(0o022)
    assert stat.S_IMODE(spec.env_file.stat().st_mode) == 0o600
    text = spec.env_file.read_text()
    assert PASSWORD in text and "ANTHROPIC_API_KEY=" in text
    # the user's own lines survive a reinstall
    spec.env_file.write_text(text + "OPENAI_API_KEY='sk-user-added'\n")
    write_env_file(spec)
    assert "sk-user-added" in spec.env_file.read_text()
    # the daemon (launchd has no EnvironmentFile=) reads it for what is unset
    monkeypatch.delenv("SLEEPD_DATABASE_URL")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert set(load_service_env(spec.env_file)) >= {"SLEEPD_DATABASE_URL", "OPENAI_API_KEY"}
    assert os.environ["SLEEPD_DATABASE_URL"] == DB_URL
    assert os.environ["OPENAI_API_KEY"] == "sk-user-added"


def test_env_file_readable_by_others_is_ignored(tmp_path: Path) -> None:
    env_file = tmp_path / "service.env"
    env_file.write_text("SLEEPD_TEST_VAR=1\n")
    env_file.chmod(0o644)
    assert load_service_env(env_file) == []


def test_password_free_url_stays_inline(
    fake_install: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLEEPD_DATABASE_URL", "sqlite:////data/sleepd.db")
    spec = build_spec(str(fake_install))
    assert "Environment=SLEEPD_DATABASE_URL=sqlite:////data/sleepd.db" in render_systemd_unit(spec)
    assert spec.secrets == {}


@pytest.mark.parametrize("name", ["harvest.lock", "sleepd.db", "redaction.salt"])
def test_files_private_under_a_careless_umask(name: str, isolated_home: Path) -> None:
    """Through the CLI entry, whatever umask the shell had, what sleepd creates is private."""
    from sleepd.cli.app import run

    home = isolated_home / "sleepd-home"
    old = os.umask(0o000)
    try:
        assert run(["harvest"]) == 0
    finally:
        os.umask(old)
    target = home / name
    assert target.exists(), sorted(p.name for p in home.iterdir())
    assert stat.S_IMODE(target.stat().st_mode) & 0o077 == 0, oct(target.stat().st_mode)
    assert stat.S_IMODE(home.stat().st_mode) == 0o700


def test_daemon_log_private_under_a_careless_umask(tmp_path: Path) -> None:
    from sleepd.daemon.logging_setup import LOG_FILENAME, configure_logging

    old = os.umask(0o000)
    try:
        configure_logging(verbose=False, log_dir=tmp_path / "logs")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "logs" / LOG_FILENAME).stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "logs").stat().st_mode) == 0o700


def test_a_team_store_unit_names_the_password_file_never_the_password(
    fake_install: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """docs/team.md: a password-free PostgreSQL URL and libpq's PGPASSFILE are carried."""
    url = "postgresql://alice@db.example.com:5432/sleepd?sslmode=verify-full"
    passfile = tmp_path / "pgpass"
    passfile.write_text(f"db.example.com:5432:sleepd:alice:{PASSWORD}\n")
    monkeypatch.setenv("SLEEPD_DATABASE_URL", url)
    monkeypatch.setenv("PGPASSFILE", str(passfile))
    spec = build_spec(str(fake_install))
    unit = render_systemd_unit(spec)
    assert f"PGPASSFILE={passfile}" in unit and url in unit
    assert PASSWORD not in unit + render_launchd_plist(spec) and spec.secrets == {}
