"""`sleepd search` finds its database as every command does, with or without a config file.

Search skips the config module when there is no config file and no database variable
(nothing to read or validate then); with a file it reads and validates the whole file
as before, so a database named there is the one searched and a bad key still fails
with one line.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from cli_here import sleepd_here

from sleepd.errors import ExitCode

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions" / "claude"


def harvest_samples(home: Path) -> None:
    project = home / "claude" / "projects" / "-home-user-app"
    project.mkdir(parents=True)
    for sample in sorted(FIXTURES.glob("*.jsonl"))[:3]:
        shutil.copyfile(sample, project / sample.name.rsplit("__", 1)[-1])
    assert sleepd_here("harvest", "--json").returncode == 0


def hit_ids(*args: str) -> list[int]:
    done = sleepd_here("search", *args, "--json")
    assert done.returncode == 0, done.stderr
    return [hit["event_id"] for hit in json.loads(done.stdout)]


def test_search_reads_the_database_the_config_file_names(isolated_home: Path) -> None:
    elsewhere = isolated_home / "elsewhere.db"
    config = isolated_home / "config.toml"
    config.write_text(f'database_url = "sqlite:///{elsewhere}"\n')
    harvest_samples(isolated_home)
    assert elsewhere.exists() and not (isolated_home / "sleepd-home" / "sleepd.db").exists()
    assert hit_ids("the")
    config.unlink()  # now the default file, which does not exist, is the database
    done = sleepd_here("search", "the")
    assert done.returncode == 0 and done.stderr.strip() == "no matches"


def test_a_bad_config_file_still_fails_search_with_one_line(isolated_home: Path) -> None:
    harvest_samples(isolated_home)
    (isolated_home / "config.toml").write_text("[mining]\nno_such_key = 1\n")
    done = sleepd_here("search", "the")
    assert done.returncode == ExitCode.CONFIG
    assert "mining.no_such_key" in done.stderr and len(done.stderr.strip().splitlines()) == 1
