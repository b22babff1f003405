"""The data fence: how transcript-derived text is shown to a model.

Everything copied from a user's sessions (task intents, their context, earlier turns, file
names, agent output, judge reasons, corrections, rubrics mined from them) may hold text
written to steer a model. Every prompt puts such text between `FENCE_OPEN` and
`FENCE_CLOSE` and tells the model that fenced text is data, never instructions. The
fence's own tags are defused inside the data, so a transcript cannot close it early.
"""

from __future__ import annotations

import re

FENCE_OPEN = "<transcript-data>"
FENCE_CLOSE = "</transcript-data>"

#: Any spelling of the tags a model might read as one (case, spaces inside the brackets).
_TAG_RE = re.compile(r"<\s*(/?)\s*transcript-data\s*>", re.IGNORECASE)


def fence(text: str) -> str:
    """Wrap untrusted text so it cannot close (or reopen) the fence."""
    cleaned = _TAG_RE.sub(lambda m: f"<{m.group(1)}transcript-data_>", text)
    return f"{FENCE_OPEN}\n{cleaned}\n{FENCE_CLOSE}"


def unfence(text: str) -> str:
    """The data inside the first fence of `text` (all of `text` when it has none)."""
    start = text.find(FENCE_OPEN)
    end = text.find(FENCE_CLOSE, start + 1) if start >= 0 else -1
    if start < 0 or end < 0:
        return text
    return text[start + len(FENCE_OPEN) : end].strip("\n")


def outside_fences(text: str) -> str:
    """`text` with every fenced part removed: what a model reads as instructions."""
    pattern = re.escape(FENCE_OPEN) + r".*?" + re.escape(FENCE_CLOSE)
    return re.sub(pattern, "", text, flags=re.DOTALL)
