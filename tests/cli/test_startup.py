"""Start-up loads only what a command uses.

Building the CLI, and running the commands people type and wait for on a home with data
(`--version`, `--help`, `status`, `search`, an unchanged `harvest`, an idle `mine`, `nights`,
`review list`, `tasks list`, `patterns`), must not
import the database layer, scikit-learn or the model SDKs. Each command runs in a fresh
interpreter that reports which of those modules it loaded: a guarantee, not a timing (the
timings are in bench/speed.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_here import sleepd_here

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions" / "claude"
HEAVY = (
    "sqlalchemy",
    "alembic",
    "sklearn",
    "scipy",
    "numpy",
    "anthropic",
    "openai",
    "httpx",
    "apscheduler",
    "watchdog",
    "sleepd.store.models",
    "sleepd.mining.mine",
)

PROBE = """
import json, os, sys
args = json.loads(sys.argv[1])
code = 0
try:
    if args == ["<build>"]:
        from typer.main import get_command
        from sleepd.cli.app import app
        get_command(app)
    else:
        from sleepd.cli.app import main
        sys.argv = ["sleepd", *args]
        main()
except SystemExit as exc:
    code = exc.code if isinstance(exc.code, int) else 1
heavy = json.loads(os.environ["PROBE_HEAVY"])
loaded = sorted(h for h in heavy if any(m == h or m.startswith(h + ".") for m in sys.modules))
with open(os.environ["PROBE_OUT"], "w") as out:
    json.dump({"code": code, "loaded": loaded}, out)
"""


def probe(args: list[str], tmp_path: Path, heavy: tuple[str, ...] = HEAVY) -> dict[str, object]:
    out = tmp_path / "probe.json"
    env = {**os.environ, "PROBE_OUT": str(out), "PROBE_HEAVY": json.dumps(heavy)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert out.exists(), done.stderr
    result: dict[str, object] = json.loads(out.read_text())
    result["stderr"] = done.stderr
    return result


def sleepd(*args: str) -> None:
    """`sleepd ARGS` in this process: it prepares a home; what a command loads is probed
    in a fresh interpreter (`probe`)."""
    done = sleepd_here(*args)
    assert done.returncode == 0, done.stderr


@pytest.fixture
def harvested_home(isolated_home: Path) -> Path:
    """A few real sessions, harvested and mined once (as a user's home is on any later day)."""
    project = isolated_home / "claude" / "projects" / "-home-user-app"
    project.mkdir(parents=True)
    for sample in sorted(FIXTURES.glob("*.jsonl"))[:3]:
        shutil.copyfile(sample, project / (sample.name.rsplit("__", 1)[-1]))
    sleepd("harvest", "--json")
    sleepd("mine", "--json")
    return isolated_home


def test_building_the_cli_loads_no_heavy_module(tmp_path: Path) -> None:
    result = probe(["<build>"], tmp_path)
    assert result["code"] == 0, result["stderr"]
    assert result["loaded"] == []


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["status", "--json"]])
def test_commands_on_an_empty_home_load_no_heavy_module(args: list[str], tmp_path: Path) -> None:
    result = probe(args, tmp_path)
    assert result["code"] == 0, result["stderr"]
    assert result["loaded"] == []


def test_the_waited_for_commands_load_no_heavy_module(harvested_home: Path, tmp_path: Path) -> None:
    for args in (
        ["status", "--json"],
        ["status"],
        ["search", "error", "--json"],
        ["harvest", "--json"],  # nothing changed since the last harvest
        ["mine", "--json"],  # nothing new since the last pass
        ["nights", "--json"],
        ["review", "list", "--json"],
        ["tasks", "list", "--json"],
        ["patterns", "--all", "--json"],
    ):
        result = probe(args, tmp_path)
        assert result["code"] == 0, (args, result["stderr"])
        assert result["loaded"] == [], args


