"""What `sleepd mine` tells a person about the hard user turns of a pass."""

from __future__ import annotations

from typing import Any

import pytest

from sleepd.cli.mine_run import render_report
from sleepd.mining.mine import MineReport


def rendered(capsys: pytest.CaptureFixture[str], **fields: Any) -> str:
    data = {**MineReport().to_dict(), **fields}
    render_report(data)
    return " ".join(capsys.readouterr().out.split())


def test_turns_over_the_cap_are_said_to_wait_for_the_next_passes_newest_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    hard = {"found": 52, "asked": 40, "decided": 39, "changed": 7, "fallbacks": 1, "skipped": 12}
    out = rendered(capsys, hard_turns=hard)
    assert "39 decided by the miner model (7 read differently from the rules)" in out
    assert "12 over the per-pass cap (asked on the next passes, newest sessions first)" in out


def test_a_pass_within_the_cap_promises_no_later_pass(capsys: pytest.CaptureFixture[str]) -> None:
    hard = {"found": 5, "asked": 5, "decided": 5, "changed": 0, "fallbacks": 0, "skipped": 0}
    out = rendered(capsys, hard_turns=hard)
    assert "0 over the per-pass cap" in out and "next passes" not in out


def test_without_a_model_the_rules_reading_is_counted(capsys: pytest.CaptureFixture[str]) -> None:
    out = rendered(capsys, hard_turns={"found": 28})
    assert "28 read by the rules alone" in out and "mining.model_assisted" in out
