"""Whether a conversation carried on in a new session file reads as it does in one file
(issue #14).

    .venv/bin/python bench/carried_real.py                  # every layout, labelled set
    .venv/bin/python bench/carried_real.py forked           # only the layouts named
    .venv/bin/python bench/carried_real.py --fixtures DIR   # a set laid out as that one

A person who resumes or forks a conversation goes on typing in a new session file. Each
transcript is cut before the middle one of its typed turns after its first request (not
a message typed ahead), and the part after goes into a new session file, as a build
writes it. Claude Code's transcripts:

* copied: the new file opens with the conversation so far, each record with its uuid and
  time under the new session's id (a resume into a new file: 1.0.x, some 2.x builds);
* forked: the same copies, each naming its session and record in `forkedFrom` (2.1's
  `/fork` and `--fork-session`);
* bare: the new file holds only what came after; its first record answers the old
  file's last (a 1.0.x resume that did not copy the conversation).

Codex's:

* codex_forked: a rollout with its own header naming the first session
  (`forked_from_id`), that session's header, its records replayed in one burst, then
  what came after (as `codex fork` and `codex resume` into a new rollout write it).

The first file is harvested and mined before the new one appears, as a daemon meets a
conversation carried on later. Every turn kind, outcome, tool-error judgement and replay
task is compared with the transcript read whole, at its line as written: a reading that
moved is the cut's doing. A line read in both files is shown with both readings. The
first file's last request is counted apart: its episode in that file ends where the file
does, and takes the outcome the new session reads over both (`mining.read_back`), so a
move there says the lending missed. No labels are needed.
"""

from __future__ import annotations

import argparse
import copy
import json
import shutil
import sys
import tempfile
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mining_real import FIXTURES, Predictions, predict
from typography_real import labelled_kinds, print_changed
from versions_real import changed

#: A cut transcript's records before the cut, those after, and the new session's id →
#: the new file's records, each with the index of the record it came from (none: the
#: session is not one a build carries into a new file, and is left whole).
Layout = Callable[[list[Any], list[Any], str], list[tuple[int, Any]]]


def _moved(record: Any, session: str, **extra: Any) -> Any:
    if not isinstance(record, dict):
        return record
    moved = copy.deepcopy(record)
    if "sessionId" in moved:
        moved["sessionId"] = session
    return {**moved, **extra}


def _chain(before: list[Any]) -> list[tuple[int, dict[str, Any]]]:
    """The records of the conversation itself, those with a uuid: what a build copies (not
    the bookkeeping beside them, such as queue operations and file snapshots)."""
    return [(i, r) for i, r in enumerate(before) if isinstance(r, dict) and "uuid" in r]


def copied(before: list[Any], after: list[Any], session: str) -> list[tuple[int, Any]]:
    copies = [(i, _moved(r, session)) for i, r in _chain(before)]
    return copies + bare(before, after, session)


def forked(before: list[Any], after: list[Any], session: str) -> list[tuple[int, Any]]:
    old = _session_of(before + after)
    copies = [
        (i, _moved(r, session, forkedFrom={"sessionId": old, "messageUuid": r["uuid"]}))
        for i, r in _chain(before)
    ]
    return copies + bare(before, after, session)


def bare(before: list[Any], after: list[Any], session: str) -> list[tuple[int, Any]]:
    return [(len(before) + i, _moved(r, session)) for i, r in enumerate(after)]


#: How long before the cut Codex is taken to have replayed the conversation: past the
#: harvest's burst of history (`harvesters.codex.HISTORY_BURST`), before the next turn.
CODEX_REPLAY_BEFORE = timedelta(seconds=3)


