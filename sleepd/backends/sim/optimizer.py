"""The simulated optimizer: proposes helpful, neutral and harmful edits at set rates.

It reads the reflection prompt: the current document (the request's cache
prefix, or a `<document>` / `<current_document>` block) and the failing
trajectories (the text before each `[simulated outcome=failure]` marker, or the
whole prompt when there are no markers). It emits the real edit format, with
anchors taken verbatim from the document. Deterministic given seed and prompt.

- helpful: adds the hidden requirement of a family seen failing;
- neutral: a cosmetic rewording or a harmless sentence;
- harmful: the same helpful rule plus a conflicting rule for another family
  (looks good on training tasks, hurts others: the gate must catch it).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from sleepd.backends.base import ModelRequest
from sleepd.backends.sim.world import SIM_MARKER, Family, SimWorld, document_sha
from sleepd.redaction.engine import PLACEHOLDER_RE

ProposalKind = Literal["helpful", "neutral", "harmful", "none"]

_DOC_TAG_RE = re.compile(r"<(current_document|document)>\n?(.*?)\n?</\1>", re.DOTALL)
_FAILURE_RE = re.compile(r"\[simulated outcome=failure\]")
_ANY_OUTCOME_RE = re.compile(r"\[simulated outcome=(?:success|failure)\]")
_SKIP_LINES = {"---", "<!-- sleepd:begin -->", "<!-- sleepd:end -->"}
HARMLESS_SENTENCES = (
    "- Keep answers concise and say what changed.",
    "- Prefer small, focused changes.",
    "- Mention any assumption you made.",
)


@dataclass(frozen=True, slots=True)
class OptimizerRates:
    helpful: float = 0.5
    neutral: float = 0.3
    harmful: float = 0.2


@dataclass(frozen=True, slots=True)
class Proposal:
    """What the sim proposed and why: visible to tests and benchmarks, never to the gate."""

    kind: ProposalKind
    family: str | None
    harmed_family: str | None
    payload: dict[str, Any]

    def to_json(self) -> str:
        return orjson.dumps(self.payload).decode()


def current_document(request: ModelRequest) -> str:
    if request.cache_prefix:
        return request.cache_prefix
    for message in request.messages:
        if match := _DOC_TAG_RE.search(message.content):
            return match.group(2)
    return ""


def failing_families(world: SimWorld, prompt: str) -> list[Family]:
    """Families of the failing trajectories, most frequent first."""
    windows: list[str] = []
    start = 0
    for match in _ANY_OUTCOME_RE.finditer(prompt):
        if _FAILURE_RE.fullmatch(match.group(0)):
            windows.append(prompt[start : match.start()])
        start = match.end()
    if not windows and not _ANY_OUTCOME_RE.search(prompt):
        windows = [prompt]
    counts: Counter[str] = Counter()
    for window in windows:
        family = world.family_for_intent(window)
        if family is not None:
            counts[family.name] += 1
    ordered = sorted(counts, key=lambda name: (-counts[name], name))
    return [world.family(name) for name in ordered]


def editable_lines(document: str) -> list[str]:
    """Unique, non-empty lines inside the editable region (anchors must be unambiguous)."""
    lines = document.splitlines()
    if "<!-- sleepd:begin -->" in lines:
        begin = lines.index("<!-- sleepd:begin -->") + 1
        end = lines.index("<!-- sleepd:end -->") if "<!-- sleepd:end -->" in lines else len(lines)
        lines = lines[begin:end]
    elif lines and lines[0] == "---" and "---" in lines[1:]:
        lines = lines[lines.index("---", 1) + 1 :]
    return [
        line
        for line in lines
        if line.strip() and line.strip() not in _SKIP_LINES and document.count(line) == 1
    ]


def propose(world: SimWorld, request: ModelRequest, rates: OptimizerRates, seed: int) -> Proposal:
    document = current_document(request)
    prompt = (
        "\n".join(m.content for m in request.messages).replace(document, "")
        if document
        else ("\n".join(m.content for m in request.messages))
    )
    # Several candidates per night are asked for with the same prompt; like a real model
    # sampled at temperature > 0, each request's index gives it its own draw.
    candidate = int(request.metadata.get("candidate", 0))
    # Placeholders carry a hash salted per home: the draw depends on what the prompt says,
    # not on which home redacted it, so the same history gives the same night anywhere.
    said = PLACEHOLDER_RE.sub("[REDACTED]", prompt + document)
    rng = random.Random(f"sim-optimizer-{seed}-{candidate}-{document_sha(said)}")
    anchors = editable_lines(document)
    draw = rng.random()
    missing = [f for f in failing_families(world, prompt) if not f.states_requirement(document)]
    if missing:
        # Different candidates address different failing families where there are several.
        missing = missing[candidate % len(missing) :] + missing[: candidate % len(missing)]
    anchor = anchors[-1] if anchors else None  # none: an empty region takes an append
    if missing and draw < rates.helpful:
        return _add(anchor, f"- {missing[0].requirement}", "helpful", missing[0], None)
    if missing and draw < rates.helpful + rates.harmful:
        others = [f for f in world.families if f not in missing and not f.states_harm(document)]
        if others:
            harmed = rng.choice(others)
            text = f"- {missing[0].requirement} {harmed.harmful_rule}"
            return _add(anchor, text, "harmful", missing[0], harmed)
    if not anchors:
        sentence = rng.choice(HARMLESS_SENTENCES)
        edit = {"op": "append", "text": sentence}
        return Proposal("neutral", None, None, _payload([edit], "Add a general reminder."))
    return _neutral(anchors, rng)


def _payload(edits: list[dict[str, str]], rationale: str) -> dict[str, Any]:
    return {"edits": edits, "rationale": f"{SIM_MARKER} {rationale}"}


def _add(
    anchor: str | None, text: str, kind: ProposalKind, family: Family, harmed: Family | None
) -> Proposal:
    edit = (
        {"op": "add", "anchor": anchor, "position": "after", "text": text}
        if anchor is not None
        else {"op": "append", "text": text}
    )
    rationale = (
        f"Failing trajectories look like {family.name} tasks; the document does not state the"
        " rule those runs were missing, so this adds it."
    )
    return Proposal(kind, family.name, harmed.name if harmed else None, _payload([edit], rationale))


def _neutral(anchors: list[str], rng: random.Random) -> Proposal:
    anchor = rng.choice(anchors)
    if rng.random() < 0.5:
        reworded = anchor[:-1] if anchor.endswith(".") else anchor + "."
        edit = {"op": "replace", "anchor": anchor, "text": reworded}
        rationale = "Tidy the punctuation of one line; no change in meaning."
    else:
        sentence = rng.choice(HARMLESS_SENTENCES)
        edit = {"op": "add", "anchor": anchor, "position": "after", "text": sentence}
        rationale = "Add a general reminder about clear answers."
    return Proposal("neutral", None, None, _payload([edit], rationale))
