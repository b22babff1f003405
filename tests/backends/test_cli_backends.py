"""claude-cli and codex-cli backends against fake executables on PATH."""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

from sleepd.backends.base import ChatMessage, FailureKind, ModelRequest
from sleepd.backends.claude_cli import ClaudeCliBackend
from sleepd.backends.codex_cli import CodexCliBackend
from sleepd.backends.pricing import Usage
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
    # output nobody can read may follow a billed call; an error the CLI reported says why
    assert response.bill_unknown is (mode == "garbage")


def test_claude_hang_is_killed_with_its_children(
    fakes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "hang")
    started = time.monotonic()
    response = ClaudeCliBackend(timeout_s=1.5).complete(request())
    assert response.failure is FailureKind.TIMEOUT and response.bill_unknown
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
    response = CodexCliBackend(timeout_s=20).complete(request())
    assert response.failure is expected
    assert response.bill_unknown is (mode == "garbage")


def test_codex_hang_is_killed_with_its_children(
    fakes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "hang")
    response = CodexCliBackend(timeout_s=1.5).complete(request())
    assert response.failure is FailureKind.TIMEOUT and response.bill_unknown
    assert_process_gone(fakes / "child.pid")
    assert os.path.exists(fakes / "record.json")


#: Values a garbled or hostile report could hold where a count, a cost or a text belongs.
ODD_VALUES: list[Any] = [-5, "lots", [1], {"a": 1}, True, 1e300, 10**30, None, 2.5]


def claude_report(odd: Any) -> str:
    return json.dumps({
        "type": "result", "subtype": odd, "is_error": False, "num_turns": odd,
        "result": "claude says hi", "session_id": odd, "total_cost_usd": odd,
        "usage": {"input_tokens": odd, "output_tokens": 7, "cache_read_input_tokens": odd,
                  "cache_creation_input_tokens": odd},
        "modelUsage": odd,
    })  # fmt: skip


@pytest.mark.parametrize("odd", ODD_VALUES, ids=repr)
def test_claude_figures_no_bill_can_hold_cost_the_figure_not_the_answer(
    fakes: Path, monkeypatch: pytest.MonkeyPatch, odd: Any
) -> None:
    """A count that is not a whole number from 0, or a cost that is not a finite number
    from 0, is no figure: the answer stands, the usage is priced from the price table,
    and no figure of it is negative or beyond what the ledger holds."""
    monkeypatch.setenv("FAKE_MODE", "report")
    monkeypatch.setenv("FAKE_REPORT", claude_report(odd))
    backend = ClaudeCliBackend(timeout_s=20)
    response = backend.complete(request(model="claude-sonnet-4-6"))
    assert response.ok and response.text == "claude says hi"
    figures = (response.input_tokens, response.cache_read_tokens, response.cache_write_tokens)
    assert all(isinstance(f, int) and 0 <= f < 2**31 for f in figures)
    assert response.output_tokens == 7
    assert math.isfinite(response.cost_usd) and response.cost_usd >= 0
    if not isinstance(odd, int | float) or isinstance(odd, bool) or odd < 0:
        usage = Usage(figures[0], 7, *figures[1:])
        assert response.cost_usd == backend.prices.cost("claude-sonnet-4-6", usage)
    assert response.raw_id == (odd if isinstance(odd, str) else None)


@pytest.mark.parametrize("odd", ODD_VALUES, ids=repr)
def test_codex_figures_and_fields_of_the_wrong_type_cost_nothing_else(
    fakes: Path, monkeypatch: pytest.MonkeyPatch, odd: Any
) -> None:
    events = [
        {"type": "thread.started", "thread_id": odd},
        {"type": "item.completed", "item": odd},
        {"type": "item.completed", "item": {"type": odd, "text": odd}},
        {"type": "item.completed", "item": {"type": "agent_message", "text": "codex says hi"}},
        {"type": "turn.completed", "usage": {"input_tokens": odd, "cached_input_tokens": odd,
                                             "output_tokens": 9}},
    ]  # fmt: skip
    monkeypatch.setenv("FAKE_MODE", "report")
    monkeypatch.setenv("FAKE_REPORT", "\n".join(json.dumps(e) for e in events) + "\n")
    response = CodexCliBackend(timeout_s=20).complete(request())
    assert response.ok and response.text == "codex says hi"
    assert all(0 <= f < 2**31 for f in (response.input_tokens, response.cache_read_tokens))
    assert response.output_tokens == 9
    assert math.isfinite(response.cost_usd) and response.cost_usd >= 0


@pytest.mark.parametrize("odd", [{"message": ["x"]}, ["x"], 5, None])
def test_a_codex_error_of_any_shape_is_a_failure_with_a_reason(
    fakes: Path, monkeypatch: pytest.MonkeyPatch, odd: Any
) -> None:
    monkeypatch.setenv("FAKE_MODE", "report")
    monkeypatch.setenv("FAKE_REPORT", json.dumps({"type": "turn.failed", "error": odd}) + "\n")
    response = CodexCliBackend(timeout_s=20).complete(request())
    assert not response.ok and response.failure_detail


def test_a_reported_model_name_longer_than_the_store_keeps_is_not_taken(
    fakes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = json.loads(claude_report(3))
    report["modelUsage"] = {"claude-" + "x" * 300: {"inputTokens": 1}}
    monkeypatch.setenv("FAKE_MODE", "report")
    monkeypatch.setenv("FAKE_REPORT", json.dumps(report))
    response = ClaudeCliBackend(timeout_s=20).complete(request(model="claude-sonnet-4-6"))
    assert response.ok and response.model == "claude-sonnet-4-6"
