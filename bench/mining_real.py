"""Mining measured against hand labels of real sessions (issue #14).

    .venv/bin/python bench/mining_real.py [--fixtures tests/fixtures/real_sessions]

Harvests every labelled real transcript into a fresh store, mines it as `sleepd mine`
does, and compares with `labels/**/*.toml` (format in the fixtures' LABELS.md):

* user turns: macro-F1 over the six kinds, per-class precision / recall, and the
  correction (failure report) recall and precision; a turn read on a record no person
  typed (a notice Claude Code queued, a tool's echo) counts against the precision of
  the kind it was read as, and the count of such turns is printed; how many turns the
  rules marked hard (the ones model-assisted mining hands to a model), how many of the
  misread turns are among them, and the ceiling of that path: the figures if every hard
  turn were read right and every other one as the rules read it;
  with `--model-assisted`, the miner model of your sleepd config ([roles.miner]) reads
  the hard turns, as `sleepd mine` does with `mining.model_assisted` on, and the figures
  are its, with how many hard turns it read right where the rules alone (mined a second
  time without it) had not, and the reverse (`bench/recorded_model.py` stands in for that
  model with answers a reader wrote, where no model can be called);
* episode outcomes (new_task turns): accuracy and the `unknown` rate, over every labelled
  request and over those whose outcome a person could tell (not labelled `unknown`);
* replay tasks: how many were mined and how many open with a request a person labelled
  `new_task` (a task is a self-contained request, never a bare follow-up), and how many
  are slash commands and carry the text the command gave the agent;
* tool errors: root / knock_on / benign accuracy, the results read as errors that no
  label marks (every error-like result is labelled, so each is a false alarm; listed by
  `--mistakes` for the tuning set, by `--tool-errors-of BATCH` for a scored held-out
  batch), and the precision of the top-10 failure patterns
  (the share of their occurrences a person labelled `root`).

Reported for: all files; the tuning set (files without `held_out`); every held-out file
pooled; each held-out batch (grouped by the value of its `held_out` key, e.g. "set 2 …");
and each source group (the origin repository's owner, i.e. one author's style), so a rule
that only fits one author shows as a gap between the groups. `--no-held-out` leaves the
held-out files out of every figure (and out of the store), for tuning without looking at
them.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shutil
import sys
import tempfile
import tomllib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402

from sleepd.config import Config  # noqa: E402
from sleepd.mining.commands import parse_command  # noqa: E402
from sleepd.mining.episodes import EventView  # noqa: E402
from sleepd.mining.errors import judge_errors  # noqa: E402
from sleepd.mining.figures import top_patterns  # noqa: E402
from sleepd.mining.late_exits import with_late_exits  # noqa: E402
from sleepd.mining.loading import read_by_mining  # noqa: E402
from sleepd.mining.mine import mine  # noqa: E402
from sleepd.mining.recurrence import is_recurring  # noqa: E402
from sleepd.mining.turns import TURN_KINDS  # noqa: E402
from sleepd.store.engine import make_engine, read_session  # noqa: E402
from sleepd.store.migrate import upgrade  # noqa: E402
from sleepd.store.models import (  # noqa: E402
    Episode,
    Event,
    PatternOccurrence,
    Task,
    TaskCluster,
    TranscriptFile,
)

FIXTURES = ROOT / "tests" / "fixtures" / "real_sessions"
LATER = datetime(2030, 1, 1, tzinfo=UTC)
OUTCOMES = ("success", "failure", "abandoned", "unknown")
#: Every hard turn of the set goes to the model in a `--model-assisted` run (the
#: config's per-pass cap is for a user's nightly pass, not for a measurement).
MODEL_MAX_TURNS = 10_000


@dataclass
class Labelled:
    transcript: str
    turns: list[dict[str, Any]] = field(default_factory=list)
    tool_errors: list[dict[str, Any]] = field(default_factory=list)
    #: the batch it was held out in ("" when it is tuning data): labelled before the
    #: rules were measured on it and never used to tune them
    held_out: str = ""

    @property
    def group(self) -> str:
        """The source group: the origin repository's owner (one author's style)."""
        return source_group(self.transcript)


def load_labels(fixtures: Path) -> list[Labelled]:
    """Every usable label file under `fixtures/labels`. A file that cannot be used (not
    TOML, no `transcript`, a transcript that is not there) and an entry without its line,
    kind or call id are left out, each with one line on stderr, and counted at the end:
    a labelled set made elsewhere is measured on what it holds, never stopped by one file."""
    out = []
    skipped_files = skipped_entries = 0
    for path in sorted((fixtures / "labels").rglob("*.toml")):
        where = path.relative_to(fixtures)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            print(f"skipped {where}: not a readable TOML file ({exc})", file=sys.stderr)
            skipped_files += 1
            continue
        transcript = data.get("transcript")
        if not isinstance(transcript, str) or not (fixtures / transcript).is_file():
            print(f"skipped {where}: its transcript {transcript!r} is not there", file=sys.stderr)
            skipped_files += 1
            continue
        all_turns, all_errors = _entries(data, "turns"), _entries(data, "tool_errors")
        turns = [t for t in all_turns if _usable_turn(t)]
        errors = [e for e in all_errors if _usable_error(e)]
        dropped = len(all_turns) + len(all_errors) - len(turns) - len(errors)
        if dropped:
            entries = "entry" if dropped == 1 else "entries"
            print(
                f"{where}: {dropped} {entries} without a line, kind or call id left out",
                file=sys.stderr,
            )
            skipped_entries += dropped
        out.append(
            Labelled(transcript, turns, errors, held_out=str(data.get("held_out", "")).strip())
        )
    if skipped_files or skipped_entries:
        print(
            f"label files left out: {skipped_files}; entries left out: {skipped_entries}",
            file=sys.stderr,
        )
    return out


def _entries(data: dict[str, Any], key: str) -> list[Any]:
    entries = data.get(key, [])
    return entries if isinstance(entries, list) else []


def _usable_turn(turn: Any) -> bool:
    return (
        isinstance(turn, dict)
        and isinstance(turn.get("line"), int)
        and turn.get("kind") in TURN_KINDS
        and isinstance(turn.get("outcome", "success"), str)
    )


def _usable_error(error: Any) -> bool:
    return (
        isinstance(error, dict)
        and isinstance(error.get("call_id"), str)
        and error.get("kind") in ("root", "knock_on", "benign")
    )


def source_group(transcript: str) -> str:
    """`claude/<owner>__<repo>__….jsonl` → `<owner>`."""
    return Path(transcript).name.split("__")[0]


def _known_layout() -> dict[str, str]:
    try:
        sys.path.insert(0, str(ROOT / "tests" / "mining"))
        from corpus_layout import layout
    except ImportError:
        return {}
    return dict(layout())


def _first_day(path: Path) -> str:
    """The day (UTC) of a transcript's first dated record; "" when none is dated."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle):
            if number > 200:
                break
            found = re.search(rb'"timestamp"\s*:\s*"(\d{4}-\d{2}-\d{2})', raw)
            if found:
                return found.group(1).decode()
    return ""


