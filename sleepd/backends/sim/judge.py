"""The simulated judge: scores a rollout by reading the simulated outcome marker.

It answers the judge contract (`{"score": 0..1, "reason": ...}`) so the dream's
judge code runs unchanged; outputs without a marker get a neutral 0.5.
"""

from __future__ import annotations

import orjson

from sleepd.backends.base import ModelRequest
from sleepd.backends.sim.target import read_outcome
from sleepd.backends.sim.world import SIM_MARKER


def judge_answer(request: ModelRequest) -> str:
    outcome = read_outcome(request.last_user_text())
    if outcome is None:
        score, reason = 0.5, "no simulated outcome marker; neutral score"
    elif outcome:
        score, reason = 1.0, "simulated outcome marker says success"
    else:
        score, reason = 0.0, "simulated outcome marker says failure"
    return orjson.dumps({"score": score, "reason": f"{SIM_MARKER} {reason}"}).decode()
