"""What a user turn is, read the way the person who typed it meant it.

Six kinds (docs/mining.md has examples from real sessions):

- ``new_task``: a self-contained request (the first request of a session, a custom
  slash command or one with arguments, a new subject after the agent finished).
- ``follow_up``: a refinement of the running task ("That's good. But the darker
  highlight should still stay on…"); it is folded into that task, never a task.
- ``correction``: the previous work is wrong or failed: a correction or a failure
  report ("Nothing happens when I press new game", a pasted error or stack trace).
- ``approval``: an explicit verdict that the work is good ("perfect", "merged").
- ``steering``: keeps the work going without judging it ("continue", an answer to
  the agent's question, anything typed into a running turn or after an interrupt).
- ``housekeeping``: session built-ins (`/clear`, `/compact`, `/model`, …).

The decision uses what a person uses: where the turn sits (first of the session,
after the agent claimed it was done, after the agent asked a question, after an
interrupt, typed while the agent ran), pasted error text, negation and contrast,
references to the previous turn, a stance before a request, slash commands, and the
feedback lexicon, which is one feature among these and never decides alone. The time
gap is shown to the model for hard turns; alone it decides nothing (people come back
to the same work after a break).
This package is pure and cheap: it reads only the part of a text that can carry
feedback (`feedback_region`), never a whole pasted log.
"""

from __future__ import annotations

from sleepd.mining.turns.agent import (
    MIN_ECHOED_LINE,
    agent_asks,
    agent_awaits_verdict,
    agent_claims_done,
    agent_gave_steps,
    agent_gave_up,
    agent_invites,
    agent_offers_options,
    agent_proposes,
    answers_point_by_point,
    names_listed_item_by_number,
    picks_listed_item,
    questions_put,
    restates_offer,
    runs_agents_line,
    takes_offer,
    takes_up_findings,
)
from sleepd.mining.turns.classify import (
    FOLLOW_OVERLAP,
    LONG_TURN,
    PLAN_ACCEPTED,
    SHORT_TURN,
    classify_turn,
    sent_again_amended,
)
from sleepd.mining.turns.closing import reports_then_closes
from sleepd.mining.turns.corrections import is_redirect, shouts_negation
from sleepd.mining.turns.failures import PASTE_HEAD, PASTE_TAIL, has_pasted_error
from sleepd.mining.turns.kinds import (
    MODEL_CONFIDENCE,
    TURN_KINDS,
    TurnDecision,
    TurnInput,
    TurnKind,
    decided_by_model,
    opens_session,
)
from sleepd.mining.turns.references import (
    NAMES_NOTHING_MAX_CHARS,
    SHORT_POINTING,
    asks_about_agent,
    is_bare_answer,
    is_code_only,
    names_nothing,
    names_own_object,
    needs_context,
    points_back,
)
from sleepd.mining.turns.requests import orients_only, yes_and_more
from sleepd.mining.turns.text import (
    REGION_HEAD,
    REGION_TAIL,
    feedback_region,
    flattened,
    has_words,
    topic_overlap,
    without_thinking_cues,
)

__all__ = [
    "FOLLOW_OVERLAP",
    "LONG_TURN",
    "MIN_ECHOED_LINE",
    "MODEL_CONFIDENCE",
    "NAMES_NOTHING_MAX_CHARS",
    "PASTE_HEAD",
    "PASTE_TAIL",
    "PLAN_ACCEPTED",
    "REGION_HEAD",
    "REGION_TAIL",
    "SHORT_POINTING",
    "SHORT_TURN",
    "TURN_KINDS",
    "TurnDecision",
    "TurnInput",
    "TurnKind",
    "agent_asks",
    "agent_awaits_verdict",
    "agent_claims_done",
    "agent_gave_steps",
    "agent_gave_up",
    "agent_invites",
    "agent_offers_options",
    "agent_proposes",
    "answers_point_by_point",
    "asks_about_agent",
    "classify_turn",
    "decided_by_model",
    "feedback_region",
    "flattened",
    "has_pasted_error",
    "has_words",
    "is_bare_answer",
    "is_code_only",
    "is_redirect",
    "names_listed_item_by_number",
    "names_nothing",
    "names_own_object",
    "needs_context",
    "opens_session",
    "orients_only",
    "picks_listed_item",
    "points_back",
    "questions_put",
    "reports_then_closes",
    "restates_offer",
    "runs_agents_line",
    "sent_again_amended",
    "shouts_negation",
    "takes_offer",
    "takes_up_findings",
    "topic_overlap",
    "without_thinking_cues",
    "yes_and_more",
]