def _night_by_night(engine: Any, cfg: Config, homes: Path, held: Path, harvest: Any) -> int:
    """Hold every laid-out transcript back, then put back each day's (by its first dated
    record) and harvest and mine at 03:00 the next day, oldest day first; the caller's
    last harvest and pass read whatever is left. Returns how many nights ran."""
    files = sorted(p for p in homes.rglob("*") if p.is_file())
    by_day: dict[str, list[Path]] = defaultdict(list)
    for path in files:
        by_day[_first_day(path) if path.suffix == ".jsonl" else ""].append(path)
    for path in files:
        target = held / path.relative_to(homes)
        target.parent.mkdir(parents=True, exist_ok=True)
        path.rename(target)
    for path in by_day.pop("", []):  # a subagent's meta, an undated file: there at once
        (held / path.relative_to(homes)).rename(path)
    nights = 0
    for day in sorted(by_day):
        for path in by_day[day]:
            (held / path.relative_to(homes)).rename(path)
        harvest(engine, cfg)
        night = datetime.fromisoformat(day).replace(tzinfo=UTC) + timedelta(days=1, hours=3)
        mine(engine, cfg, now=night)
        nights += 1
    return nights


def _before_those_written_later(
    engine: Any, cfg: Config, held: Path, where: dict[str, str], later: frozenset[str], harvest: Any
) -> None:
    """Harvest and mine every laid-out transcript but those in `later`, then put those
    back for the caller's harvest and pass."""
    moved = [Path(path) for path, rel in where.items() if rel in later]
    for index, path in enumerate(moved):
        held.mkdir(parents=True, exist_ok=True)
        path.rename(held / str(index))
    harvest(engine, cfg)
    mine(engine, cfg, now=LATER)
    for index, path in enumerate(moved):
        (held / str(index)).rename(path)


