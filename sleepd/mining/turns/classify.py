"""The decision: one `TurnDecision` per turn from the cues of the sibling modules and the
turn's place in the exchange.

A rule that reads a form (a session's first request, a slash command, a pasted failure)
decides; a rule that read new authors poorly while they were blind marks its decision hard,
so a model may decide it when model-assisted mining is on (docs/mining.md, "Model-assisted
hard cases"; docs/mining-measured.md, "Which rules read new authors well").
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace

from sleepd.mining.commands import runs_saved_prompt
from sleepd.mining.lexicon import PRAISING_EMOJI, Feedback, Lexicon
from sleepd.mining.turns.agent import (
    agent_asks,
    agent_awaits_verdict,
    agent_claims_done,
    agent_gave_steps,
    agent_invites,
    agent_offers_options,
    agent_proposes,
    answers_point_by_point,
    last_words,
    names_listed_item_by_number,
    offered_act,
    picks_listed_item,
    restates_offer,
    runs_agents_line,
    takes_offer,
    takes_up_findings,
)
from sleepd.mining.turns.closing import DOCUMENTS_WORK, is_closing_step, reports_then_closes
from sleepd.mining.turns.corrections import (
    REDIRECT,
    affirms_what_agent_denied,
    correction_score,
    denies_agent_claim,
    disputes_by_question,
    fixes_what_was_said_to_pass,
    forbids_what_agent_did,
    grants_then_objects,
    insists_on_the_complaint,
    names_what_was_gone,
    pastes_review_findings,
    says_what_was_meant,
)
from sleepd.mining.turns.failures import WRONG_ANSWER, names_a_symptom_only, reports_failure
from sleepd.mining.turns.kinds import TurnDecision, TurnInput, TurnKind, opens_session
from sleepd.mining.turns.pastes import RAN_COMMAND, is_program_output
from sleepd.mining.turns.references import (
    ASKS_WHAT_AGENT_DID,
    BACK_REF,
    GO_AHEAD,
    GO_ON_WORDS,
    POINTING,
    asks_about_agent,
    is_bare_answer,
    names_own_object,
    needs_context,
    points_back,
    works_the_review,
)
from sleepd.mining.turns.requests import (
    IMPERATIVE,
    NEW_WORK,
    REQUEST,
    TURNS_TO_NEXT,
    asks_in_a_field,
    asks_its_own_question,
    orients_only,
    request_after_stance,
    requests_more,
    says_something_new,
    sets_next_work,
    yes_and_more,
)
from sleepd.mining.turns.text import (
    ATTACHMENT,
    CONTENT_WORD,
    STOP_WORDS,
    WORD,
    after_contrast,
    after_first,
    as_typed,
    feedback_region,
    first_clause,
    first_sentence,
    flattened,
    one_word,
    request_region,
    stem,
    text_after_verdict,
    topic_overlap,
    word_count,
)
from sleepd.mining.turns.verdicts import ACCEPT, ACCEPT_OPEN, APPROVAL_HEAD, accepts

#: "no, …" as the first word of a reply.
_NO_OPEN = re.compile(
    # ("No but I still want the description of it just much shorter")
    r"^\W*(no|nope|nah|nein|non|não|нет|hayır)\b\s*([,.!:;\-–—]|$|but\b|aber\b|mais\b|pero\b)"
    # (typed without its comma, before an order to take the work back: "no remove this
    # again, the risk … is to big"; not "no remove button", "no change needed")
    r"|^\W*(no|nope|nah)\s+(remove|revert|undo|delete|drop|roll back|put (it|them|that) back|"
    r"go back|don'?t|do not|stop)\b(?!\s+(button|option|step|needed)\b)"
    # the same "no" in the languages without spaces between words, before their comma or
    # stop ("違う、単純にP5を消すだけで良かった", "不对，…", "아니, …"), and "いや別に…" (nah, …)
    r"|^\W*(違う|ちがう|違います|いや|いいえ|不是|不对|不對|아니요?|아뇨)\s*([、。，,.!！:：]|\s|$)"
    r"|^\W*いや別に",
    re.IGNORECASE,
)


#: Opens by forbidding something ("don't …", "do not …", "never …").
_FORBIDS_OPEN = re.compile(r"^\W*(don'?t|do not|never)\b(?!\s+mind\b)", re.IGNORECASE)


#: The greeting words a longer message may open with ("Hello can you …").
_HELLO = r"hi|hello|hey|hallo|hola|bonjour|salut|ciao|good (morning|afternoon|evening)"


_GREETING = re.compile(
    rf"^\W*({_HELLO}|ol[aá]|oi|privet|test|ping|konn?n?i(ch|t)iw?h?a|こんにちは|こんばんは|おはよう(ございます)?|你好|您好|"
    r"안녕(하세요)?|привет|здравствуйте|how are you|(how'?s|how is) it going|(what'?s|what is) up|"
    r"как дела|ça va|"
    r"wie geht'?s|qué tal|你好吗|你好嗎|xin ch[aà]o|ch[aà]o (b[aạ]n|anh|ch[iị]|em)|"
    # whether the agent answers at all ("are you working now?", "you there?", "testing 1 2
    # 3"; not "is it working now?", a question about the result)
    r"are you (there|working|alive|online|awake|up|ready|back)( now| again| yet)?|"
    r"(you|anyone|anybody) there|can you (hear|see|read) me|testing( \d+)*|test( test)+|"
    # or the agent called by its name alone ("claude?", after its errors)
    r"(claude|codex|gemini|copilot)(?=\s*\?))"
    # an addressee after it ("Hello Jarvis.", "hi there", "hey claude"): still a greeting
    r"(\s+(there|all|everyone|friend|buddy|mate|claude|codex|gpt|chatgpt|bot|(?-i:[A-Z][a-z]+)))?"
    # and asking who it is ("hi, who are you?", "你好,你是誰?"): meta talk, nothing to do
    r"(\W+(who are (you|u)|你是谁|你是誰|あなたは誰(ですか)?|누구(세요|야|니|신가요)))?"
    r"\W*$",
    re.IGNORECASE,
)


#: The agent's own launcher typed into the session ("claude -c", "codex resume"): meant for
#: the shell, to start or resume a session, not a request about the work.
_LAUNCHER = re.compile(
    r"^\s*(claude|codex)(\s+(-c|-r|--continue|--resume|resume|continue)(\s+[\w-]{1,64})?)?\s*$"
    # or one of its own subcommands ("claude mcp", "claude mcp list", "codex login")
    r"|^\s*(claude|codex)\s+(mcp|config|doctor|update|upgrade|install|login|logout|plugins?|"
    r"agents|setup-token|migrate-installer|completion|sandbox|features)(\s+[\w.:/-]{1,64}){0,3}\s*$"
    # or only its options ("--dangerously-skip-permissions", "--model opus"), typed into
    # the session instead of after the command
    r"|^\s*--[a-z][\w-]+(=\S+|\s+[\w.:-]+)?(\s+--?[a-z][\w-]*(=\S+|\s+[\w.:-]+)?)*\s*$",
    re.IGNORECASE,
)


#: Leaving the session (or logging in to it) typed as a word, the way a shell or an editor
#: is left ("exit", "quit", ":q", "bye", "login"): meant for the program, not the agent.
_LEAVES = re.compile(
    r"^\s*(exit|quit|:q!?|:wq!?|:x|bye|good ?bye|logout|log out|login|log in)\s*[.!]*\s*$",
    re.IGNORECASE,
)


#: The screen or the context cleared, typed as a word the way a shell's is ("clear", "cls"):
#: the `/clear` built-in without its slash, unless it answers the agent's question ("Is
#: that clear?", "Should I clear the cache?").
_CLEARS = re.compile(r"^\s*(clear|cls)\s*[.!]*\s*$", re.IGNORECASE)


#: A reply that takes up what the agent just said before going on ("ok …", "correct, …").
_GOES_ON_FROM_IT = re.compile(
    r"^\W*(ok|okay|correct|right|exactly|yes|yeah|yep|agreed|got it|makes sense)\b[\s,.!:;-]",
    re.IGNORECASE,
)


#: Openings of an answer to the agent's question or offer.
_ANSWER = re.compile(
    r"^\W*(yes|yeah|yep|no|nope|ok|okay|sure|fine|done|option|the (first|second|third|last)|"
    r"\d+\b|[a-d]\)|let'?s (do|go with|use)|go with|i('?d)? (prefer|choose|pick|'ll take)|"
    r"both|neither|either)\b",
    re.IGNORECASE,
)


#: The file a request acts on, named before its verb ("En el archivo /var/www/js/app.js
#: elimina …", "In src/app.ts, rename …", "Dans le fichier x.py, ajoute …").
_IN_FILE = re.compile(
    r"^\W*(in|en|dans|em|no|na|im)\s+((the|el|la|le|o|a|der|dem|das)\s+)?"
    r"(file|archivo|fichero|fichier|arquivo|datei)?\s*[`'\"]?[\w./~@-]+\.\w{1,6}[`'\"]?\s*,?\s+",
    re.IGNORECASE,
)


#: More work asked for anywhere in a message ("we will need to update instructions on how
#: to install", "in that summary, also make note of the testing", "is there a way to
#: install it using 'just'?"): a step added to the task, not a constraint on how to work.
_ADDS_WORK = re.compile(
    r"\b(we|you|i)('ll| will| would)? need to (add|update|write|make|create|include|document|"
    r"change|fix|build|ship|release|expand|extend|cover|mention|explain|describe|support|handle|"
    r"split|rework)\b|\b(we|you)('ll| will| would)? need an? (new |simpler |"
    r"better |separate )?\w+|"
    r"\balso (make note|note|add|update|write|include|mention|document|create|put)\b|"
    r"\blet'?s (also )?(make|add|create|build|write|include)\b|\bis there a way to\b|"
    # a wish for the work, with "also" or "as well" ("we also want to think about how
    # subagents fit into this model", "I think we want to get rid of current-session
    # mechanics as well")
    r"\b(we|i) (also )?(want|need|should|have) to\b[^.?!\n]{0,120}?\b(as well|too)\b"
    r"(?!\s+[a-z])|"  # (not "too slow")
    r"\b(we|i) also (want|need|should|have) to\b",
    re.IGNORECASE,
)


#: Judges what the agent said (its answer or reasoning), not the code: a correction even
#: before the agent changed anything ("That can't be right, …", "this justification
#: really does not make a lot of sense to me").
_JUDGES_ANSWER = re.compile(
    WRONG_ANSWER[1:]
    + r"|\b(that'?s|that is|this is|it'?s|it is) not (right|true|correct)\b|\bare you sure\b"
    r"|\b(you'?re|you are) (wrong|mistaken)\b",
    re.IGNORECASE,
)


#: Says an earlier attempt left the state as it was.
_STILL = re.compile(r"\bstill\b|\b(keeps|kept) (on )?[a-z]+ing\b", re.IGNORECASE)


#: Asks the agent to do again what it was stopped doing.
_RETRY = re.compile(
    r"\b(try|do|run) (it |that )?again\b|\bretry\b|^\W*((ok|okay|done)\W+)?try (it )?now\b",
    re.IGNORECASE,
)


#: Resumes the running work ("limits are reset. continue where you left off").
_RESUME = re.compile(
    r"\b(continue|resume|carry on|keep going|keep doing|go on|pick (it )?up|ti[eế]p t[uụ]c)\b",
    re.IGNORECASE,
)


_CONTINUE = re.compile(r"^\W*" + GO_AHEAD + r"\b", re.IGNORECASE)

#: "Whats next?", "what now?": asks the agent for the next step of its work.
_WHATS_NEXT = re.compile(
    r"^\W*((ok|okay|so|and|great|good|nice)\W+)?(what'?s|what is|whats) (next|the next step)"
    r"|^\W*((ok|okay|so)\W+)?what now\W*$",
    re.IGNORECASE,
)


#: A go-ahead word opening a longer reply ("ok, …"): not a bare number or letter, which
#: picks only as the whole reply (a pasted score card opens with its "60").
_GO_ON_OPENING = re.compile(rf"^\W*({GO_ON_WORDS})\b", re.IGNORECASE)


#: "next one:", "Next issue.", "ok, next ticket -": the person's own next piece of work.
_NEXT_PIECE = re.compile(
    r"^\W*((ok|okay|alright|now|good|great|thanks)\W+)?(the\s+)?next\s+(one|issue|ticket|item|"
    r"bug|task|story|card|problem)\s*[:.!\-\u2013\u2014]+\s*",
    re.IGNORECASE,
)
#: A tracker's key for an issue ("ENT-259").
_TRACKER_KEY = r"\b[A-Z][A-Z0-9]{1,9}-\d+\b"
#: What names a piece of work: a link, or a tracker's key ("ENT-259", "#182").
_NAMES_A_PIECE = re.compile(r"https?://\S+|" + _TRACKER_KEY + r"|(^|\s)#\d+\b")
#: How a request opens before its verb: a word that closes what came before ("ok", "great",
#: "thanks", "now") and a courtesy or a hedge ("can you", "let's", "please", "maybe").
_REQUEST_OPENING = (
    r"^\W*((ok|okay|alright|now|so|then|great|good|nice|thanks)\W+)*"
    r"((ma+y?be+|let'?s|please|now|also|(can|could|would) (you|we))\s+)*"
)
#: "ok then maaybe work on https://github.com/…/issues/47", "let's pick up ENT-12": work on
#: an issue named by its link or its key.
_WORKS_ON_AN_ISSUE = re.compile(
    _REQUEST_OPENING + r"(work on|pick up|take on|tackle|start on|start with|move on to)"
    r"\s+(the\s+)?(issue\s+)?(https?://\S+/(issues|pull)/\d+|" + _TRACKER_KEY + r"|#\d+\b)",
    re.IGNORECASE,
)


def _names_the_next_piece(region: str) -> bool:
    """The turn opens with "next one:" and names the piece itself: a link, a tracker
    key, or a sentence of its own (six words or more); or asks to work on an issue named
    by its link or key."""
    if _WORKS_ON_AN_ISSUE.match(region):
        return True
    opening = _NEXT_PIECE.match(region)
    if opening is None:
        return False
    rest = region[opening.end() :]
    return bool(_NAMES_A_PIECE.search(rest[:300])) or len(WORD.findall(rest)) >= 6


#: Openings that attach the turn to the running task.
_FOLLOW_OPEN = re.compile(
    r"^\W*(also|and|now|then|plus|additionally|next|btw|oh,? and|one more thing|one more|"
    r"can you also|could you also|but|however|actually|instead|what about|how about|and also|"
    r"make it|make them|make sure|let'?s also|ok,? (now|so|but|and|let'?s|then)|"
    r"okay,? (now|so|but|and|let'?s|then)|great,? (now|but|and)|good,? (now|but|and)|"
    r"nice,? (now|but|and)|the same|same for|similarly|for the|in the|on the|"
    r"it should|it would|it needs|this should|that should|they should|these should)\b",
    re.IGNORECASE,
)


#: A reply that names one of the options ("option 1", "Option B", "B", "2)").
_NAMES_OPTION = re.compile(r"\boption\s+(?:[a-d]|[1-9])\b|^\W*\(?(?:[A-D]|[1-9])\)?\W*$", re.I)


#: Pushes back on what the agent proposed ("why 32768? …", "not in the code.. just …").
#: A means of work swapped for another ("use terminal instead of powershell then", "try
#: pnpm rather than npm", "switch to the REST API instead").
_SWAPS_THE_MEANS = re.compile(
    r"^\W*(please\s+|ok,?\s+|so\s+|then\s+)?(use|try|switch to|go with)\s+[^.?!\n]{1,40}?"
    r"\b(instead|rather than)\b",
    re.IGNORECASE,
)


#: Asks for another way to go about the task: a simpler means ("can't you just …?", "why
#: not simply …"), another view of it ("let's take a slightly different view", "look at
#: this from …"), or less of the work ("just tell me how to …").
_RETHINKS_THE_APPROACH = re.compile(
    r"\b(can'?t|couldn'?t|cannot|why not|why don'?t) (you|we) (just|simply)\b"
    r"|\bwhy not (just|simply)\b"
    r"|\b(take|try) a (slightly |completely |totally )?different (view|approach|angle|tack|"
    r"direction|perspective)\b|\badjust our thinking\b"
    r"|\blook at (this|it|that) from\b[^.?!\n]{0,50}\b(pov|point of view|perspective|angle|"
    r"standpoint|view)\b"
    r"|^\W*(ok(ay)?,?\s+|no,?\s+)?just (tell|show|give) me\b",
    re.IGNORECASE,
)


#: A short caption under a screenshot that names trouble ("issue with the chat page?",
#: "error on save", "still broken"); not one that asks for work ("add an error page like
#: this").
_TROUBLE_CAPTION = re.compile(
    # (what the picture is for: "For error on github action deploy:", "here's the error")
    r"^\W*((for|re:?|about|here'?s|here is|getting|got)\s+)?(still\s+)?"
    r"(an?\s+|the\s+|this\s+|same\s+)?(issue|error|errors|problem|bug|broken|wrong|"
    r"weird|crash|crashed|fails?|failed|failing)\b",
    re.IGNORECASE,
)


_PUSHBACK = re.compile(r"^\W*(no|not|why|wait|hmm+|actually|instead)\b", re.IGNORECASE)


#: Openings that only make sense as a change to what was just delivered.
_FOLLOW_STRONG = re.compile(
    r"^\W*(but|however|actually|instead|make it|make them|it should|this should|that should|"
    r"same for|similarly|"
    # "Can you also assess for overcomplexity?": more of the same work, by its "also"
    r"(can|could|would|will) (you|we) (please )?also)\b",
    re.IGNORECASE,
)


#: Opens with a goal of the person's own ("I want to …", "now I'd like to …"); not a wish to
#: know or see something, which asks about the work at hand.
_STATES_GOAL = re.compile(
    r"^\W*((now|ok(ay)?|so|next)\W+){0,2}i\s*((want|would like|'d like|need)\s+to|wanna)\s+"
    r"(?!(know|understand|see|ask|confirm|check|make sure|be sure|clarify)\b)",
    re.IGNORECASE,
)


#: Asks to change a thing by its definite name ("make the modal bigger").
_CHANGE_NAMED = re.compile(
    r"^\W*(please\s+)?(?:make|change|move|resize|shrink|widen|rename|remove|hide|show|tweak|"
    r"adjust)\s+the\s+([a-z][\w-]{2,})",
    re.IGNORECASE,
)


#: Asks the agent to change how its tool calls are approved ("Can you auto accept all
#: changes for the rest of this session?", "stop asking me for permission"): the typed form
#: of a tool approval setting, nothing of the project's to replay.
_FOR_THE_SESSION = r"(for the rest of (this|the) session|from now on|going forward|in this session)"


_TOOL_CALLS = (
    r"(\s+(all|every)( of)?)?( the| your)?( changes| edits| commands| tool calls| of them)?"
)


_SETS_APPROVALS = re.compile(
    r"^\W*((can|could|would|will) (you|u) (please )?|please )?(just )?("
    # "auto accept all changes", "auto-approve edits"
    rf"auto[- ]?(accept|approve){_TOOL_CALLS}(\s+{_FOR_THE_SESSION})?"
    # "approve all edits from now on" (without the time, "approve all" accepts a proposal)
    rf"|(accept|approve){_TOOL_CALLS}\s+{_FOR_THE_SESSION}"
    r"|(stop asking|(don'?t|do not) ask)( me)?( for)? (permissions?|approvals?|confirmations?)"
    rf"(\s+{_FOR_THE_SESSION})?"
    # and nothing more: "don't ask for permission, just fix the login bug" is a request
    r")(\s+please)?\W*$",
    re.IGNORECASE,
)


#: At most this many words, a turn after the agent finished names too little to stand alone.
SHORT_TURN = 8


#: A turn whose content words are this much the running episode's is about the same thing.
FOLLOW_OVERLAP = 0.15


#: A state described as not right: a negated verb, "still …", "no longer …".
_NEGATIVE_STATE = re.compile(
    r"\b((is|are|was|were|does|do|did|has|have|can|could|will|would)(n'?t| not)|not\s+\w+ing|"
    r"still|no longer|nothing)\b",
    re.IGNORECASE,
)


#: Cues that judge a result; without one of them a turn is never a correction.
_JUDGING_CUES = frozenset(
    {
        "pasted error",
        "failure report",
        "forbids what was done",
        "contrast then failure",
        "asks to undo",
        "faults what the agent did",
        "asks to keep what was",
        "says no to the result",
        "disputes what it quoted",
        "denies what the agent said",
        "affirms what the agent denied",
        "sees what the agent said was gone",
        "says what was meant",
        "disputes with a question",
        "fix what was said to pass",
        "insists after a correction",
        "grants, then objects",
        "dislikes the result",
        "pastes review findings",
    }
)


#: The accepted plan handed back as the next message: Codex plan mode's "Please implement
#: this plan:", Claude Code's "Implement the following plan:" (the plan the person accepted,
#: written as the first message of a fresh context, also after the agent was stopped).
PLAN_ACCEPTED = re.compile(
    r"^\s*(please implement this plan|implement the following plan):", re.IGNORECASE
)


#: New tasks read from the turn's own form (a command, a first request, "new task: …"),
#: not from where it sits in the exchange.
_NEW_BY_FORM = frozenset(
    {
        "slash command",
        "saved prompt or skill run",
        "a plan handed over to implement",
        "first request",
        "says it is something new",
        # (a task all the same, but not one to replay: the review lies outside the
        # repository, and `needs_context` says so to the task miner)
        "acts on the pull request's review",
        # ("please review this PR": the branch it reviews is in the repository)
        "asks for a review of the work",
    }
)


def classify_turn(turn: TurnInput, lexicon: Lexicon) -> TurnDecision:
    """The kind of one typed user turn (rule-based; see the module docstring).

    A turn the task miner could not replay alone (`needs_context`: a file pasted with no
    request, "are you in the docker container?") is never read as a new task by its
    place in the exchange: once the agent has worked, it goes on with the running task
    (unless the person had just accepted the work, which closed it).
    """
    turn = _as_read(turn)
    decision = _classify_turn(turn, lexicon)
    if (
        decision.kind is TurnKind.NEW_TASK
        and turn.agent_worked
        and turn.previous is not TurnKind.APPROVAL
        and not _NEW_BY_FORM.intersection(decision.reasons)
        and needs_context(_words_of(turn.text))
    ):
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("leans on the exchange",), hard=True)
    return decision


def _as_read(turn: TurnInput) -> TurnInput:
    """The turn with every text in it read as typed words are (`as_typed`): a person's
    quotes, spaces and punctuation say the same in any typography."""
    return replace(
        turn,
        text=as_typed(turn.text),
        agent_text=as_typed(turn.agent_text),
        context=as_typed(turn.context),
        request=as_typed(turn.request),
        previous_text=as_typed(turn.previous_text),
        withdrawn_request=as_typed(turn.withdrawn_request),
    )


#: After a verdict, the words that turn to a flaw in the same result ("One issue.", "but",
#: "unfortunately", "only problem:", "two bugs:"): what follows says where the work fails.
_FLAW_NAMED = re.compile(
    r"^\W*(but|however|though|although|except|unfortunately|"
    r"((there'?s|there is|there are) )?(the |just |only )?"
    r"(only|one|an?|two|three|a couple of|a few|some)? ?(small|minor|little|tiny)? ?"
    r"(issue|problem|bug)s?\b)",
    re.IGNORECASE,
)
#: ... unless the failure is one that may come: a condition ("But if it fails later we can
#: roll back", "what happens when it fails?"), a flaw put off ("A problem for later: …") or
#: one that might be ("it might break on Windows"; "it would not load" says it did not).
#: What the person did when it failed is no condition ("nothing happens when I click").
_FLAW_TO_COME = re.compile(
    r"\b(if|when(?!\s+(i|we)\b)|whether|in case|later|(might|may|could|would)(?! not\b))\b",
    re.IGNORECASE,
)


def _words_of(text: str) -> str:
    """The person's words without the images and documents sent with them (the harvest
    writes "[image: image/png, 528112 bytes]" before the words; Claude Code marks where
    a paste went, "[Image #1]"): a screenshot backs the words up, and the words say what
    the turn is. A turn that is only attachments is left as it is (`_by_place_in_exchange`
    reads a screenshot sent alone)."""
    return ATTACHMENT.sub(" ", text).strip() or text.strip()


def _classify_turn(turn: TurnInput, lexicon: Lexicon) -> TurnDecision:
    """The first reading that decides, in the order a person reads a turn: its form, a
    retry after the agent's service stopped, a message sent again, edited, before any
    reply, words typed into a running turn, a verdict or an answer on the agent's last
    message, and last the turn's place in the exchange."""
    text = _words_of(turn.text)
    region = feedback_region(text)
    decision = _by_form(turn, text, region)
    if decision is not None:
        return decision
    reading = _read(turn, text, region, lexicon)
    phases = (
        _after_rollback,
        _after_service_error,
        _before_any_reply,
        _into_running_turn,
        _works_the_review,
        _reviews_the_work,
        _on_the_last_message,
    )
    for phase in phases:
        decision = phase(turn, reading)
        if decision is not None:
            return decision
    return _by_place_in_exchange(turn, reading)


