"""Agreement between two people labelling the same real sessions (issue #14).

    .venv/bin/python bench/label_agreement.py --sample     # draw the sample (seeded)
    .venv/bin/python bench/label_agreement.py --sample --size 40   # the draw continued
    .venv/bin/python bench/label_agreement.py              # compare the two labellings
    .venv/bin/python bench/label_agreement.py --no-rules   # without the rules' figures
    .venv/bin/python bench/label_agreement.py --json       # the figures for machines

The mining target (user-turn macro-F1 >= 0.85) only means something if two careful people
reading the same transcript agree at least that well. `--sample` draws a seeded sample of
transcripts for a blind second labelling: it lists the transcript folders only (never the
labels), groups the files by their source owner (the first `__` part of the flattened file
name, which is the origin repository's owner in SOURCES.md), and draws owners round-robin,
one file per owner per round, at most two per owner, until the sample is full.

Without `--sample` it compares, for every file in `labels_second/` (or the folder `--second`
names: `labels_second_batches/<batch>`, a whole blind batch labelled twice), the second labels
with the first ones in `labels/` (LABELS.md, "Agreement between two labellers"):

* typed turns matched by (transcript, line): raw agreement, Cohen's kappa, the macro-F1 of
  the second labeller scored against the first (bench/mining_real.py's definition over the
  six kinds), per-kind agreement (both / either), the confusions, and the turns only one
  labeller marked;
* episode outcomes on the turns both call `new_task`;
* tool errors matched by (transcript, call_id): agreement on root / knock_on / benign, and
  the errors only one labeller found;
* the rules' user-turn macro-F1 on the same files against each labeller (mining runs on a
  temporary store that holds only the sampled transcripts).
"""

from __future__ import annotations

import argparse
import json
import random
import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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


def draw_sample(
    fixtures: Path,
    seed: int = SEED,
    size: int = SAMPLE_SIZE,
    exclude: frozenset[str] = frozenset(),
) -> list[str]:
    """Transcripts (`claude/…` or `codex/…`) for the second labelling, in draw order.
    `exclude`: transcripts that were not there when a recorded sample was drawn."""
    by_owner: dict[str, list[str]] = defaultdict(list)
    for tool in ("claude", "codex"):
        for path in sorted((fixtures / tool).glob("*.jsonl")):
            if f"{tool}/{path.name}" in exclude:
                continue
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


SECOND = "labels_second"
TURN_KINDS = ("new_task", "follow_up", "correction", "approval", "steering", "housekeeping")


@dataclass
class Labelling:
    """One labeller's labels of one transcript."""

    transcript: str
    turns: dict[int, dict[str, Any]] = field(default_factory=dict)
    errors: dict[str, dict[str, Any]] = field(default_factory=dict)


def read_labelling(path: Path) -> Labelling:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return Labelling(
        str(data["transcript"]),
        {int(t["line"]): t for t in data.get("turns", [])},
        {str(e["call_id"]): e for e in data.get("tool_errors", [])},
    )


def paired(fixtures: Path, second_folder: str = SECOND) -> list[tuple[Labelling, Labelling]]:
    """(first, second) for every transcript the second labeller labelled."""
    out = []
    for path in sorted((fixtures / second_folder).glob("*/*.toml")):
        second = read_labelling(path)
        first_path = fixtures / "labels" / path.relative_to(fixtures / second_folder)
        out.append((read_labelling(first_path), second))
    return out


def cohen_kappa(pairs: list[tuple[str, str]]) -> float:
    """Agreement beyond chance: (observed - expected) / (1 - expected)."""
    n = len(pairs)
    if n == 0:
        return float("nan")
    observed = sum(1 for a, b in pairs if a == b) / n
    first = Counter(a for a, _ in pairs)
    second = Counter(b for _, b in pairs)
    expected = sum(first[k] * second[k] for k in set(first) | set(second)) / (n * n)
    return (observed - expected) / (1 - expected) if expected < 1 else float("nan")


def macro_f1(pairs: list[tuple[str, str]]) -> float:
    """bench/mining_real.py's macro-F1 over the six kinds, the first labeller as gold."""
    f1s = []
    for kind in TURN_KINDS:
        tp = sum(1 for g, p in pairs if g == kind and p == kind)
        gold = sum(1 for g, _ in pairs if g == kind)
        said = sum(1 for _, p in pairs if p == kind)
        if gold == 0 and said == 0:
            continue
        prec = tp / said if said else 0.0
        rec = tp / gold if gold else 0.0
        f1s.append(0.0 if prec + rec == 0 else 2 * prec * rec / (prec + rec))
    return sum(f1s) / len(f1s) if f1s else float("nan")


@dataclass
class Agreement:
    files: int = 0
    #: (transcript, line, first kind, second kind)
    turns: list[tuple[str, int, str, str]] = field(default_factory=list)
    only_first: list[tuple[str, int, str]] = field(default_factory=list)
    only_second: list[tuple[str, int, str]] = field(default_factory=list)
    #: (transcript, line, first outcome, second outcome) on turns both call new_task
    outcomes: list[tuple[str, int, str, str]] = field(default_factory=list)
    #: (transcript, line, call_id, first kind, second kind)
    errors: list[tuple[str, int, str, str, str]] = field(default_factory=list)
    errors_only_first: list[tuple[str, int, str, str]] = field(default_factory=list)
    errors_only_second: list[tuple[str, int, str, str]] = field(default_factory=list)