def lay_out(
    fixtures: Path, root: Path, skip: frozenset[str] = frozenset()
) -> tuple[Path, Path, dict[str, str]]:
    """Copy every transcript (but those in `skip`) where its agent keeps it; return the
    homes and a map from laid-out path to the transcript's name relative to `fixtures`."""
    homes = {"claude": root / "claude", "codex": root / "codex"}
    known = _known_layout()
    where: dict[str, str] = {}
    for source in ("claude", "codex"):
        for path in sorted((fixtures / source).glob("*")):
            if path.suffix not in (".jsonl", ".json"):
                continue
            rel = f"{source}/{path.name}"
            if rel.removesuffix(".meta.json").removesuffix(".jsonl") + ".jsonl" in skip:
                continue
            if rel in known:
                dst = known[rel]
            elif source == "claude" and "__subagents__" in path.name:
                # a subagent file lies under its parent session, as Claude Code keeps it
                parent = _session_id(path) or path.stem.split("__subagents__")[0]
                agent = path.name.split("__subagents__")[1]
                dst = f"projects/-{path.stem.split('__')[0]}/{parent}/subagents/{agent}"
            elif source == "claude":
                # named by its session id where the saved name ends with one (a parent
                # session's subagents sit in the folder of that name)
                last = path.stem.split("__")[-1]
                name = f"{last}.jsonl" if _UUID.fullmatch(last) else path.name
                dst = f"projects/-{path.stem.split('__')[0]}/{name}"
            else:
                name = (
                    path.name
                    if path.name.startswith("rollout-")
                    else (f"rollout-2026-01-01T00-00-00-{path.name}")
                )
                dst = f"sessions/2026/01/01/{name}"
            target = homes[source] / dst
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            where[str(target.resolve())] = rel
    return homes["claude"], homes["codex"], where


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _session_id(path: Path) -> str | None:
    import json

    with path.open(encoding="utf-8") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("sessionId"):
                return str(record["sessionId"])
    return None


@dataclass
class Predictions:
    #: (transcript, line) → predicted turn kind ("none" when not read as a turn)
    turns: dict[tuple[str, int], str] = field(default_factory=dict)
    #: (transcript, line) → predicted outcome of the episode opened there
    outcomes: dict[tuple[str, int], str] = field(default_factory=dict)
    #: (transcript, call_id) → root | knock_on | benign | none
    errors: dict[tuple[str, str], str] = field(default_factory=dict)
    #: (transcript, call_id) → the head of a result read as an error (for `--mistakes`)
    error_heads: dict[tuple[str, str], str] = field(default_factory=dict)
    #: top-10 recurring patterns: each a list of (transcript, call_id) occurrences
    top_patterns: list[list[tuple[str, str]]] = field(default_factory=list)
    top_patterns_any: list[list[tuple[str, str]]] = field(default_factory=list)
    #: (where a queued turn was read, its `enqueue` line): a person labels one of the two
    queued_pairs: set[tuple[tuple[str, int], tuple[str, int]]] = field(default_factory=set)
    #: (transcript, line) of the turns the rules marked hard: the ones the model-assisted
    #: path would hand to a model
    hard: set[tuple[str, int]] = field(default_factory=set)
    #: (transcript, line) → the rule's reasons for the kind it read (for `--mistakes`)
    why: dict[tuple[str, int], str] = field(default_factory=dict)
    #: what the miner model was asked and decided (model-assisted runs)
    hard_turn_stats: dict[str, int] = field(default_factory=dict)
    #: (transcript, line) → the kind the rules alone read (model-assisted runs), to say
    #: which hard turns the model read right where the rules had not, and the reverse
    rules_turns: dict[tuple[str, int], str] = field(default_factory=dict)
    #: (transcript, line) of an episode's intent → the task cluster it joined
    clusters: dict[tuple[str, int], int] = field(default_factory=dict)
    #: (transcript, line) of an episode's intent → its project as the store has it
    projects: dict[tuple[str, int], str] = field(default_factory=dict)
    #: the clusters that count as recurring (`sleepd tasks list`'s "recurring")
    recurring: set[int] = field(default_factory=set)
    #: the nights a growing history was mined in before its last pass (0: one pass)
    nights: int = 0
    #: (transcript, line) of the request each mined replay task opens with
    tasks: set[tuple[str, int]] = field(default_factory=set)
    #: the tasks whose request is a slash command → whether it carries the command's text
    command_tasks: dict[tuple[str, int], bool] = field(default_factory=dict)


