"""What a test run printed: counts and the names of failing tests, per framework.

Used twice: at mining time on the tool output an agent saw (which tests were failing
in the original episode), and at replay time on the output of the project's own test
command in the scratch checkout. Parsing is by the frameworks' summary lines; where a
framework prints nothing we recognise, the exit status is the only evidence and the
names stay unknown (`names_known` is False).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sleepd.mining.signatures import ANSI

#: Most failing-test names kept per report: enough to judge, bounded for hostile output.
MAX_NAMES = 200
MAX_NAME_CHARS = 300

_PYTEST_FAILED = re.compile(r"^(?:FAILED|ERROR) +(\S+?\.py(?:::\S+?)?)(?: - .*)?\s*$", re.MULTILINE)
_PYTEST_SUMMARY = re.compile(r"^=+ (.*\b(?:passed|failed|error|errors|no tests ran)\b.*) =+\s*$")
_COUNT = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)")
_GO_FAIL = re.compile(r"^[^\S\n]*--- FAIL: (\S+)", re.MULTILINE)
_GO_PASS = re.compile(r"^[^\S\n]*--- PASS: (\S+)", re.MULTILINE)
_CARGO_RESULT = re.compile(r"^test (\S+) \.\.\. (ok|FAILED|ignored)\s*$", re.MULTILINE)
_UNITTEST_RAN = re.compile(r"^Ran (\d+) tests? in ", re.MULTILINE)
_UNITTEST_FAIL = re.compile(r"^(?:FAIL|ERROR): (\S+) \(([^)\s]+)\)", re.MULTILINE)
_JEST_SUMMARY = re.compile(r"^Tests:\s+(.*)$", re.MULTILINE)
# (each test's line is taken whole and its timing cut off after: a lazy name before an
# optional timing and the line's end takes time that grows with the square of a line of
# spaces, and test output is hostile)
_JEST_FAIL = re.compile(r"^[^\S\n]*(?:✕|×)[^\S\n]+([^\n]+)$", re.MULTILINE)
_JEST_PASS = re.compile(r"^[^\S\n]*(?:✓|√)[^\S\n]+([^\n]+)$", re.MULTILINE)
_JEST_TIMING = re.compile(r"\(\d+\s*m?s\)")
#: bun's own runner (`bun test`, `bun run test` over it): " 1218 pass\n 1 fail\n …\nRan 1219
#: tests across 56 files.", each test "(pass) suite > name [0.42ms]" or "(fail) …".
_BUN_SUMMARY = re.compile(r"^[^\S\n]*(\d+) pass[^\S\n]*\n[^\S\n]*(\d+) fail\b", re.MULTILINE)
_BUN_RAN = re.compile(r"^Ran \d+ tests? across \d+ files?\.", re.MULTILINE)
_BUN_TEST = re.compile(r"^\((pass|fail)\) ([^\n]+)$", re.MULTILINE)
#: vitest's summary (" Test Files  1 failed | 1 passed (2)\n      Tests  1 failed | 15
#: skipped (16)") and its list of what failed (" FAIL  src/a.test.ts > suite > name", or a
#: file whose suite failed to load: " FAIL  src/ai.test.ts [ src/ai.test.ts ]").
_VITEST_FILES = re.compile(r"^[^\S\n]*Test Files[^\S\n]+\d+ (?:failed|passed)", re.MULTILINE)
_VITEST_TESTS = re.compile(r"^[^\S\n]*Tests[^\S\n]+([^\n]*)$", re.MULTILINE)
_VITEST_FAIL = re.compile(r"^[^\S\n]*FAIL[^\S\n]+([^\n]+)$", re.MULTILINE)
_BUN_TIMING = re.compile(r"\[[\d.]+m?s\]")


def _without_timing(line: str, timing: re.Pattern[str], opening: str) -> str:
    """A test's line without the timing its runner prints after the name ("(12 ms)", "[0.42ms]"):
    the last bracketed part, when it is one."""
    name = line.rstrip()
    start = name.rfind(opening)
    if start > 0 and timing.fullmatch(name, start):
        name = name[:start].rstrip()
    return name


@dataclass
class TestReport:
    __test__ = False  # not a pytest test class

    passed: int = 0
    failed: int = 0
    failed_names: list[str] = field(default_factory=list)
    passed_names: list[str] = field(default_factory=list)
    names_known: bool = False
    framework: str = ""

    @property
    def run(self) -> int:
        return self.passed + self.failed

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "failed": self.failed,
            "failed_names": self.failed_names,
            "names_known": self.names_known,
            "framework": self.framework,
        }


def _clip(names: list[str]) -> list[str]:
    seen: dict[str, None] = {}
    for name in names:
        seen.setdefault(name.strip()[:MAX_NAME_CHARS], None)
    return list(seen)[:MAX_NAMES]


def parse_test_output(text: str) -> TestReport | None:
    """The report of the first framework whose summary appears; None when none does."""
    if "\x1b[" in text:
        text = ANSI.sub("", text)  # (vitest colours its summary unless told not to)
    for parser in (_pytest, _unittest, _go, _cargo, _jest, _bun, _vitest):
        report = parser(text)
        if report is not None:
            return report
    return None


def _pytest(text: str) -> TestReport | None:
    summaries = [m.group(1) for line in text.splitlines() if (m := _PYTEST_SUMMARY.match(line))]
    failed_names = _PYTEST_FAILED.findall(text)
    if not summaries and not failed_names:
        return None
    counts: dict[str, int] = {}
    for number, word in _COUNT.findall(summaries[-1] if summaries else ""):
        counts[word.rstrip("s") if word.startswith("error") else word] = int(number)
    failed = counts.get("failed", 0) + counts.get("error", 0)
    return TestReport(
        passed=counts.get("passed", 0),
        failed=max(failed, len(set(failed_names))),
        failed_names=_clip(failed_names),
        names_known=bool(failed_names) or failed == 0,
        framework="pytest",
    )


def _unittest(text: str) -> TestReport | None:
    ran = _UNITTEST_RAN.findall(text)
    if not ran:
        return None
    fails = [
        f"{where.removesuffix('.' + name)}.{name}" for name, where in _UNITTEST_FAIL.findall(text)
    ]
    total = int(ran[-1])
    return TestReport(
        passed=max(0, total - len(set(fails))),
        failed=len(set(fails)),
        failed_names=_clip(fails),
        names_known=True,
        framework="unittest",
    )


def _go(text: str) -> TestReport | None:
    fails, passes = _GO_FAIL.findall(text), _GO_PASS.findall(text)
    if not fails and not passes and not re.search(r"^(?:ok|FAIL)\s+\S+", text, re.MULTILINE):
        return None
    if not fails and not passes:
        return None
    return TestReport(len(passes), len(fails), _clip(fails), _clip(passes), True, "go")


def _cargo(text: str) -> TestReport | None:
    results = _CARGO_RESULT.findall(text)
    if not results:
        return None
    fails = [name for name, status in results if status == "FAILED"]
    passes = [name for name, status in results if status == "ok"]
    return TestReport(len(passes), len(fails), _clip(fails), _clip(passes), True, "cargo")


def _jest(text: str) -> TestReport | None:
    summary = _JEST_SUMMARY.search(text)
    if summary is None:
        return None
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed)", summary.group(1))}
    fails = [_without_timing(line, _JEST_TIMING, "(") for line in _JEST_FAIL.findall(text)]
    return TestReport(
        counts.get("passed", 0),
        counts.get("failed", 0),
        _clip(fails),
        _clip([_without_timing(line, _JEST_TIMING, "(") for line in _JEST_PASS.findall(text)]),
        bool(fails) or counts.get("failed", 0) == 0,
        "jest",
    )


def _bun(text: str) -> TestReport | None:
    summary = _BUN_SUMMARY.search(text)
    if summary is None or _BUN_RAN.search(text) is None:
        return None
    passed, failed = int(summary.group(1)), int(summary.group(2))
    tests = [
        (status, _without_timing(line, _BUN_TIMING, "["))
        for status, line in _BUN_TEST.findall(text)
    ]
    fails = [name for status, name in tests if status == "fail"]
    passes = [name for status, name in tests if status == "pass"]
    return TestReport(
        passed, failed, _clip(fails), _clip(passes), bool(fails) or failed == 0, "bun"
    )


def _vitest(text: str) -> TestReport | None:
    tests = _VITEST_TESTS.findall(text)
    if not tests or _VITEST_FILES.search(text) is None:
        return None
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed)", tests[-1])}
    # (a file whose suite failed to load counts as a failure, though none of its tests ran)
    fails = [line.split(" [ ", 1)[0] for line in _VITEST_FAIL.findall(text)]
    failed = max(counts.get("failed", 0), len(dict.fromkeys(fails)))
    return TestReport(
        counts.get("passed", 0), failed, _clip(fails), [], bool(fails) or failed == 0, "vitest"
    )
