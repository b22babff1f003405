"""The planted-secret suite: secrets of ~50 kinds planted in every field of Claude Code
and Codex transcripts (fresh values each run; the seed is printed), then harvest, mine,
and a night through the real Anthropic SDK against a loopback server. Nothing planted
may be found in the database file, its WAL, the full-text index, the logs, temp files,
the CLI's output, or any request sent to the model.

Run with `-s` to see the figures (planted / found per field and per place searched).
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from sleepd.cli.app import run
from tests.backends.fake_providers import FakeAnthropic

from .plant import Planted, iter_files, plant_corpus
from .secrets_kit import unescaped


@pytest.fixture
def anthropic() -> Iterator[FakeAnthropic]:
    server = FakeAnthropic().start()
    yield server
    server.stop()


def _fts_terms(db_file: Path) -> set[str]:
    """Every term of every FTS5 index, read through fts5vocab on a copy of the database."""
    copy = db_file.with_name("fts-scan.db")
    src = sqlite3.connect(db_file)
    dst = sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    terms: set[str] = set()
    tables = [
        row[0]
        for row in dst.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND sql LIKE '%USING fts5%'"
        )
    ]
    for table in tables:
        dst.execute(f"CREATE VIRTUAL TABLE temp.v_{table} USING fts5vocab(main, {table}, row)")
        terms.update(row[0] for row in dst.execute(f"SELECT term FROM temp.v_{table}"))
    dst.close()
    copy.unlink()
    assert tables, "no full-text index found: the FTS scan would prove nothing"
    return terms


def _pieces(value: str) -> list[str]:
    """The long alphanumeric runs of a secret, lowercased: what an FTS index would hold."""
    out, run_ = [], []
    for ch in value:
        if ch.isalnum():
            run_.append(ch.lower())
        else:
            if len(run_) >= 16:
                out.append("".join(run_))
            run_ = []
    if len(run_) >= 16:
        out.append("".join(run_))
    return out


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""  # removed while we looked: nothing left to leak


def _found_in(blob: bytes, planted: list[Planted]) -> list[Planted]:
    plain = unescaped(blob)
    hits = []
    for item in planted:
        needles = [n.encode() for n in item.secret.needles()]
        if any(n in blob or n in plain for n in needles):
            hits.append(item)
    return hits


def test_no_planted_secret_is_stored_logged_or_sent(
    isolated_home: Path,
    anthropic: FakeAnthropic,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    seed = int.from_bytes(os.urandom(6), "big")
    print(f"\nplanted-secret seed: {seed}")
    planter = plant_corpus(isolated_home / "claude", isolated_home / "codex", seed)
    planted = planter.planted
    home = isolated_home / "sleepd-home"
    (isolated_home / "config.toml").write_text(
        f'[backends]\nanthropic_base_url = "{anthropic.url}"\nmax_retries = 0\n'
        "batch_poll_seconds = 1\n"  # should a poll fail: again after a second, not half a minute
        "[dream]\nmin_tasks = 2\n[budget]\nmax_usd_per_night = 5\n"
    )
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key-not-secret")
    # Batches end at their first poll: what is sent and stored is under test here, not the
    # waiting (tests/dream/test_executor.py), which would idle this worker a second a batch.
    anthropic.polls_until_ended = 0
    # The system temp folder is this test's own, so whatever lands there is ours to scan;
    # /dev/shm is shared with the machine: only sleepd's own names there.
    system_tmp = isolated_home / "system-tmp"
    system_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(system_tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(system_tmp))
    shm = Path("/dev/shm")
    before = set(iter_files(shm)) if shm.exists() else set()

    outputs = []
    for argv in (
        ["harvest"],
        ["mine"],
        ["run", "--backend", "anthropic"],
        ["search", "token"],
        ["tasks", "list"],
        ["patterns"],
        ["status"],
    ):
        code = run(argv)
        out, err = capfd.readouterr()
        outputs.append(out + err)
        assert code in (0, 8), (argv, code, err[-2000:])  # status --check style 8 allowed

    assert anthropic.requests, "the night sent nothing: the outbound scan would prove nothing"
    places: dict[str, bytes] = {}
    db = home / "sleepd.db"
    places["database file"] = db.read_bytes()
    places["database WAL/SHM"] = b"".join(
        p.read_bytes() for p in (home / "sleepd.db-wal", home / "sleepd.db-shm") if p.exists()
    )
    places["logs"] = b"".join(p.read_bytes() for p in iter_files(home / "logs"))
    places["temp files (home)"] = b"".join(p.read_bytes() for p in iter_files(home / "tmp"))
    new_shm = [p for p in (iter_files(shm) if shm.exists() else ()) if p not in before]
    new_tmp = [*iter_files(system_tmp), *(p for p in new_shm if "sleepd" in str(p))]
    places["temp files (system)"] = b"".join(_read(p) for p in new_tmp)
    places["outbound requests"] = b"\n".join(
        seen.body + repr(seen.headers).encode() for seen in anthropic.requests
    )
    places["CLI output"] = "\n".join(outputs).encode()

    found: dict[str, list[Planted]] = {
        name: _found_in(blob, planted) for name, blob in places.items()
    }
    terms = _fts_terms(db)
    found["full-text index"] = [
        item for item in planted if any(piece in terms for piece in _pieces(item.secret.value))
    ]

    by_field = Counter(item.location for item in planted)
    leaked_fields: dict[str, set[str]] = defaultdict(set)
    for place, hits in found.items():
        for item in hits:
            leaked_fields[item.location].add(place)
    print(
        f"planted {len(planted)} secrets of {len({i.secret.kind for i in planted})} kinds"
        f" in {len(by_field)} fields; {len(anthropic.requests)} requests captured"
    )
    for place, hits in found.items():
        print(f"  {place:<22} found {len(hits)}")
    for field, count in sorted(by_field.items()):
        where = ", ".join(sorted(leaked_fields.get(field, ()))) or "-"
        print(f"  {field:<40} planted {count:>3}  leaked to: {where}")
    outbound = places["outbound requests"]
    assert b"Branch: fix/[REDACTED:" in outbound, "no planted branch reached a prompt"
    leaks = {
        place: sorted({f"{i.location} ({i.secret.kind})" for i in hits})
        for place, hits in found.items()
        if hits
    }
    assert not leaks, f"seed {seed}: planted secrets stored, logged or sent: {leaks}"
