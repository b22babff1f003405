"""claude -p and codex exec acting in a checkout: flags, what they did, caps, isolation."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from sleepd.backends.agent_act import ActRequest
from sleepd.backends.base import FailureKind
from sleepd.backends.claude_cli import ClaudeCliBackend
from sleepd.backends.codex_cli import CodexCliBackend
from sleepd.dream.checkout import create_checkout, place_document
from sleepd.dream.tool_judge import judge_tool_rollout, run_tests, verdict_of_tests
from sleepd.mining.replay_site import TestCommand

PYTEST = TestCommand(("pytest", "-q"))


def records(log: Path) -> list[dict[str, object]]:
    return [json.loads(p.read_text()) for p in sorted(log.glob("*.json"))]


def request(workdir: Path, **kw: object) -> ActRequest:
    base: dict[str, object] = {
        "prompt": "The unit test for total_price fails, please fix the summing in ledger",
        "workdir": workdir,
        "max_turns": 7,
        "wall_s": 60,
        "allowed_tools": ("Read", "Edit", "Bash"),
        "disallowed_tools": ("WebFetch",),
        "nice": 5,
    }
    base.update(kw)
    return ActRequest(**base)  # type: ignore[arg-type]


def test_claude_acts_with_bounded_tools_and_the_skill_decides_the_edit(
    ledger: tuple[Path, str], agents: Path, tmp_path: Path
) -> None:
    repo, commit = ledger
    claude = ClaudeCliBackend()
    with create_checkout(repo, commit, name="ledger", root=tmp_path / "co") as checkout:
        place_document(checkout, ".claude/skills/ledger/SKILL.md", "Always run pytest -q.\n")
        response, detail = claude.act(request(checkout.path))
        assert response.ok and "[simulated agent]" in response.text
        assert detail.tool_calls == 1 and detail.tools == {"Edit": 1}
        assert response.input_tokens > 0 and detail.cpu_s >= 0
        changed, _diff = checkout.changes({".claude/skills/ledger/SKILL.md"})
        assert changed == ["ledger/total_price.py"]
        after = run_tests(checkout.path, PYTEST, timeout_s=120)
    rec = records(agents)[-1]
    argv = rec["argv"]
    assert isinstance(argv, list)
    assert argv[:2] == ["-p", "--output-format"] and argv[2] == "stream-json"
    assert "--verbose" in argv and "--no-session-persistence" in argv
    assert argv[argv.index("--max-turns") + 1] == "7"
    assert argv[argv.index("--permission-mode") + 1] == "acceptEdits"
    assert argv[argv.index("--allowedTools") + 1] == "Read,Edit,Bash"
    assert argv[argv.index("--disallowedTools") + 1] == "WebFetch,WebSearch"  # network off
    assert rec["read"] == [".claude/skills/ledger/SKILL.md", "AGENTS.md", "CLAUDE.md"]
    assert "test_total_price" not in " ".join(after.failed_names)


def test_codex_acts_in_its_workspace_write_sandbox_without_network(
    ledger: tuple[Path, str], agents: Path, tmp_path: Path
) -> None:
    repo, commit = ledger
    codex = CodexCliBackend()
    with create_checkout(repo, commit, name="ledger", root=tmp_path / "co") as checkout:
        place_document(checkout, "AGENTS.md", "# rules\nKeep it short.\n")  # no pytest -q
        response, detail = codex.act(request(checkout.path))
        assert response.ok and detail.tools == {"file_change": 1}
        assert (response.input_tokens, response.output_tokens) != (0, 0)
        before_tests = None
    rec = records(agents)[-1]
    argv = rec["argv"]
    assert isinstance(argv, list)
    assert argv[:4] == ["exec", "--json", "--ephemeral", "--sandbox"]
    assert argv[4] == "workspace-write" and "--skip-git-repo-check" in argv
    assert argv[argv.index("-C") + 1] == str(checkout.path)
    assert "sandbox_workspace_write.network_access=false" in argv
    assert argv[-2] == "--" and argv[-1].startswith("The unit test")
    assert rec["read"] == ["AGENTS.md"] and before_tests is None
    assert "pytest" not in detail.isolation and "network off" in detail.isolation


def test_a_hanging_agent_is_killed_at_the_wall_cap(
    ledger: tuple[Path, str], agents: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, commit = ledger
    hold = tmp_path / "hold"
    hold.write_text("")
    monkeypatch.setenv("SLEEPD_FAKE_AGENT_HOLD", str(hold))
    with create_checkout(repo, commit, root=tmp_path / "co") as checkout:
        response, detail = ClaudeCliBackend().act(request(checkout.path, wall_s=1.0))
    assert response.failure == FailureKind.TIMEOUT and detail.timed_out
    assert (tmp_path / "hold.started").exists()


def test_a_missing_cli_is_one_clear_failure(tmp_path: Path) -> None:
    response, _ = ClaudeCliBackend(executable=str(tmp_path / "nope")).act(request(tmp_path))
    assert response.failure == FailureKind.NOT_AVAILABLE and "cannot run" in response.failure_detail


def test_the_prompt_passes_the_redaction_chokepoint(tmp_path: Path) -> None:
    secret = "AKIA" + "ABCDEFGHIJKLMNOP"
    assert secret not in request(tmp_path, prompt=f"use key {secret} to deploy").prompt


def test_the_tests_judge_fixes_and_regressions(
    ledger: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, commit = ledger
    monkeypatch.setenv(
        "PATH", os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
    )
    with create_checkout(repo, commit, root=tmp_path / "co") as checkout:
        before = run_tests(checkout.path, PYTEST, timeout_s=120)
        assert before.ran and len(before.failed_names) == 4 and before.names_known
        target = checkout.path / "ledger" / "total_price.py"
        target.write_text(target.read_text().replace("sum(items) - 1", "sum(items)"))
        fixed = run_tests(checkout.path, PYTEST, timeout_s=120)
        (checkout.path / "tests" / "test_sanity.py").write_text(
            "def test_imports():\n    assert 0\n"
        )
        broke = run_tests(checkout.path, PYTEST, timeout_s=120)
    wanted = ["tests/test_total_price.py::TestTotalPrice::test_total_price"]
    assert verdict_of_tests(before, fixed, wanted).ok is True
    assert verdict_of_tests(before, broke, wanted).ok is False  # fixed one, broke a passing one
    assert verdict_of_tests(before, before, wanted).ok is False
    spec = {
        "version": 1,
        "checks": [{"type": "must_not_contain", "value": "npm install", "weight": 1.0}],
    }
    judged = judge_tool_rollout(before, fixed, wanted, spec, "done", "", [])
    assert judged.success is True and judged.detail["tests_after"]["failed"] == 3
    unjudgeable = run_tests(tmp_path, TestCommand(("pytest",), cwd="missing"), timeout_s=5)
    assert verdict_of_tests(unjudgeable, fixed, wanted).ok is None
