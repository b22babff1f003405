"""Whether a person's typography changes what mining reads (issue #14).

    .venv/bin/python bench/typography_real.py                  # every retyping, labelled set
    .venv/bin/python bench/typography_real.py --fixtures DIR   # a set laid out as that one
    .venv/bin/python bench/typography_real.py curly_quotes     # only the retypings named

Each retyping rewrites the real transcripts the way a keyboard, an input method, an editor
or a paste does, without changing a word: curled quotes, no-break spaces, full-width
question and exclamation marks, letters spelt decomposed, Windows line ends, a short
message typed without capitals; the contractions as people spell them (contracted,
written out, typed without the apostrophe); and the agent's words with curled quotes,
decomposed letters, or contracted and written out. The transcripts are harvested and
mined as they are and once per retyping; a turn kind, an episode's outcome or a tool
error's judgement that changes is a rule reading typography instead of words. It prints,
per retyping, how many readings changed and each one with its line (and, where the set is
labelled, whether the label agreed before or after). No labels are needed: a set outside
the repository is measured as well.

Only what a person typed is retyped: the text the CLIs write into a user message
(Claude Code's interrupt notes, `<command-…>` wrappers, hook feedback, the plan it hands
over, a teammate's message and the JSON notices it queues; Codex's IDE context up to "##
My request for Codex:" and its `<environment_context>`) stays as written. A short message
typed without capitals keeps its words in capitals: "do NOT …" says something that "do
not …" does not.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mining_real import FIXTURES, Predictions, load_labels, predict

Retype = Callable[[str], str]

#: Where Codex's IDE context ends and the person's words begin.
_IDE_REQUEST = "## My request for Codex:"
#: What a CLI writes into a user message: never typed, never retyped.
_WRITTEN_BY_THE_CLI = (
    "<",
    "[Request interrupted",
    "# AGENTS.md",
    "Caveat:",
    "Operation stopped by hook",
    "Another Claude session sent a message",
    "Stop hook feedback",
    "Implement the following plan",
    "Please implement this plan",
)


def curly_quotes(text: str) -> str:
    """An editor's smart quotes: ' and " curled to their opening and closing forms."""
    text = re.sub(r"(?<=\w)'(?=\w)", "\u2019", text)
    text = re.sub(r"(?<!\w)'(?=\w)", "\u2018", text)
    text = re.sub(r"(?<=[\w.!?])'", "\u2019", text)
    text = re.sub(r'(?<!\w)"(?=\S)', "\u201c", text)
    return re.sub(r'(?<=\S)"', "\u201d", text)


def no_break_spaces(text: str) -> str:
    """A paste from a web page or a document: every space a no-break one."""
    return text.replace(" ", "\u00a0")


def full_width_marks(text: str) -> str:
    """An input method's full-width question and exclamation marks."""
    return text.replace("?", "\uff1f").replace("!", "\uff01")


def decomposed_letters(text: str) -> str:
    """Letters spelt as a base and its marks (NFD), as some file names and pastes are."""
    return unicodedata.normalize("NFD", text)


def windows_line_ends(text: str) -> str:
    """CR LF line ends."""
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def no_capitals(text: str) -> str:
    """A short one-line message typed without capitals; words in capitals stay."""
    if len(text) >= 300 or "\n" in text.strip():
        return text
    return re.sub(r"\b[A-Z][a-z]+", lambda m: m.group(0).lower(), text)


#: A negation written out, and its contraction: "do not" / "don't".
_NOT_FORMS = (
    ("do not", "don't"),
    ("does not", "doesn't"),
    ("did not", "didn't"),
    ("is not", "isn't"),
    ("are not", "aren't"),
    ("was not", "wasn't"),
    ("were not", "weren't"),
    ("has not", "hasn't"),
    ("have not", "haven't"),
    ("had not", "hadn't"),
    ("could not", "couldn't"),
    ("should not", "shouldn't"),
    ("would not", "wouldn't"),
    ("cannot", "can't"),
    ("will not", "won't"),
)
#: A pronoun and its verb written out, and their contraction: "it is" / "it's".
_VERB_FORMS = (
    ("it is", "it's"),
    ("that is", "that's"),
    ("what is", "what's"),
    ("there is", "there's"),
    ("here is", "here's"),
    ("I am", "I'm"),
    ("you are", "you're"),
    ("we are", "we're"),
    ("they are", "they're"),
)
#: Contractions a fast typist writes without the apostrophe, each still one word only.
_WITHOUT_APOSTROPHE = re.compile(
    r"\b(do|does|did|is|are|was|were|has|have|had|could|should|would|ca|wo)n't\b"
    r"|\b(it|that|what|there|here|let)'s\b|\b(you|they)'re\b|\bI'(m|ve|ll)\b",
    re.IGNORECASE,
)


#: A subject after a contracted negation: a question ("can't you …", "why isn't it …"),
#: which written out puts the "not" after the subject, so it stays contracted.
_SUBJECT_NEXT = r"(?!\s+(you|we|they|it|i|he|she|there|the|this|that|these|those|my|our|your)\b)"