def codex_forked(before: list[Any], after: list[Any], session: str) -> list[tuple[int, Any]]:
    """A Codex fork's rollout: its own header (`forked_from_id`), the first session's
    header, that session's records replayed in one burst, then what came after."""
    header = next(
        (
            i
            for i, r in enumerate(before)
            if isinstance(r, dict) and r.get("type") == "session_meta"
        ),
        None,
    )
    cut = next((_time(r) for r in after if _time(r) is not None), None)
    if header is None or cut is None:
        return []  # a rollout with no header (before 0.3x) is resumed in its own file
    start = cut - CODEX_REPLAY_BEFORE
    own = copy.deepcopy(before[header])
    old = own["payload"].get("id")
    own["timestamp"] = own["payload"]["timestamp"] = _stamp(start)
    own["payload"].update(id=session, forked_from_id=old)
    replay = [(header, own), (header, {**before[header], "timestamp": _stamp(start)})]
    for n, (i, record) in enumerate(
        (i, r) for i, r in enumerate(before) if isinstance(r, dict) and i != header
    ):
        at = start + timedelta(milliseconds=1, microseconds=n)
        replay.append((i, {**record, "timestamp": _stamp(at)}))
    # (a header written again later, as a resume into the same rollout writes it, is the
    # new session's own)
    rest = [
        (len(before) + i, _headed(r, session) if record_type(r) == "session_meta" else r)
        for i, r in enumerate(after)
    ]
    return replay + rest


def _headed(record: dict[str, Any], session: str) -> dict[str, Any]:
    payload = {**record.get("payload", {}), "id": session}
    if "session_id" in payload:
        payload["session_id"] = session
    return {**record, "payload": payload}


def _time(record: Any) -> datetime | None:
    stamp = record.get("timestamp") if isinstance(record, dict) else None
    try:
        return datetime.fromisoformat(str(stamp).replace("Z", "+00:00")) if stamp else None
    except ValueError:
        return None


