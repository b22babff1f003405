"""Shared fixtures for the daemon and service tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from .fakes import write_script


@pytest.fixture
def fake_install(tmp_path: Path) -> Path:
    """A fake installed `sleepd` (systemd-analyze verify needs ExecStart to exist)."""
    return write_script(tmp_path / "install" / "bin" / "sleepd", 'exec echo "fake sleepd $@"\n')


@pytest.fixture
def fake_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """systemctl / loginctl / launchctl fakes that log their argv; returns the log file."""
    bin_dir = tmp_path / "fakebin"
    log = tmp_path / "commands.log"
    state = tmp_path / "launchd-loaded"
    write_script(
        bin_dir / "systemctl",
        f'echo "systemctl $*" >> {log}\n'
        'case "$2" in is-enabled) echo enabled;; is-active) echo active;; esac\n',
    )
    write_script(bin_dir / "loginctl", f'echo "loginctl $*" >> {log}\necho "Linger=no"\n')
    write_script(
        bin_dir / "launchctl",
        f'echo "launchctl $*" >> {log}\n'
        f'case "$1" in\n'
        f'  print) [ -f {state} ] || exit 113; echo "state = running"; echo "pid = 4242";;\n'
        f"  bootstrap) touch {state};;\n"
        f"  bootout) rm -f {state};;\n"
        f"esac\n",
    )
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("HOME", str(tmp_path / "userhome"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "userhome" / "xdg-config"))
    return log


@pytest.fixture
def cli() -> typer.Typer:
    """The service and daemon command groups on a root app, as the real CLI has them."""
    from sleepd.cli import daemon_cmd, service_cmd

    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """sleepd"""

    service_cmd.register(app)
    daemon_cmd.register(app)
    return app


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()