def _swap(text: str, pairs: Sequence[tuple[str, str]], forward: bool) -> str:
    """Each pair's one form written as the other, its first letter's case kept ("Do not"
    ↔ "Don't"); a negation in capitals ("do NOT") is emphasis and stays as typed."""
    for full, short in pairs:
        old, new = (full, short) if forward else (short, full)
        after = _SUBJECT_NEXT if not forward and "n't" in short else ""

        def keep_case(match: re.Match[str], new: str = new) -> str:
            said = match.group(0)
            if "NOT" in said or "N'T" in said:
                return said
            return new[0].upper() + new[1:] if said[0].isupper() else new

        text = re.sub(rf"\b{re.escape(old)}\b{after}", keep_case, text, flags=re.IGNORECASE)
    return text


def contracted(text: str) -> str:
    """The negations and the pronouns' verbs contracted, as most people type them."""
    return _swap(_swap(text, _NOT_FORMS, True), _VERB_FORMS, True)


def expanded(text: str) -> str:
    """Every contraction written out, as a careful writer, a non-native speaker or a
    dictation app types it ("it's been" is "it has been")."""
    text = re.sub(r"\b([Ii]t|[Tt]hat|[Tt]here)'s been\b", r"\1 has been", text)
    return _swap(_swap(text, _NOT_FORMS, False), _VERB_FORMS, False)


def no_apostrophes(text: str) -> str:
    """The contractions typed fast, without the apostrophe ("dont", "thats", "Im")."""
    return _WITHOUT_APOSTROPHE.sub(lambda m: m.group(0).replace("'", ""), text)


#: name → (whose words, the retyping): "person" (typed user messages) or "agent" (its text)
RETYPINGS: dict[str, tuple[str, Retype]] = {
    "curly_quotes": ("person", curly_quotes),
    "no_break_spaces": ("person", no_break_spaces),
    "full_width_marks": ("person", full_width_marks),
    "decomposed_letters": ("person", decomposed_letters),
    "windows_line_ends": ("person", windows_line_ends),
    "no_capitals": ("person", no_capitals),
    "contracted": ("person", contracted),
    "expanded": ("person", expanded),
    "no_apostrophes": ("person", no_apostrophes),
    "agent_curly_quotes": ("agent", curly_quotes),
    "agent_decomposed_letters": ("agent", decomposed_letters),
    "agent_contracted": ("agent", contracted),
    "agent_expanded": ("agent", expanded),
}


def _is_json(text: str) -> bool:
    """A notice the CLI queued as JSON (a background task's end), not typed words."""
    if not text.lstrip().startswith(("{", "[")):
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _typed_part(retype: Retype) -> Retype:
    """The retyping applied to what a person typed of a user message's text only."""

    def apply(text: str) -> str:
        if text.lstrip().startswith(_WRITTEN_BY_THE_CLI) or _is_json(text):
            return text
        if _IDE_REQUEST in text:
            head, _, request = text.partition(_IDE_REQUEST)
            return head + _IDE_REQUEST + retype(request)
        return retype(text)

    return apply


def _retype_blocks(blocks: Any, retype: Retype, kinds: tuple[str, ...]) -> None:
    for block in blocks if isinstance(blocks, list) else ():
        if (
            isinstance(block, dict)
            and block.get("type") in kinds
            and isinstance(block.get("text"), str)
        ):
            block["text"] = retype(block["text"])


def retype_record(record: Any, whose: str, retype: Retype) -> Any:
    """One transcript record with the person's (or the agent's) words retyped."""
    if not isinstance(record, dict):
        return record
    message = record.get("message")
    # Claude Code's copies of a message typed while the agent ran: the queue's, and the
    # queued command it hands the agent
    if record.get("type") == "queue-operation":
        if whose == "person" and isinstance(record.get("content"), str):
            record["content"] = _typed_part(retype)(record["content"])
        elif whose == "person":  # older builds queue the message's blocks
            _retype_blocks(record.get("content"), _typed_part(retype), ("text",))
        return record
    attachment = record.get("attachment")
    if isinstance(attachment, dict) and isinstance(attachment.get("prompt"), str):
        if whose == "person" and attachment.get("type") == "queued_command":
            attachment["prompt"] = _typed_part(retype)(attachment["prompt"])
        return record
    if record.get("type") in ("user", "assistant") and isinstance(message, dict):  # Claude Code
        role, content = message.get("role"), message.get("content")
        if whose == "person" and role == "user" and not record.get("isMeta"):
            if isinstance(content, str):
                message["content"] = _typed_part(retype)(content)
            _retype_blocks(content, _typed_part(retype), ("text",))
        elif whose == "agent" and role == "assistant":
            _retype_blocks(content, retype, ("text",))
        return record
    wrapped = record.get("type") in ("response_item", "event_msg")
    payload = record.get("payload") if wrapped else record  # Codex, either layout
    if not isinstance(payload, dict):
        return record
    kind, role = payload.get("type"), payload.get("role")
    if kind == "message" and whose == "person" and role == "user":
        _retype_blocks(payload.get("content"), _typed_part(retype), ("input_text", "text"))
    elif kind == "message" and whose == "agent" and role == "assistant":
        _retype_blocks(payload.get("content"), retype, ("output_text", "text"))
    elif kind == "user_message" and whose == "person" and isinstance(payload.get("message"), str):
        payload["message"] = _typed_part(retype)(payload["message"])
    elif kind == "agent_message" and whose == "agent" and isinstance(payload.get("message"), str):
        payload["message"] = retype(payload["message"])
    return record