@dataclass(slots=True)
class _Reading:
    """What the later phases read off a turn once its form decided nothing."""

    text: str
    region: str
    words: int
    #: the cues of a correction found, and their weight
    reasons: list[str]
    corr: float
    #: a correction's cues reach a report of failure
    reports: bool
    #: the agent claimed it was done (or the person had just approved)
    done: bool
    asked: bool
    #: where a verdict's own words start, and whether the turn opens with one
    verdict: str
    approval_head: bool


def _by_form(turn: TurnInput, text: str, region: str) -> TurnDecision | None:
    """A command, a saved prompt, a greeting, the agent's launcher, a session's first
    request, talk about the assistant or its approvals: decided by form alone."""
    if turn.command is not None:
        if turn.command.is_housekeeping:
            return TurnDecision(TurnKind.HOUSEKEEPING, 0.95, ("built-in command",))
        if turn.answered_by_the_cli:
            # a built-in this list does not name yet ("/usage-credits"): a command that
            # runs a prompt or a skill is answered by the model, never by the CLI
            return TurnDecision(TurnKind.HOUSEKEEPING, 0.9, ("answered by the CLI itself",))
        return TurnDecision(TurnKind.NEW_TASK, 0.9, ("slash command",))
    if runs_saved_prompt(text):
        # Codex's `$name`, written as a link to the skill, or a saved prompt run by typing
        # its path: a custom command by another name
        return TurnDecision(TurnKind.NEW_TASK, 0.85, ("saved prompt or skill run",))
    if PLAN_ACCEPTED.match(text) and text != turn.previous_text.strip():
        # an accepted plan handed over: the plan it proposed, now the work to do (the same
        # plan sent again is read as any message sent again)
        return TurnDecision(TurnKind.NEW_TASK, 0.85, ("a plan handed over to implement",))
    if _GREETING.search(region):
        return TurnDecision(TurnKind.HOUSEKEEPING, 0.8, ("greeting",))
    if _LAUNCHER.match(region):
        return TurnDecision(TurnKind.HOUSEKEEPING, 0.8, ("the agent's launcher, for the shell",))
    if _LEAVES.match(region):
        return TurnDecision(TurnKind.HOUSEKEEPING, 0.8, ("leaves or logs in, for the program",))
    if _CLEARS.match(region) and not agent_asks(turn.agent_text):
        return TurnDecision(TurnKind.HOUSEKEEPING, 0.8, ("clears the screen, for the program",))
    if not turn.has_episode:
        if not re.search(r"\w", region):
            # "。", "?", "..." typed to see whether the agent answers: it asks for nothing
            return TurnDecision(TurnKind.HOUSEKEEPING, 0.8, ("no words",))
        if opens_session(turn):
            return TurnDecision(TurnKind.NEW_TASK, 0.9, ("first request",))
        # the session opens with the agent's work (a conversation continued into a new
        # file, a file that starts mid-session): the turn answers that work, as in an
        # open episode
    if asks_about_agent(region):
        # "what model are you?": meta talk, the typed form of `/model`
        return TurnDecision(TurnKind.HOUSEKEEPING, 0.8, ("asks about the assistant",))
    if len(region) <= 120 and _SETS_APPROVALS.search(region):
        return TurnDecision(TurnKind.HOUSEKEEPING, 0.7, ("sets how its tools are approved",))
    return None