def predict(
    fixtures: Path,
    skip: frozenset[str] = frozenset(),
    backend: Any = None,
    cfg: Config | None = None,
    growing: bool = False,
    later: frozenset[str] = frozenset(),
) -> Predictions:
    """Harvest and mine the labelled transcripts in a fresh store; what mining read.

    `backend`: the miner model, for model-assisted mining (the hard turns go to it).
    `cfg`: the configuration to mine with (the defaults when None).
    `growing`: the history arrives a day at a time, by each file's first record, and is
    harvested and mined each night (03:00 the next day), as the daemon reads it; else
    one harvest and one pass read it whole.
    `later`: transcripts (named as in `fixtures`) written after the others: the rest is
    harvested and mined first, then these, as a daemon meets a file that appears later.
    """
    pred = Predictions()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        claude, codex, where = lay_out(fixtures, root / "homes", skip)
        os.environ["CLAUDE_CONFIG_DIR"] = str(claude)
        os.environ["CODEX_HOME"] = str(codex)
        os.environ["SLEEPD_HOME"] = str(root / "home")
        from sleepd.harvest import harvest

        engine = make_engine(f"sqlite:///{root / 'bench.db'}")
        upgrade(engine)
        cfg = cfg or Config()
        if backend is not None:
            cfg.mining.model_assisted = True
            cfg.mining.model_max_turns = MODEL_MAX_TURNS
        if growing:
            pred.nights = _night_by_night(engine, cfg, root / "homes", root / "held", harvest)
        if later:
            _before_those_written_later(engine, cfg, root / "held", where, later, harvest)
        harvest(engine, cfg)
        pred.hard_turn_stats = mine(engine, cfg, now=LATER, backend=backend).hard_turns
        with read_session(engine) as db:
            files = {
                f.id: where.get(str(Path(f.path).resolve()), f.path)
                for f in db.scalars(select(TranscriptFile))
            }
            kind_of: dict[int, str] = {}
            why_of: dict[int, str] = {}
            hard_ids: set[int] = set()
            outcome_at: dict[int, str] = {}
            cluster_at: dict[int, tuple[int, str]] = {}
            # each task's request, and for a command's whether it carries the command's text
            task_at = {
                event_id: "command_text" in (context or {})
                if parse_command(intent.splitlines()[0] if intent else "")
                else None
                for event_id, intent, context in db.execute(
                    select(Episode.intent_event_id, Task.intent, Task.context)
                    .join(Task, Task.episode_id == Episode.id)
                    .where(Task.origin == "mined", Task.active.is_(True))
                )
            }
            pred.recurring = {
                c.id for c in db.scalars(select(TaskCluster)) if is_recurring(c, cfg.mining)
            }
            for episode in db.scalars(select(Episode)):
                for turn in episode.turns or []:
                    kind_of[int(turn["event_id"])] = str(turn["kind"])
                    why_of[int(turn["event_id"])] = "; ".join(turn.get("why") or ())
                    if turn.get("hard"):
                        hard_ids.add(int(turn["event_id"]))
                if episode.intent_event_id is not None and episode.intent_text:
                    # "mixed" is success after a correction: a success to the person
                    outcome = "success" if episode.outcome == "mixed" else episode.outcome
                    outcome_at[episode.intent_event_id] = outcome
                    if episode.cluster_id is not None:
                        cluster_at[episode.intent_event_id] = (
                            episode.cluster_id,
                            episode.project_path or "",
                        )
            sessions: dict[int, list[EventView]] = defaultdict(list)
            #: a queued message consumed mid-turn is labelled at its `enqueue` line; the
            #: harvest stores the typed turn at a later line (its `remove`, or the
            #: attachment holding its text): found by its text, or, when the enqueue has
            #: none (Claude Code 2.1.112), by the queue's own first-in, first-out order
            enqueued: dict[tuple[int, str], tuple[str, int]] = {}
            waiting: dict[int, list[tuple[str, int]]] = defaultdict(list)
            removed: dict[int, tuple[str, int]] = {}
            for event in db.scalars(select(Event).order_by(Event.session_id, Event.seq)):
                rel = files.get(event.file_id or -1, "")
                key = (rel, event.line_no)
                raw_type = event.raw_type or ""
                fifo = waiting[event.session_id]
                if raw_type.endswith("enqueue"):
                    fifo.append(key)
                    if event.text:
                        enqueued.setdefault((event.session_id, event.text.strip()[:200]), key)
                elif raw_type.endswith(("dequeue", "remove")) and fifo:
                    removed[event.session_id] = fifo.pop(0)
                elif raw_type.endswith("popAll"):
                    fifo.clear()
                if event.id in kind_of:
                    pred.turns[key] = kind_of[event.id]
                    pred.why[key] = why_of[event.id]
                    queued = enqueued.get((event.session_id, (event.text or "").strip()[:200]))
                    if queued is None and raw_type == "steering":
                        queued = fifo[0] if fifo else removed.get(event.session_id)
                    if queued is not None:
                        pred.turns.setdefault(queued, kind_of[event.id])
                        pred.queued_pairs.add((key, queued))
                    if event.id in hard_ids:
                        pred.hard.update([key] if queued is None else [key, queued])
                if event.id in outcome_at:
                    pred.outcomes[key] = outcome_at[event.id]
                if event.id in cluster_at:
                    pred.clusters[key], pred.projects[key] = cluster_at[event.id]
                if event.id in task_at:
                    pred.tasks.add(key)
                    if task_at[event.id] is not None:
                        pred.command_tasks[key] = bool(task_at[event.id])
                if read_by_mining(event.kind, event.raw_type):  # as mining loads them
                    sessions[event.session_id].append(_view(event))
            call_key: dict[int, tuple[str, str]] = {}
            for stored in sessions.values():
                events = with_late_exits(stored)
                verdicts = judge_errors(events).verdicts
                for view in events:
                    if view.kind != "tool_result" or not view.call_id:
                        continue
                    rel = files.get(_file_of[view.id], "")
                    key2 = (rel, view.call_id)
                    call_key[view.id] = key2
                    verdict = verdicts.get(view.id)
                    pred.errors[key2] = verdict.kind if verdict else "none"
                    if verdict:
                        pred.error_heads[key2] = view.text[:90]
            for min_count, target in ((2, pred.top_patterns), (1, pred.top_patterns_any)):
                for row in top_patterns(engine, limit=10, now=LATER, min_count=min_count):
                    ids = db.scalars(
                        select(PatternOccurrence.event_id).where(
                            PatternOccurrence.pattern_id == row.id
                        )
                    ).all()
                    target.append([call_key[i] for i in ids if i in call_key])
        engine.dispose()
    return pred


