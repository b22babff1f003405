"""Agreement between two people labelling the same real sessions (issue #14).

    .venv/bin/python bench/label_agreement.py --sample     # draw the sample (seeded)
    .venv/bin/python bench/label_agreement.py              # compare the two labellings

The mining target (user-turn macro-F1 >= 0.85) only means something if two careful people
reading the same transcript agree at least that well. `--sample` draws a seeded sample of
transcripts for a blind second labelling: it lists the transcript folders only (never the
labels), groups the files by their source owner (the first `__` part of the flattened file
name, which is the origin repository's owner in SOURCES.md), and draws owners round-robin,
one file per owner per round, at most two per owner, until the sample is full.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "real_sessions"
SEED = 20261202
SAMPLE_SIZE = 20
PER_OWNER = 2
MAX_BYTES = 400_000


def owner(name: str) -> str:
    """The origin repository's owner, as the flattened file name records it."""
    return name.split("__", 1)[0]


def has_typed_turn(path: Path) -> bool:
    """Whether the file can hold a typed turn at all (a main session, not a sidechain).

    A coarse structural test, not a reading: subagent sidechains and summary-only files
    hold no prompt a person typed, so a second labelling of them measures nothing.
    """
    for raw in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(rec, dict):
            continue
        if rec.get("type") == "user" and not rec.get("isSidechain"):
            return True
        payload = rec.get("payload")
        if (
            rec.get("type") == "response_item"
            and isinstance(payload, dict)
            and payload.get("type") == "message"
            and payload.get("role") == "user"
        ):
            return True
    return False


def draw_sample(fixtures: Path, seed: int = SEED, size: int = SAMPLE_SIZE) -> list[str]:
    """Transcripts (`claude/…` or `codex/…`) for the second labelling, in draw order."""
    by_owner: dict[str, list[str]] = defaultdict(list)
    for tool in ("claude", "codex"):
        for path in sorted((fixtures / tool).glob("*.jsonl")):
            if path.stat().st_size > MAX_BYTES or not has_typed_turn(path):
                continue
            by_owner[owner(path.name)].append(f"{tool}/{path.name}")
    rng = random.Random(seed)
    owners = sorted(by_owner)
    rng.shuffle(owners)
    pools = {o: rng.sample(by_owner[o], len(by_owner[o])) for o in owners}
    chosen: list[str] = []
    for round_ in range(PER_OWNER):
        for o in owners:
            if len(chosen) >= size:
                return chosen
            if round_ < len(pools[o]):
                chosen.append(pools[o][round_])
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument("--sample", action="store_true", help="print the seeded sample and exit")
    args = parser.parse_args()
    if args.sample:
        for name in draw_sample(args.fixtures):
            print(name)
        return


if __name__ == "__main__":
    main()
