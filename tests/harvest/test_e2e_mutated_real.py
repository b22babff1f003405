"""Real transcripts with fields mutated to what a hostile file could hold: the harvest and
the mining pass after it complete, and a second harvest finds nothing new.

The corpus's real lines are each, with a fixed chance, given one to three fields of
another value: another type, a huge or negative number, a NUL, a text longer than any
column, a time past year 9999. Nothing here is shaped after one failure; it is the
class: whatever a line holds, it costs at most that line.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_support import lay_out_corpus

from sleepd.harvest import harvest

ODD_VALUES: list[Any] = [
    None, 0, -1, 1.5, True, "", [], {}, [1, "a"], {"a": 1},
    10**30, -(10**25), 2**40, "a\x00b", "N" * 1000, "Q" * 600 + "Error: x",
    "9999-12-31T23:59:59Z", "0001-01-01T00:00:00+01:00", "exit code 99999999999999999999",
    {"type": "text", "text": 5}, [{"type": "tool_use", "id": 5, "input": "x"}],
]  # fmt: skip
SEEDS = (1, 2)
MUTATED_SHARE = 0.3


def field_paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        yield (*prefix, key)
        if isinstance(item, dict | list):
            yield from field_paths(item, (*prefix, key))


def mutated(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    record = copy.deepcopy(record)
    for _ in range(rng.randint(1, 3)):
        paths = list(field_paths(record))
        if not paths:
            break
        path = rng.choice(paths)
        holder: Any = record
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = copy.deepcopy(rng.choice(ODD_VALUES))
    return record


def mutate_file(path: Path, rng: random.Random) -> int:
    """Mutate a share of the file's lines in place; how many were mutated."""
    lines, count = [], 0
    for raw in path.read_bytes().splitlines():
        try:
            record = json.loads(raw)
        except ValueError:
            lines.append(raw)
            continue
        if isinstance(record, dict) and rng.random() < MUTATED_SHARE:
            record, count = mutated(record, rng), count + 1
        # the stdlib writes integers of any size, and NaN: as a hostile writer might
        lines.append(json.dumps(record).encode())
    path.write_bytes(b"\n".join(lines) + b"\n")
    return count


@pytest.mark.both_dbs
@pytest.mark.parametrize("seed", SEEDS)
def test_mutated_real_transcripts_are_harvested_and_mined_without_stopping(
    isolated_home: Path, cfg: Any, store: Any, seed: int
) -> None:
    from sleepd.mining.mine import mine

    rng = random.Random(seed)
    assert sum(mutate_file(path, rng) for path in lay_out_corpus(isolated_home)) > 300
    first = harvest(store, cfg).totals()
    assert first["errors"] == 0 and first["events_new"] > 1000
    report = mine(store, cfg)
    assert report.episodes_new > 0
    assert harvest(store, cfg).totals()["events_new"] == 0