def test_an_idle_mine_is_recorded_and_new_data_still_gets_mined(
    harvested_home: Path, tmp_path: Path
) -> None:
    project = harvested_home / "claude" / "projects" / "-home-user-app"
    sample = sorted(FIXTURES.glob("*.jsonl"))[3]
    shutil.copyfile(sample, project / sample.name.rsplit("__", 1)[-1])
    sleepd("harvest", "--json")
    result = probe(["mine", "--json"], tmp_path)
    assert result["code"] == 0, result["stderr"]
    assert "scipy" in result["loaded"]  # a real pass ran for the new session
    assert probe(["mine", "--json"], tmp_path)["loaded"] == []


def test_an_idle_mine_does_not_build_the_typer_app(harvested_home: Path, tmp_path: Path) -> None:
    for args in (["mine", "--json"], ["mine"]):
        result = probe(args, tmp_path, (*HEAVY, "typer", "click"))
        assert result["code"] == 0, (args, result["stderr"])
        assert result["loaded"] == [], args


def test_search_does_not_build_the_typer_app(harvested_home: Path, tmp_path: Path) -> None:
    """The command people type most runs without typer and click (and, in JSON, rich)."""
    for args, heavy in (
        (["search", "error", "--json"], (*HEAVY, "typer", "click", "rich")),
        # the table view: no JSON encoder, no config module without a config file, and
        # every cell a rich Text (a plain string would load the markup's emoji table)
        (
            ["search", "error", "--limit", "3"],
            (*HEAVY, "typer", "click", "orjson", "sleepd.config", "rich._emoji_codes"),
        ),
        (["search", "nosuchwordanywhere"], (*HEAVY, "typer", "click", "rich")),
    ):
        result = probe(args, tmp_path, heavy)
        assert result["code"] == 0, (args, result["stderr"])
        assert result["loaded"] == [], args


def test_a_harvest_of_new_lines_loads_no_heavy_module(harvested_home: Path, tmp_path: Path) -> None:
    """On a SQLite store, new transcript lines are stored through the stdlib driver."""
    import sqlite3

    project = harvested_home / "claude" / "projects" / "-home-user-app"
    sample = sorted(FIXTURES.glob("*.jsonl"))[3]
    shutil.copyfile(sample, project / sample.name.rsplit("__", 1)[-1])
    db_file = harvested_home / "sleepd-home" / "sleepd.db"

    def stored() -> tuple[int, int]:
        conn = sqlite3.connect(db_file)
        try:
            events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
            runs = conn.execute(
                "SELECT count(*) FROM job_runs WHERE job = 'harvest' AND outcome = 'ok'"
            ).fetchone()[0]
        finally:
            conn.close()
        return events, runs

    before = stored()
    result = probe(["harvest", "--json"], tmp_path)
    assert result["code"] == 0, result["stderr"]
    assert result["loaded"] == []
    after = stored()
    assert after[0] > before[0] and after[1] == before[1] + 1


def test_harvest_does_not_build_the_typer_app(harvested_home: Path, tmp_path: Path) -> None:
    """A plain `sleepd harvest` runs without typer and click, and reads no package
    metadata (only a plugin source needs entry points); an unchanged one in JSON, nor
    rich; neither starts a worker pool's modules unless workers start."""
    lean = (*HEAVY, "typer", "click", "importlib.metadata", "concurrent.futures")
    for args, heavy in (
        (["harvest", "--json"], (*lean, "rich")),
        (["harvest", "--json", "--source", "claude"], (*lean, "rich")),
        (["harvest"], lean),
    ):
        result = probe(args, tmp_path, heavy)
        assert result["code"] == 0, (args, result["stderr"])
        assert result["loaded"] == [], args
    project = harvested_home / "claude" / "projects" / "-home-user-app"
    sample = sorted(FIXTURES.glob("*.jsonl"))[3]
    shutil.copyfile(sample, project / sample.name.rsplit("__", 1)[-1])
    result = probe(["harvest", "--json", "--jobs", "1"], tmp_path, lean)
    assert result["code"] == 0, result["stderr"]
    assert result["loaded"] == []
