"""How the turn rules read phrasings written blind to them (issue #14).

    .venv/bin/python bench/phrasebook.py                    # every book in bench/phrasebooks
    .venv/bin/python bench/phrasebook.py BOOK.json --misses # one book, with each misread line

A phrasebook is a list of made-up turns, each with the running request, the agent's last
words, where the turn sits (after the agent's report, after its question, after an
interrupt, or typed into its running turn) and the kind its writer gave it under the
definitions in tests/fixtures/real_sessions/LABELS.md. The books in bench/phrasebooks were
written by helpers that never read the rules (bench/phrasebooks/README.md says which were
read while the rules were written and which only measured them).

These are not real sessions and say nothing of how often a phrasing occurs: on the
labelled real sessions, a statement after the agent's report is a follow-up far more
often than a verdict. The figures say whether the rules know the many ways of saying
"that works" or "that is broken" that the labelled set holds once or never. The measure
of the rules stays `bench/mining_real.py`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sleepd.mining.commands import parse_command
from sleepd.mining.lexicon import lexicon_for
from sleepd.mining.turns import TurnInput, TurnKind, classify_turn

BOOKS = Path(__file__).resolve().parent / "phrasebooks"
KINDS = tuple(kind.value for kind in TurnKind)
SITUATIONS = ("after_done", "after_question", "after_interrupt", "queued")


@dataclass(frozen=True)
class Reading:
    gold: str
    got: str
    situation: str
    reasons: str
    text: str


def load_book(path: Path) -> list[dict[str, Any]]:
    """The book's entries, each checked for the fields and values a reading needs."""
    entries = json.loads(path.read_text(encoding="utf-8"))
    for number, entry in enumerate(entries, 1):
        for key in ("situation", "request", "agent_text", "text", "kind"):
            if not isinstance(entry.get(key), str):
                raise ValueError(f"{path.name} entry {number}: no text for {key!r}")
        if entry["kind"] not in KINDS or entry["situation"] not in SITUATIONS:
            raise ValueError(f"{path.name} entry {number}: unknown kind or situation")
    return entries


def turn_of(entry: dict[str, Any]) -> TurnInput:
    """The turn as mining sees one in a running episode: the request opened it, the agent
    worked and wrote its last words, a minute passed."""
    situation = entry["situation"]
    return TurnInput(
        text=entry["text"],
        command=parse_command(entry["text"]),
        has_episode=True,
        agent_text=entry["agent_text"],
        agent_worked=True,
        context=f"{entry['request']} {entry['agent_text']}",
        request=entry["request"],
        previous_text=entry["request"],
        previous=TurnKind.NEW_TASK,
        gap_s=60.0,
        after_interrupt=situation == "after_interrupt",
        queued=situation == "queued",
        agent_ended=situation in ("after_done", "after_question"),
    )


def read_book(entries: Sequence[dict[str, Any]]) -> list[Reading]:
    lexicon = lexicon_for()
    readings = []
    for entry in entries:
        decision = classify_turn(turn_of(entry), lexicon)
        readings.append(
            Reading(
                entry["kind"],
                decision.kind.value,
                entry["situation"],
                ", ".join(decision.reasons),
                entry["text"],
            )
        )
    return readings


def report(name: str, readings: Sequence[Reading], misses: bool) -> None:
    right = sum(r.gold == r.got for r in readings)
    print(f"\n== {name}: {len(readings)} written turns ==")
    print(f"{'kind':14} {'written':>7} {'precision':>9} {'recall':>6} {'F1':>5}")
    f1s = []
    for kind in KINDS:
        gold = sum(r.gold == kind for r in readings)
        got = sum(r.got == kind for r in readings)
        hits = sum(r.gold == kind == r.got for r in readings)
        if not gold:
            continue
        precision = hits / got if got else 0.0
        recall = hits / gold
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        f1s.append(f1)
        print(f"{kind:14} {gold:7} {precision:9.2f} {recall:6.2f} {f1:5.2f}")
    print(f"turn macro-F1 {sum(f1s) / len(f1s):.3f}, accuracy {right / len(readings):.3f}")
    confusions = Counter((r.gold, r.got) for r in readings if r.gold != r.got)
    listed = ", ".join(f"{gold}->{got} x{n}" for (gold, got), n in confusions.most_common())
    print(f"confusions (written -> read): {listed or 'none'}")
    if misses:
        for r in sorted(readings, key=lambda r: (r.gold, r.got)):
            if r.gold != r.got:
                print(f"  {r.gold} -> {r.got} ({r.situation}; {r.reasons}): {r.text[:160]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("books", nargs="*", type=Path, help="phrasebooks (default: every one)")
    parser.add_argument("--misses", action="store_true", help="list each misread turn")
    args = parser.parse_args()
    books = args.books or sorted(BOOKS.glob("*.json"))
    if not books:
        sys.exit(f"no phrasebooks under {BOOKS}")
    print("(written phrasings, not real sessions: see bench/phrasebooks/README.md)")
    for path in books:
        try:
            entries = load_book(path)
        except (OSError, ValueError) as error:
            sys.exit(f"cannot read {path}: {error}")
        report(path.stem, read_book(entries), args.misses)


if __name__ == "__main__":
    main()
