"""Follow-ups that say nothing of the work: asides typed while a task ran.

A replay task folds the follow-ups typed while its work ran into its request, as what the
person added to the work. Some follow-ups add nothing to it and mean something only in the
conversation they were typed in: a question on where the work stands ("what's next?",
"So everything done?"), a go-on ("ok let's keep going", "can you resume, I think this
disconnected"), a request for a command, a link or a write-up for the person themselves
("can you give me the git command to delete remote refs", "how do I run the full docker
test again?", "can you give me a short PR description"), a chore on the branch's history
("can you just squash all commits into one?", "check out main, pull the latest"), or a run
on the person's machine pasted back with no word of theirs ("❯ git push" and what it
printed). A replay has none of that conversation, and its agent would be asked to answer
it. The turn is read as any other; only the replay task leaves it out.
"""

from __future__ import annotations

import re

from sleepd.mining.turns.closing import is_closing_step
from sleepd.mining.turns.pastes import is_run_pasted
from sleepd.mining.turns.text import SENTENCE_END, THEN_WORK

#: Longer than this, a follow-up is taken to say something of its own.
MAX_CHARS = 300

#: A few words that open a reply without saying anything ("ok", "yes", "so", "oh").
_OPENING_WORDS = r"(ok|okay|yes|yeah|yep|sure|so|and|oh|hmm|great|cool|nice|good|alright|no|just)"
_OPENING = r"^\W*(" + _OPENING_WORDS + r"\W+)*"
#: A sentence of nothing else ("ok").
_ONLY_OPENING = re.compile(r"^\W*(" + _OPENING_WORDS + r"\W*)+$", re.IGNORECASE)

#: Where the work stands, asked of the agent.
_ASKS_WHERE_IT_STANDS = re.compile(
    _OPENING + r"("
    r"(what'?s|what is|whats)\s+(next|remaining|left|the next step|the (state|status)"
    r"(\s+(on|of)\s+\S+)?)"
    r"|what (else )?(is|remains) (left|remaining|to do)"
    r"|(is|was)\s+(there|that)\s+(any(thing)?\s+)?(further|more|else|other)\s*(work|left|to do)?"
    r"(\s+(for|on|in)\s+(this|the|that)\s+(pr|pull request|branch|task))?"
    r"|(so\s+)?(is\s+)?(everything|it all|all|it|that)\s+(done|finished|complete|ready)"
    r"|(are|r)\s+(we|you)\s+(done|finished|there yet)"
    r"|anything (else )?(left|remaining)"
    r"|where (are|were) (we|you)( at| now)?"
    r")\W*$",
    re.IGNORECASE,
)

#: A go-on: carry on with what is under way.
_GOES_ON = re.compile(
    _OPENING + r"((let'?s|just|please|can you|could you)\s+)*"
    r"(keep going|keep at it|carry on|go on|resume|continue( going)?( (through|with) "
    r"(this|it|that|them|the rest))?|get back to (it|work|the \w+))"
    r"(\W+(please|then|now))*"
    r"\W*$",
    re.IGNORECASE,
)

#: Why the person says go on, with nothing asked ("I think this disconnected").
_WHY_GO_ON = re.compile(
    r"^\W*(i think|it seems|looks like|seems like|seems)\s+((this|it|you|that)\s+)?"
    r"(disconnected|stopped|crashed|hung|froze|timed out|got stuck|died)\W*$",
    re.IGNORECASE,
)

#: A go-ahead for what the agent offered, named only by pointing at it ("yes, add the fix",
#: "yeah let's add that", "yes, do option 1"): the offer is in the conversation.
_TAKES_THE_OFFER = re.compile(
    _OPENING + r"((let'?s|please|just|exactly)\W+)*(do|add|implement|apply|use|take|go with|make)"
    r"\s+(it|this|that|these|those|them|the (fix|change|changes|suggestion|proposal)|"
    r"option \w+|#?\d+(\s*(and|&|\+|,)\s*#?\d+)*)(\W+(please|then|now))*\W*$",
    re.IGNORECASE,
)

#: A command, a link or a write-up for the person themselves, not work in the checkout.
_ASKS_FOR_THEMSELVES = re.compile(
    _OPENING + r"((can|could|would) you\s+)?(please\s+)?"
    r"((give|show|tell|send|write) me\s+(the |a |an )?((short|quick|brief|good|nice)\s+)?"
    r"(([\w-]+\s+)?commands?|link|url|pr description|pull request description|"
    r"commit message|description for the pr)\b"
    r"|(do you have|is there) (a )?(link|url)\b"
    r"|how (do|can|would|should) i (run|test|start|invoke|call|use|try)\b"
    r"|(what'?s|what is) the (command|link|url)\b)",
    re.IGNORECASE,
)

#: A chore on the branch's history or the working copy, not the work.
_BRANCH_CHORE = re.compile(
    _OPENING + r"((can|could|would) you\s+)?(please\s+|just\s+|only\s+)*"
    r"(squash (all |the |my )?(the )?commits?( into one)?|stash\b|unstage\b|"
    r"(check ?out|switch to) (main|master|develop)\b|pull (the )?latest|"
    r"do the rewording|reword (the )?commits?)",
    re.IGNORECASE,
)


def is_aside(text: str) -> bool:
    """Whether a follow-up says nothing of the work (module docstring): each of its
    sentences asks where the work stands, goes on, asks for something for the person
    themselves, is a chore on the branch or a closing step; or it is a pasted run with no
    word of the person's."""
    region = text.strip()
    if not region:
        return True
    if is_run_pasted(region):
        return True
    if len(region) > MAX_CHARS:
        return False
    sentences = [s for s in re.split(r"[,;]\s+|" + SENTENCE_END.pattern, region) if s.strip()]
    return bool(sentences) and all(_says_nothing(sentence) for sentence in sentences)


def _says_nothing(sentence: str) -> bool:
    if THEN_WORK.search(sentence):
        return False
    core = re.sub(_OPENING, "", sentence, flags=re.IGNORECASE)
    return bool(
        _ONLY_OPENING.match(sentence)
        or _ASKS_WHERE_IT_STANDS.match(sentence)
        or _GOES_ON.match(sentence)
        or _WHY_GO_ON.match(sentence)
        or _TAKES_THE_OFFER.match(sentence)
        or _ASKS_FOR_THEMSELVES.match(sentence)
        or _BRANCH_CHORE.match(sentence)
        or is_closing_step(sentence)
        or (core != sentence and is_closing_step(core))
    )
