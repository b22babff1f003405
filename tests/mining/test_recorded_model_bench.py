"""`bench/recorded_model.py`: a stand-in `claude` whose answers a reader wrote, called by
the real Claude Code backend as the miner model, so a measurement of the model-assisted
path runs the miner's own prompt, validation and fallbacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sleepd.backends.claude_cli import ClaudeCliBackend
from sleepd.mining.hard_turns import TurnJudge
from sleepd.mining.lexicon import lexicon_for
from sleepd.mining.turns import TurnInput, TurnKind, classify_turn

from .test_hard_turns import HARD_TURN, TOKEN

BENCH = Path(__file__).resolve().parents[2] / "bench" / "recorded_model.py"


def hard_turn() -> TurnInput:
    return TurnInput(text=HARD_TURN, has_episode=True, agent_worked=True, agent_acted=False)


def judge() -> TurnJudge:
    return TurnJudge(ClaudeCliBackend(executable=str(BENCH), timeout_s=30), max_calls=10)


def test_an_unanswered_question_is_recorded_and_the_rules_reading_stands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLEEPD_RECORDED_MODEL_DIR", str(tmp_path))
    turn = hard_turn()
    decision = classify_turn(turn, lexicon_for())
    assert decision.hard
    reader = judge()
    assert reader(turn, decision) is decision
    assert reader.stats.fallbacks == 1
    [asked] = list((tmp_path / "asked").glob("*.json"))
    question = json.loads(asked.read_text(encoding="utf-8"))
    assert question["system"].startswith("You read one message a person typed")
    message = json.loads(question["prompt"].split("\n\nRespond with")[0])["message"]
    assert message.startswith("The toggle goes in the header")
    assert TOKEN not in question["prompt"]  # what a reader sees passed the outbound redaction


def test_a_written_answer_decides_the_turn_and_the_readers_parts_leave_it_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLEEPD_RECORDED_MODEL_DIR", str(tmp_path))
    turn = hard_turn()
    decision = classify_turn(turn, lexicon_for())
    judge()(turn, decision)  # recorded, unanswered
    [asked] = list((tmp_path / "asked").glob("*.json"))
    qid = json.loads(asked.read_text(encoding="utf-8"))["id"]

    def parts() -> str:
        return subprocess.run(
            [sys.executable, str(BENCH), "--parts", "2"],
            capture_output=True,
            text=True,
            check=True,
            env={"SLEEPD_RECORDED_MODEL_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"},
        ).stdout

    assert parts().startswith("1 question without an answer (0 answered)")
    assert qid in (tmp_path / "parts" / "part_0.txt").read_text(encoding="utf-8")
    (tmp_path / "answers").mkdir()
    other = "steering" if decision.kind is not TurnKind.STEERING else "new_task"
    line = {"id": qid, "kind": other, "reason": "a hint on where the toggle goes"}
    (tmp_path / "answers" / "part_0.jsonl").write_text(
        "not json\n" + json.dumps(line) + "\n", encoding="utf-8"
    )
    reader = judge()
    decided = reader(turn, decision)
    assert decided.kind is TurnKind(other)
    assert reader.stats.decided == 1 and reader.stats.changed == 1
    assert parts().startswith("0 questions without an answer (1 answered)")