def compare(pairs: list[tuple[Labelling, Labelling]]) -> Agreement:
    out = Agreement(files=len(pairs))
    for first, second in pairs:
        name = first.transcript
        for line in sorted(set(first.turns) | set(second.turns)):
            a, b = first.turns.get(line), second.turns.get(line)
            if a is None and b is not None:
                out.only_second.append((name, line, b["kind"]))
            elif b is None and a is not None:
                out.only_first.append((name, line, a["kind"]))
            elif a is not None and b is not None:
                out.turns.append((name, line, a["kind"], b["kind"]))
                if a["kind"] == b["kind"] == "new_task":
                    out.outcomes.append((name, line, a["outcome"], b["outcome"]))
        for call_id in sorted(set(first.errors) | set(second.errors)):
            ea, eb = first.errors.get(call_id), second.errors.get(call_id)
            if ea is not None and eb is not None:
                out.errors.append((name, int(ea["line"]), call_id, ea["kind"], eb["kind"]))
            elif ea is not None:
                out.errors_only_first.append((name, int(ea["line"]), call_id, ea["kind"]))
            elif eb is not None:
                out.errors_only_second.append((name, int(eb["line"]), call_id, eb["kind"]))
    return out


def short(transcript: str) -> str:
    """A transcript's owner and the tail of its name, enough to find it."""
    stem = Path(transcript).stem
    return f"{stem.split('__')[0]} {stem[-22:]}"


def figures(agr: Agreement) -> dict[str, Any]:
    kinds = [(a, b) for _, _, a, b in agr.turns]
    per_kind = {}
    for kind in TURN_KINDS:
        first = sum(1 for a, _ in kinds if a == kind)
        second = sum(1 for _, b in kinds if b == kind)
        both = sum(1 for a, b in kinds if a == b == kind)
        per_kind[kind] = {
            "first": first,
            "second": second,
            "both": both,
            # positive specific agreement: 2 x both / (first + second)
            "agreement": 2 * both / (first + second) if first + second else float("nan"),
        }
    outs = [(a, b) for _, _, a, b in agr.outcomes]
    errs = [(a, b) for *_, a, b in agr.errors]
    return {
        "files": agr.files,
        "turns_matched": len(kinds),
        "turns_agreed": sum(1 for a, b in kinds if a == b),
        "turn_raw_agreement": _share(kinds),
        "turn_kappa": cohen_kappa(kinds),
        "turn_macro_f1_second_vs_first": macro_f1(kinds),
        "per_kind": per_kind,
        "turns_only_first": len(agr.only_first),
        "turns_only_second": len(agr.only_second),
        "outcomes_matched": len(outs),
        "outcome_agreement": _share(outs),
        "outcome_kappa": cohen_kappa(outs),
        "errors_matched": len(errs),
        "error_agreement": _share(errs),
        "error_kappa": cohen_kappa(errs),
        "errors_only_first": len(agr.errors_only_first),
        "errors_only_second": len(agr.errors_only_second),
    }


def _share(pairs: list[tuple[str, str]]) -> float:
    return sum(1 for a, b in pairs if a == b) / len(pairs) if pairs else float("nan")


def rules_against_each(
    fixtures: Path, transcripts: set[str], second_folder: str = SECOND
) -> dict[str, dict[str, float]]:
    """The rules' figures on the sampled files, scored against each labeller's labels."""
    import contextlib
    import io
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    import mining_real as mr

    everything = {
        f"{tool}/{p.name}" for tool in ("claude", "codex") for p in (fixtures / tool).glob("*")
    }
    skip = frozenset(
        name.removesuffix(".meta.json").removesuffix(".jsonl") + ".jsonl"
        for name in everything
        if name.removesuffix(".meta.json").removesuffix(".jsonl") + ".jsonl" not in transcripts
    )
    with contextlib.redirect_stdout(io.StringIO()):
        pred = mr.predict(fixtures, skip)
    out = {}
    for who, folder in (("first", "labels"), ("second", second_folder)):
        labels = []
        for path in sorted((fixtures / folder).glob("*/*.toml")):
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            if data["transcript"] in transcripts:
                labels.append(
                    mr.Labelled(
                        data["transcript"], data.get("turns", []), data.get("tool_errors", [])
                    )
                )
        got = mr.report(labels, pred, who, quiet=True)
        out[who] = {k: got[k] for k in ("turns", "macro_f1", "accuracy", "outcome_acc", "unknown")}
    return out


def confusions(what: str, pairs: list[tuple[str, str]]) -> str:
    """One line: how often each first reading met a different second one."""
    counts = Counter((a, b) for a, b in pairs if a != b)
    listed = ", ".join(f"{a} -> {b} x{n}" for (a, b), n in counts.most_common())
    return f"{what} confusions (first -> second): {listed or 'none'}"


