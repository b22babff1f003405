"""Every field a harvest stores passes redaction: no planted secret reaches any file.

Secrets are planted in every place a transcript can carry a string that ends up
stored — titles, parse state (queued messages, pending events, token totals),
session meta (PR links, subagent descriptions, repository URLs), branch names,
ids and names, clipped texts, JSON-escaped forms — and the database file, its WAL,
the home folder and the temporary folders are then searched byte for byte.
"""

from __future__ import annotations

import random
import sqlite3
import string
import tempfile
from pathlib import Path
from typing import Any

import orjson
import pytest
from e2e_support import query

from sleepd.harvest import harvest

ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
CLAUDE_SID = "5ec2e75e-0000-4000-8000-000000000001"
CODEX_SID = "019e5ec2-0000-7000-8000-000000000002"


class Secrets:
    """A fresh secret of a detectable kind per field, remembered for the final search."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.planted: dict[str, str] = {}  # field -> the part that must never be stored

    def _r(self, alphabet: str, n: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def github(self, field: str) -> str:
        core = self._r(ALNUM, 36)
        self.planted[field] = core
        return "ghp_" + core

    def google(self, field: str) -> str:
        core = self._r(ALNUM + "-_", 35)
        self.planted[field] = core
        return "AIza" + core

    def anthropic(self, field: str) -> str:
        core = self._r(ALNUM, 93)
        self.planted[field] = core
        return f"sk-ant-api03-{core}AA"

    def assignment(self, field: str) -> str:
        """A secret with no prefix of its own, known only by the name it is given: what
        the generic rule finds (`api_key: …`, `token=…`), and what a short field joined
        to the next one once hid. It holds a digit: a value of letters only is an
        identifier to the generic rule, as to gitleaks (docs/redaction.md)."""
        core = self._r(ALNUM, 23)
        core = core[:11] + self._r(string.digits, 1) + core[11:]
        self.planted[field] = core
        name = self.rng.choice(("api_key: ", "token=", "client_secret=", "auth_token: "))
        return name + core

    def private_key(self, field: str) -> str:
        lines = [self._r(B64, 64) for _ in range(8)]
        for number, body_line in enumerate(lines):
            self.planted[f"{field} line {number}"] = body_line
        body = "\n".join(lines)
        return f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"


def jline(record: Any) -> bytes:
    return orjson.dumps(record) + b"\n"


def claude_files(home: Path, s: Secrets) -> None:
    project = home / "claude" / "projects" / "-work-secret-fields"
    project.mkdir(parents=True, exist_ok=True)
    base = {
        "sessionId": CLAUDE_SID,
        "timestamp": "2026-06-05T05:00:00.000Z",
        "cwd": "/work/" + s.github("cwd"),
        "gitBranch": "fix/" + s.google("gitBranch"),
        "version": "2.1." + s.github("version"),
    }
    filler = "x" * 600
    big_filler = "y" * (70 * 1024)
    records: list[bytes] = [
        jline({**base, "type": "user", "uuid": "u-1", "message": {"content": "hello"}}),
        jline({**base, "type": "ai-title", "aiTitle": "deploy " + s.github("ai-title")}),
        jline({**base, "type": "custom-title", "customTitle": "my " + s.github("custom-title")}),
        jline({**base, "type": "pr-link", "prUrl": "https://h/p/1?t=" + s.github("pr-link")}),
        jline({**base, "type": "permission-mode", "permissionMode": s.github("permission")}),
        jline({**base, "type": "permission-mode", "permissionMode": s.assignment("mode kv")}),
        jline(
            {
                **base,
                "type": "worktree-state",
                "worktreeSession": {"worktreePath": "/w/" + s.github("worktree")},
            }
        ),
        jline(
            {
                **base,
                "type": "queue-operation",
                "operation": "enqueue",
                "content": "later use " + s.github("queued message"),
            }
        ),
        jline(
            {
                **base,
                "type": "assistant",
                "uuid": "u-" + s.github("uuid"),
                "message": {
                    "id": "msg_" + s.github("message id"),
                    "model": "claude-" + s.github("model"),
                    "content": [
                        {
                            "type": "tool_use",
                            "id": "toolu_" + s.github("call id"),
                            "name": "Bash_" + s.github("tool name"),
                            "input": {"command": "echo " + s.anthropic("tool input")},
                        },
                        {
                            "type": "tool_use",
                            "id": s.assignment("call id kv"),
                            "name": s.assignment("tool name kv"),
                            "input": {},
                        },
                    ],
                },
            }
        ),
        jline(
            {
                **base,
                "type": "user",
                "uuid": "u-3",
                "message": {
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "t1",
                            "is_error": True,
                            # the error event keeps 500 bytes: the key starts inside them
                            "content": filler[:450] + "\n" + s.private_key("error clip"),
                        }
                    ]
                },
            }
        ),
        jline(
            {
                **base,
                "type": "user",
                "uuid": "u-4",
                "message": {
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "t2",
                            # the text keeps 64 KiB: the key straddles the cut
                            "content": big_filler[: 64 * 1024 - 200]
                            + "\n"
                            + s.private_key("text clip"),
                        }
                    ]
                },
            }
        ),
        # An unknown record kind is stored as its raw line, here with a JSON escape.
        b'{"type":"future-kind","uuid":"u-5","sessionId":"%s","note":"\\u0073k-ant-api03-%sAA"}\n'
        % (CLAUDE_SID.encode(), s.anthropic("escaped raw")[len("sk-ant-api03-") : -2].encode()),
        jline({**base, "type": "g" + s.github("record type"), "uuid": "u-6"}),
    ]
    (project / f"{CLAUDE_SID}.jsonl").write_bytes(b"".join(records))

    # Events before any session id wait in the parse state (pending).
    orphan = project / "5ec2e75e-0000-4000-8000-0000000000ff.jsonl"
    orphan.write_bytes(
        jline({"type": "user", "uuid": "p-1", "message": {"content": s.github("pending event")}})
    )

    sub = project / CLAUDE_SID / "subagents"
    sub.mkdir(parents=True)
    (sub / "agent-a1.jsonl").write_bytes(
        jline({**base, "type": "user", "uuid": "s-1", "message": {"content": "sub task"}})
    )
    (sub / "agent-a1.meta.json").write_bytes(
        orjson.dumps(
            {
                "agentType": "t-" + s.github("agent type"),
                "description": "use " + s.github("subagent description"),
                "name": s.assignment("subagent name kv"),
            }
        )
    )


def codex_file(home: Path, s: Secrets) -> None:
    folder = home / "codex" / "sessions" / "2026" / "06" / "05"
    folder.mkdir(parents=True, exist_ok=True)
    ts = "2026-06-05T05:00:00.000Z"
    header = {
        "timestamp": ts,
        "type": "session_meta",
        "payload": {
            "id": CODEX_SID,
            "timestamp": ts,
            "cwd": "/work/" + s.github("codex cwd"),
            "cli_version": s.github("cli version"),
            "originator": s.github("originator"),
            "agent_nickname": s.assignment("codex nickname kv"),
            "git": {
                "repository_url": "https://x-access-token:"
                + s.github("repository url")
                + "@github.com/o/r.git",
                "branch": "feat/" + s.google("codex branch"),
                "commit_hash": s.github("commit hash"),
            },
        },
    }
    escaped = s.anthropic("escaped arguments")[len("sk-ant-api03-") : -2]
    lines = [
        jline(header),
        jline({"timestamp": ts, "type": "turn_context", "payload": {"model": s.github("c-model")}}),
        jline(
            {
                "timestamp": ts,
                "type": "turn_context",
                "payload": {"model": s.assignment("codex model kv")},
            }
        ),
        # function-call arguments are a JSON document in a string, here with an escape
        b'{"timestamp":"%s","type":"response_item","payload":{"type":"function_call",'
        b'"name":"shell","call_id":"c1",'
        b'"arguments":"{\\"cmd\\":\\"echo \\\\u0073k-ant-api03-%sAA\\"}"}}\n'
        % (ts.encode(), escaped.encode()),
        jline(
            {
                "timestamp": ts,
                "type": "response_item",
                "payload": {
                    "type": "custom_tool_call",
                    "name": "n-" + s.github("custom tool name"),
                    "call_id": "c2",
                    "input": "x",
                },
            }
        ),
        jline(
            {
                "timestamp": ts,
                "type": "response_item",
                "payload": {
                    "type": "custom_tool_call",
                    "name": s.assignment("custom tool name kv"),
                    "call_id": s.assignment("codex call id kv"),
                    "input": "x",
                },
            }
        ),
        jline(
            {
                "timestamp": ts,
                "type": "event_msg",
                "payload": {
                    "type": "token_count",
                    "info": {
                        "total_token_usage": {"note": s.github("token total")},
                        "last_token_usage": {"input_tokens": 3, "output_tokens": 4},
                    },
                },
            }
        ),
        jline(
            {
                "timestamp": ts,
                "type": "event_msg",
                "payload": {"type": "error", "message": "z" * 450 + s.private_key("codex error")},
            }
        ),
        # an unknown envelope kind: stored as its raw line, the secret escaped in it
        b'{"timestamp":"%s","type":"mystery","payload":{"x":"\\u0067hp_%s"}}\n'
        % (ts.encode(), s.github("escaped codex raw").encode()),
    ]
    (folder / f"rollout-2026-06-05T05-00-00-{CODEX_SID}.jsonl").write_bytes(b"".join(lines))


SYSTEM_TEMPS = (Path(tempfile.gettempdir()), Path("/dev/shm"))


def sleepd_temp_entries() -> set[Path]:
    """What is named sleepd* in the shared temporary and shared-memory folders now."""
    return {
        p
        for temp in SYSTEM_TEMPS
        if temp.is_dir()
        for p in temp.iterdir()
        if p.name.startswith("sleepd")
    }


@pytest.fixture
def private_tmp(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary folder this test's harvest (and its worker processes) get."""
    tmp = isolated_home / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", None)  # recomputed from TMPDIR on next use
    return tmp


