"""How each turn rule read new authors while they were still new to it (issue #14).

    .venv/bin/python bench/blind_branches.py          # the readings of blind sets 3-5
    .venv/bin/python bench/blind_branches.py --now    # and whether each rule is hard now

A rule's figures on the labelled set are fitted: every rule was written with those turns in
view. What a rule is worth on a new author shows only where it read turns it had never
seen. Held-out sets 3, 4 and 5 were each scored once, blind, with the rules of their day,
and then became tuning data. `blind_readings.json` keeps those readings turn by turn: the
kind, whether the turn was marked hard, and the rule that decided ("why").

It was made by checking out each set's commit (set 3: 141f839, set 4: 3bf9b9d, set 5:
c3dbf62) in a worktree, keeping each turn's reasons and hard mark in the stored episode
(the rules of those days computed both but stored neither), and running that day's
`bench/mining_real.py` prediction over the labelled fixtures. The per-set figures this
script prints reproduce those recorded in docs/mining-measured.md for each set's blind scoring.

This prints, per rule: the turns it decided, how many a person labelled the same way, and
how many it marked hard then; with `--now`, how many of those same turns the rules mark
hard today (they are tuning data now, so today's kinds on them say nothing). A rule that
is right on fewer than nine in ten blind turns is no certain reading: its turns belong to
the model-assisted path (marked hard).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from mining_real import FIXTURES, _turn_scores, load_labels, predict

READINGS = Path(__file__).resolve().parent / "blind_readings.json"
#: below this share of right readings on blind turns, a rule is no certain reading
CERTAIN = 0.9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--now", action="store_true", help="also mine the fixtures with today's rules"
    )
    args = parser.parse_args()
    from rich.console import Console
    from rich.table import Table

    data = json.loads(READINGS.read_text(encoding="utf-8"))
    gold = {
        (labelled.transcript, int(turn["line"])): str(turn["kind"])
        for labelled in load_labels(FIXTURES)
        for turn in labelled.turns
    }
    readings = [r for r in data["turns"] if (r["transcript"], r["line"]) in gold]
    console = Console()
    for name, commit in data["commits"].items():
        confusion = Counter(
            (gold[(r["transcript"], r["line"])], r["kind"]) for r in readings if r["set"] == name
        )
        macro, accuracy = _turn_scores(confusion)
        console.print(
            f"held-out set {name}, read blind by the rules of {commit}: "
            f"{sum(confusion.values())} turns, user-turn macro-F1 {macro:.3f}, "
            f"accuracy {accuracy:.3f}"
        )
    hard_now: dict[tuple[str, int], bool] = {}
    if args.now:
        pred = predict(FIXTURES)
        hard_now = {key: key in pred.hard for key in pred.turns}
    rules: dict[tuple[str, str], list[dict[str, object]]] = defaultdict(list)
    for r in readings:
        rules[(str(r["kind"]), str(r["why"]) or "(no reason kept)")].append(r)
    table = Table(
        title="Rules on blind turns (sets 3-5, each read by the rules of its day), "
        "least often right first"
    )
    for column in ("read as", "rule that decided", "turns", "labelled the same", "share right"):
        table.add_column(column, justify="right" if column in ("turns", "share right") else "left")
    table.add_column("marked hard then", justify="right")
    if args.now:
        table.add_column("marked hard now", justify="right")
    table.add_column("certain?")

    def share(item: tuple[tuple[str, str], list[dict[str, object]]]) -> float:
        (kind, _), turns = item
        right = sum(gold[(str(t["transcript"]), int(str(t["line"])))] == kind for t in turns)
        return right / len(turns)

    for (kind, why), turns in sorted(rules.items(), key=lambda item: (share(item), item[0])):
        keys = [(str(t["transcript"]), int(str(t["line"]))) for t in turns]
        right = sum(gold[key] == kind for key in keys)
        row = [
            kind,
            why,
            str(len(turns)),
            str(right),
            f"{right / len(turns):.0%}",
            str(sum(bool(t["hard"]) for t in turns)),
        ]
        if args.now:
            row.append(str(sum(hard_now.get(key, False) for key in keys)))
        row.append("yes" if right / len(turns) >= CERTAIN else "no")
        table.add_row(*row)
    console.print(table)


if __name__ == "__main__":
    main()