_file_of: dict[int, int] = {}


def _view(event: Event) -> EventView:
    _file_of[event.id] = event.file_id or -1
    return EventView(
        id=event.id,
        seq=event.seq,
        kind=event.kind,
        role=event.role,
        text=event.text or "",
        tool_name=event.tool_name,
        call_id=event.call_id,
        is_error=bool(event.is_error),
        exit_code=event.exit_code,
        is_meta=bool(event.is_meta),
        is_sidechain=bool(event.is_sidechain),
        ts=event.ts,
        raw_type=event.raw_type,
        message_id=event.message_id,
    )


def _f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def report(
    labels: Sequence[Labelled], pred: Predictions, title: str, *, quiet: bool = False
) -> dict[str, float]:
    """Print the figures for `labels` (nothing when `quiet`); return the headline ones."""
    if quiet:
        with contextlib.redirect_stdout(io.StringIO()):
            return report(labels, pred, title)
    pairs = [
        (t["kind"], pred.turns.get((lab.transcript, int(t["line"])), "none"))
        for lab in labels
        for t in lab.turns
    ]
    labelled = len(pairs)
    # A turn read where no person typed one (a notice, a tool's echo) is a wrong answer
    # too: it counts against the precision of the kind it was read as.
    typed = {(lab.transcript, int(t["line"])) for lab in labels for t in lab.turns}
    files = {lab.transcript for lab in labels}
    one_turn = {key: other for pair in pred.queued_pairs for key, other in (pair, pair[::-1])}
    false_turns = [
        kind
        for key, kind in pred.turns.items()
        if key[0] in files and key not in typed and one_turn.get(key) not in typed
    ]
    pairs += [("none", kind) for kind in false_turns]
    print(f"\n== {title}: {len(labels)} files, {labelled} labelled turns ==")
    spurious = ", ".join(f"{k} x{n}" for k, n in Counter(false_turns).most_common()) or "none"
    print(f"turns read where no person typed one: {len(false_turns)} ({spurious})")
    confusion: Counter[tuple[str, str]] = Counter(pairs)
    print("class          support  precision  recall    F1")
    macro, accuracy = _turn_scores(confusion, show=True)
    tp = confusion[("correction", "correction")]
    gold = sum(n for (g, _), n in confusion.items() if g == "correction")
    said = sum(n for (_, p), n in confusion.items() if p == "correction")
    corr_p = tp / said if said else float("nan")
    corr_r = tp / gold if gold else float("nan")
    print(f"user-turn macro-F1 {macro:.3f}, accuracy {accuracy:.3f}")
    print(
        f"correction/failure-report recall {corr_r:.2f} ({tp}/{gold}), "
        f"precision {corr_p:.2f} ({tp}/{said})"
    )
    mistakes = [(g, p) for g, p in pairs if g != p]
    if mistakes:
        print(
            "turn confusions (gold -> predicted): "
            + ", ".join(f"{g}->{p} x{n}" for (g, p), n in Counter(mistakes).most_common())
        )
    # What the model-assisted path could reach: every turn the rules marked hard read
    # right (a model that never errs), every other reading as the rules gave it.
    keyed = [(lab.transcript, int(t["line"]), t["kind"]) for lab in labels for t in lab.turns]
    hard = [(g, pred.turns.get((f, n), "none")) for f, n, g in keyed if (f, n) in pred.hard]
    ceiling = [
        (g, g if (f, n) in pred.hard else pred.turns.get((f, n), "none")) for f, n, g in keyed
    ] + [("none", kind) for kind in false_turns]
    ceiling_macro, ceiling_accuracy = _turn_scores(Counter(ceiling))
    misread = sum(1 for f, n, g in keyed if pred.turns.get((f, n), "none") != g)
    print(
        f"turns the rules marked hard (a model decides them when model-assisted mining is on): "
        f"{len(hard)} of {labelled}, holding {sum(1 for g, p in hard if g != p)} of the "
        f"{misread} misread; macro-F1 {ceiling_macro:.3f} (accuracy {ceiling_accuracy:.3f}) if "
        "each hard turn were read right"
    )
    if pred.rules_turns:
        both = Counter(
            (pred.rules_turns.get((f, n), "none") == g, pred.turns.get((f, n), "none") == g)
            for f, n, g in keyed
            if (f, n) in pred.hard
        )
        print(
            f"the hard turns against the rules alone: the model read {both[(False, True)]} right "
            f"where the rules had not and {both[(True, False)]} wrong where they had; both "
            f"right {both[(True, True)]}, both wrong {both[(False, False)]}"
        )
    outcomes = [
        (t["outcome"], pred.outcomes.get((lab.transcript, int(t["line"])), "no episode"))
        for lab in labels
        for t in lab.turns
        if t["kind"] == "new_task" and "outcome" in t
    ]
    right = sum(1 for g, p in outcomes if g == p)
    unknown = sum(1 for _, p in outcomes if p in ("unknown", "no episode"))
    out_acc = right / max(len(outcomes), 1)
    unknown_rate = unknown / max(len(outcomes), 1)
    print(
        f"episode outcomes: accuracy {out_acc:.2f} ({right}/{len(outcomes)}), "
        f"unknown or no episode {unknown_rate:.0%} ({unknown}/{len(outcomes)}); "
        f"labelled unknown {sum(1 for g, _ in outcomes if g == 'unknown')}"
    )
    # The same share over the requests whose outcome a person could tell: where the
    # labeller wrote `unknown` (a file that stops mid-work, a redacted text), the miner's
    # `unknown` is the right reading and says nothing of its power to decide.
    knowable = [(g, p) for g, p in outcomes if g != "unknown"]
    undecided = sum(1 for _, p in knowable if p in ("unknown", "no episode"))
    print(
        f"  of the {len(knowable)} whose outcome a person could tell: unknown or no episode "
        f"{undecided / max(len(knowable), 1):.0%} ({undecided}/{len(knowable)})"
    )
    # What `sleepd status` shows a user, and what issue #14 first measured ("41 of 48
    # episodes ended unknown"): the outcomes of the episodes the miner opened, whatever
    # turn opened them. The figure above is stricter: a request it did not open counts there.
    mined = [o for key, o in pred.outcomes.items() if key[0] in files]
    print(
        f"episodes mined: {len(mined)}, ending unknown {mined.count('unknown')} "
        f"({mined.count('unknown') / max(len(mined), 1):.0%})"
    )
    wrong = Counter((g, p) for g, p in outcomes if g != p)
    if wrong:
        print("outcome confusions: " + ", ".join(f"{g}->{p} x{n}" for (g, p), n in wrong.items()))
    kinds = {(lab.transcript, int(t["line"])): t["kind"] for lab in labels for t in lab.turns}
    opened = Counter(kinds.get(key, "no labelled turn") for key in pred.tasks if key[0] in files)
    print(
        f"replay tasks mined: {sum(opened.values())}, opening with a labelled new request: "
        f"{opened['new_task']}"
        + (
            " (the others: "
            + ", ".join(f"{k} x{n}" for k, n in opened.most_common() if k != "new_task")
            + ")"
            if sum(opened.values()) > opened["new_task"]
            else ""
        )
    )
    commanded = [has for key, has in pred.command_tasks.items() if key[0] in files]
    print(
        f"  of them slash commands: {len(commanded)}, carrying the text the command gave "
        f"the agent: {sum(commanded)}"
    )
    gold_errors = {
        (lab.transcript, str(e["call_id"])): e["kind"] for lab in labels for e in lab.tool_errors
    }
    err_pairs = [(g, pred.errors.get(k, "none")) for k, g in gold_errors.items()]
    err_right = sum(1 for g, p in err_pairs if g == p)
    print(
        f"tool errors: {err_right}/{len(err_pairs)} root/knock_on/benign right"
        + (
            "; confusions "
            + ", ".join(
                f"{g}->{p} x{n}"
                for (g, p), n in Counter((g, p) for g, p in err_pairs if g != p).items()
            )
            if err_right < len(err_pairs)
            else ""
        )
    )
    files = {lab.transcript for lab in labels}
    unlabelled = Counter(kind for key, kind in _unlabelled_errors(pred, gold_errors, files))
    print(
        f"tool results read as errors that no label marks (every error-like result is "
        f"labelled, so each is a false alarm): {sum(unlabelled.values())}"
        + (
            f" ({', '.join(f'{k} x{n}' for k, n in unlabelled.most_common())})"
            if unlabelled
            else ""
        )
    )
    precision = _pattern_precision(pred.top_patterns, gold_errors, files)
    precision_any = _pattern_precision(pred.top_patterns_any, gold_errors, files)
    print(
        f"top-10 recurring patterns (count >= 2): {precision[1]} occurrences, "
        f"share labelled root {precision[0]:.2f}, knock-on/benign among them {precision[2]}"
    )
    print(
        f"top-10 patterns incl. single ones: {precision_any[1]} occurrences, "
        f"share labelled root {precision_any[0]:.2f}, knock-on/benign among them "
        f"{precision_any[2]}"
    )
    return {
        "files": float(len(labels)),
        "turns": float(len(pairs)),
        "macro_f1": macro,
        "accuracy": accuracy,
        "corr_gold": float(gold),
        "corr_r": corr_r,
        "corr_p": corr_p,
        "outcomes": float(len(outcomes)),
        "outcome_acc": out_acc,
        "unknown": unknown_rate,
    }


