"""Two people and the rules on the turns the rules read by their place alone (issue #14).

    .venv/bin/python bench/hard_turn_agreement.py            # the figures
    .venv/bin/python bench/hard_turn_agreement.py --sample   # draw the sample again (seeded)

The rules decide most new requests and follow-ups by where a turn sits ("the task is still
open", "same subject", "answers the agent", …), and those readings miss most of what they
miss. Whether a rule could do better there depends on how often two careful people agree
on those same turns. `--sample` draws a seeded sample of the tuning set's turns whose
reading came from one of those rules (`PLACE_RULES`), at most `PER_FILE` per transcript,
and writes their (transcript, line, id) to `labels_second_turns/TURNS.txt`;
a second labeller, who never saw the first labels or the rules' readings, labels each of
them in `second.toml` there. Without `--sample` it prints, on those turns: how often the
two labellers agree (and Cohen's kappa), how often the rules agree with each, and the
rules' agreement per deciding rule.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from label_agreement import cohen_kappa
from mining_real import FIXTURES, load_labels, predict

FOLDER = "labels_second_turns"
SEED = 20261205
SIZE = 60
PER_FILE = 3
#: The rules that read a turn by its place in the exchange, not by what it says.
PLACE_RULES = (
    "the task is still open",
    "same subject",
    "answers the agent",
    "continues the running task",
    "new subject after the agent finished",
    "long request after done",
    "a short turn after done",
)


def deciding_rule(why: str) -> str:
    """The rule that decided a turn: the last of the reasons the miner recorded."""
    return why.split("; ")[-1] if why else ""


def draw(fixtures: Path, size: int = SIZE) -> list[tuple[str, int, str]]:
    """The seeded sample: (transcript, line, id) of tuning turns a place rule decided."""
    everything = load_labels(fixtures)
    labels = [lab for lab in everything if not lab.held_out]
    held = frozenset(lab.transcript for lab in everything if lab.held_out)
    with contextlib.redirect_stdout(io.StringIO()):
        pred = predict(fixtures, held)
    pool = [
        (lab.transcript, int(t["line"]), str(t.get("id", "")))
        for lab in labels
        for t in lab.turns
        if deciding_rule(pred.why.get((lab.transcript, int(t["line"])), "")) in PLACE_RULES
    ]
    random.Random(SEED).shuffle(pool)
    per: Counter[str] = Counter()
    chosen: list[tuple[str, int, str]] = []
    for item in pool:
        if per[item[0]] < PER_FILE and len(chosen) < size:
            per[item[0]] += 1
            chosen.append(item)
    return sorted(chosen)


@dataclass
class Agreement:
    """The figures on the sampled turns that both labellers labelled."""

    turns: int
    labellers_agree: int
    kappa: float
    rules_agree_first: int
    rules_agree_second: int
    rules_agree_either: int
    #: (first kind, second kind) → how often, where the two labellers differ
    confusions: Counter[tuple[str, str]]
    #: deciding rule → [turns, labellers agree, rules = first, rules = second]
    per_rule: dict[str, list[int]]


def agreement(
    sample: list[tuple[str, int]],
    first: dict[tuple[str, int], str],
    second: dict[tuple[str, int], str],
    rules: dict[tuple[str, int], str],
    rule_of: dict[tuple[str, int], str],
) -> Agreement:
    """How the two labellers and the rules read the sampled turns both labellers labelled."""
    both = [key for key in sample if key in first and key in second]
    pairs = [(first[k], second[k]) for k in both]
    per_rule: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for k in both:
        row = per_rule[rule_of.get(k, "")]
        row[0] += 1
        row[1] += first[k] == second[k]
        row[2] += rules.get(k) == first[k]
        row[3] += rules.get(k) == second[k]
    return Agreement(
        turns=len(both),
        labellers_agree=sum(a == b for a, b in pairs),
        kappa=cohen_kappa(pairs),
        rules_agree_first=sum(rules.get(k) == first[k] for k in both),
        rules_agree_second=sum(rules.get(k) == second[k] for k in both),
        rules_agree_either=sum(rules.get(k) in (first[k], second[k]) for k in both),
        confusions=Counter((first[k], second[k]) for k in both if first[k] != second[k]),
        per_rule=dict(per_rule),
    )


def _commit() -> str:
    """The commit the rules were read from (the sample depends on them)."""
    import subprocess

    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=Path(__file__).resolve().parent,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or "an unknown commit"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument("--sample", action="store_true", help="draw the sample and write it")
    args = parser.parse_args()
    folder = args.fixtures / FOLDER
    if args.sample:
        folder.mkdir(parents=True, exist_ok=True)
        lines = [f"{t}\t{n}\t{i}\n" for t, n, i in draw(args.fixtures)]
        head = (
            f"# drawn by bench/hard_turn_agreement.py --sample (seed {SEED}) "
            f"with the rules of {_commit()}\n"
        )
        (folder / "TURNS.txt").write_text(head + "".join(lines), encoding="utf-8")
        print(f"{len(lines)} turns written to {folder / 'TURNS.txt'}")
        return
    rows = (folder / "TURNS.txt").read_text(encoding="utf-8").splitlines()
    sample = [(t, int(n)) for t, n, _ in (r.split("\t") for r in rows if not r.startswith("#"))]
    data = tomllib.loads((folder / "second.toml").read_text(encoding="utf-8"))
    second = {(str(t["transcript"]), int(t["line"])): str(t["kind"]) for t in data["turns"]}
    labels = load_labels(args.fixtures)
    first = {(lab.transcript, int(t["line"])): str(t["kind"]) for lab in labels for t in lab.turns}
    held = frozenset(lab.transcript for lab in labels if lab.held_out)
    with contextlib.redirect_stdout(io.StringIO()):
        pred = predict(args.fixtures, held)
    rule_of = {key: deciding_rule(why) for key, why in pred.why.items()}
    figs = agreement(sample, first, second, pred.turns, rule_of)
    n = figs.turns
    print(f"turns the rules read by their place, sampled: {len(sample)}; labelled twice: {n}")
    for what, got in (
        ("the two labellers agree", figs.labellers_agree),
        ("the rules agree with the first labeller", figs.rules_agree_first),
        ("the rules agree with the second labeller", figs.rules_agree_second),
        ("the rules agree with one of them at least", figs.rules_agree_either),
    ):
        print(f"{what}: {got} of {n} ({got / max(n, 1):.0%})")
    print(f"Cohen's kappa between the labellers: {figs.kappa:.2f}")
    listed = ", ".join(f"{a} -> {b} x{c}" for (a, b), c in figs.confusions.most_common())
    print(f"labellers' confusions (first -> second): {listed or 'none'}")
    print("by deciding rule: turns, labellers agree, rules = first, rules = second")
    for rule, (total, agree, r1, r2) in sorted(figs.per_rule.items(), key=lambda kv: -kv[1][0]):
        print(f"  {rule or '(none)':40} {total:3d} {agree:3d} {r1:3d} {r2:3d}")


if __name__ == "__main__":
    main()