def retyped_copy(fixtures: Path, dst: Path, whose: str, retype: Retype | None) -> Path:
    """A copy of a labelled set's layout with every transcript's words retyped (written
    back a record a line, so every label's line still points at its record); `retype`
    None copies each record as it is, written back the same way."""
    dst.mkdir(parents=True, exist_ok=True)
    for item in fixtures.iterdir():
        if item.name not in ("claude", "codex"):
            (dst / item.name).symlink_to(item.resolve())
            continue
        (dst / item.name).mkdir()
        for path in item.iterdir():
            if path.suffix != ".jsonl":
                shutil.copyfile(path, dst / item.name / path.name)
                continue
            lines = []
            for line in path.read_text(encoding="utf-8").split("\n"):
                try:
                    record = json.loads(line)
                except ValueError:
                    lines.append(line)  # a torn or empty line stays as it was
                    continue
                if retype is not None:
                    record = retype_record(record, whose, retype)
                lines.append(json.dumps(record, ensure_ascii=False))
            (dst / item.name / path.name).write_text("\n".join(lines), encoding="utf-8")
    return dst


def changed(before: Predictions, after: Predictions) -> dict[str, list[tuple[Any, str, str]]]:
    """The readings that differ: turns and outcomes by (transcript, line), tool errors by
    (transcript, call id), each with its reading before and after."""
    out: dict[str, list[tuple[Any, str, str]]] = {}
    for name in ("turns", "outcomes", "errors"):
        old, new = getattr(before, name), getattr(after, name)
        out[name] = [
            (key, str(old.get(key)), str(new.get(key)))
            for key in sorted(set(old) | set(new), key=str)
            if old.get(key) != new.get(key)
        ]
    return out


#: How a report names each kind of reading that moved, after the turns.
READINGS_NAMED = {"outcomes": "outcomes", "errors": "tool errors", "tasks": "replay tasks"}


def labelled_kinds(fixtures: Path) -> dict[tuple[str, int], str]:
    """The kind a person gave each labelled turn of a set, by (transcript, line)."""
    return {
        (labelled.transcript, int(turn["line"])): turn["kind"]
        for labelled in load_labels(fixtures)
        for turn in labelled.turns
    }


def print_changed(
    name: str, diffs: dict[str, list[tuple[Any, str, str]]], gold: dict[tuple[str, int], str]
) -> None:
    """One rewriting's report: how many readings moved, of each kind (labelled turns: how
    many the label agreed with before and after), then each with its line."""
    labelled = [d for d in diffs["turns"] if d[0] in gold]
    right_before = sum(gold[key] == old for key, old, _ in labelled)
    right_after = sum(gold[key] == new for key, _, new in labelled)
    others = "; ".join(
        f"{READINGS_NAMED[what]} {len(rows)}" for what, rows in diffs.items() if what != "turns"
    )
    print(
        f"\n== {name}: turns read otherwise {len(diffs['turns'])} "
        f"(labelled {len(labelled)}: right before {right_before}, after {right_after}); "
        f"{others}"
    )
    for what, rows in diffs.items():
        for (transcript, where), old, new in rows:
            print(f"  {what[:-1]:8} {transcript}:{where}  {old} -> {new}")
    sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument("retypings", nargs="*", metavar="RETYPING", help=", ".join(RETYPINGS))
    args = parser.parse_args(argv)
    unknown = [name for name in args.retypings if name not in RETYPINGS]
    if unknown:
        parser.error(f"no such retyping: {', '.join(unknown)} (known: {', '.join(RETYPINGS)})")
    names = args.retypings or list(RETYPINGS)
    gold = labelled_kinds(args.fixtures)
    with tempfile.TemporaryDirectory() as tmp:
        as_written = predict(retyped_copy(args.fixtures, Path(tmp) / "as_written", "person", None))
        turns, errors = len(as_written.turns), len(as_written.errors)
        print(f"read as written: {turns} typed turns, {errors} tool results judged", flush=True)
        for name in names:
            whose, retype = RETYPINGS[name]
            copy = retyped_copy(args.fixtures, Path(tmp) / name, whose, retype)
            retyped = predict(copy)
            shutil.rmtree(copy)  # one set of copies on disk at a time
            print_changed(name, changed(as_written, retyped), gold)


if __name__ == "__main__":
    main()