def _turn_scores(confusion: Counter[tuple[str, str]], *, show: bool = False) -> tuple[float, float]:
    """Macro-F1 over the turn kinds and accuracy of (gold, predicted) counts; `show`
    prints the per-kind rows."""
    f1s = []
    for kind in TURN_KINDS:
        tp = confusion[(kind, kind)]
        gold = sum(n for (g, _), n in confusion.items() if g == kind)
        said = sum(n for (_, p), n in confusion.items() if p == kind)
        if gold == 0 and said == 0:
            continue
        p = tp / said if said else 0.0
        r = tp / gold if gold else 0.0
        f1s.append(_f1(p, r))
        if show:
            print(f"{kind:<14} {gold:>7}  {p:9.2f}  {r:6.2f}  {f1s[-1]:5.2f}")
    macro = sum(f1s) / len(f1s) if f1s else 0.0
    total = sum(confusion.values())
    accuracy = sum(n for (g, p), n in confusion.items() if g == p) / max(total, 1)
    return macro, accuracy


def _pattern_precision(
    patterns: Iterable[list[tuple[str, str]]], gold: dict[tuple[str, str], str], files: set[str]
) -> tuple[float, int, int]:
    kinds = [gold.get(occ, "unlabelled") for group in patterns for occ in group if occ[0] in files]
    if not kinds:
        return float("nan"), 0, 0
    bad = sum(1 for k in kinds if k in ("knock_on", "benign"))
    return sum(1 for k in kinds if k == "root") / len(kinds), len(kinds), bad


