"""The simulated target: succeeds more often when the document states the rule.

Reads the skill document (cache prefix and system prompt) and the task intent
(the last user message); the outcome is drawn from `SimWorld` with noise keyed
by (world seed, task, rollout index, document sha), and written into the answer
as a marker the simulated judge reads.
"""

from __future__ import annotations

import re

from sleepd.backends.base import ModelRequest
from sleepd.backends.sim.world import SIM_MARKER, SimWorld
from sleepd.fence import unfence

OUTCOME_RE = re.compile(r"\[simulated outcome=(success|failure)\]")


def outcome_marker(success: bool) -> str:
    return f"[simulated outcome={'success' if success else 'failure'}]"


def target_answer(world: SimWorld, request: ModelRequest) -> str:
    intent = unfence(request.last_user_text())  # the task as quoted, without the preamble
    document = request.system_text()
    rollout = int(request.metadata.get("rollout", 0))
    success = world.rollout_succeeds(intent, document, rollout)
    summary = (
        "Made the change and verified it the way this project expects."
        if success
        else "Made a change and declared the task done, but missed what this project expects."
    )
    first_line = intent.strip().splitlines()[0][:160] if intent.strip() else "(no task)"
    return f"{SIM_MARKER} Task: {first_line}\n{summary}\n{outcome_marker(success)}"


def read_outcome(text: str) -> bool | None:
    """The last outcome marker in `text`, or None when there is none."""
    found = OUTCOME_RE.findall(text)
    if not found:
        return None
    return bool(found[-1] == "success")