def stored_bytes(
    home: Path, db_file: Path, private_tmp: Path, before: set[Path]
) -> dict[str, bytes]:
    """Every file a harvest may have written, lowercased (the full-text index lowercases):
    the sleepd home, the whole temporary folder the harvest was given, and whatever
    appeared named sleepd* in the shared temporary and shared-memory folders during it
    (what other programs left there before is not this harvest's, and may be large)."""
    roots = [home / "sleepd-home", private_tmp, *sorted(sleepd_temp_entries() - before)]
    found: dict[str, bytes] = {}
    for root in roots:
        for path in [root, *root.rglob("*")] if root.is_dir() else [root]:
            if path.is_file() and not path.is_symlink():
                try:
                    found[str(path)] = path.read_bytes().lower()
                except OSError:
                    continue
    assert str(db_file) in found
    return found


@pytest.mark.parametrize("workers", [0, 2], ids=["in-process", "two-workers"])
def test_no_planted_secret_is_stored_in_any_field(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, workers: int, private_tmp: Path
) -> None:
    before = sleepd_temp_entries()
    secrets = Secrets(seed=1600 + workers)
    claude_files(isolated_home, secrets)
    codex_file(isolated_home, secrets)
    cfg.harvest.parallel_min_mb = 0
    report = harvest(store, cfg, jobs=max(1, workers))
    assert report.totals()["errors"] == 0
    assert report.totals()["events_new"] > 8

    # The fields were stored (redacted), so the search below is not vacuous.
    rows = query(
        db_file,
        "SELECT title, git_branch, project_path, meta FROM sessions WHERE external_id = ?",
        (CLAUDE_SID,),
    )
    title, branch, project, meta = rows[0]
    assert "[REDACTED:" in title and "[REDACTED:" in branch and "[REDACTED:" in project
    assert "[REDACTED:" in meta
    states = [state for (state,) in query(db_file, "SELECT parse_state FROM transcript_files")]
    assert any("queued" in state and "[REDACTED:" in state for state in states)
    assert any("pending" in state and "[REDACTED:" in state for state in states)

    store.dispose()
    leaks = [
        (field, where)
        for where, data in stored_bytes(isolated_home, db_file, private_tmp, before).items()
        for field, core in secrets.planted.items()
        if core.lower().encode() in data
    ]
    assert leaks == []


def test_the_database_holds_no_secret_after_a_checkpoint_either(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """Searched again once the WAL is copied into the main file."""
    secrets = Secrets(seed=77)
    claude_files(isolated_home, secrets)
    codex_file(isolated_home, secrets)
    harvest(store, cfg)
    store.dispose()
    conn = sqlite3.connect(db_file)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = db_file.read_bytes().lower()
    assert [field for field, core in secrets.planted.items() if core.lower().encode() in data] == []