def _read(turn: TurnInput, text: str, region: str, lexicon: Lexicon) -> _Reading:
    """The cues every later phase weighs: the correction score (capped where no judging
    cue backs it, zeroed where there is nothing of the agent's to judge), and whether
    the turn opens with a verdict."""
    reasons: list[str] = []
    words = len(WORD.findall(region))
    # (an approval closed the work, unless the agent is still at what was approved: "yeah,
    # address all of them", then "Now let me apply all 5 fixes." and the person's next
    # words while it works)
    done = agent_claims_done(turn.agent_text) or (
        turn.previous is TurnKind.APPROVAL and (turn.agent_ended or not turn.agent_worked)
    )
    asked = agent_asks(turn.agent_text)
    corr = correction_score(region, text, lexicon, reasons)
    if (
        _NO_OPEN.search(region)
        and turn.agent_worked
        and turn.agent_acted
        and not agent_asks(turn.agent_text)
    ):
        corr += 1  # "no, …" right after the agent acted, unasked, answers what it did
        reasons.append("says no to the result")
    if turn.agent_acted and turn.agent_ended and names_what_was_gone(region, turn.agent_text):
        # "You made them all yollieblue101" after "All commits should now show
        # "Durban-Designer" … instead of "yollieblue101"": the state the agent said it
        # changed away from is what the person sees
        corr += 2
        reasons.append("sees what the agent said was gone")
    if turn.agent_ended and fixes_what_was_said_to_pass(region, turn.agent_text):
        # "fix test" right after "All tests pass — unit tests, integration tests, and race
        # detection all green": a check the agent called green is failing
        corr += 2
        reasons.append("fix what was said to pass")
    if turn.agent_ended and disputes_by_question(region, turn.agent_text):
        # "doesn't every userPromptSubmit update the 'last interaction'?" after the agent
        # explained why old sessions lack it: the person expects the agent to be wrong
        corr += 2
        reasons.append("disputes with a question")
    if turn.agent_acted and denies_agent_claim(region, turn.agent_text):
        # "Synapse is not an agent persona, in fact …" after the agent wrote the personas
        # up: the person sets right what the work says
        corr += 2
        reasons.append("denies what the agent said")
    if turn.agent_acted and turn.agent_ended and affirms_what_agent_denied(region, turn.agent_text):
        # "golangci-lint does fire a few times" after "No lint issues — everything is clean
        # already.": what the agent said does not happen, the person sees happen
        corr += 2
        reasons.append("affirms what the agent denied")
    if turn.agent_ended and turn.agent_text.strip() and says_what_was_meant(region):
        # "I mean, actions in the TUI …" after the agent answered another reading of the
        # request: the person repairs what the agent understood
        corr += 2
        reasons.append("says what was meant")
    if (
        turn.previous is TurnKind.CORRECTION
        and turn.agent_ended
        and turn.agent_acted
        and insists_on_the_complaint(region)
    ):
        # "but I'm on main here, I added it normally" after the agent explained away the
        # failure the person reported: the verdict stands
        corr += 2
        reasons.append("insists after a correction")
    if turn.agent_ended and turn.agent_worked and grants_then_objects(region):
        # "yes, but that is specific to this installation on this machine": the agent's
        # point granted, then a fact set against it
        corr += 2
        reasons.append("grants, then objects")
    if (
        turn.agent_acted
        and turn.agent_ended
        and pastes_review_findings(region, turn.agent_text)
        and not APPROVAL_HEAD.search(region)
        and lexicon.classify(first_clause(region)) is not Feedback.APPROVAL
    ):
        # "1. High: `replicate --all-refs` still weakens replicate's failure semantics …"
        # after the agent's report: a review of the work says what is wrong in it (not a
        # review that finds the work good first and suggests more: "方針は良いです … 1.
        # Medium: …" refines it)
        corr += 2
        reasons.append("pastes review findings")
    if text.lstrip().startswith(">") and _DISPUTE_OPEN.search(region):
        # "> that data loss would have landed without anyone seeing the diff. Actually, the
        # intention …": the agent's own words quoted back, then set right
        corr += 2
        reasons.append("disputes what it quoted")
    if not _JUDGING_CUES.intersection(reasons):
        corr = min(corr, 0.5)  # the lexicon is one feature among several, never alone
    judges_answer = bool(turn.agent_text.strip()) and bool(_JUDGES_ANSWER.search(region[:400]))
    # "still …" says an earlier attempt did not change the state: it judges the agent's
    # work even when the running episode has none (a stray turn opened it)
    still = turn.acted_before and bool(_STILL.search(region[:300]))
    reports = corr >= 2 and not _JUDGING_CUES.isdisjoint(reasons)
    advised = agent_gave_steps(turn.agent_text)
    if (
        not turn.agent_acted
        and not advised
        and "pasted error" not in reasons
        and "says what was meant" not in reasons
        and "disputes with a question" not in reasons
        and not judges_answer
        and not still
    ):
        corr = 0.0  # nothing of the agent's to judge yet: a complaint is a request
    if "pasted error" not in reasons and (
        (_FIX_IT.match(region) and _OFFERS_OR_FOUND.search(last_words(turn.agent_text, 800)))
        or takes_up_findings(region, turn.agent_text)
        or _takes_up_the_fix(region, turn.agent_text)
    ):
        # "fix this" to "Want me to fix the `findAdmin` inconsistency?", "fix the critical
        # issues" after the agent's review listed them: takes the agent up on what it found
        # (and offered to fix), judging nothing it did
        corr = 0.0
    if _TAKES_UP_NEXT.match(region):
        # "let's now turn to this test failure: …", "I want to focus on 4 skipped tests":
        # the person sets the failure up as the next piece of work, judging nothing done
        corr = 0.0
    opened = ACCEPT_OPEN.sub("", region, count=1)
    # the verdict may follow an "OK." of its own ("OK. Deploy works now!!"): what comes
    # after the verdict is then read after that sentence, not after the "OK."
    verdict = region
    approval_head = bool(APPROVAL_HEAD.search(opened)) and not _PRAISE_AS_VERB.match(opened)
    if approval_head and not APPROVAL_HEAD.search(region):
        # "ah, of course\nTHANKS!! it works perfectly …": the verdict follows an
        # acknowledgment, and what comes after the verdict is read after it
        verdict = opened
    if not approval_head and words <= 12:
        clause = first_clause(region)
        if lexicon.classify(clause) is Feedback.APPROVAL and not asks_for_work(clause):
            approval_head = True
        elif (
            opened != region
            and lexicon.classify(first_clause(opened)) is Feedback.APPROVAL
            and not asks_for_work(first_clause(opened))
        ):
            approval_head, verdict = True, opened
    if not approval_head and turn.agent_acted and words <= _CLOSING_VERDICT_WORDS:
        closing = closing_verdict(region, lexicon)
        if closing:
            # "ran it locally, all good", "tested on my phone, works 👍": the person's own
            # check of the result, and the verdict comes last
            approval_head, verdict = True, closing
    if (
        approval_head
        and not _COURTESY_WORD.match(region.lstrip(" \t\n!.,:;-"))
        and _only_courtesy(verdict, lexicon)
        and reports_failure(region)
    ):
        # "tried it, nothing happens, thx": thanks closing a failure report judge nothing
        # (thanks that open the turn close the work: "Thanks! A problem for later: …")
        approval_head = False
    if approval_head and _ASKED_VERDICT.match(region):
        # "much better?", "is it all green?", "looks good?": the verdict asked for, not given
        approval_head = False
    return _Reading(
        text, region, words, reasons, corr, reports, done, asked, verdict, approval_head
    )


