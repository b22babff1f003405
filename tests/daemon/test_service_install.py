"""install / uninstall / status against fake systemctl, loginctl and launchctl."""

from __future__ import annotations

import json
import plistlib
from pathlib import Path

import typer
from typer.testing import CliRunner

from .fakes import write_script


def _run(runner: CliRunner, cli: typer.Typer, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def _unit_path(tmp_path: Path) -> Path:
    return tmp_path / "userhome" / "xdg-config" / "systemd" / "user" / "sleepd.service"


def test_systemd_install_twice_is_harmless(
    cli: typer.Typer, runner: CliRunner, fake_tools: Path, fake_install: Path, tmp_path: Path
) -> None:
    code, _out, err = _run(
        runner, cli, "service", "install", "--platform", "linux", "--executable", str(fake_install)
    )
    assert code == 0, err
    unit = _unit_path(tmp_path)
    assert f"ExecStart={fake_install} daemon" in unit.read_text()
    first = fake_tools.read_text().splitlines()
    assert "systemctl --user daemon-reload" in first
    assert "systemctl --user enable sleepd.service" in first
    assert "systemctl --user restart sleepd.service" in first
    assert "loginctl enable-linger" in err  # fake loginctl says Linger=no
    mtime = unit.stat().st_mtime_ns

    fake_tools.write_text("")
    code, _out, err = _run(
        runner, cli, "service", "install", "--platform", "linux", "--executable", str(fake_install)
    )
    assert code == 0, err
    assert "up to date" in err
    assert unit.stat().st_mtime_ns == mtime  # not rewritten
    second = fake_tools.read_text().splitlines()
    assert "systemctl --user enable --now sleepd.service" in second
    assert not any("restart" in line or "daemon-reload" in line for line in second)


def test_systemd_uninstall_removes_the_unit(
    cli: typer.Typer, runner: CliRunner, fake_tools: Path, fake_install: Path, tmp_path: Path
) -> None:
    _run(
        runner, cli, "service", "install", "--platform", "linux", "--executable", str(fake_install)
    )
    code, _out, err = _run(runner, cli, "service", "uninstall", "--platform", "linux")
    assert code == 0, err
    assert not _unit_path(tmp_path).exists()
    assert "systemctl --user disable --now sleepd.service" in fake_tools.read_text()
    code, _out, err = _run(runner, cli, "service", "uninstall", "--platform", "linux")
    assert code == 0 and "not installed" in err


def test_systemd_status_json(
    cli: typer.Typer, runner: CliRunner, fake_tools: Path, fake_install: Path, tmp_path: Path
) -> None:
    code, out, _ = _run(
        runner,
        cli,
        "service",
        "status",
        "--json",
        "--platform",
        "linux",
        "--executable",
        str(fake_install),
    )
    assert code == 0
    assert json.loads(out)["installed"] is False
    _run(
        runner, cli, "service", "install", "--platform", "linux", "--executable", str(fake_install)
    )
    code, out, _ = _run(
        runner,
        cli,
        "service",
        "status",
        "--json",
        "--platform",
        "linux",
        "--executable",
        str(fake_install),
    )
    data = json.loads(out)
    assert data["installed"] is True and data["up_to_date"] is True
    assert data["enabled"] == "enabled" and data["active"] == "active"
    assert data["linger"] is False


def test_install_print_changes_nothing(
    cli: typer.Typer, runner: CliRunner, fake_tools: Path, fake_install: Path, tmp_path: Path
) -> None:
    code, out, _ = _run(
        runner,
        cli,
        "service",
        "install",
        "--print",
        "--platform",
        "linux",
        "--executable",
        str(fake_install),
    )
    assert code == 0 and "[Service]" in out
    assert not _unit_path(tmp_path).exists()
    assert not fake_tools.exists()  # no command ran


def test_failing_systemctl_is_one_line_and_non_zero(
    cli: typer.Typer, runner: CliRunner, fake_tools: Path, fake_install: Path, tmp_path: Path
) -> None:
    write_script(
        tmp_path / "fakebin" / "systemctl",
        'echo "Failed to connect to bus: No medium found" >&2\nexit 1\n',
    )
    code, _out, err = _run(
        runner, cli, "service", "install", "--platform", "linux", "--executable", str(fake_install)
    )
    assert code != 0
    assert "No medium found" in err and "Traceback" not in err


def test_launchd_install_uninstall(
    cli: typer.Typer, runner: CliRunner, fake_tools: Path, fake_install: Path, tmp_path: Path
) -> None:
    plist_path = tmp_path / "userhome" / "Library" / "LaunchAgents" / "dev.sleepd.daemon.plist"
    code, _out, err = _run(
        runner, cli, "service", "install", "--platform", "macos", "--executable", str(fake_install)
    )
    assert code == 0, err
    assert plistlib.loads(plist_path.read_bytes())["ProgramArguments"][0] == str(fake_install)
    log = fake_tools.read_text()
    assert "launchctl bootstrap gui/" in log and str(plist_path) in log

    fake_tools.write_text("")  # second install: loaded and unchanged → nothing to do
    code, _out, _err = _run(
        runner, cli, "service", "install", "--platform", "macos", "--executable", str(fake_install)
    )
    assert code == 0
    assert "bootstrap" not in fake_tools.read_text()

    code, out, _ = _run(
        runner,
        cli,
        "service",
        "status",
        "--json",
        "--platform",
        "macos",
        "--executable",
        str(fake_install),
    )
    data = json.loads(out)
    assert data["loaded"] is True and data["pid"] == "4242" and data["up_to_date"] is True

    code, _out, _err = _run(runner, cli, "service", "uninstall", "--platform", "macos")
    assert code == 0
    assert "launchctl bootout gui/" in fake_tools.read_text()
    assert not plist_path.exists()


def test_launchd_reinstall_after_change_boots_out_first(
    cli: typer.Typer, runner: CliRunner, fake_tools: Path, fake_install: Path, tmp_path: Path
) -> None:
    _run(
        runner, cli, "service", "install", "--platform", "macos", "--executable", str(fake_install)
    )
    plist_path = tmp_path / "userhome" / "Library" / "LaunchAgents" / "dev.sleepd.daemon.plist"
    plist_path.write_text(
        plist_path.read_text().replace("<integer>10</integer>", "<integer>0</integer>")
    )
    fake_tools.write_text("")
    _run(
        runner, cli, "service", "install", "--platform", "macos", "--executable", str(fake_install)
    )
    commands = [line.split()[1] for line in fake_tools.read_text().splitlines()]
    assert commands == ["print", "bootout", "bootstrap"]