def show(agr: Agreement, figs: dict[str, Any], rules: dict[str, dict[str, float]] | None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    head = Table(title=f"Two labellers on {figs['files']} transcripts: typed turns")
    head.add_column("measure")
    head.add_column("value", justify="right")
    head.add_row("turns both labelled", str(figs["turns_matched"]))
    head.add_row("same kind", f"{figs['turns_agreed']} ({figs['turn_raw_agreement']:.3f})")
    head.add_row("Cohen's kappa", f"{figs['turn_kappa']:.3f}")
    head.add_row(
        "macro-F1, second scored against first", f"{figs['turn_macro_f1_second_vs_first']:.3f}"
    )
    head.add_row("turns only the first labeller marked", str(figs["turns_only_first"]))
    head.add_row("turns only the second labeller marked", str(figs["turns_only_second"]))
    console.print(head)

    kinds = Table(title="Agreement per kind (both / either: 2 x both / (first + second))")
    for col in ("kind", "first", "second", "both", "agreement"):
        kinds.add_column(col, justify="left" if col == "kind" else "right")
    for kind, row in figs["per_kind"].items():
        kinds.add_row(
            kind.replace("_", " "),
            str(row["first"]),
            str(row["second"]),
            str(row["both"]),
            "-" if row["first"] + row["second"] == 0 else f"{row['agreement']:.2f}",
        )
    console.print(kinds)

    diff = Table(title="Turns read differently (first -> second)")
    for col in ("transcript", "line", "first", "second"):
        diff.add_column(col)
    for name, line, a, b in agr.turns:
        if a != b:
            diff.add_row(short(name), str(line), a, b)
    for name, line, a in agr.only_first:
        diff.add_row(short(name), str(line), a, "(not a turn)")
    for name, line, b in agr.only_second:
        diff.add_row(short(name), str(line), "(not a turn)", b)
    console.print(diff)
    console.print(confusions("turn", [(a, b) for _, _, a, b in agr.turns]))

    rest = Table(title="Outcomes and tool errors")
    rest.add_column("measure")
    rest.add_column("value", justify="right")
    rest.add_row("outcomes on turns both call new task", str(figs["outcomes_matched"]))
    rest.add_row(
        "same outcome", f"{figs['outcome_agreement']:.3f} (kappa {figs['outcome_kappa']:.3f})"
    )
    rest.add_row("tool errors both labelled", str(figs["errors_matched"]))
    rest.add_row(
        "same error kind", f"{figs['error_agreement']:.3f} (kappa {figs['error_kappa']:.3f})"
    )
    rest.add_row("tool errors only the first labeller found", str(figs["errors_only_first"]))
    rest.add_row("tool errors only the second labeller found", str(figs["errors_only_second"]))
    console.print(rest)
    console.print(confusions("outcome", [(a, b) for _, _, a, b in agr.outcomes]))
    errs = Table(title="Tool errors read differently or found by one labeller only")
    for col in ("transcript", "line", "first", "second"):
        errs.add_column(col)
    for name, line, _, a, b in agr.errors:
        if a != b:
            errs.add_row(short(name), str(line), a, b)
    for name, line, _, a in agr.errors_only_first:
        errs.add_row(short(name), str(line), a, "(not labelled)")
    for name, line, _, b in agr.errors_only_second:
        errs.add_row(short(name), str(line), "(not labelled)", b)
    console.print(errs)

    if rules is not None:
        table = Table(title="The rules on the same files, scored against each labeller")
        for col in ("labels", "turns", "macro-F1", "accuracy", "outcome accuracy"):
            table.add_column(col, justify="left" if col == "labels" else "right")
        for who, row in rules.items():
            table.add_row(
                f"{who} labeller",
                f"{row['turns']:.0f}",
                f"{row['macro_f1']:.3f}",
                f"{row['accuracy']:.3f}",
                f"{row['outcome_acc']:.3f}",
            )
        console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument("--sample", action="store_true", help="print the seeded sample and exit")
    parser.add_argument("--size", type=int, default=SAMPLE_SIZE, help="files to draw with --sample")
    parser.add_argument("--no-rules", action="store_true", help="skip mining the sampled files")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--second",
        default=SECOND,
        help="the folder of second labels, under the fixtures (a whole batch labelled twice: "
        "labels_second_batches/<batch>)",
    )
    args = parser.parse_args()
    if args.sample:
        for name in draw_sample(args.fixtures, size=args.size):
            print(name)
        return
    pairs = paired(args.fixtures, args.second)
    if not pairs:
        raise SystemExit(f"no second labels under {args.fixtures / args.second}")
    agr = compare(pairs)
    figs = figures(agr)
    rules = None
    if not args.no_rules:
        transcripts = {second.transcript for _, second in pairs}
        rules = rules_against_each(args.fixtures, transcripts, args.second)
    if args.json:
        print(json.dumps({**figs, "rules": rules}, indent=2))
    else:
        show(agr, figs, rules)


if __name__ == "__main__":
    main()