def _only_courtesy(verdict: str, lexicon: Lexicon) -> bool:
    """The verdict's approval is its thanks alone: without them, nothing in its first
    clause approves."""
    if _ENDS_APPROVING.search(verdict):
        return False  # ("ran semgrep, it found nothing 👍": the emoji judges)
    clause = first_clause(verdict)
    bare = _COURTESY_WORD.sub(" ", clause)
    return lexicon.classify(bare) is not Feedback.APPROVAL and not APPROVAL_HEAD.search(bare)


#: Thanks, as people type them ("thx", "many thanks", "thank you so much").
_THANKS = (
    r"(many |much |big )?(thanks|thank you|thank u|thx|thnx|tnx|ty|cheers)"
    r"( (so much|a lot|again|in advance|very much))?"
)

#: Thanks in a clause, wherever they stand.
_COURTESY_WORD = re.compile(rf"\b{_THANKS}\b", re.IGNORECASE)


#: A short question that opens the turn ("much better?", "are the tests green now?").
_ASKED_VERDICT = re.compile(r"^\W*(\w+[^\S\n]+){0,5}\w+\s*\?")

#: The most words a report of the person's own check runs to before its verdict: a
#: longer turn says more than that the work holds.
_CLOSING_VERDICT_WORDS = 20

#: Where the clauses of a short report part: a stop, a comma, a dash between words.
_CLAUSE_BREAK = re.compile(r"[.,;:!\n。！，、]+|\s+[-–—]+\s+")

#: Thanks and other courtesies, which close a report of a failure as readily as a verdict.
_COURTESY = re.compile(rf"^\W*({_THANKS}|ta|please|pls|plz)\W*$", re.IGNORECASE)

#: The person's own try of the result, opening the report ("ran it on the nas last
#: night", "uploaded a 6 MB photo", "checked page 2").
_TRIED_IT = re.compile(
    r"^\W*(i |we |just |so |ok |okay )*(ran|tried|tested|checked|opened|uploaded|confirmed|played|"
    r"loaded|clicked|installed|built|compiled|verified|measured|compared|diffed|reloaded|"
    r"refreshed|restarted|rebuilt|retried|load[- ]tested|deployed|imported|exported|printed)\b",
    re.IGNORECASE,
)

#: A turn that ends with approving emoji ("tested on my phone, works 👍", "cert issued ✅";
#: not 🙏, as often "please" after a request, nor 🔥 or ❤, said of trouble as well).
_ENDS_APPROVING = re.compile(rf"(?:{PRAISING_EMOJI}\s*)+[!.]*\s*$")

#: What a try found good, said in its own words ("it went through", "redirects fine",
#: "counts match", "no errors"): a report closed with thanks alone approves only with one.
_FOUND_GOOD = re.compile(
    r"\b(works?|worked|working|went through|fine|correct(ly)?|properly|as expected|identical|"
    r"match(es|ed)?|clean|no (errors?|issues?|problems?|warnings?|crash(es)?)|all (good|green)|"
    r"succeed(s|ed)?|passe[sd]|pass|shows? up)\b",
    re.IGNORECASE,
)


def closing_verdict(region: str, lexicon: Lexicon) -> str:
    """The verdict that closes a short report of what the person checked ("diffed the
    figures, identical. great", "valgrind clean here as well. excellent", "tried a few
    searches, all hit. 👌"), or "" when the turn is no such report: every clause before the
    verdict states, none asks, questions or reports a failure."""
    if "?" in region or "？" in region:
        return ""
    body = _ENDS_APPROVING.sub("", region).strip()
    emoji = body != region.strip()
    clauses = [c.strip() for c in _CLAUSE_BREAK.split(body) if re.search(r"\w", c)]
    thanked = False
    while clauses and _COURTESY.match(clauses[-1]):
        # a report closed with thanks ("the legend overlaps the bars now, thanks") is
        # polite, and the thanks judges nothing: the verdict must come before it, unless
        # the report is of the person's own try and what it found good ("Uploaded a 6 MB
        # photo and it went through. Thank you!"), which the thanks then closes
        clauses.pop()
        thanked = True
    if not clauses:
        return ""
    # (with what the try found good: "clicked the link, 404. thanks" is no approval)
    tried = (
        thanked
        and bool(_TRIED_IT.match(clauses[0]))
        and any(_FOUND_GOOD.search(clause) for clause in clauses[1:] or clauses)
    )
    last = "" if emoji or tried else clauses[-1]
    before = clauses if emoji or tried else clauses[:-1]
    if not before:
        return ""
    if last and not (
        len(WORD.findall(last)) <= 4
        and (lexicon.classify(last) is Feedback.APPROVAL or APPROVAL_HEAD.match(last))
        and not asks_for_work(last)
    ):
        return ""
    # (a symptom's words before praise or an approving emoji may name the very result asked
    # for: "the sort order is reversed now 👍", "ran semgrep, it found nothing 👍"; before
    # thanks alone they report it)
    praised = emoji or bool(last)
    for clause in before:
        failed = reports_failure(clause) and not (praised and names_a_symptom_only(clause))
        if asks_for_work(clause) or failed or lexicon.classify(clause) is Feedback.CORRECTION:
            return ""
    return last or region.strip()


#: A word of praise used as the verb of a request: "correct the typo in the footer",
#: "…, correct it to "Équipe"", "perfect the fade-in".
_PRAISE_AS_VERB = re.compile(
    r"(^|[,;:]\s*)\W*(please\s+)?(correct|perfect)\s+(the|a|an|it|this|that|these|those|all|"
    r"every|each|my|our|your|its|their|any|both)\b",
    re.IGNORECASE,
)


#: Words that join a clause to what was said, read past before its verb.
_JOINING_WORD = re.compile(r"^\W*(and|also|then|now|so)\b\W*", re.IGNORECASE)

#: A verb opening the clause that is its subject, not an order: "Deploy works now",
#: "build is green", "Build successful", "Deploy done, perfect", "Test fine now".
_NOUN_THEN_STATE = re.compile(
    r"^\W*\w+\s+(works?|worked|working|is|are|was|were|passe[sd]|passing|looks?|seems?|"
    r"succeed(s|ed)?|successful(ly)?|went|goes|runs?|ran|done|fine|green|clean|good|great|ok|"
    r"okay|fixed|merged|deployed|ready|complete(d)?|perfect|correct|now)\b",
    re.IGNORECASE,
)


def asks_for_work(clause: str) -> bool:
    """The clause is a request, whatever word of praise it holds ("use the correct port",
    "make sure the dates are correct", "please correct the date format"): a verdict
    judges what was done, a request asks for more."""
    clause = _JOINING_WORD.sub("", clause, count=1)
    ordered = bool(IMPERATIVE.search(clause)) and not _NOUN_THEN_STATE.match(clause)
    return ordered or bool(REQUEST.search(clause) or _PRAISE_AS_VERB.search(clause))


def _after_service_error(turn: TurnInput, reading: _Reading) -> TurnDecision | None:
    """The request sent again, or a bare retry, after the agent's service cut it off."""
    text, region, words = (reading.text, reading.region, reading.words)
    if turn.after_service_error and _sent_again(request_region(text), _requests_of(turn)):
        # the request sent again word for word after a usage limit or an API error cut the
        # agent off: "try again", with nothing new and no verdict
        return TurnDecision(TurnKind.STEERING, 0.75, ("sent again after the service stopped",))
    if (
        turn.after_service_error
        and words <= 3
        and (_RESUME.search(region) or _RETRY.search(region) or accepts(region))
    ):
        # a bare "continue", "try again" or "go" there is the same retry in one word; a reply
        # that says more ("Limits are reset. Continue where we left off.") is read as
        # anywhere else
        return TurnDecision(TurnKind.STEERING, 0.65, ("retries after the service stopped",))
    return None


def _after_rollback(turn: TurnInput, reading: _Reading) -> TurnDecision | None:
    """Typed in the place of the running episode's request, which Codex's rollback just
    took back (the person went back to before it, as its edit-a-message key does): the
    request said again, edited, goes on with that episode, as a message sent again before
    any reply does; one that shares nothing with it is a request of its own, and the one
    taken back was withdrawn (`segment`)."""
    if not turn.withdrawn_request:
        return None
    before = feedback_region(turn.withdrawn_request)
    if restates(reading.region, before) or topic_overlap(reading.region, before) >= FOLLOW_OVERLAP:
        return TurnDecision(
            TurnKind.FOLLOW_UP, 0.7, ("said again after rolling the thread back",), hard=True
        )
    return TurnDecision(
        TurnKind.NEW_TASK, 0.6, ("a request in place of the one rolled back",), hard=True
    )


def _before_any_reply(turn: TurnInput, reading: _Reading) -> TurnDecision | None:
    """The person's last message sent again, edited, before the agent did anything with it
    (a rewind, or a second send with the forgotten sentence added): the same request, said
    better, not a second one. A resend after an interrupt or a service failure is read by
    the phases for those."""
    if (
        turn.has_episode
        and not turn.agent_worked
        and not turn.after_interrupt
        and not turn.after_service_error
        and not turn.queued
        and turn.previous in (TurnKind.NEW_TASK, TurnKind.FOLLOW_UP)
        and restates(reading.region, feedback_region(turn.previous_text))
    ):
        # (hard: on the blind sets the words sent again before any reply were as often
        # steering, the person adding how to go about it)
        return TurnDecision(
            TurnKind.FOLLOW_UP, 0.7, ("restates its request before any reply",), hard=True
        )
    return None


