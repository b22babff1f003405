"""Config validation: every bad value gives one line naming file, key, value and rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from sleepd.config import load_config
from sleepd.errors import ConfigError


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(body, encoding="utf-8")
    return path


def test_defaults_without_a_file(tmp_path: Path) -> None:
    cfg = load_config(tmp_path / "missing.toml")
    assert cfg.schedule.time == "03:30"
    assert cfg.gate.alpha == 0.05
    assert cfg.source_file is None
    assert cfg.provenance == {}


@pytest.mark.parametrize(
    ("body", "key", "allowed"),
    [
        ("[schedule]\ntime = '25:00'\n", "schedule.time", "HH:MM"),
        ("[schedule]\ntimezone = 'Mars/Olympus'\n", "schedule.timezone", "IANA timezone"),
        ("[gate]\nalpha = 2\n", "gate.alpha", "from 0.0001 to 0.5"),
        ("[gate]\nalpha = 'low'\n", "gate.alpha", "a number"),
        ("[budget]\nmax_usd_per_night = -1\n", "budget.max_usd_per_night", "from 0 to 10000"),
        ("[dream]\nrollouts_per_task = 2.5\n", "dream.rollouts_per_task", "an integer"),
        ("[backends]\ndefault = 'gpt'\n", "backends.default", "one of auto"),
        ("[sources]\nclaude = 'yes'\n", "sources.claude", "true or false"),
        ("[gate]\nalhpa = 0.1\n", "gate.alhpa", "a known key"),
        ("[nonsense]\nx = 1\n", "nonsense", "a known section"),
        ("[roles.critic]\nbackend = 'sim'\n", "roles.critic", "a role"),
        (
            "[[targets]]\nproject = '/p'\npath = 'X.md'\nkind = 'readme'\n",
            "targets[0].kind",
            "one of skill",
        ),
        ("[prices.'m1']\ninput = -3\n", "prices.m1.input", "from 0 to 100000"),
        (
            "[mining]\ncorrection_patterns = ['(unclosed']\n",
            "mining.correction_patterns",
            "regular expression",
        ),
        (
            "[mining]\napproval_patterns = ['(?i)ship it']\n",
            "mining.approval_patterns",
            "regular expression",
        ),
    ],
)
def test_bad_values_give_one_clear_line(tmp_path: Path, body: str, key: str, allowed: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    assert key in message
    assert allowed in message


def test_invalid_toml_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, "[schedule\ntime=")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


def test_file_values_and_provenance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(
        tmp_path,
        "database_url = 'sqlite:////tmp/x.db'\n[schedule]\ntime = '04:15'\ntimezone = 'UTC'\n"
        "[roles.judge]\nbackend = 'openai'\nmodel = 'gpt-x'\n"
        "[[targets]]\nproject = '/work/p'\npath = 'AGENTS.md'\nkind = 'agents'\n",
    )
    monkeypatch.setenv("SLEEPD_DATABASE_URL", "sqlite:////tmp/env.db")
    cfg = load_config(path)
    assert cfg.schedule.time == "04:15"
    assert cfg.provenance["schedule.time"] == "file"
    assert cfg.database_url == "sqlite:////tmp/env.db"
    assert cfg.provenance["database_url"] == "env:SLEEPD_DATABASE_URL"
    assert cfg.role("judge").backend == "openai"
    assert cfg.role("target").backend == "auto"
    assert cfg.targets[0].path == "/work/p/AGENTS.md"


def test_cli_reports_bad_config_without_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess
    import sys

    path = write(tmp_path, "[gate]\nalpha = 7\n")
    monkeypatch.setenv("SLEEPD_CONFIG", str(path))
    proc = subprocess.run(
        [sys.executable, "-c", "from sleepd.cli.app import main; main()", "config", "show"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 9
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().count("\n") == 0
    assert "gate.alpha = 7" in proc.stderr