def group_table(labels: Sequence[Labelled], pred: Predictions, title: str) -> None:
    """One row per source group (origin repository owner), then the same figures with
    that group left out: a rule fitted to one author shows as a gap."""
    groups = sorted({lab.group for lab in labels})
    print(f"\n== {title} ==")
    head = (
        f"{'group':<22} {'files':>5} {'turns':>5} {'F1':>5} {'acc':>5} "
        f"{'corr R':>6} {'corr P':>6} {'(n)':>4} {'outc':>5} {'unkn':>5} | "
        f"{'F1 without it':>13} {'corr R/P without':>16}"
    )
    print(head)
    for name in groups:
        inside = report([lab for lab in labels if lab.group == name], pred, name, quiet=True)
        rest = report([lab for lab in labels if lab.group != name], pred, name, quiet=True)
        print(
            f"{name[:22]:<22} {inside['files']:>5.0f} {inside['turns']:>5.0f} "
            f"{inside['macro_f1']:>5.2f} {inside['accuracy']:>5.2f} {inside['corr_r']:>6.2f} "
            f"{inside['corr_p']:>6.2f} {inside['corr_gold']:>4.0f} {inside['outcome_acc']:>5.2f} "
            f"{inside['unknown']:>5.0%} | {rest['macro_f1']:>13.2f} "
            f"{rest['corr_r']:>7.2f}/{rest['corr_p']:<8.2f}"
        )