def _into_running_turn(turn: TurnInput, reading: _Reading) -> TurnDecision | None:
    """Something new said outright; else a turn typed while the agent ran, or right
    after it was stopped: steering, unless it corrects, answers, accepts or adds a step."""
    region, words, reasons, corr, verdict, approval_head = (
        reading.region,
        reading.words,
        reading.reasons,
        reading.corr,
        reading.verdict,
        reading.approval_head,
    )
    where = "typed into the running turn" if turn.queued else "after the agent was stopped"
    if turn.after_interrupt and sent_again_amended(region, turn.previous_text):
        # stopped at once to send the same words again, at most with a thinking cue or
        # a go-on word added ("…, think hard and continue"): how to work, nothing new
        # (however new the words said the first sending was)
        return TurnDecision(TurnKind.STEERING, 0.75, (where, "sent again"))
    if says_something_new(region):
        return TurnDecision(TurnKind.NEW_TASK, 0.8, ("says it is something new",))
    if not (turn.queued or turn.after_interrupt or turn.after_refusal):
        return None
    # the person stopped the agent: one cue of a correction is enough
    if corr >= 1:
        return TurnDecision(TurnKind.CORRECTION, 0.75, (where, *reasons))
    if turn.put_question and not turn.queued:
        # the agent put its questions through its question tool and the person closed the
        # dialog to type: the reply is to those questions ("sorry, talk to me more about
        # that last question?"), not a redirect of work that had not begun
        return TurnDecision(
            TurnKind.FOLLOW_UP, 0.6, (where, "answers the question it put"), hard=True
        )
    if (
        not turn.queued
        and agent_asks(turn.agent_text)
        and _ANSWER.search(region)
        and not _RETRY.search(region)
        and words <= 40
    ):
        # stopped while the agent waited on its question: the reply answers it
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, (where, "answers the agent"), hard=True)
    if (
        turn.after_interrupt
        and not turn.queued
        and not turn.agent_worked
        and turn.previous is TurnKind.FOLLOW_UP
        and not (REDIRECT.search(region) or _RETRY.search(region) or _RESUME.search(region))
        and not _LIMITS_THE_WORK.search(region)
    ):
        # the person stopped the agent before it did anything with their follow-up, and goes
        # on with it: an answer sent in pieces ("only when the human invokes /transcript",
        # then "show tool name and whatever was shown to user as summary …", then "a4"), a
        # question that follows a request ("ok, your setup_latex run", then "skips if...
        # tinytex not available or …?"): more of the same, not a redirect of work that had
        # not begun
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, (where, "goes on with its message"), hard=True)
    if turn.queued and words <= 6 and accepts(region):
        # "Ok go ahead" typed while the agent ran, after it announced what it would do
        # ("Flagging something before continuing: …"): redirects nothing, accepts it
        return TurnDecision(TurnKind.APPROVAL, 0.6, (where, "accepts what it announced"), hard=True)
    if turn.queued and approval_head and not requests_more(verdict):
        # "approved #33 in chat and in the issue itself": a verdict on work the agent
        # showed earlier, typed while it goes on, asks nothing
        return TurnDecision(TurnKind.APPROVAL, 0.6, (where, "verdict"), hard=True)
    if turn.queued and _NOT_NEEDED.match(region):
        # "and we don't need backward compatibility, it only adds complexity", "no need to
        # update the docs": what the running work may leave out, a constraint on it,
        # however it opens
        return TurnDecision(TurnKind.STEERING, 0.6, (where, "says what is not needed"), hard=True)
    if (
        turn.queued
        and words >= 5
        and not REDIRECT.search(region)
        and (
            IMPERATIVE.search(region)
            or REQUEST.search(region)
            or asks_in_a_field(region)
            or _ADDS_WORK.search(region)
        )
    ):
        # queued while it ran, but an extra step of the task ("run the review and …");
        # one that redirects ("use pnpm instead of npm for all of it") steers
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, (where, "adds a step"), hard=True)
    if (
        turn.queued
        and words >= 5
        and _GOES_ON_FROM_IT.match(region)
        and not REDIRECT.search(region)
    ):
        # "ok this is a good start, how sustainable and scalable is this harness?",
        # "correct, I think at this stage it's a bit too much …": typed while it ran, a
        # reply to what the agent said that goes on with the task, not a redirect
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, (where, "replies to it"), hard=True)
    if turn.queued and is_closing_step(region):
        # "commit then", "commit and push": typed while it ran, the closing step of the work
        # it is doing, added for when it is done; it redirects nothing
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, (where, "queues the closing step"))
    after_this = _WHEN_DONE.match(region)
    if turn.queued and after_this:
        # "When done wiht this, since this is intended as an educational piece, please add a
        # new markdown file …": queued for after the running work, it redirects nothing
        rest = region[after_this.end() :]
        if is_closing_step(rest):
            return TurnDecision(TurnKind.FOLLOW_UP, 0.6, (where, "queues the closing step"))
        if IMPERATIVE.search(rest) or REQUEST.search(rest) or re.search(r"\bplease\b", rest):
            return TurnDecision(TurnKind.NEW_TASK, 0.6, (where, "queues the next task"), hard=True)
    if turn.queued and turn.previous_text and _FINISHES_A_SENTENCE.match(region):
        # "which has to incorporate any improvements made in punt-tts", then "that affect
        # our surface area.": the person's own message sent in pieces while the agent ran
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, (where, "finishes its own message"), hard=True)
    if turn.queued and _ASKS_ABOUT_IT.search(region.strip()) and region.rstrip().endswith("?"):
        # "why is this different for gemini vs claude??", "that's the _right thing to do_,
        # yes?": typed while it ran, a question about the work or a check of it, not a
        # redirect (blind labellers read most queued questions so; "are you using your LSP
        # as well?" asks about its way of working and still steers)
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, (where, "asks about the work"), hard=True)
    # position alone makes it steering; a redirect or a retry says so in words
    cued = bool(REDIRECT.search(region) or _RETRY.search(region))
    return TurnDecision(TurnKind.STEERING, 0.8 if cued else 0.6, (where,), hard=not cued)


def _works_the_review(turn: TurnInput, reading: _Reading) -> TurnDecision | None:
    """Acting on a pull request's review is a task of its own, however often it recurs on
    the same pull request: "address pr feedback" stands without the exchange before it (the
    branch's pull request is context), as LABELS.md's borderline 4 reads a new act on the
    running subject. (Blind labellers split on it: a round on a pull request the session
    itself opened was read as a follow-up too.)"""
    if not turn.has_episode or reading.reports or not works_the_review(reading.region):
        return None
    if not turn.agent_ended and works_the_review(feedback_region(turn.previous_text)):
        # asked again while the agent is still at the review it was asked for ("address
        # feedback on #10705", then "address pr feedback" mid-turn): no new request
        return None
    return TurnDecision(TurnKind.NEW_TASK, 0.6, ("acts on the pull request's review",), hard=True)


#: A review asked of the work as a whole ("can you review the changes in the branch now
#: once more as a whole", "can you review the faq changes in this branch"), not of a part
#: just made ("can you review the tests again?", "review the added tests that …").
_REVIEWS_THE_WORK = re.compile(
    _REQUEST_OPENING + r"((do|run|make) (a|one more) )?(code )?review\s+(of\s+)?(all\s+)?"
    r"(the|this|these|our|my)\s+([\w-]+\s+)?(changes|diff|branch|pr|pull request)\b"
    r"(?![^.?!\n]*\bagain\b)",
    re.IGNORECASE,
)


def _reviews_the_work(turn: TurnInput, reading: _Reading) -> TurnDecision | None:
    """A review of the work as a whole, asked after the agent finished, is a new act on
    the running subject, as LABELS.md's borderline 4 reads one; the blind labellers read
    it so each time, and a review of one part just made, or one asked again, as a
    follow-up."""
    if not turn.has_episode or not turn.agent_ended or reading.reports:
        return None
    if not _REVIEWS_THE_WORK.match(reading.region):
        return None
    return TurnDecision(TurnKind.NEW_TASK, 0.6, ("asks for a review of the work",), hard=True)


#: "Ship it" alone, or after a word of praise: the order to ship what was made.
_SHIP_IT = re.compile(r"^\W*((ok|okay|great|nice|lgtm|perfect|cool)\W+)?ship it\W*$", re.IGNORECASE)


def _on_the_last_message(turn: TurnInput, reading: _Reading) -> TurnDecision | None:
    """A correction, a verdict, an acceptance, a pick among options, a go-on or a pasted
    command: what the turn says of the agent's last message."""
    text, region, words, reasons, asked, corr, verdict, approval_head = (
        reading.text,
        reading.region,
        reading.words,
        reading.reasons,
        reading.asked,
        reading.corr,
        reading.verdict,
        reading.approval_head,
    )
    # A verdict that the work is good outweighs one weak cue ("great, works now");
    # a contrast clause that reports a failure does not ("looks correct. But … doesn't").
    weak_praise = approval_head and corr < 2.5 and not after_contrast(region)
    if not weak_praise and (corr >= 2 or (corr >= 1 and words <= 30 and turn.agent_worked)):
        spec = _sets_out_its_own_plan(text)
        if spec and turn.previous_text and not _same_failure(text, turn.previous_text):
            # a defect set out with its own numbered plan ("The seed script fails with "File
            # upload failed" … 1. First, show me … 2. …"), not the one the person's last
            # request worked on: the next task, written as its spec
            return TurnDecision(
                TurnKind.NEW_TASK, 0.6, (*reasons, "a defect set out as its own task"), hard=True
            )
        # (so set out about the failure the last request worked on, it is a correction, and
        # still no certain one). Hard whatever its cues: on the blind sets a correction
        # read by them was right on about half of the turns, the rest mostly follow-ups
        # that name a problem as the next step of the work ("the uploads are failing, can
        # you check") and new requests about the code as it was
        return TurnDecision(
            TurnKind.CORRECTION, min(0.6 + 0.1 * corr, 0.95), tuple(reasons), hard=True
        )
    if _HOLDS_THE_AGENT.match(region):
        # "stop, cancel this loop", "wait, I think I've got vim 9.0 source already?": the
        # person holds the agent back, the words in writing of an interrupt
        return TurnDecision(TurnKind.STEERING, 0.65, ("holds the agent back",), hard=True)
    if (
        turn.agent_acted
        and agent_awaits_verdict(turn.agent_text)
        and _NEGATIVE_STATE.search(first_clause(region)[:300])
        and not NEW_WORK.search(region[:80])
    ):
        # "Tell me what it looks like." / "the tracks are not starting at the beginning":
        # asked for a verdict on its result, the person describes it as not right
        return TurnDecision(
            TurnKind.CORRECTION, 0.6, ("a verdict asked for: not right",), hard=True
        )
    if _SHIP_IT.match(region) and not asked and turn.agent_acted:
        # "ship it" after "Done. Version bumped to 0.4.2.": an order to ship the work, the
        # task's closing step (to "Want me to ship it?" it takes the offer, below)
        return TurnDecision(TurnKind.FOLLOW_UP, 0.65, ("a bare step on the work just done",))
    if approval_head:
        after_head = APPROVAL_HEAD.sub("", verdict, count=1)
        after_verdict = after_first(verdict) or (after_head if after_head != verdict else "")
        if after_verdict and is_closing_step(after_verdict):
            # "Nice...please commit", "great, commit and push": the work is accepted and
            # the person asks for the task's closing step, still part of the task
            return TurnDecision(
                TurnKind.FOLLOW_UP,
                0.7,
                ("verdict then a closing step",),
                approves_previous=True,
            )
        if not requests_more(verdict):
            return TurnDecision(TurnKind.APPROVAL, 0.85, ("verdict", *reasons))
        rest = text_after_verdict(verdict)
        if (
            turn.agent_acted
            and _FLAW_NAMED.match(rest)
            and not _FLAW_TO_COME.search(rest[:80])
            and reports_failure(rest)
        ):
            # "Seems to work fine. One issue. is that the server does not seems to read the
            # data from the live devices table." (a history outside the repository): the
            # work holds in part, and the rest says where it fails
            return TurnDecision(
                TurnKind.CORRECTION, 0.6, ("works in part, then a failure",), hard=True
            )
        # the verdict may end at a comma ("perfect, now can you polish the whole website")
        next_step = sets_next_work(rest) or bool(not rest and TURNS_TO_NEXT.search(after_verdict))
        if not next_step and (
            BACK_REF.search(" ".join(rest.split()[:12])) or _FOLLOW_OPEN.search(rest)
        ):
            # (blind labellers read such turns both ways, new task and follow-up, from one
            # sample to the next: the model decides)
            return TurnDecision(
                TurnKind.FOLLOW_UP,
                0.6,
                ("verdict then refinement",),
                hard=True,
                approves_previous=True,
            )
        if next_step:
            # "Merged both PRs. i think we should do a release now": the verdict closes the
            # task, and the person sets the next piece of work
            return TurnDecision(
                TurnKind.NEW_TASK,
                0.65,
                ("verdict then new request",),
                hard=True,
                approves_previous=True,
            )
        # "great! copy the db, good idea. Do that for me", "OK. Good. Now verify …": the
        # work is accepted and the person asks for more of it (the labellers of the wild
        # samples read 7 of 9 such turns so)
        return TurnDecision(
            TurnKind.FOLLOW_UP,
            0.6,
            ("verdict then request",),
            hard=True,
            approves_previous=True,
        )
    if ACCEPT.search(region) and words <= 6 and agent_offers_options(turn.agent_text):
        # "yes" to "A, B or C? My recommendation: A": takes the option, the task goes on
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("takes the recommended option",), hard=True)
    if ACCEPT.search(region) and words <= 6:
        # "proceed", "yes", "go ahead": accepts what the agent proposed, nothing new
        return TurnDecision(TurnKind.APPROVAL, 0.7, ("accepts the proposal",), hard=True)
    if words <= 8 and picks_listed_item(region, turn.agent_text):
        # "lets target 5 and see what happens" to the agent's "### Next Steps 1. … 5. Install
        # as a skill": the person picks an item of its list, an answer inside the task
        return TurnDecision(TurnKind.FOLLOW_UP, 0.65, ("picks an item of its list",), hard=True)
    if words <= 6 and _NAMES_OPTION.search(region) and agent_offers_options(turn.agent_text):
        # "yes option 1", "go with B" after the agent laid out options: the person picks
        # one, an answer inside the task (even when the agent asked about that one)
        return TurnDecision(TurnKind.FOLLOW_UP, 0.65, ("picks an option",), hard=True)
    if restates_offer(region, turn.agent_text):
        # "yes, <the offer in the person's words>": accepts it, asks nothing beyond it
        return TurnDecision(TurnKind.APPROVAL, 0.65, ("accepts the offer as made",), hard=True)
    if (
        (_CONTINUE.search(region) and words <= 4)
        or (_RESUME.search(region) and words <= 10 and not _WORKS_ON_AN_ISSUE.match(region))
        or _WHATS_NEXT.match(region)
    ):
        # the agent's turn had ended: "continue", "yes, Option A" go on with the task; after
        # a question or a plan, "继续", "c" for "[C] Continue" may also accept what it laid
        # out (an approval): the labellers of the wild samples read 9 of them so
        # (hard also without an offer: on the blind sets a go-on after the agent's report was
        # as often an approval of what it had done, or its next step taken up)
        return TurnDecision(TurnKind.FOLLOW_UP, 0.7, ("goes on with the task",), hard=True)
    if turn.agent_worked and is_program_output(region):
        # what a run printed, pasted back with hardly a word ("InlineScript 1:6 SPLICE:
        # Project: found …" after "Reload and test"): a report on the running task, often
        # the one the agent asked for (one that shows an error is a correction, above)
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("pastes what a run printed",), hard=True)
    if turn.agent_worked and (RAN_COMMAND.match(text) or runs_agents_line(text, turn.agent_text)):
        # a command the person ran, pasted with what it printed ("╰─❯ apt install …",
        # "user@host:~/app$ npm run …", a console snippet the agent handed over): a report
        # on the running task, never a task of its own (one that shows an error is a
        # correction, above)
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("pastes a command it ran",), hard=True)
    return None


