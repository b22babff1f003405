"""claude-cli and codex-cli backends against fake executables on PATH."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import psutil
import pytest

from sleepd.backends.base import ChatMessage, FailureKind, ModelRequest
from sleepd.backends.claude_cli import ClaudeCliBackend
from sleepd.backends.codex_cli import CodexCliBackend
from sleepd.paths import REPLAY_DIR_PREFIX

from .fake_clis import CLAUDE, CODEX, install, prepend_path


@pytest.fixture
def fakes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    install(bin_dir, "claude", CLAUDE)
    install(bin_dir, "codex", CODEX)
    monkeypatch.setenv("PATH", prepend_path(bin_dir))
    monkeypatch.setenv("FAKE_RECORD", str(tmp_path / "record.json"))
    monkeypatch.setenv("FAKE_CHILD_PID", str(tmp_path / "child.pid"))
    return tmp_path


def record(tmp: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((tmp / "record.json").read_text())
    return data


def request(**kw: object) -> ModelRequest:
    base: dict[str, object] = {"messages": [ChatMessage("user", "fix the failing pytest")]}
    base.update(kw)
    return ModelRequest(**base)  # type: ignore[arg-type]


def assert_isolated_cwd(rec: dict[str, object]) -> None:
    cwd = Path(str(rec["cwd"]))
    assert cwd.name.startswith(REPLAY_DIR_PREFIX)
    assert rec["cwd_listing"] == []
    assert not cwd.exists()  # removed after the call


def assert_process_gone(pid_file: Path) -> None:
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return
        except psutil.NoSuchProcess:
            return
        time.sleep(0.05)
    pytest.fail(f"child process {pid} outlived the timeout")


def test_claude_success_parses_result_usage_and_cost(fakes: Path) -> None:
    backend = ClaudeCliBackend(timeout_s=20)
    response = backend.complete(
        request(cache_prefix="SKILL DOC", system="extra", model="claude-sonnet-4-6", role="target")
    )
    assert response.ok and response.text == "claude says hi"
    assert (response.input_tokens, response.output_tokens) == (11, 22)
    assert (response.cache_read_tokens, response.cache_write_tokens) == (33, 44)
    assert response.cost_usd == 0.0123 and response.raw_id == "sess-123"
    rec = record(fakes)
    argv = rec["argv"]
    assert isinstance(argv, list)
    assert argv[:4] == ["-p", "--output-format", "json", "--no-session-persistence"]
    assert argv[argv.index("--tools") + 1] == ""
    assert argv[argv.index("--model") + 1] == "claude-sonnet-4-6"
    assert argv[argv.index("--append-system-prompt") + 1] == "SKILL DOC\n\nextra"
    assert rec["stdin"] == "fix the failing pytest"
    assert_isolated_cwd(rec)


def test_claude_judge_replaces_system_prompt_and_tools_on_request(fakes: Path) -> None:
    ClaudeCliBackend(timeout_s=20).complete(
        request(role="judge", system="You judge.", metadata={"tools": ["Read", "Grep"]})
    )
    argv = record(fakes)["argv"]
    assert isinstance(argv, list)
    assert argv[argv.index("--system-prompt") + 1] == "You judge."
    assert argv[argv.index("--allowedTools") + 1] == "Read,Grep" and "--tools" not in argv


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("exit", FailureKind.AUTH),
        ("error", FailureKind.RATE_LIMIT),
        ("garbage", FailureKind.BAD_OUTPUT),
    ],
)
def test_claude_failures(
    fakes: Path, monkeypatch: pytest.MonkeyPatch, mode: str, expected: FailureKind
) -> None:
    monkeypatch.setenv("FAKE_MODE", mode)
    response = ClaudeCliBackend(timeout_s=20).complete(request())
    assert response.failure is expected and response.text == ""


def test_claude_hang_is_killed_with_its_children(
    fakes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "hang")
    started = time.monotonic()
    response = ClaudeCliBackend(timeout_s=1.5).complete(request())
    assert response.failure is FailureKind.TIMEOUT
    assert time.monotonic() - started < 6
    assert_process_gone(fakes / "child.pid")


def test_missing_executable_is_not_available(tmp_path: Path) -> None:
    backend = ClaudeCliBackend(executable=str(tmp_path / "no-such-claude"))
    assert backend.complete(request()).failure is FailureKind.NOT_AVAILABLE


def test_codex_success_with_closed_stdin(fakes: Path) -> None:
    backend = CodexCliBackend(timeout_s=20)
    response = backend.complete(request(system="Follow the skill.", model="gpt-5"))
    assert response.ok and response.text == "codex says hi" and response.raw_id == "thread-9"
    assert (response.input_tokens, response.cache_read_tokens, response.output_tokens) == (
        600,
        400,
        50,
    )
    assert response.cost_usd == pytest.approx((600 * 1.25 + 400 * 0.125 + 50 * 10) / 1e6)
    rec = record(fakes)
    assert rec["stdin_devnull"] is True
    argv = rec["argv"]
    assert isinstance(argv, list)
    assert argv[:7] == [
        "exec", "--json", "--ephemeral", "--sandbox", "read-only", "--skip-git-repo-check", "-m",
    ]  # fmt: skip
    assert argv[-2] == "--" and argv[-1].startswith("<instructions>\nFollow the skill.")
    assert argv[-1].endswith("fix the failing pytest")
    assert_isolated_cwd(rec)


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("error", FailureKind.AUTH),
        ("exit", FailureKind.SERVER_ERROR),
        ("garbage", FailureKind.BAD_OUTPUT),
    ],
)
def test_codex_failures(
    fakes: Path, monkeypatch: pytest.MonkeyPatch, mode: str, expected: FailureKind
) -> None:
    monkeypatch.setenv("FAKE_MODE", mode)
    assert CodexCliBackend(timeout_s=20).complete(request()).failure is expected


def test_codex_hang_is_killed_with_its_children(
    fakes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "hang")
    response = CodexCliBackend(timeout_s=1.5).complete(request())
    assert response.failure is FailureKind.TIMEOUT
    assert_process_gone(fakes / "child.pid")
    assert os.path.exists(fakes / "record.json")