def _stamp(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


#: Each layout, with the agent whose transcripts it cuts.
LAYOUTS: dict[str, tuple[str, Layout]] = {
    "copied": ("claude", copied),
    "forked": ("claude", forked),
    "bare": ("claude", bare),
    "codex_forked": ("codex", codex_forked),
}


def _session_of(records: list[Any]) -> str | None:
    for record in records:
        if isinstance(record, dict) and record.get("sessionId"):
            return str(record["sessionId"])
        payload = record.get("payload") if isinstance(record, dict) else None
        if record_type(record) == "session_meta" and isinstance(payload, dict):
            return str(payload.get("id") or "") or None
    return None


def record_type(record: Any) -> Any:
    return record.get("type") if isinstance(record, dict) else None


def cut_lines(pred: Predictions) -> dict[str, int]:
    """Where each main transcript is cut: before the middle one of its typed turns after
    its first request as read whole, for those with any. (A cut before the first request
    would leave the first file only housekeeping, which belongs to no request there.)"""
    # (not a message typed ahead: no build splits its queue records from its delivery)
    queued = {key for pair in pred.queued_pairs for key in pair}
    typed: dict[str, list[tuple[int, str]]] = {}
    for (transcript, line), kind in pred.turns.items():
        main = "__subagents__" not in transcript
        if main and kind != "none" and line > 0 and (transcript, line) not in queued:
            typed.setdefault(transcript, []).append((line, kind))
    cuts: dict[str, int] = {}
    for transcript, turns in typed.items():
        turns.sort()
        first = next((i for i, (_, kind) in enumerate(turns) if kind != "housekeeping"), None)
        after = [line for line, _ in turns[first + 1 :]] if first is not None else []
        if after:
            cuts[transcript] = after[len(after) // 2]
    return cuts


#: the new file's transcript name → (the cut transcript, {line in the new file: line as
#: written})
Origins = dict[str, tuple[str, dict[int, int]]]


def cut_copy(
    fixtures: Path, dst: Path, cuts: dict[str, int], layout: Layout
) -> tuple[Path, Origins]:
    """A copy of a labelled set's layout with each transcript in `cuts` cut in two by
    `layout` (the caller gives only its agent's); returns it and where each new file's
    lines came from."""
    dst.mkdir(parents=True, exist_ok=True)
    origins: Origins = {}
    for item in fixtures.iterdir():
        if item.name not in ("claude", "codex"):
            (dst / item.name).symlink_to(item.resolve())
            continue
        (dst / item.name).mkdir()
        for path in item.iterdir():
            name = f"{item.name}/{path.name}"
            if name not in cuts:
                shutil.copyfile(path, dst / name)
                continue
            records: list[Any] = []
            for line in path.read_text(encoding="utf-8").split("\n"):
                try:
                    records.append(json.loads(line))
                except ValueError:
                    records.append(line)  # a torn or empty line stays as it was
            before, after = records[: cuts[name] - 1], records[cuts[name] - 1 :]
            old = _session_of(records) or path.stem
            session = str(uuid.uuid5(uuid.NAMESPACE_URL, old))
            written = layout(before, after, session)
            if not written:  # no build carries such a session into a new file
                shutil.copyfile(path, dst / name)
                continue
            new = (
                f"claude/{path.stem.split('__')[0]}__{session}.jsonl"
                if item.name == "claude"
                else f"codex/{path.stem.split('rollout-')[0]}rollout-2026-01-01T00-00-01-"
                f"{session}.jsonl"
            )
            (dst / name).write_text("\n".join(_lines(before)), encoding="utf-8")
            (dst / new).write_text("\n".join(_lines([r for _, r in written])), encoding="utf-8")
            origins[new] = (name, {n + 1: i + 1 for n, (i, _) in enumerate(written)})
    return dst, origins


def _lines(records: list[Any]) -> list[str]:
    return [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records]


def as_written(pred: Predictions, origins: Origins) -> Predictions:
    """The predictions keyed by each record's transcript and line as written; a reading
    made in both files at one record is shown as both ("new_task + follow_up")."""

    def back(key: tuple[str, Any], lines: bool) -> tuple[str, Any]:
        transcript, where = key
        if transcript not in origins:
            return key
        source, line_of = origins[transcript]
        return source, (line_of.get(where, 0) if lines else where)

    def mapped(readings: dict[tuple[str, Any], str], lines: bool) -> dict[tuple[str, Any], str]:
        out: dict[tuple[str, Any], str] = {}
        for key in sorted(readings, key=lambda k: k[0] in origins):  # the first file first
            target = back(key, lines)
            value = readings[key]
            out[target] = f"{out[target]} + {value}" if target in out else value
        return out

    pred.turns = mapped(pred.turns, True)
    pred.outcomes = mapped(pred.outcomes, True)
    pred.errors = mapped(pred.errors, False)
    pred.command_tasks = {back(k, True): v for k, v in pred.command_tasks.items()}
    pred.tasks = {back(k, True) for k in pred.tasks}
    return pred


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument("layouts", nargs="*", metavar="LAYOUT", help=", ".join(LAYOUTS))
    args = parser.parse_args(argv)
    unknown = [name for name in args.layouts if name not in LAYOUTS]
    if unknown:
        parser.error(f"no such layout: {', '.join(unknown)} (known: {', '.join(LAYOUTS)})")
    gold = labelled_kinds(args.fixtures)
    with tempfile.TemporaryDirectory() as tmp:
        whole = predict(args.fixtures)
        cuts = cut_lines(whole)
        # the first file's last request: its episode there ends where the file does
        last_requests = {
            (t, max(line for (s, line) in whole.outcomes if s == t and line < cut))
            for t, cut in cuts.items()
            if any(s == t and line < cut for (s, line) in whole.outcomes)
        }
        print(
            f"read whole: {len(whole.turns)} typed turns; transcripts cut in two: "
            f"{sum(t.startswith('claude/') for t in cuts)} Claude Code, "
            f"{sum(t.startswith('codex/') for t in cuts)} Codex",
            flush=True,
        )
        for name in args.layouts or list(LAYOUTS):
            agent, cut = LAYOUTS[name]
            mine_only = {t: line for t, line in cuts.items() if t.startswith(f"{agent}/")}
            layout, origins = cut_copy(args.fixtures, Path(tmp) / name, mine_only, cut)
            later = frozenset(origins)
            carried = as_written(predict(layout, later=later), origins)
            shutil.rmtree(layout)  # one set of copies on disk at a time
            diffs = changed(whole, carried)
            ended = {
                what: [d for d in diffs[what] if d[0] in last_requests]
                for what in ("outcomes", "tasks")
            }
            for what, rows in ended.items():
                diffs[what] = [d for d in diffs[what] if d not in rows]
            print_changed(name, diffs, gold)
            print(
                f"  and the first file's last request, read to its end: "
                f"{len(ended['outcomes'])} outcomes, {len(ended['tasks'])} replay tasks"
            )
            for what, rows in ended.items():
                for (transcript, line), old, new in rows:
                    print(f"  {what[:-1]:8} {transcript}:{line}  {old} -> {new}")


if __name__ == "__main__":
    main()