def _by_place_in_exchange(turn: TurnInput, reading: _Reading) -> TurnDecision:
    """What is left is read by where the turn sits: after an answer, a question, a done
    claim, an invitation; whether it points back or names its own object."""
    text, region, words, done, asked, reports = (
        reading.text,
        reading.region,
        reading.words,
        reading.done,
        reading.asked,
        reading.reports,
    )
    refers_back = points_back(" ".join(region.split()[:12]))
    # a screenshot after the agent's work, and the words typed under it (read once)
    shown = turn.agent_acted and turn.agent_ended and bool(ATTACHMENT.search(turn.text))
    caption = ATTACHMENT.sub("", turn.text).strip() if shown else ""
    if shown and not caption and (not asked or agent_awaits_verdict(turn.agent_text)):
        # a screenshot and not a word, after the agent reported its work or asked how it
        # went: the person shows what they see instead of what was claimed ("Done! … Let me
        # know if the refresh fixes it", then only the screen with the same error); a
        # result that works is said in words. (After a question of another kind it may be
        # the answer, and the rules below read it.)
        return TurnDecision(
            TurnKind.CORRECTION, 0.55, ("a screenshot sent alone after the work",), hard=True
        )
    if shown and 0 < len(WORD.findall(caption)) <= 6 and _TROUBLE_CAPTION.search(caption):
        # a screenshot under a word or two that name trouble ("[image] issue with the chat
        # page?", "[image] error on save"): the screen shows what went wrong, the words
        # point at it
        return TurnDecision(
            TurnKind.CORRECTION, 0.55, ("a screenshot captioned with trouble",), hard=True
        )
    if (
        turn.agent_acted
        and turn.agent_ended
        and done
        and not asked
        and "?" not in region
        and (
            _said_of_the_result(first_sentence(region), turn.agent_text)
            # or after a grant of what works ("Links work, but the map should get the
            # coordinates of the station …, not its name")
            or _said_of_the_result(after_contrast(first_sentence(region)).strip(), turn.agent_text)
        )
    ):
        # "Should be aligned with just the avatar in the middle", "the installation
        # instructions … should mention the installer", right after the agent reported the
        # work done: how the result should be, said of what the report names, is that it is
        # not so (one that adds to it, "the footer should also …", is a refinement; one
        # about something the report never named, "the settings page should show an error
        # page when …", a requirement)
        return TurnDecision(
            TurnKind.CORRECTION, 0.55, ("says how the result should be",), hard=True
        )
    request_part = request_after_stance(region) if turn.agent_ended and words >= 12 else ""
    if request_part and not BACK_REF.search(" ".join(request_part.split()[:12])):
        # a stance on the previous answer, then a request that stands on its own: the
        # stance closes that thread, the request opens the next one
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("a stance, then a request",), hard=True)
    if (
        turn.orienting
        and turn.agent_worked
        and turn.agent_ended
        and not refers_back
        and word_count(region) >= 3
        and not orients_only(region)
        and not is_bare_answer(region)
    ):
        # "阅读readme", the agent's summary, then "写入AGENTS.md: …": the first episode only
        # had the agent look at the project, and this is the work it was for
        return TurnDecision(
            TurnKind.NEW_TASK, 0.6, ("work asked after a look at the project",), hard=True
        )
    if turn.agent_worked and turn.agent_acted and DOCUMENTS_WORK.match(region):
        # "update AGENT_CONTEXT.md and other relevant documentation" after the agent
        # changed things: the task's own write-up, with no subject of its own
        return TurnDecision(TurnKind.FOLLOW_UP, 0.65, ("documents the work just done",), hard=True)
    if turn.agent_worked and turn.agent_acted and words <= 25 and _ASKS_FOR_TESTS.match(region):
        # "can we add some simple tests?", "Add a test to confirm that behaviour." after the
        # agent changed things: tests of the work just done, a step of its task (a spec of
        # tests of its own, numbered and long, stands alone)
        return TurnDecision(TurnKind.FOLLOW_UP, 0.65, ("tests the work just done",), hard=True)
    if turn.agent_worked and (
        is_closing_step(region) or reports_then_closes(region) or (words == 1 and one_word(region))
    ):
        # a bare step with no object of its own ("commit", "commit and push", the typo
        # "commi") acts on the work just done: the task's closing step
        return TurnDecision(
            TurnKind.FOLLOW_UP,
            0.65,
            ("a bare step on the work just done",),
            approves_previous=agent_claims_done(turn.agent_text),
        )
    if turn.agent_worked and words <= 25 and _ASKS_IF_IT_WAS_DONE.match(region):
        # "Have you documented and pushed these to my github under my name", "did you run
        # the tests?": whether the agent did a step of the work at hand, question mark or
        # not, asks for that step; the running task's, not a request of its own
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("asks whether the agent did it",), hard=True)
    if (
        agent_invites(turn.agent_text)
        and not refers_back
        and not _FOLLOW_STRONG.search(region)
        # (counted as typed: "次のタスク候補教えて下さい" is one run of letters)
        and word_count(region) >= 3
    ):
        # "What can I help you with?": the agent closed its work and waits for a request
        # (hard: on the blind sets most such turns went on with what the agent had just
        # finished, its open invitation a closing formula)
        return TurnDecision(
            TurnKind.NEW_TASK, 0.7, ("request after an open invitation",), hard=True
        )
    if (
        not asked
        and _STATES_GOAL.match(region)
        and not is_closing_step(_STATES_GOAL.sub("", region))
    ):
        # "i want to deploy via vercel", "I want to update my spec to remove …": the person
        # states a goal of their own in their own words (not "I want you to …", acting on
        # the agent's proposal, nor an answer to its question)
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("states a goal of its own",), hard=True)
    if agent_proposes(turn.agent_text) and _PUSHBACK.search(region):
        # questions the plan before anything was done: redirects, judges no result
        return TurnDecision(TurnKind.STEERING, 0.6, ("pushes back on a proposal",), hard=True)
    if not done and not asked and words <= 12 and _SWAPS_THE_MEANS.match(region):
        # "use terminal instead of powershell then", after the agent explained why it used
        # PowerShell: how to work, short of a result to judge
        return TurnDecision(TurnKind.STEERING, 0.6, ("swaps the means",), hard=True)
    if _RETHINKS_THE_APPROACH.search(region[:200]):
        # "can't you just pull from the entire transcript?", "let's take a slightly
        # different view", "just tell me how to install from source": how to go about the
        # task, with no result judged
        return TurnDecision(TurnKind.STEERING, 0.6, ("rethinks the approach",), hard=True)
    if (done or asked) and NEW_WORK.search(region[:80]) and not refers_back:
        # "Let's also migrate to AudioWorklet" after the agent finished: more work
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("new work after done",), hard=True)
    if asked and (words <= 8 or _ANSWER.search(region)) and words <= 40:
        # picks an option, answers the question, reports doing what was asked
        return TurnDecision(TurnKind.FOLLOW_UP, 0.65, ("answers the agent",), hard=True)
    if answers_point_by_point(region, turn.agent_text):
        # "1. driver is preferred for me … 2. …" under the agent's numbered questions: the
        # answers, however long, are the person's part of the running task
        return TurnDecision(TurnKind.FOLLOW_UP, 0.65, ("answers point by point",), hard=True)
    rest = ACCEPT_OPEN.sub("", region, count=1)
    own_request = (
        done
        and not asked
        and rest != region
        and len(WORD.findall(rest)) >= 3
        and bool(IMPERATIVE.search(rest) or REQUEST.search(rest))
        and not _FOLLOW_OPEN.search(rest)
    )
    if turn.agent_ended and _names_the_next_piece(region):
        # "next one: https://linear.app/…/ENT-259/…", "Next issue. If sensors are shown in
        # the answers, they should …": the next piece of work on the person's list, named
        # in the turn, is a task of its own (a bare "next" goes on with the agent's list)
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("names the next piece of work",), hard=True)
    if _GO_ON_OPENING.search(region) and words <= 25 and not own_request:
        # "ok, …" after the agent finished goes on with its task, unless what follows the
        # "ok" is a request of its own ("ok lets get back to main"): the rules below decide
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("goes on with the task",), hard=True)
    overlap = topic_overlap(region, turn.context)
    if says_something_new(region):
        return TurnDecision(TurnKind.NEW_TASK, 0.8, ("says it is something new",))
    if turn.agent_worked and turn.agent_ended and forbids_what_agent_did(region, turn.agent_text):
        # "Do not add the full names" under the agent's sketch that shows each name: a
        # verdict on that part of the result
        return TurnDecision(TurnKind.CORRECTION, 0.6, ("forbids what the agent showed",), hard=True)
    if turn.agent_worked and _FORBIDS_OPEN.match(region):
        # "don't edit the database by hand; use alembic …", "never commit straight to
        # main": a constraint on the work at hand, never a task of its own
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("a constraint on the work",), hard=True)
    if _FOLLOW_STRONG.search(region) or refers_back:
        # a pronoun in a message long enough to stand alone may point inside it ("expand
        # philosophy.md, right now it focuses on …"): then the reading is looser still. Even
        # a short one is no certain follow-up on new authors (bench/blind_branches.py): it
        # may contradict the agent ("but I'm on main here, I added it nromally") or ask it
        # to try again
        loose = not _FOLLOW_STRONG.search(region) and words >= LONG_TURN
        return TurnDecision(
            TurnKind.FOLLOW_UP, 0.6 if loose else 0.7, ("continues the running task",), hard=True
        )
    if turn.agent_worked and yes_and_more(region):
        # "Yes, and we also need to collect …", "Ja, bitte implementiere …", "proceed to add
        # opk rules …": a yes to what the agent offered or asked, with more of the same work
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("a yes, then more",), hard=True)
    changed = _CHANGE_NAMED.search(ATTACHMENT.sub("", region))
    if changed and re.search(rf"\b{re.escape(changed.group(2))}\b", turn.agent_text[-1500:], re.I):
        # "make the modal bigger" right after the agent reported what it did to the modal
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("changes what the agent named",), hard=True)
    points = bool(POINTING.search(" ".join(region.split()[:20])))
    own = not points or _brings_its_material(text)
    if words >= 40 and (
        _CALLS_ITSELF_A_FOLLOW_UP.match(region)
        or names_listed_item_by_number(" ".join(region.split()[:15]), turn.agent_text)
    ):
        # "one follow up: in case of …", "the problem with 2. is that it only applies to
        # helpers …" under the agent's numbered points: however long, the message takes up
        # the exchange it names
        return TurnDecision(
            TurnKind.FOLLOW_UP, 0.6, ("takes up a point of the exchange",), hard=True
        )
    if words >= 40 and (done or (turn.agent_ended and not asked and own)):
        # a long message after the agent finished carries a request of its own; a word
        # that points ("this following issue", "this feature") does not tie it to the
        # exchange when the message brings what it acts on (a pasted issue, a review brief)
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("long request after done",), hard=True)
    # a failure report before the agent acted is about the code as it was: a request
    request = bool(
        IMPERATIVE.search(_IN_FILE.sub("", region, count=1)) or REQUEST.search(region) or reports
    )
    answered = turn.agent_ended and bool(turn.agent_text.strip())
    retry = words <= 4 and bool(_RETRY.search(region))
    if (
        answered
        and not asked
        and not done
        and request
        and overlap < FOLLOW_OVERLAP
        and not retry
        and not is_bare_answer(region)
        and not _ADDS_TO_THE_EXCHANGE.match(region)
    ):
        # the agent answered (no question, no plan): a request on another subject is new
        # ("try now" after its steps to set something up asks it to go on; "Fix 1-3" after
        # its findings names nothing but their numbers)
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("new request after an answer",), hard=True)
    if answered and not asked and not done and overlap == 0 and asks_its_own_question(region):
        # "how to test if one identifier is a valid coc doHover target?" after the agent
        # answered where a vim mapping is defined: a question of its own, sharing no word
        # with the exchange (one about the answer names what the answer named)
        return TurnDecision(TurnKind.NEW_TASK, 0.55, ("a question of its own",), hard=True)
    named = names_own_object(region) and not takes_offer(region, turn.agent_text)
    if answered and request and named:
        # "update system_notes.md and changelog …" after the agent's report or its offer of
        # something else: a request that names what it acts on stands without the exchange
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("a request naming its own object",), hard=True)
    if turn.agent_ended and words >= 4 and _GREETING_OPEN.match(region) and not asked:
        # "Hello can you give me the specs in violation-details", "hi seed the products":
        # a greeting opens a new exchange, whatever the agent said last
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("opens with a greeting",), hard=True)
    offered = offered_act(turn.agent_text) if asked and turn.agent_ended else None
    if (
        offered is not None
        and words >= 5
        and not refers_back
        and not BACK_REF.search(" ".join(region.split()[:20]))
        and _MAKES_SOMETHING_NEW.match(region)
        and topic_overlap(region, offered) == 0
    ):
        # "can you create a diagram that shows our ideal architecture design?" to "Want me
        # to kick it off?": instead of what the agent offered, something new to make
        return TurnDecision(
            TurnKind.NEW_TASK, 0.55, ("asks for something new, not the offer",), hard=True
        )
    if asked or not done:
        # the agent is still at it, or asked something: the turn goes on with its task
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("the task is still open",), hard=True)
    if overlap >= FOLLOW_OVERLAP:
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("same subject",), hard=True)
    closed = turn.previous is TurnKind.APPROVAL and not ASKS_WHAT_AGENT_DID.match(region)
    if not own_request and not closed and word_count(text) <= SHORT_TURN:
        # a few words name too little to stand alone: they lean on the exchange (unless
        # the person had accepted the work, which closed it, and asks nothing about it)
        return TurnDecision(TurnKind.FOLLOW_UP, 0.55, ("a short turn after done",), hard=True)
    # what is left: no cue decided the turn, and only the absence of shared words says it
    # is new. On new authors this default is no certain reading (bench/blind_branches.py)
    return TurnDecision(
        TurnKind.NEW_TASK, 0.6, ("new subject after the agent finished",), hard=True
    )


