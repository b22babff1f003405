"""Rendered service files: systemd-analyze verify is silent; the plist parses."""

from __future__ import annotations

import os
import plistlib
import shutil
import subprocess
from pathlib import Path

import pytest

from sleepd.daemon.service import (
    ServiceSpec,
    build_spec,
    render_launchd_plist,
    render_systemd_unit,
)

from .fakes import write_script

HARDENING = (
    "PrivateUsers=yes",
    "ProtectSystem=strict",
    "PrivateTmp=yes",
    "PrivateMounts=yes",
    "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK",
    "SystemCallFilter=@system-service",
    "SystemCallArchitectures=native",
    "NoNewPrivileges=yes",
    "UMask=0077",
)

SYSTEMD_ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"


def _verify(unit_text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    unit_dir = tmp_path / "units"
    unit_dir.mkdir()
    unit = unit_dir / "sleepd.service"
    unit.write_text(unit_text)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "SYSTEMD_LOG_LEVEL": "notice"}
    return subprocess.run(
        [SYSTEMD_ANALYZE, "verify", "--user", str(unit)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.mark.skipif(not Path(SYSTEMD_ANALYZE).exists(), reason="systemd-analyze is not installed")
def test_unit_passes_systemd_analyze_verify_silently(fake_install: Path, tmp_path: Path) -> None:
    spec = build_spec(str(fake_install))
    result = _verify(render_systemd_unit(spec), tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and result.stderr == "", result.stdout + result.stderr


@pytest.mark.skipif(not Path(SYSTEMD_ANALYZE).exists(), reason="systemd-analyze is not installed")
def test_verify_would_catch_a_bad_key(fake_install: Path, tmp_path: Path) -> None:
    """Guard for the test above: the checker does report what it should."""
    text = render_systemd_unit(build_spec(str(fake_install))).replace(
        "Nice=10", "Nice=10\nNoSuchOption=1"
    )
    result = _verify(text, tmp_path)
    assert "NoSuchOption" in result.stdout + result.stderr


def test_unit_contents(fake_install: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLEEPD_HOME", "/data/sleepd home")
    text = render_systemd_unit(build_spec(str(fake_install)))
    lines = text.splitlines()
    assert f"ExecStart={fake_install} daemon" in lines
    assert "Type=notify" in lines and "NotifyAccess=main" in lines
    assert 'Environment="SLEEPD_HOME=/data/sleepd home"' in lines
    path_line = next(line for line in lines if line.startswith("Environment=PATH="))
    assert str(fake_install.parent) in path_line
    for required in (
        "Restart=on-failure",
        "TimeoutStopSec=30",
        "Nice=10",
        "IOSchedulingClass=idle",
        "CPUSchedulingPolicy=batch",
        "NoNewPrivileges=yes",
        "WantedBy=default.target",
    ):
        assert required in lines
    assert any(line.startswith("WatchdogSec=") for line in lines)
    for hardening in HARDENING:
        assert hardening in lines, hardening
    rw = next(line for line in lines if line.startswith("ReadWritePaths="))
    assert '"-/data/sleepd home"' in rw
    assert not any(line.startswith("MemoryDenyWriteExecute") for line in lines)  # see docs
    assert "@" not in text.replace("sleepd@", "").replace("=@system-service", "")


def test_sleepd_home_and_config_always_pinned(
    fake_install: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unset in the shell, they are still written: the service's own XDG dirs may differ."""
    from sleepd import paths

    monkeypatch.delenv("SLEEPD_HOME", raising=False)
    monkeypatch.delenv("SLEEPD_CONFIG", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "/xdg/data")
    spec = build_spec(str(fake_install))
    assert spec.environment["SLEEPD_HOME"] == str(paths.home_dir().absolute())
    assert spec.environment["SLEEPD_CONFIG"] == str(paths.config_file().absolute())
    assert "SLEEPD_HOME" not in spec.carried


def test_agent_cli_dirs_join_the_path(
    fake_install: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = tmp_path / "tools"
    write_script(tools / "claude", "exit 0\n")
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    spec = build_spec(str(fake_install))
    assert str(tools) in spec.environment["PATH"].split(":")


def test_special_characters_are_escaped(tmp_path: Path) -> None:
    odd = write_script(tmp_path / "dir with %n and $x" / "sleepd", "exit 0\n")
    text = render_systemd_unit(ServiceSpec(executable=odd, environment={"PATH": "/bin"}))
    exec_line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    assert exec_line == f'ExecStart="{tmp_path}/dir with %%n and $$x/sleepd" daemon'


def test_plist_parses_with_expected_keys(fake_install: Path, tmp_path: Path) -> None:
    spec = ServiceSpec(
        executable=fake_install,
        environment={"PATH": "/opt/a & b:/usr/bin", "SLEEPD_HOME": "/x"},
        log_dir=tmp_path / "logs",
    )
    plist = plistlib.loads(render_launchd_plist(spec).encode())
    assert plist["Label"] == "dev.sleepd.daemon"
    assert plist["ProgramArguments"] == [str(fake_install), "daemon"]
    assert plist["RunAtLoad"] is True
    assert plist["KeepAlive"] == {"SuccessfulExit": False}
    assert plist["ProcessType"] == "Background"
    assert plist["LowPriorityIO"] is True
    assert plist["Nice"] == 10
    assert plist["StandardOutPath"] == str(tmp_path / "logs" / "launchd.out.log")
    assert plist["StandardErrorPath"] == str(tmp_path / "logs" / "launchd.err.log")
    assert plist["EnvironmentVariables"] == {"PATH": "/opt/a & b:/usr/bin", "SLEEPD_HOME": "/x"}
