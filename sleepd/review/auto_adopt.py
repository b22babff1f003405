"""Auto-adopt (off by default): adopt without a person only on overwhelming evidence.

It goes through the same `adopt_proposal` as a person's yes, so the backup, the
conflict check, the audit entry and rollback all still apply; anything doubtful
(a needed merge, a conflict) stays in the queue for a person.
"""

from __future__ import annotations

import logging

from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.errors import ConflictError
from sleepd.review.adopt import adopt_proposal
from sleepd.review.queue import ProposalView, get_proposal

AUTO_ADOPT_ACTOR = "auto-adopt"
log = logging.getLogger(__name__)


def auto_adopt_refusal(cfg: Config, view: ProposalView) -> str | None:
    """Why this proposal may not be auto-adopted, or None when it may."""
    if not cfg.gate.auto_adopt:
        return "auto_adopt is off"
    if view.status != "pending":
        return f"proposal is {view.status}"
    if view.simulated:
        return "simulated evidence"
    if view.safety_flags:
        return "safety flags"
    if view.p_value is None or view.p_value > cfg.gate.auto_adopt_alpha:
        return f"p-value {view.p_value} above auto_adopt_alpha {cfg.gate.auto_adopt_alpha}"
    return None


def maybe_auto_adopt(engine: Engine, cfg: Config, proposal_id: int) -> bool:
    """Adopt when allowed; True only when the document was written."""
    refusal = auto_adopt_refusal(cfg, get_proposal(engine, proposal_id))
    if refusal is not None:
        log.info("proposal #%s left for review: %s", proposal_id, refusal)
        return False
    try:
        adopt_proposal(
            engine,
            proposal_id,
            actor=AUTO_ADOPT_ACTOR,
            reason=f"p-value ≤ auto_adopt_alpha {cfg.gate.auto_adopt_alpha}",
        )
    except ConflictError as exc:
        log.warning("proposal #%s left for review: %s", proposal_id, exc)
        return False
    return True