#: A message that calls itself a follow-up ("one follow up: in case of …", "quick
#: follow-up question - …"), not one that asks for follow-up work ("create follow up issues").
_CALLS_ITSELF_A_FOLLOW_UP = re.compile(
    r"^\W*((one|a|another|quick|small|little|last)\s+)*follow[ -]?up(\s+question)?\s*[:\-–—]",
    re.IGNORECASE,
)


#: A question about the work or a check of what it holds: a question word opening it
#: ("what do the … mean", "why is this different …") or a tag that asks to confirm ("…,
#: yes?", "…, right?").
_ASKS_ABOUT_IT = re.compile(
    r"^\W*((hmm+|ok|so|and|but|q|question)\W+)?(what|which|where|when|who|how come|why)\b"
    r"|\b(yes|right|no|correct|isn'?t it|doesn'?t it)\s*\?+\s*$",
    re.IGNORECASE,
)


#: Asks whether the agent did something ("have you pushed these …", "did you also run the
#: tests", "has it been committed"): not whether it knows or has heard of something, which
#: may open a subject of the person's own.
_ASKS_IF_IT_WAS_DONE = re.compile(
    r"^\W*((ok|okay|so|and|also|btw|wait|hmm+)\W+)?"
    r"(did|have|has)\s+(you|u|ya|it|this|that|these)\s+"
    r"((already|also|actually|even|now|just|properly|really|been)\s+)*"
    r"(?!(know|heard|ever|got|any|a|an|the|some|to)\b)[a-z]{3,}",
    re.IGNORECASE,
)


#: Opens by adding to what was said ("and can you check if …", "also, …").
_ADDS_TO_THE_EXCHANGE = re.compile(r"^\W*(and|also|plus)\b", re.IGNORECASE)


#: A request for tests ("can we add some simple tests?", "add a test please", "could we
#: add tests for that method now?").
_ASKS_FOR_TESTS = re.compile(
    _REQUEST_OPENING + r"(add|write|create)\s+(some\s+|a few\s+|more\s+|a\s+)?"
    r"((simple|unit|integration|e2e|basic|regression)\s+)?tests?\b",
    re.IGNORECASE,
)


#: A statement of how the result should be, its subject the result or a part of it ("the
#: service file should point at …") or left out ("Should be aligned with …"); not "we
#: should", "you need to" (a plan or a request), nor one that adds ("should also").
_RESULT_SHOULD = re.compile(
    # (a dot inside a name, "README.md", is no stop)
    r"^\W*((the|this|that|these|those|it|its|each|every|all|both)\b(?:[^.?!\n,;:]|\.(?=\S)){0,80}?\s)?"
    r"(should(\s+not|n'?t)?|must(\s+not)?|needs? to|has to|is supposed to|are supposed to)\s+"
    r"(?!(also|too|as well|additionally|then|now)\b)(be|have|show|say|mention|include|use|"
    # (not "it should work after …": what the person expects of it, a check to make)
    r"point|refer|look|stay|go|display|appear|match|read|list|contain|start|end|open|keep|"
    r"get|return|send|link|navigate|not)\b",
    re.IGNORECASE,
)


#: What should be, set against what is: "…, not the drop downs", "… but the hover …",
#: "instead of …", "rather than …".
_SET_AGAINST = re.compile(
    r",\s*(and\s+)?not\b|\bnot\s+(the|in|on|at|for|from|with|as)\b|\bbut\b|\binstead\b|"
    r"\brather than\b",
    re.IGNORECASE,
)


def _said_of_the_result(clause: str, agent_text: str) -> bool:
    """The clause says how something should be, and either sets that against how it is
    ("should be for the pop up, not the drop downs", "should have that blue but the hover
    should stay white") or speaks of something the agent's report names (its subject, or
    with none the words that follow the verb)."""
    found = _RESULT_SHOULD.match(clause)
    if not found:
        return False
    said = clause[found.end() :]
    if _SET_AGAINST.search(said):
        return True
    named = _content_words(found.group(1) or "") or _content_words(said)[:4]
    reported = {stem(w) for w in CONTENT_WORD.findall(agent_text[-1500:].lower())}
    return any(stem(w) in reported for w in named)


def _content_words(text: str) -> list[str]:
    return [w for w in CONTENT_WORD.findall(text.lower()) if w not in STOP_WORDS]


#: A request to make something new: a verb of making and an object introduced as new
#: ("can you create a diagram …", "oh, can you make a LICENSE file …", "could we write a
#: vhs demo …", "Can we add support for IdeaMaker …"), not more of the same ("also", "this").
_MAKES_SOMETHING_NEW = re.compile(
    r"^\W*((oh|ok|okay|so|now|great|cool|nice|alright|hey)\b\W+)*"
    r"((can|could|would|will) (you|we)( please)?\s+|let'?s\s+|please\s+|"
    r"i'?d like (you )?to\s+|i want (you )?to\s+)?"
    r"(create|make|write|add|build|generate|draft|scaffold|set up|implement)\s+"
    r"(me |us )?(a|an|some|new|support for)\b"
    # (not changes to what is there: "make some changes", "add a fix")
    r"(?!\s+(\w+\s+)?(changes?|fix(es)?|tweaks?|edits?|adjustments?|modifications?|"
    r"improvements?|updates?|corrections?)\b)",
    re.IGNORECASE,
)


#: A greeting at the head of a longer message ("Hello can you …", "hi, i'd like …").
_GREETING_OPEN = re.compile(rf"^\W*({_HELLO})\b(?!\s*(\.\.\.|…))", re.IGNORECASE)


#: Opens by putting what follows after the running work ("When done with this, …", "once
#: you're finished, …", "after that, please …").
_WHEN_DONE = re.compile(
    r"^\W*((when|once|after)\s+(you'?re |you are |you have |you'?ve |that'?s |that is |this is |"
    # (what it is done with, however typed: "with this", "wiht this", "with the refactor")
    r"it'?s |it is )?(done|finished|through)(\s+\w{2,5} (this|that|it|the \w+))?|after (that|this))"
    r"\s*[,:]?\s*",
    re.IGNORECASE,
)