def miner_model() -> Any:
    """The miner backend of the user's config (read before `predict` points the sleepd
    environment at its own store), or exit with the reason there is none."""
    from sleepd.config import load_config
    from sleepd.mining.model_miner import miner_backend

    cfg = load_config()
    cfg.mining.model_assisted = True
    backend, why_not = miner_backend(cfg)
    if backend is None:
        sys.exit(f"no miner model: {why_not or 'model-assisted mining is off'}")
    return backend


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument(
        "--mistakes",
        action="store_true",
        help="list the tuning set's misread turns with the rules' reasons (never a held-out set's)",
    )
    parser.add_argument(
        "--tool-errors-of",
        metavar="BATCH",
        help="list the misjudged tool errors of the held-out batch whose name holds BATCH, "
        "once it is scored (its turns and outcomes stay unread)",
    )
    parser.add_argument(
        "--no-held-out",
        action="store_true",
        help="leave the held-out files out of the store and out of every figure",
    )
    parser.add_argument(
        "--model-assisted",
        action="store_true",
        help="let the miner model of your sleepd config decide the turns the rules find hard "
        "(spends model calls, capped by mining.model_max_usd)",
    )
    args = parser.parse_args()
    backend = miner_model() if args.model_assisted else None
    labels = load_labels(args.fixtures)
    if not labels:
        sys.exit(f"no label files under {args.fixtures / 'labels'}")
    held_out = [lab for lab in labels if lab.held_out]
    tuning = [lab for lab in labels if not lab.held_out]
    skip = frozenset(lab.transcript for lab in held_out) if args.no_held_out else frozenset()
    pred = predict(args.fixtures, skip, backend)
    if backend is not None:
        pred.rules_turns = predict(args.fixtures, skip).turns
        stats = ", ".join(f"{k} {v}" for k, v in pred.hard_turn_stats.items())
        print(f"model-assisted: the miner model read the hard turns ({stats})")
    if args.no_held_out:
        print(f"(--no-held-out: {len(held_out)} held-out files left out of every figure)")
        labels = tuning
    report(labels, pred, "all labelled files")
    if held_out and not args.no_held_out:
        report(tuning, pred, "tuning set (the rules were tuned on these)")
        # One batch is a handful of turns, where one turn of a rare kind moves macro-F1 by a
        # lot; pooled, the held-out turns say how the rules read people they never saw.
        report(held_out, pred, "every held-out file together (the rules never read these)")
        for batch in sorted({lab.held_out for lab in held_out}):
            members = [lab for lab in held_out if lab.held_out == batch]
            report(members, pred, f"held-out batch ({batch[:70]})")
    group_table(tuning, pred, "tuning set by source group (origin repository owner)")
    if held_out and not args.no_held_out:
        group_table(held_out, pred, "held-out files by source group")
    if args.mistakes:
        print("\n== misread turns of the tuning set (gold -> predicted) ==")
        for lab in tuning:
            for turn in lab.turns:
                got = pred.turns.get((lab.transcript, int(turn["line"])), "none")
                if got != turn["kind"]:
                    name = lab.transcript.split("__")[-1][:24]
                    why = pred.why.get((lab.transcript, int(turn["line"])))
                    got += f" [{why}]" if why else ""
                    print(f"{name}:{turn['line']} {turn['kind']} -> {got}: {turn['text'][:90]!r}")
        print("\n== misjudged outcomes of the tuning set (gold -> predicted) ==")
        for lab in tuning:
            for turn in lab.turns:
                if turn["kind"] != "new_task" or "outcome" not in turn:
                    continue
                got = pred.outcomes.get((lab.transcript, int(turn["line"])), "no episode")
                if got != turn["outcome"]:
                    name = lab.transcript.split("__")[-1][:24]
                    print(
                        f"{name}:{turn['line']} {turn['outcome']} -> {got}: {turn['text'][:80]!r}"
                    )
        print_error_mistakes(tuning, pred, "the tuning set")
    if args.tool_errors_of:
        scored = [lab for lab in held_out if args.tool_errors_of in lab.held_out]
        if not scored:
            sys.exit(f"no held-out batch named like {args.tool_errors_of!r}")
        print_error_mistakes(scored, pred, f"held-out batch {scored[0].held_out[:40]!r}")


def print_error_mistakes(labels: Sequence[Labelled], pred: Predictions, title: str) -> None:
    """Each tool error of `labels` read otherwise than labelled, then each result read as an
    error that no label marks."""
    print(f"\n== misjudged tool errors of {title} (gold -> predicted) ==")
    for lab in labels:
        for error in lab.tool_errors:
            got = pred.errors.get((lab.transcript, str(error["call_id"])), "none")
            if got != error["kind"]:
                name = lab.transcript.split("__")[-1][:24]
                head = f"{name}:{error['line']} {error['kind']} -> {got}"
                print(f"{head}: {error['text'][:90]!r}")
    gold = {
        (lab.transcript, str(e["call_id"])): e["kind"] for lab in labels for e in lab.tool_errors
    }
    for key, kind in _unlabelled_errors(pred, gold, {lab.transcript for lab in labels}):
        name = key[0].split("__")[-1][:24]
        print(f"{name}:{key[1]} none -> {kind}: {pred.error_heads.get(key, '')!r}")


def _unlabelled_errors(
    pred: Predictions, gold: dict[tuple[str, str], str], files: set[str]
) -> list[tuple[tuple[str, str], str]]:
    """Results of `files` read as errors that no label marks, in a stable order."""
    return sorted(
        (key, kind)
        for key, kind in pred.errors.items()
        if key[0] in files and kind != "none" and key not in gold
    )


if __name__ == "__main__":
    main()
