"""The tools-mode demo world: a real git repository, real pytest tests, SAMPLE sessions.

`build(root)` makes a small Python project (`ledger`) whose functions each have a
bug and a failing test at the one commit, writes Codex sessions (synthetic, in the
real on-disk format, marked as samples) in which the agent was asked to fix one of
them, failed, was corrected by the user and failed again, and a playbook for the SIMULATED agents
(`fake_agents`): an agent whose instructions say to run `pytest -q` before it calls a
task done makes the right fix, any other makes a wrong one. Real git, real tests;
only the agents are simulated.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sleepd.demo.fake_agents import write_playbook
from sleepd.demo.samples import SAMPLE_NOTE

PROJECT = "ledger"
START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
#: The phrase in a document that makes the simulated agent check its work.
KEY_PHRASE = "pytest -q"


AGENTS_MD = """# ledger

Small accounting helpers (SAMPLE project for the sleepd tools demo).

<!-- sleepd:begin -->
- Keep each helper a small pure function in its own module.
<!-- sleepd:end -->
"""


@dataclass(frozen=True)
class Bug:
    function: str
    args: str
    body_bad: str
    body_good: str
    body_wrong: str
    call: str
    expected: str
    intent: str
    correction: str


BUGS: tuple[Bug, ...] = (
    Bug("total_price", "items", "return sum(items) - 1", "return sum(items)",
        "return sum(items) + 1", "total_price([1, 2, 3])", "6",
        "The unit test for total_price fails, please fix the summing in ledger",
        "no, that's still wrong - run pytest -q and check it passes"),
    Bug("apply_discount", "price, pct", "return price * pct", "return price * (100 - pct) / 100",
        "return price - pct", "apply_discount(200, 10)", "180",
        "apply_discount gives nonsense for percentages, make its failing test pass",
        "that's wrong, the discount test still fails; run pytest -q"),
    Bug("tax_amount", "net, rate", "return net + rate", "return net * rate",
        "return net / rate", "tax_amount(100, 0.2)", "20",
        "Tax amounts are off: repair tax_amount so test_tax_amount goes green",
        "nope, test_tax_amount is red again, run pytest -q before saying done"),
    Bug("shipping_cost", "weight_kg", "return weight_kg * 2", "return 5 + weight_kg * 2",
        "return 5 * weight_kg", "shipping_cost(3)", "11",
        "shipping_cost forgets the base fee of 5; the failing test shows it",
        "still failing. run the test suite with pytest -q"),
    Bug("refund_amount", "paid, used", "return paid + used", "return paid - used",
        "return used - paid", "refund_amount(50, 20)", "30",
        "Refunds come out too high, fix refund_amount and its red unit test",
        "wrong again, you didn't run pytest -q"),
    Bug("average_order", "totals", "return sum(totals)", "return sum(totals) / len(totals)",
        "return max(totals)", "average_order([10, 20, 30])", "20",
        "average_order returns the sum instead of the mean - test is failing",
        "the mean test still fails; run pytest -q"),
    Bug("line_total", "qty, unit", "return qty + unit", "return qty * unit",
        "return qty * unit + 1", "line_total(3, 4)", "12",
        "line_total adds quantity and unit price; the failing test wants the product",
        "no - pytest -q still shows test_line_total failing"),
    Bug("balance_due", "invoiced, paid", "return paid - invoiced", "return invoiced - paid",
        "return invoiced + paid", "balance_due(100, 30)", "70",
        "balance_due has its operands swapped, the unit test catches it, fix it",
        "that's not it, check with pytest -q"),
    Bug("coupon_value", "price", "return 0", "return min(price, 10)",
        "return 10", "coupon_value(4)", "4",
        "coupon_value should cap at 10 but never exceed the price; test fails",
        "still broken for small prices, run pytest -q"),
    Bug("order_weight", "weights", "return len(weights)", "return sum(weights)",
        "return max(weights)", "order_weight([1, 2, 3])", "6",
        "order_weight counts the parcels instead of adding their weights; fix the failing test",
        "wrong, pytest -q is still red"),
    Bug("net_amount", "gross, rate", "return gross * rate", "return gross / (1 + rate)",
        "return gross - rate", "round(net_amount(120, 0.2), 6)", "100",
        "net_amount from gross is wrong; the unit test for it fails",
        "no, net_amount test fails, use pytest -q"),
    Bug("invoice_total", "lines", "return lines[0]", "return sum(lines)",
        "return lines[-1]", "invoice_total([5, 6])", "11",
        "invoice_total only takes the first line; make test_invoice_total pass",
        "still failing. pytest -q please"),
    Bug("late_fee", "days", "return days", "return 2 * days if days > 0 else 0",
        "return 2 * days", "late_fee(-3)", "0",
        "late_fee charges for negative days and the wrong rate; its test is red",
        "no. late_fee still fails, run pytest -q"),
    Bug("split_bill", "total, people", "return total * people", "return total / people",
        "return total - people", "split_bill(90, 3)", "30",
        "Splitting a bill multiplies instead of dividing - fix split_bill's failing test",
        "you broke it again; pytest -q"),
    Bug("margin", "price, cost", "return cost - price", "return price - cost",
        "return price + cost", "margin(30, 12)", "18",
        "margin() is negative for profitable items, test_margin fails",
        "test_margin still fails; pytest -q before you say done"),
    Bug("deposit_share", "amount", "return amount / 10", "return amount / 4",
        "return amount / 2", "deposit_share(100)", "25",
        "The deposit should be a quarter of the amount; deposit_share test fails",
        "wrong ratio, check with pytest -q"),
    Bug("points_earned", "spent", "return spent", "return int(spent // 10)",
        "return int(spent / 100)", "points_earned(95)", "9",
        "Loyalty points: one per 10 spent. points_earned's unit test is failing",
        "no, points are still off - pytest -q"),
    Bug("fx_convert", "amount, rate", "return amount / rate", "return amount * rate",
        "return rate", "fx_convert(10, 2)", "20",
        "Currency conversion divides by the rate; fx_convert test wants multiply",
        "still wrong, pytest -q shows it"),
    Bug("installments", "total, months", "return total", "return round(total / months, 2)",
        "return months", "installments(100, 3)", "33.33",
        "installments() returns the whole total instead of the monthly amount (failing test)",
        "no, the installments test is still red; run pytest -q"),
    Bug("tip_amount", "bill, pct", "return bill + pct", "return bill * pct / 100",
        "return pct / 100", "tip_amount(50, 20)", "10",
        "tip_amount adds the percentage to the bill; fix it so its test passes",
        "no - the tip test is still failing, use pytest -q"),
)  # fmt: skip


@dataclass
class ToolsWorld:
    repo: Path
    commit: str
    playbook: Path
    session_files: list[Path]


def _git(args: list[str], cwd: Path) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Sample Author",
        "GIT_AUTHOR_EMAIL": "sample@example.invalid",
        "GIT_COMMITTER_NAME": "Sample Author",
        "GIT_COMMITTER_EMAIL": "sample@example.invalid",
        "GIT_AUTHOR_DATE": "2026-11-01T08:00:00Z",
        "GIT_COMMITTER_DATE": "2026-11-01T08:00:00Z",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    done = subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return done.stdout.strip()


def make_repository(repo: Path, bugs: tuple[Bug, ...] = BUGS) -> str:
    """The `ledger` project with every bug in; returns the commit."""
    (repo / PROJECT).mkdir(parents=True, exist_ok=True)
    (repo / "tests").mkdir(exist_ok=True)
    (repo / PROJECT / "__init__.py").write_text("")
    for bug in bugs:
        (repo / PROJECT / f"{bug.function}.py").write_text(
            f'"""SAMPLE code for the sleepd tools demo."""\n\n\n'
            f"def {bug.function}({bug.args}):\n    {bug.body_bad}\n"
        )
        (repo / "tests" / f"test_{bug.function}.py").write_text(
            f"import unittest\n\nfrom {PROJECT}.{bug.function} import {bug.function}\n\n\n"
            f"class {_class(bug)}(unittest.TestCase):\n"
            f"    def test_{bug.function}(self):\n"
            f"        self.assertEqual({bug.call}, {bug.expected})\n"
        )
    (repo / "tests" / "__init__.py").write_text("")
    (repo / "tests" / "test_sanity.py").write_text(
        "import unittest\n\n\nclass TestSanity(unittest.TestCase):\n"
        "    def test_imports(self):\n        import ledger  # noqa: F401\n"
    )
    (repo / "pytest.ini").write_text("[pytest]\ntestpaths = tests\n")
    (repo / "conftest.py").write_text("# puts the project root on sys.path for the tests\n")
    (repo / "AGENTS.md").write_text(AGENTS_MD)
    (repo / "CLAUDE.md").write_text("# Claude Code notes\n\n@AGENTS.md\n")
    (repo / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n")
    (repo / "README.md").write_text(f"# ledger\n\n{SAMPLE_NOTE}\n")
    _git(["init", "-q"], repo)
    _git(["add", "-A"], repo)
    _git(["commit", "-q", "-m", "ledger: sample project for the sleepd tools demo"], repo)
    return _git(["rev-parse", "HEAD"], repo)


def _class(bug: Bug) -> str:
    return "Test" + "".join(part.title() for part in bug.function.split("_"))


def test_command(runner: str) -> str:
    return "python -m unittest" if runner == "unittest" else "pytest -q"


def failing_output(bug: Bug, runner: str, total: int) -> str:
    """What the runner printed at the commit, for this session's bug."""
    if runner == "unittest":
        name = f"tests.test_{bug.function}.{_class(bug)}.test_{bug.function}"
        return (
            f"F{'.' * (total - 1)}\n{'=' * 70}\nFAIL: test_{bug.function} ({name})\n"
            f"{'-' * 70}\nAssertionError\n\nRan {total} tests in 0.004s\n\nFAILED (failures=1)"
        )
    return (
        f"F{'.' * (total - 1)}\nFAILED tests/test_{bug.function}.py::{_class(bug)}::"
        f"test_{bug.function} - AssertionError\n1 failed, {total - 1} passed in 0.05s"
    )


