"""Judge a tools-mode rollout by what happened: the project's own tests, then the rules.

The test command runs in the checkout after the agent stops, offline where the
platform allows it, at a lowered priority, under a wall-time cap. A task whose tests
failed at the session's commit passes when those tests now pass and no test that
passed at the commit fails; a task whose tests all passed at the commit passes when
they still do. Rule checks from the judge spec run on the agent's final message and
the diff it left. A test command that cannot run at the commit either makes the task
unjudgeable (missing data, never a zero).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sleepd.backends.agent_act import nice_prefix, offline_prefix, run_in_dir
from sleepd.dream.judges import Judgement
from sleepd.mining.judge_spec import SpecError, score_with_rules
from sleepd.mining.replay_site import TestCommand
from sleepd.mining.test_report import TestReport, parse_test_output

#: Output kept per test run for review and the rubric judge.
MAX_TEST_OUTPUT = 6000


@dataclass
class TestRun:
    __test__ = False

    command: str
    returncode: int | None
    timed_out: bool
    report: TestReport | None
    wall_s: float
    cpu_s: float
    output_tail: str
    isolation: str = ""
    error: str = ""

    @property
    def ran(self) -> bool:
        """The command started and finished (pass or fail) within its cap."""
        return not self.error and not self.timed_out and self.returncode is not None

    @property
    def failed_names(self) -> set[str]:
        return set(self.report.failed_names) if self.report else set()

    @property
    def names_known(self) -> bool:
        return bool(self.report and self.report.names_known)

    def figures(self) -> dict[str, Any]:
        report = self.report
        return {
            "command": self.command,
            "exit": self.returncode,
            "timed_out": self.timed_out,
            "run": report.run if report else None,
            "passed": report.passed if report else None,
            "failed": report.failed if report else None,
            "failed_names": sorted(self.failed_names)[:50],
            "wall_s": round(self.wall_s, 3),
            "cpu_s": round(self.cpu_s, 3),
            "error": self.error or None,
        }


def run_tests(
    workdir: Path,
    command: TestCommand,
    *,
    timeout_s: float,
    network: bool = False,
    nice: int = 10,
) -> TestRun:
    """Run the project's test command in a checkout (argv, never a shell)."""
    cwd = (workdir / command.cwd).resolve()
    if not cwd.is_dir() or (cwd != workdir.resolve() and workdir.resolve() not in cwd.parents):
        return TestRun(command.text, None, False, None, 0.0, 0.0, "", error="no such directory")
    prefix, isolation = ([], "network on (config)") if network else offline_prefix(workdir)
    env = {**os.environ, **dict(command.env), "PYTHONDONTWRITEBYTECODE": "1", "CI": "1"}
    argv = [*nice_prefix(nice), *prefix, *command.argv]
    try:
        proc = run_in_dir(argv, cwd=cwd, stdin_text=None, timeout_s=timeout_s, env=env)
    except OSError as exc:
        return TestRun(command.text, None, False, None, 0.0, 0.0, "", isolation, str(exc)[:300])
    output = proc.stdout + ("\n" + proc.stderr if proc.stderr.strip() else "")
    return TestRun(
        command=command.text,
        returncode=proc.returncode,
        timed_out=proc.timed_out,
        report=parse_test_output(output),
        wall_s=proc.wall_s,
        cpu_s=proc.cpu_s,
        output_tail=output[-MAX_TEST_OUTPUT:],
        isolation=isolation,
    )


@dataclass
class TestVerdict:
    __test__ = False

    ok: bool | None
    reason: str
    fixed: list[str]
    regressed: list[str]
    targets: list[str] = field(default_factory=list)


def verdict_of_tests(before: TestRun, after: TestRun, originally_failing: list[str]) -> TestVerdict:
    """Did the rollout fix what was failing at the commit without breaking what passed?"""
    if not before.ran:
        return TestVerdict(None, "the tests could not run at the session's commit", [], [])
    if not after.ran:
        why = "timed out" if after.timed_out else (after.error or "did not finish")
        return TestVerdict(False, f"the tests {why} after the rollout", [], [])
    if before.names_known and after.names_known:
        targets = before.failed_names
        if originally_failing and targets & set(originally_failing):
            targets = targets & set(originally_failing)
        still = targets & after.failed_names
        regressed = sorted(after.failed_names - before.failed_names)
        fixed = sorted(targets - after.failed_names)
        if after.report is not None and after.report.run == 0:
            return TestVerdict(False, "no test ran after the rollout", fixed, regressed, [])
        ok = not still and not regressed
        reason = (
            "the failing tests pass and nothing regressed"
            if ok and targets
            else "all tests still pass"
            if ok
            else f"{len(still)} test(s) still failing, {len(regressed)} regressed"
        )
        return TestVerdict(ok, reason, fixed, regressed, sorted(targets))
    # Names unknown (an unparsed framework): the exit status is the evidence.
    ok = after.returncode == 0
    return TestVerdict(ok, f"test command exit {after.returncode}", [], [])


def judge_tool_rollout(
    before: TestRun,
    after: TestRun,
    originally_failing: list[str],
    judge_spec: dict[str, Any],
    final_message: str,
    diff: str,
    tool_names: list[str],
) -> Judgement:
    verdict = verdict_of_tests(before, after, originally_failing)
    detail: dict[str, Any] = {
        "judge": "tests",
        "tests_before": before.figures(),
        "tests_after": after.figures(),
        "verdict": verdict.reason,
        "fixed": verdict.fixed[:50],
        "regressed": verdict.regressed[:50],
        "targets": verdict.targets[:20],
    }
    if verdict.ok is None:
        return Judgement(None, None, detail)
    success = verdict.ok
    try:
        rule_score, rule = score_with_rules(judge_spec, f"{final_message}\n{diff}", tool_names)
    except SpecError as exc:  # a damaged spec: the tests alone decide
        detail["checks_skipped"] = str(exc)[:200]
        rule_score = None
    if rule_score is not None:
        detail["checks"] = rule.detail()
        success = success and rule_score >= 0.5
    return Judgement(1.0 if success else 0.0, success, detail)