#: A piece that can only end a sentence begun before it: a lowercase relative pronoun or a
#: conjunction before a verb or its object ("which has to …", "that affect our surface
#: area."), never a question of its own ("which one is faster?").
_FINISHES_A_SENTENCE = re.compile(
    r"^(which|that|who|whose|so that|because|since|plus)\s+(?!(one|ones|is|are|was|were|"
    r"file|files|way|version|option)\b)[a-z][^?？]*$"
)


#: A numbered step of a plan the person writes out ("1. Show me the file", "2) Run …").
_NUMBERED_STEP = re.compile(r"^\s*\d{1,2}[.)]\s+(\S.*)$", re.MULTILINE)


#: A step's opening verb beyond the request openings: what a plan asks the agent to do
#: first ("1. First, show me the full error handling …", "4. Confirm the output …").
_STEP_VERB = re.compile(
    r"^\W*((first|then|next|finally),?\s+)?(show|verify|confirm|list|find|look|read|print|set|"
    r"replace|switch|rebuild|restart|start|stop|investigate|explain|describe|compare|copy|"
    r"generate|configure|upgrade|revert|do)\b",
    re.IGNORECASE,
)


def _sets_out_its_own_plan(text: str) -> bool:
    """A message long enough to stand alone that lays out steps of its own: numbered lines
    that tell the agent what to do, not numbered findings ("1. the sessions file doesn't
    appear until …", "2. I note the state change …") or a numbered list pasted in."""
    steps = [
        step
        for step in _NUMBERED_STEP.findall(text)
        if IMPERATIVE.match(step) or _STEP_VERB.match(step)
    ]
    return len(steps) >= 2 and len(WORD.findall(text)) >= 40


#: From this many non-blank lines a message is laid out as a document of its own.
_LAID_OUT_LINES = 6


def _brings_its_material(text: str) -> bool:
    """The message carries what it is about: a fenced block (an issue's text, a config, a
    diff pasted in) or lines laid out as a brief of their own (a checklist to review by)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return "```" in text or len(lines) >= _LAID_OUT_LINES


#: From this share of its content words on, a defect's description is about what the
#: person's previous request named: the same failure.
SAME_FAILURE_OVERLAP = 0.4


def _same_failure(text: str, previous_text: str) -> bool:
    """The defect (the message's first paragraph) is the subject of the person's previous
    request ("The home page at localhost:3000 shows 404 …" after "The app shows 404 at
    localhost:3000 …")."""
    defect = text.split("\n\n")[0][:400]
    if topic_overlap(defect, previous_text) >= SAME_FAILURE_OVERLAP:
        return True
    # the same failure named by its code ("The page keeps flipping between working and
    # 404." after "The home page at localhost:3000 shows 404 …"): the code is no word the
    # overlap counts
    shared = set(_FAILURE_MARK.findall(defect)) & set(_FAILURE_MARK.findall(previous_text))
    return bool(shared)


#: What names one failure whatever the words around it: an HTTP error status, an
#: exception's class, an errno name, a compiler's or a linter's error code.
_FAILURE_MARK = re.compile(
    r"\b([45]\d\d(?=\b(?!\.\d))|[A-Z]\w*(?:Error|Exception)|[A-Z]{1,4}\d{3,5}|"
    r"E(?:NOENT|ACCES|ADDRINUSE|CONNREFUSED|CONNRESET|PERM|TIMEDOUT|EXIST|ISDIR|NOTDIR|PIPE|"
    r"MFILE|NOSPC|NOTEMPTY|AGAIN|HOSTUNREACH|NETUNREACH|ROFS|BUSY|INVAL|NOMEM|BADF))\b"
)


#: From this many words a turn can carry a request of its own.
LONG_TURN = 20


def _requests_of(turn: TurnInput) -> str:
    """The running episode's request and refinements: its context less the agent's words."""
    agent = turn.agent_text
    if agent and turn.context.endswith(agent):
        return turn.context[: -len(agent)]
    return turn.context


def _sent_again(region: str, context: str) -> bool:
    """The turn repeats, word for word, a request of the running episode (case and
    spacing aside): a whole line of it, or three words or more of it."""
    said = flattened(region)
    if not said:
        return False
    if said in {flattened(line) for line in context.splitlines()}:
        return True
    return len(said.split()) >= 3 and said[:300] in flattened(context)


#: A bare "fix it" ("fix this", "please fix them all").
_FIX_IT = re.compile(
    r"^\W*(please\s+|pls\s+|ok,?\s+|yes,?\s+|(can|could|would) (you|we)\s+)*"
    r"(fix|correct|solve)\s+(it|this|that|them|these|"
    r"those|both|all( of them| of these)?|everything)(\s+(please|pls|too|all))?\W*$",
    re.IGNORECASE,
)


#: A yes to fixing, opening the turn ("yes, fix this, add to your memory …", "let's fix
#: it. write the test first …", "ok go ahead and fix them").
_YES_FIX = re.compile(
    r"^\W*((yes|yeah|yep|ok|okay|sure|alright|please|then|so)\b\W+)*"
    r"(let'?s |go ahead and |please |then )?(fix|correct|solve)\s+"
    r"(it|this|that|them|these|those)\b",
    re.IGNORECASE,
)


def _takes_up_the_fix(region: str, agent_text: str) -> bool:
    """A yes to fixing, said to the agent's question ("Want me to fix it now, or track it
    as a follow-up?", "Shall I proceed?" under its plan), with no other word of a failure:
    the person takes the agent up on work it proposed, judging nothing it did."""
    said = _YES_FIX.match(region)
    return said is not None and agent_asks(agent_text) and not reports_failure(region[said.end() :])


#: The agent offering to fix what it found ("Want me to: - Fix the `findAdmin`
#: inconsistency?", "Should I fix these?", "I can fix this if you'd like").
_OFFERS_A_FIX = re.compile(
    r"\b(want me to|should i|shall i|would you like me to|do you want me to|i can)\b"
    r"[^?]{0,200}?\b(fix|correct|solve|address|resolve|patch)\b",
    re.IGNORECASE,
)


#: The agent's last words offer a fix or name what it found wrong ("**Confirmed: This is
#: a real bug.** The formula needs to subtract …", "So there are two issues: 1. …", "Found
#: the root cause."): a bare "fix it" then takes up its finding.
_OFFERS_OR_FOUND = re.compile(
    _OFFERS_A_FIX.pattern
    + r"|\broot cause\b|\b(found|identified|confirmed|spotted|located) (the |a |an )?"
    r"(real |actual )?(bug|issue|problem|culprit|cause)\b"
    r"|\b(this|that|it) is (a |an )?(real|genuine|actual) (bug|issue|problem)\b"
    r"|\bthe (bug|issue|problem|culprit|cause) (is|was)\b"
    r"|\bthere (is|are|'s) (a |an |one |two |three |\d+ |several |a few |some )?"
    r"(real |actual |separate |distinct )?(bugs?|issues?|problems?)\b(?! (left|remaining)\b)",
    re.IGNORECASE,
)


#: An answer to words quoted back with ">" (the turn opens with the quote) that says they
#: are wrong ("Actually, …", "No, …", "That's not …"; not "Actually, can you also …", a
#: request, nor "No errors now", a "no" that is no answer).
_DISPUTE_OPEN = re.compile(
    r"^\W*(actually|no(?=[,.!;:]| -)|nope|not (quite|really|true|exactly)|that'?s not|that is not|"
    r"this is not|this isn'?t|wrong)\b(?![,\s]+(can|could|would|will|please|let'?s|also)\b)",
    re.IGNORECASE,
)


#: An opening that takes up the next piece of work ("let's now turn to …", "I want to
#: focus on …", "Let's start by fixing …", "next, let's look at …").
_TAKES_UP_NEXT = re.compile(
    r"^\W*((ok|okay|great|good|thanks|alright|right)\W+)*((and )?next,?\s+)?"
    r"(let'?s|i want to|i'?d like to|we need to|now|next)\s+(now\s+|next\s+)?"
    r"(turn to|focus on|move on to|start (by|with)|switch to)\b",
    re.IGNORECASE,
)


#: What the work may leave out, said as a constraint ("we don't need backward
#: compatibility", "no need to update the docs", "i don't want a new dependency for it").
_NOT_NEEDED = re.compile(
    r"^\W*((and|but|also|so|ok|okay|btw)\W+)?((we|you|i)\s+(really\s+)?(don'?t|do not|won'?t|"
    r"will not|shouldn'?t|should not)\s+(need|want|have to|care about)\b"
    r"|(there'?s\s+|there is\s+)?no need "
    r"(for|to)\b)",
    re.IGNORECASE,
)


#: Sets how far the agent may go ("Only do slice 0, and await further instructions",
#: "just fix the parser, then stop"): how to work, whatever else the turn says.
_LIMITS_THE_WORK = re.compile(
    r"^\W*(only|just)\s+(do|run|touch|change|edit|fix|implement|work on)\b"
    r"|\b(await|wait for)\s+(further|my|more)\s+(instructions|input|go-ahead)\b"
    r"|\bthen stop\b",
    re.IGNORECASE,
)


#: "Stop," "wait —", "hold on": an interjection that holds the agent back (not "stop the
#: server", an instruction with an object of its own).
_HOLDS_THE_AGENT = re.compile(
    r"^\W*(stop|wait|hold on|hang on|hold up)\b(\s*[,.!:;—–-]|\s*$|\s+(a (sec|second|minute|"
    r"moment)|please|now)\b)"
    # a condition set before the agent's next act ("before you apply these changes, note
    # that …", "before you commit, run the linter")
    r"|^\W*((ok|okay|but)\W+)?before you (apply|make|start|do|commit|push|run|continue|proceed|"
    r"go (on|ahead)|implement|change|write|edit|merge|deploy)\b",
    re.IGNORECASE,
)


def restates(region: str, previous: str) -> bool:
    """`region` holds the words of `previous` (five or more) in their order, nearly all of
    them, and says at least as much: the same message again, edited ("… overwritten when i
    fetched from origin. I'd like to restore that README if possible …" after the same
    message without that sentence). Compared over a bounded head of each."""
    before = flattened(previous).split()[:_RESTATED_WORDS]
    after = flattened(region).split()[:_RESTATED_WORDS]
    if len(before) < 5 or len(after) < len(before):
        return False
    blocks = difflib.SequenceMatcher(None, before, after, autojunk=False).get_matching_blocks()
    return sum(block.size for block in blocks) >= _RESTATED_SHARE * len(before)


#: How many words of each message `restates` compares, and the share of the earlier
#: message's words the later one must hold, in order.
_RESTATED_WORDS = 300
_RESTATED_SHARE = 0.8


def sent_again_amended(region: str, previous: str) -> bool:
    """The turn is the previous turn's words again (two words or more; case, spacing and
    thinking cues aside), alone or with only a go-on word added ("…, and continue"): an
    answer completed or a request extended says more, and is read for what it says."""
    said = flattened(feedback_region(previous)).strip(" .,!?")
    now = flattened(region)
    if len(said.split()) < 2 or said not in now:
        return False
    added = now.replace(said, " ", 1)
    return bool(_ADDED_NOTHING.fullmatch(added))


#: What a resend may add to the words it repeats: a go-on word, a courtesy, punctuation.
_ADDED_NOTHING = re.compile(
    r"\W*((and|then|now|please|so)\W+)*(continue|go on|proceed|keep going|go ahead|again)?"
    r"(\W+(please|now|then))*\W*",
    re.IGNORECASE,
)