def playbook_rules(bugs: tuple[Bug, ...] = BUGS) -> list[dict[str, Any]]:
    return [
        {
            "prompt_contains": bug.function,
            "document_contains": KEY_PHRASE,
            "edits": [_edit(bug, bug.body_good)],
            "message": f"Fixed {bug.function}; pytest -q passes.",
            "otherwise": [_edit(bug, bug.body_wrong)],
            "otherwise_message": f"Changed {bug.function}; it should be fine now.",
        }
        for bug in bugs
    ]


def _edit(bug: Bug, body: str) -> dict[str, str]:
    return {"path": f"{PROJECT}/{bug.function}.py", "old": bug.body_bad, "new": body}


def recurring_intent(bug: Bug) -> str:
    """The same request on another day, in other words (tasks are mined from recurring work)."""
    words = bug.function.replace("_", " ")
    return f"{bug.function} ({words}) is broken again, fix {bug.function} so its unit test passes"


def codex_session(
    bug: Bug,
    index: int,
    repo: Path,
    commit: str,
    runner: str = "pytest",
    total: int = 0,
    intent: str | None = None,
) -> list[dict[str, Any]]:
    """One SAMPLE Codex rollout: asked to fix `bug`, failed, corrected by the user."""
    clock = START + timedelta(hours=index)
    session = f"0199aaaa-bbbb-7ccc-8ddd-{index:012d}"
    lines: list[dict[str, Any]] = []

    def add(kind: str, payload: dict[str, Any]) -> None:
        nonlocal clock
        lines.append({"timestamp": clock.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "type": kind,
                      "payload": payload})  # fmt: skip
        clock += timedelta(seconds=20)

    add(
        "session_meta",
        {
            "id": session,
            "timestamp": clock.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            "cwd": str(repo),
            "originator": "codex_cli_rs",
            "cli_version": "0.58.0",
            "instructions": SAMPLE_NOTE,
            "source": "cli",
            "model_provider": "openai",
            "git": {"branch": "main", "commit_hash": commit},
        },
    )

    def user(text: str) -> None:
        add("response_item", {"type": "message", "role": "user",
                              "content": [{"type": "input_text", "text": text}]})  # fmt: skip
        add("event_msg", {"type": "user_message", "message": text, "images": []})

    def call(command: str, output: str, exit_code: int, n: int) -> None:
        call_id = f"call_{index}_{n}"
        add("response_item", {"type": "function_call", "name": "shell", "call_id": call_id,
                              "arguments": json.dumps({"command": ["bash", "-lc", command],
                                                       "workdir": str(repo)})})  # fmt: skip
        add("response_item", {"type": "function_call_output", "call_id": call_id,
                              "output": json.dumps({"output": output, "metadata": {
                                  "exit_code": exit_code, "duration_seconds": 0.5}})})  # fmt: skip

    def say(text: str) -> None:
        add("response_item", {"type": "message", "role": "assistant",
                              "content": [{"type": "output_text", "text": text}]})  # fmt: skip

    total = total or len(BUGS) + 1
    command = test_command(runner)
    user(intent or bug.intent)
    call(command, failing_output(bug, runner, total), 1, 1)
    say(f"I changed {bug.function}; it should be fixed now.")
    user(bug.correction)
    call(command, failing_output(bug, runner, total), 1, 2)
    say(f"{command} still fails for {bug.function}; I could not find the cause.")
    return lines


