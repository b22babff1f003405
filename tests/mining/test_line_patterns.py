"""A pattern that reads one line of an output starts on that line.

These patterns run with `re.MULTILINE` over whole tool outputs and test runs. One that
opened with `\\s*` or `\\W*` could start at any earlier line start and cross blank lines
to reach its word, so a failed search over a run of blank lines tried every line start
against every line after it: 20 KB of blank lines took 3-9 s to read as a test report,
200 KB minutes. Reading one line, the match starts on the line it reads.
"""

from __future__ import annotations

import re

import pytest

from sleepd.dream import safety
from sleepd.mining import signals, test_report
from sleepd.mining.errors import failed

LINES: list[tuple[re.Pattern[str], str]] = [
    (failed._PATCH_FAILED, "apply_patch verification failed: no such line"),
    (failed._HIDDEN_FAILURE, "  fatal: not a git repository"),
    (failed._FAILURE_LINE, "  3 failed"),
    (failed._FAILURE_LINE, "  ✖ lint found 2 problems"),
    (failed._NOTHING_FAILED, "  0 fail"),
    (signals.TEST_FAILURE, "  Tests:  1 failed, 2 passed, 3 total"),
    (signals.TEST_FAILURE, "  FAIL src/adder.test.ts"),
    (signals.TEST_PASS, "  Tests:  3 passed, 3 total"),
    (test_report._GO_FAIL, "  --- FAIL: TestAdd (0.00s)"),
    (test_report._GO_PASS, "  --- PASS: TestAdd (0.00s)"),
    (test_report._JEST_FAIL, "  ✕ adds two numbers (3 ms)"),
    (test_report._JEST_PASS, "  ✓ adds two numbers (3 ms)"),
    (test_report._BUN_TEST, "(fail) suite > adds two numbers [0.42ms]"),
    (test_report._BUN_SUMMARY, " 1218 pass\n 1 fail"),
    (test_report._VITEST_FILES, " Test Files  1 failed | 1 passed (2)"),
    (test_report._VITEST_TESTS, "      Tests  1 failed | 15 skipped (16)"),
    (test_report._VITEST_FAIL, " FAIL  src/a.test.ts > suite > name"),
    (safety._MD_REF_DEF, "  [docs]: https://example.com/docs"),
]


@pytest.mark.parametrize(("pattern", "line"), LINES)
def test_the_match_starts_on_the_line_it_reads(pattern: re.Pattern[str], line: str) -> None:
    blank = "\n \n\r\n\t\n"
    found = pattern.search(blank + line)
    assert found is not None and found.start() >= len(blank)


@pytest.mark.parametrize(("pattern", "line"), LINES)
def test_blank_lines_alone_match_nothing(pattern: re.Pattern[str], line: str) -> None:
    assert pattern.search("\n \n\r\n\t\n" * 50) is None
