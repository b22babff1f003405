#!/usr/bin/env python3
"""A stand-in `claude` executable whose answers a reader wrote: for measuring what the
model-assisted miner does with a model's readings where no model can be called.

    export SLEEPD_RECORDED_MODEL_DIR=/tmp/rm
    # config: [backends] claude_executable = ".../bench/recorded_model.py"
    #         [roles.miner] backend = "claude-cli"; [mining] model_max_usd = 1000
    .venv/bin/python bench/mining_real.py --model-assisted     # records what was asked
    .venv/bin/python bench/recorded_model.py --parts 4         # the questions, for readers
    # readers answer each question in DIR/answers/*.jsonl: {"id": …, "kind": …, "reason": …}
    .venv/bin/python bench/mining_real.py --model-assisted     # the miner reads the answers

sleepd calls it exactly as it calls Claude Code (`claude -p --output-format json
--system-prompt … `, the prompt on stdin), so the miner's own prompt, its JSON
validation and its fallbacks are what is measured. A question with a written answer
gets it back as Claude Code's JSON result; any other is recorded under `asked/` (for
the user-turn questions, which are the ones handed to readers) and answered with an
error, so the rules' reading stands, as it does when a model call fails. A reading
that changes an episode can change the questions after it, so record and answer again
until `--parts` finds no question left unanswered.

Only the standard library: it runs under whatever `python3` is on PATH.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

ENV = "SLEEPD_RECORDED_MODEL_DIR"
#: The opening of the system text of the miner's user-turn questions (hard_turns.SYSTEM).
TURN_SYSTEM = "You read one message a person typed to a coding agent"


def question_id(system: str, prompt: str) -> str:
    return hashlib.sha256(f"{system}\0{prompt}".encode()).hexdigest()[:16]


def answers(directory: Path) -> dict[str, str]:
    """Every answer written so far, by question id (a later line wins)."""
    found: dict[str, str] = {}
    for path in sorted((directory / "answers").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(row, dict) and isinstance(row.get("id"), str):
                found[row["id"]] = json.dumps(
                    {k: row[k] for k in ("kind", "reason") if k in row}, ensure_ascii=False
                )
    return found


def answer_call(argv: list[str], prompt: str, directory: Path) -> int:
    system = argv[argv.index("--system-prompt") + 1] if "--system-prompt" in argv else ""
    qid = question_id(system, prompt)
    answer = answers(directory).get(qid)
    if answer is None:
        if system.startswith(TURN_SYSTEM):
            asked = directory / "asked"
            asked.mkdir(parents=True, exist_ok=True)
            (asked / f"{qid}.json").write_text(
                json.dumps({"id": qid, "system": system, "prompt": prompt}), encoding="utf-8"
            )
        print(json.dumps({"is_error": True, "subtype": "error", "result": "no recorded answer"}))
        return 1
    usage = {"input_tokens": 0, "output_tokens": 0}
    print(json.dumps({"is_error": False, "result": answer, "usage": usage, "total_cost_usd": 0}))
    return 0


def write_parts(directory: Path, parts: int) -> None:
    """The user-turn questions with no answer yet, split into `parts` files for readers."""
    done = answers(directory)
    waiting = []
    for path in sorted((directory / "asked").glob("*.json")):
        row = json.loads(path.read_text(encoding="utf-8"))
        if row["id"] not in done:
            waiting.append(row)
    noun = "question" if len(waiting) == 1 else "questions"
    print(f"{len(waiting)} {noun} without an answer ({len(done)} answered)")
    if not waiting:
        return
    out = directory / "parts"
    out.mkdir(exist_ok=True)
    size = -(-len(waiting) // parts)
    for n in range(parts):
        chunk = waiting[n * size : (n + 1) * size]
        if not chunk:
            continue
        text = [f"SYSTEM TEXT (the same for every question):\n{chunk[0]['system']}\n"]
        for row in chunk:
            text.append(f"===== QUESTION {row['id']} =====\n{row['prompt']}\n")
        (out / f"part_{n}.txt").write_text("\n".join(text), encoding="utf-8")
        print(f"{out / f'part_{n}.txt'}: {len(chunk)} of them")


def main() -> int:
    directory = os.environ.get(ENV)
    if "-p" in sys.argv[1:]:  # called as Claude Code
        if not directory:
            print(json.dumps({"is_error": True, "result": f"{ENV} is not set"}))
            return 1
        return answer_call(sys.argv[1:], sys.stdin.read(), Path(directory))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", type=int, default=1, help="how many files to split into")
    args = parser.parse_args()
    if not directory:
        sys.exit(f"{ENV} is not set")
    write_parts(Path(directory), max(args.parts, 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