def build(
    root: Path, codex_home: Path, *, runner: str = "pytest", bugs: tuple[Bug, ...] = BUGS
) -> ToolsWorld:
    """The repository under `root/ledger`, its sessions under `codex_home/sessions`.

    `runner` is the test command the sessions show: `pytest -q`, or `python -m unittest`
    (the same suite; the demo uses it because it starts in a tenth of the time).
    """
    repo = root / PROJECT
    repo.mkdir(parents=True, exist_ok=True)
    commit = make_repository(repo, bugs)
    files = []
    # Each bug is asked about twice, on two occasions and in two phrasings: the miner
    # makes tasks from recurring requests only.
    asks = [(bug, None) for bug in bugs] + [(bug, recurring_intent(bug)) for bug in bugs]
    for index, (bug, intent) in enumerate(asks):
        records = codex_session(bug, index, repo, commit, runner, len(bugs) + 1, intent)
        moment = START + timedelta(hours=index)
        path = (
            codex_home / "sessions" / f"{moment:%Y/%m/%d}"
            / f"rollout-{moment:%Y-%m-%dT%H-%M-%S}-{records[0]['payload']['id']}.jsonl"
        )  # fmt: skip
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        files.append(path)
    playbook = write_playbook(root / "fake-agent-playbook.json", playbook_rules(bugs))
    return ToolsWorld(repo, commit, playbook, files)


if __name__ == "__main__":  # pragma: no cover - a manual look at the world
    world = build(Path(sys.argv[1]), Path(sys.argv[2]))
    print(world)
