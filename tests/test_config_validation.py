"""Config values that would disable a limit or break a command are refused with one line
naming the key (and never echoing a password)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sleepd.cli.app import app, run
from sleepd.config import load_config
from sleepd.errors import ConfigError

BAD = [
    ("[budget]\nmax_usd_per_night = nan", "budget.max_usd_per_night"),
    ("[budget]\nmax_usd_per_night = inf", "budget.max_usd_per_night"),
    ("[budget]\nmax_usd_per_night = -inf", "budget.max_usd_per_night"),
    ("[budget]\nmax_usd_per_night = 1e308", "budget.max_usd_per_night"),
    ("[budget]\nmax_tokens_per_night = 9999999999999999999", "budget.max_tokens_per_night"),
    ("[budget]\nmax_wall_minutes = nan", "budget.max_wall_minutes"),
    ("[gate]\nalpha = nan", "gate.alpha"),
    ("[dream]\nweight_success = inf", "dream.weight_success"),
    ("[dream]\nmax_edit_chars = 100000000000", "dream.max_edit_chars"),
    ("[harvest]\nmax_text_bytes = 9000000000000", "harvest.max_text_bytes"),
    ("[harvest]\ndebounce_seconds = nan", "harvest.debounce_seconds"),
    ("[schedule]\ncatchup_grace_hours = inf", "schedule.catchup_grace_hours"),
    ("[prices.my-model]\ninput = nan", "prices.my-model.input"),
    ("[prices.my-model]\noutput = 1e300", "prices.my-model.output"),
    ('database_url = "notaurl://x"', "database_url"),
    ('database_url = "mysql://u:p@host/db"', "database_url"),
    ('database_url = "postgresql+nosuchdriver://u@h/db"', "database_url"),
    ('database_url = "just words"', "database_url"),
    ('[backends]\nopenai_base_url = "ftp://models.example.com"', "backends.openai_base_url"),
    ('[backends]\nanthropic_base_url = "file:///etc/passwd"', "backends.anthropic_base_url"),
    ('[backends]\nanthropic_base_url = "https://"', "backends.anthropic_base_url"),
]


@pytest.mark.parametrize(("toml", "key"), BAD)
def test_bad_value_is_one_line_naming_the_key(
    toml: str, key: str, isolated_home: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    config = isolated_home / "config.toml"
    config.write_text(toml + "\n")
    with pytest.raises(ConfigError) as caught:
        load_config()
    assert key in str(caught.value) and "\n" not in str(caught.value)
    assert run(["config", "show"]) == 9
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and key in err and "Traceback" not in err


def test_password_in_a_bad_database_url_is_not_echoed(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    (isolated_home / "config.toml").write_text('database_url = "mysql://app:Hunter2Pw9@db/x"\n')
    assert run(["status"]) == 9
    err = capfd.readouterr().err
    assert "Hunter2Pw9" not in err and "database_url" in err
    (isolated_home / "config.toml").write_text("")
    monkeypatch.setenv("SLEEPD_DATABASE_URL", "oracle://app:Hunter2Pw9@db/x")
    assert run(["status"]) == 9
    err = capfd.readouterr().err
    assert "Hunter2Pw9" not in err and "SLEEPD_DATABASE_URL" in err


def test_good_values_still_load(isolated_home: Path) -> None:
    (isolated_home / "config.toml").write_text(
        'database_url = "sqlite:////tmp/x.db"\n[budget]\nmax_usd_per_night = 5000\n'
        '[backends]\nopenai_base_url = "http://127.0.0.1:11434/v1"\n'
    )
    cfg = load_config()
    assert cfg.budget.max_usd_per_night == 5000
    assert cfg.backends.openai_base_url.startswith("http://127.0.0.1")


@pytest.mark.parametrize("flag", ["--max-usd", "--max-minutes"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e308", "NaN"])
def test_cli_number_flags_refuse_non_finite_and_huge(flag: str, value: str) -> None:
    result = CliRunner().invoke(app, ["run", "--dry-run", "--backend", "sim", flag, value])
    assert result.exit_code == 2, result.output
    assert flag in result.output


def test_token_flag_bounded() -> None:
    result = CliRunner().invoke(app, ["run", "--dry-run", "--max-tokens", "1" + "0" * 20])
    assert result.exit_code == 2
