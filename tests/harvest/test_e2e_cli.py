"""`sleepd harvest`, `sleepd search` and `sleepd status` over the harvested corpus."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

from e2e_support import query
from typer.testing import CliRunner

from sleepd.cli.app import app

CODEX_PROJECT = "/home/user/projects/temp/chatbot-ui"


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout)


def test_harvest_json_reports_the_contract_figures(corpus_tree: Path, db_file: Path) -> None:
    detail = invoke("harvest")
    for key in ("files_scanned", "sessions_new", "events_new", "malformed_lines", "bytes_read"):
        assert isinstance(detail[key], int), key
    assert set(detail["per_source"]) == {"claude", "codex"}
    for source, per in detail["per_source"].items():
        [(sessions, events)] = query(
            db_file,
            "SELECT count(DISTINCT s.id), count(e.id) FROM sessions s "
            "LEFT JOIN events e ON e.session_id = s.id WHERE s.source = ?",
            (source,),
        )
        assert (per["sessions_new"], per["events_new"]) == (sessions, events)
    assert detail["files_scanned"] == 13
    assert detail["events_new"] == sum(p["events_new"] for p in detail["per_source"].values())
    corpus_bytes = sum(
        p.stat().st_size for p in corpus_tree.rglob("*.jsonl") if "sleepd-home" not in p.parts
    )
    assert detail["bytes_read"] == corpus_bytes
    assert invoke("harvest")["events_new"] == 0


def test_search_finds_events_with_session_and_time_and_filters(corpus_tree: Path) -> None:
    invoke("harvest")
    hits = invoke("search", "chatbot")
    assert hits
    for hit in hits:
        assert hit["session_external_id"] and hit["source"] in ("claude", "codex")
        assert "chatbot" in hit["snippet"].lower()
    dated = [h for h in hits if h["ts"]]
    assert dated and all(datetime.fromisoformat(h["ts"]) for h in dated)

    codex_only = invoke("search", "chatbot", "--source", "codex")
    assert codex_only and {h["source"] for h in codex_only} == {"codex"}
    in_project = invoke("search", "chatbot", "--project", CODEX_PROJECT)
    assert in_project and {h["project_path"] for h in in_project} == {CODEX_PROJECT}
    assert invoke("search", "chatbot", "--project", "/no/such/project") == []
    assert invoke("search", "zzqqxxnotawordanywhere") == []


def test_status_per_source_figures_match_the_database(corpus_tree: Path, db_file: Path) -> None:
    invoke("harvest")
    report = invoke("status")
    sources = report["harvest"]["sources"]
    for source in ("claude", "codex"):
        figures = sources[source]
        [(files, malformed)] = query(
            db_file,
            "SELECT count(*), coalesce(sum(malformed_lines), 0) FROM transcript_files "
            "WHERE source = ?",
            (source,),
        )
        [(sessions, oldest, newest)] = query(
            db_file,
            "SELECT count(*), min(started_at), max(started_at) FROM sessions WHERE source = ?",
            (source,),
        )
        [(events, tool_errors)] = query(
            db_file,
            "SELECT count(*), coalesce(sum(e.kind = 'error' AND e.role = 'tool'), 0) "
            "FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.source = ?",
            (source,),
        )
        assert (figures["files"], figures["malformed_lines"]) == (files, malformed)
        assert (figures["sessions"], figures["events"]) == (sessions, events)
        assert figures["tool_errors"] == tool_errors
        assert figures["redactions"] == 0  # the corpus was scrubbed by its publishers
        assert figures["last_harvest"] is not None
        assert _same_instant(figures["oldest_session"], oldest)
        assert _same_instant(figures["newest_session"], newest)
    assert sources["claude"]["tool_errors"] > 0
    assert (sources["claude"]["sessions"], sources["codex"]["sessions"]) == (9, 3)
    assert sources["claude"]["files"] == 10


def _same_instant(reported: str, stored: str) -> bool:
    parsed = datetime.fromisoformat(reported)
    raw = datetime.fromisoformat(stored)
    return parsed.replace(tzinfo=None) == raw.replace(tzinfo=None) or parsed == raw


def test_status_warns_when_claude_cleans_up_after_one_day(isolated_home: Path) -> None:
    assert not any("cleanupPeriodDays" in w for w in invoke("status")["warnings"])
    settings = isolated_home / "claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"cleanupPeriodDays": 1}))
    warnings = invoke("status")["warnings"]
    assert any("cleanupPeriodDays is 1" in w for w in warnings), warnings


def test_a_harvest_with_jobs_and_a_progress_bar_on_a_terminal(
    corpus_tree: Path, db_file: Path
) -> None:
    """`--jobs 2` parses in two worker processes beside rich's refresh thread."""
    (corpus_tree / "config.toml").write_text("[harvest]\nparallel_min_mb = 0\n")
    primary, secondary = os.openpty()
    seen = bytearray()

    def drain() -> None:
        while True:
            try:
                chunk = os.read(primary, 4096)
            except OSError:  # the child closed its end
                return
            if not chunk:
                return
            seen.extend(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        done = subprocess.run(
            [str(Path(sys.executable).with_name("sleepd")), "harvest", "--jobs", "2"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=secondary,
            env=os.environ.copy(),
            timeout=120,
        )
    finally:
        os.close(secondary)
        reader.join(timeout=10)
        os.close(primary)
    assert done.returncode == 0, seen.decode(errors="replace")
    assert b"harvest claude" in seen  # the bar was drawn on the terminal
    [(detail,)] = query(db_file, "SELECT detail FROM job_runs WHERE job = 'harvest'")
    per_source = json.loads(detail)["per_source"]
    assert {per["worker_start"] for per in per_source.values()} == {"spawn"}
    assert {per["workers"] for per in per_source.values()} == {2}
    assert json.loads(detail)["errors"] == 0


def test_a_big_harvest_uses_one_worker_per_cpu_unless_told_otherwise(
    corpus_tree: Path, db_file: Path
) -> None:
    """The first harvest of a history is the one big one: by default it parses on every
    CPU (at most four; none on one CPU), with no `--jobs` and no config for it."""
    from sleepd.harvest.run import AUTO_MAX_WORKERS, usable_cpus

    (corpus_tree / "config.toml").write_text("[harvest]\nparallel_min_mb = 0\n")
    done = subprocess.run(
        [str(Path(sys.executable).with_name("sleepd")), "harvest", "--json"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=os.environ.copy(),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    cpus = usable_cpus()
    expected = min(cpus, AUTO_MAX_WORKERS) if cpus >= 2 else 0
    [(detail,)] = query(db_file, "SELECT detail FROM job_runs WHERE job = 'harvest'")
    assert {per["workers"] for per in json.loads(detail)["per_source"].values()} == {expected}
    assert json.loads(detail)["errors"] == 0
