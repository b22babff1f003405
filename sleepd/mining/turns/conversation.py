"""Commands whose object is the conversation itself, read from the text they expand to.

"/transcript" ("Generate a short (3-7 word) title summarizing this conversation, then
archive it"), "/checkpoint" ("Save session progress and generate a continuation prompt"),
"/recover-from-checkpoint" ("Stelle den Session-Kontext nach einem Crash wieder her"): a
custom command's or a skill's text says what it acts on, and these act on the session
they are typed in (archive it, sum it up, save its state for the next one, restore it).
A replay starts a new session in a checkout, with none of that conversation: the command
would archive or sum up the replay's own few turns, and nothing a judge could tell from
the person's would be done. Such a request recurs (people run these at the end of every
session) and is an episode like any other, but no replay task.
"""

from __future__ import annotations

import re

from sleepd.mining.command_text import without_skill_base

#: What the command's text opens with: read this far.
OPENING_CHARS = 400

#: The command's text acting on the session: summing up, archiving, saving, exporting,
#: publishing, titling, wrapping up or handing off this conversation, or saving or
#: restoring the session's state.
_ON_THE_CONVERSATION = re.compile(
    r"\b(summar\w+|archiv\w+|save|saving|export\w*|publish\w*|recap\w*|hand\s?off|handover|"
    r"wrap(ping)?[\s-]?up|checkpoint\w*|snapshot)\s+((of|from|for)\s+)?"
    r"((this|the|our)\s+((current|full|entire|whole)\s+)?((ai|claude|codex|agent)\s+)?"
    r"(conversation|session)"
    r"|this\s+chat|(ai|claude|codex|agent)\s+session)(\s+(so\s+far|transcript))?\b"
    # (not a session's token, cookie or store in the code: "save the session token")
    r"(?!\s+(tokens?|ids?|cookies?|keys?|stores?|storage|data|objects?|variables?|timeouts?|"
    r"managers?|middleware|handlers?|config\w*|settings|tables?|models?))"
    r"|\bsession[- ](progress|context|kontext|contexte|contexto)\b"
    r"|\b(continuation|handoff|hand-off)\s+prompt\b"
    r"|\b(restore|recover|resume)\s+(the\s+)?(session|conversation)\b",
    re.IGNORECASE,
)


def acts_on_the_conversation(expansion: str) -> bool:
    """Whether a command's text opens by acting on the conversation it is typed in (module
    docstring): the text it expanded to, or, for a command that only orders a skill
    loaded, that order and the skill's text after it (`command_text`)."""
    opening = without_skill_base(expansion)[:OPENING_CHARS]
    return bool(_ON_THE_CONVERSATION.search(opening))
