"""The correction score: how strongly a turn says the previous work is wrong, from its
failure report, negation, contrast, prohibition, undo, a redirect and the lexicon.

The score is one input to the classifier; a high score beside a new subject still loses
to the form of a new request.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sleepd.mining.lexicon import Feedback, Lexicon
from sleepd.mining.turns.agent import last_words
from sleepd.mining.turns.failures import (
    TRIED_IT,
    has_pasted_error,
    past_a_handling_request,
    reports_failure,
)
from sleepd.mining.turns.pastes import words_after_a_paste
from sleepd.mining.turns.references import GENERIC_WORDS
from sleepd.mining.turns.text import (
    CONTENT_WORD,
    STOP_WORDS,
    after_contrast,
    first_clause,
    first_sentence,
    stem,
)

#: An opinion about a feature, not a report that it fails ("I didn't find those links
#: helpful"): removed before the failure-report search.
_OPINION = re.compile(
    r"\b(didn'?t|did not|don'?t|do not|never)\s+(really\s+)?(find|found)\b[^.?!\n]{0,60}?"
    r"\b(helpful|useful|necessary|intuitive|clear|convincing|interesting|valuable|relevant|needed|compelling|"
    r"appealing|readable|easy|practical|worth\w*)\b",
    re.IGNORECASE,
)


#: A suggestion or question with a negated verb ("can we not build blog posts based on
#: related learnings", "why don't we …") proposes something; it reports no failure.
_SUGGESTION = re.compile(
    r"(?<!\bwhy )\b(can|could|should|shall|would|why|couldn'?t|can'?t|shouldn'?t|wouldn'?t)\s+"
    r"(we|you|i|it)\s+not\b|\bwhy (don'?t|not)\b",
    re.IGNORECASE,
)


#: Says the person dislikes what they were shown ("Ok, I don't like this behaviour: ```…```",
#: "I really don't like how it looks"), or exclaims at it in dismay ("sorry, what the fuck? I
#: spent so much time making the markers go down properly", "crap. We were working on
#: something."), or opens by finding it wanting ("that error is not a good error"): a
#: verdict, though no failure is named. Not a dislike of what is still to
#: come ("I don't like to wait", "I don't like this idea, let's …" is read with the rest of
#: the turn).
_DISLIKES = re.compile(
    # (hedged as people hedge it: "not sure I like the heuristic though", "not a fan of how
    # it looks")
    r"(\b(i|we)\s+(really\s+|just\s+|still\s+)?(don'?t|do not|didn'?t|did not)\s+(like|love)|"
    r"\b(i'?m\s+|i am\s+)?not\s+(so\s+|too\s+|really\s+)?sure\s+(i|we)\s+(like|love)|"
    r"\b(i'?m\s+|i am\s+)?not\s+(a|really a|a big|a huge)\s+fan\s+of)\s+"
    r"(this|that|these|those|it|how|what|the way|the|its|their|your)\b"
    r"(?!\s+(idea|plan|approach|proposal|option)s?\b)"
    r"|\bwhat the (fuck|hell|heck|actual fuck)\b|\bwtf\b"
    # a verdict that opens the turn and finds what was made wanting ("that error is not a
    # good error", "this layout isn't very clear"; not "not a good idea to …", advice)
    r"|^\W*(that|this|these|those|the)\b(\s+[\w-]+){0,3}?\s+(is|are|was|were)(n'?t| not)\s+"
    r"(a |an |very |really |quite |so |that )?(good|great|nice|helpful|useful|clear|readable|"
    r"acceptable|ideal|pretty)\b(?!\s+(idea|plan|approach|way|time)\b)"
    # an oath of dismay that opens the turn ("crap. We were working on something. go look
    # in the log of the prior convo")
    r"|^\W*(crap|dammit|shit|ugh+|argh+|ffs)\b",
    re.IGNORECASE,
)


#: What the agent did, set against what it then did or left undone ("you generated them
#: but wrote this to the files: …", "you fixed the header but broke the footer"): the
#: agent's own act named and faulted. Not a "but" that goes on to ask for more ("you added
#: the tests, but can you also add docs?").
_DID_BUT = re.compile(
    r"\byou(?:'ve| have)? (?:\w+ed|wrote|made|did|put|gave|left|forgot|missed|broke|took|"
    # (a dot inside a word or an address is no sentence's end: "you closed
    # https://github.com/o/r/issues/12 as a duplicate but that's actually …")
    r"ran|set|built|kept|sent)\b(?:[^.?!\n]|\.(?=\S)){0,120}\bbut\s+"
    r"(?:(?:that|it)(?:'s| is) (?:actually|not|still)\b|"
    r"(?:you\s+|it\s+|then\s+|still\s+)?"
    r"(?:\w+ed|wrote|made|did|didn'?t|did not|put|gave|left|forgot|missed|broke|took|ran|set|"
    r"built|kept|sent|is|are|was|were|still|never|not|no)\b)",
    re.IGNORECASE,
)


#: Asks to take the work back: a verdict on it whatever the wording.
_UNDO = re.compile(
    # (after a no or a let's of its own: "nah let's roll back, they don't really need to
    # exist")
    r"^\W*((no|nah|nope|hmm+|actually|wait)\W+)?(let'?s\s+|lets\s+|please\s+|just\s+)?"
    r"(revert|undo|roll ?back|put (it|that|them) back)\b(?![./_-]\w)|"
    # "please change it back to my name in those commits", as an imperative (not
    # "add a toggle to switch it back to the default theme")
    r"(?:^\W*|[.!?;,]\s+|\b(?:please|pls|can you|could you|just|and|so)\s+)"
    r"(change|set|switch|put) (it|that|them|this|those) back\b|"
    r"\broll (it|that|this|them|those|these|everything|all of it) back\b|"
    r"\b(revert|undo|roll ?back) (that|this|it|those|these|"
    r"the (last |previous )?(change|commit|edit)s?|your (change|commit|edit)s?)\b"
    r"(?! (?:from|of|in|on|at|that|which|where|named|called|titled)\b)(?!\s+[0-9a-f]{7,}\b)|"
    r"\b(reset|drop|discard|scrap) (the|that|this|your) ((last|previous|latest) )?"
    r"(commit|change|edit)s?\b|"
    # throws the work away to redo it ("fucke me... start over."; not "start over with a
    # new design", a new task of its own)
    r"\bstart (all )?over\b(?!\s+(with|on|using|from)\b)|"
    # the same in the other languages people write to agents in, as imperatives ("desfaca
    # essa alteracao", "元に戻して"; "撤销" and "回滚" open the turn, since elsewhere they name
    # a feature to build: "添加撤销功能")
    r"\b(desfa[çc]a|deshaz|annulez?|mach .{0,30}rückgängig|отмени|откати)\b|"
    # an infinitive or a bare word opening the turn ("annuler les changements", "desfaz
    # isso", "rückgängig machen"); further in, it names a feature ("un bouton annuler")
    r"^\W*(please\s+|bitte\s+|por favor\s+|s'il te plaît,?\s+)?"
    r"(desfaz(er)?|rückgängig|annulla|annuler)\b|"
    r"\bannulla (quello|questo|questa|le modifiche|l'ultima)\b|"
    r"^\W*(请|帮我)?(撤销|撤回|回滚)|元に戻して|되돌려",
    re.IGNORECASE,
)


#: Asks to keep what the agent was changing ("The version can stay there", "leave it as
#: is"): the sentence ends on the keeping, so "the sidebar should stay there when
#: scrolling" (a requirement) is not one.
_KEEP = re.compile(
    r"\b(can|could|should|may) (just |simply )?(stay|remain)"
    r"( there| as (it|they) (is|are|was|were)| as[- ]is| unchanged| untouched| the same)?"
    r"\s*(?=[.!]|$)"
    r"|\b(leave|keep) (it|that|this|them|those|these) (alone|as (it|they) (is|are|was|were)|"
    r"as[- ]is|unchanged|untouched)\b"
    # the result asked back as it was before the agent's change ("show the loading
    # checkpoints text as it used to be", "like it was before")
    r"|\b(as|like) (it|they) (used to (be|look|work)|was before|were before|did before)\b",
    re.IGNORECASE | re.MULTILINE,
)


#: A turn that opens by forbidding an act, with the act's verb and what it acts on ("Do not
#: add the full names"). Reminders and reassurances forbid nothing ("don't forget to …",
#: "don't worry about …", "do not hesitate …").
_FORBIDDEN_ACT = re.compile(
    r"^\W*(?:please\s+)?(?:don'?t|do not|never)\s+"
    r"(?!(?:forget|worry|hesitate|mind|bother|need|have to|ask)\b)(\w+)\s+(.+)",
    re.IGNORECASE | re.DOTALL,
)


#: A prohibition in time ("don't work on the tests yet", "do not push until I say"): an
#: order of steps, not a reversal of the result.
_DEFERRED = re.compile(r"\b(yet|until|till|before|for now|right now)\b", re.IGNORECASE)


def _word_stems(text: str) -> set[str]:
    """The stems of a text's content words, a plural "s" aside ("names" is "name"); the
    words every request and report share ("file", "code", "tests") left out."""
    return {
        stem(word.removesuffix("s"))
        for word in CONTENT_WORD.findall(text.lower())
        if word not in STOP_WORDS and word not in GENERIC_WORDS
    }


def forbids_what_agent_did(region: str, agent_text: str) -> bool:
    """The turn forbids an act on something the agent's last words just showed or reported
    ("Do not add the full names" under its sketch with each agent's name): it rejects that
    part of the result. Forbidding what the agent never mentioned ("don't edit the database
    by hand") sets a constraint on the work ahead instead."""
    act = _FORBIDDEN_ACT.match(re.split(r"[,;:]", first_clause(region), maxsplit=1)[0])
    if not act or _DEFERRED.search(act.group(2)) or not agent_text.strip():
        return False
    return bool(_word_stems(act.group(2)) & _word_stems(agent_text[-1500:]))


#: The person restates what they meant ("I mean, actions in the TUI …", "no, I meant the
#: other file", "what I meant is …"): the agent's reading of the request was wrong. The
#: filler "I mean" before a verdict ("I mean, it works"), "I mean it" (emphasis) and more
#: work asked on top ("I mean, can you also …") are no repair.
_SAYS_WHAT_WAS_MEANT = re.compile(
    # the repair opens the turn, or follows a granted point ("those additions are also
    # good, but what I actually meant are the tests in …/e2e_test"; not "but that's what
    # I meant", which agrees)
    r"(^\W*((no|nope|sorry|nah)\W+)?|^[^.?!\n]{0,120}?,?\s\bbut,?\s+(?=(what )?i\b))"
    r"(i mean\s*(?=[,:;\u2014\u2013-]|\.\.\.|\u2026)|i (actually |really |originally )?meant\b"
    r"(?!\s+to\b)|"
    r"what i (actually |really |originally )?(meant|mean) (is|was|are|were)\b|"
    # "sorry, my point is: the entire cli writes the `.entire/.gitignore` … and that is not
    # including the logs folder", after the agent answered another reading
    r"my point (is|was)\b|"
    r"i was (asking|talking) about\b|"
    # the same said in the present, with what was not meant beside it ("i am talking about
    # the facets, not the whole report")
    r"(i'?m|i am) (asking|talking) about\b(?=[^.?!\n]{1,120},?\s+not\b)|"
    r"je (veux|voulais) dire\b|(quiero|quise) decir\b|ich (meine|meinte)\b|"
    r"我的意思是|我是[说說]|つまり)"
    r"(?!\W*(it|that|this)(('s|\s+is)\s+(fine|good|great|ok)|\s+(works|looks (good|fine|great))))"
    # (nor more work asked on top: "I mean, can you also add a dark mode?")
    r"(?![^.?!\n]*\b(also|as well|too)\b)",
    re.IGNORECASE,
)


def says_what_was_meant(region: str) -> bool:
    """The turn opens by restating what the person meant: a repair of the agent's
    reading, which a person labels a correction ("not what I asked")."""
    return bool(_SAYS_WHAT_WAS_MEANT.search(region))


#: Words that find the result good after all ("it works now", "fixed", "fine"): said after
#: a "but", they withdraw a complaint or an objection.
_FOUND_GOOD = r"works|worked|working|fixed|fine|good|great|perfect"


#: A reply that opens against the agent's answer ("but I'm on main here, I added it
#: normally", "none of them, please don't you see all the '#'?"), short of a request or a
#: question of its own ("but can you also …", "but what about the footer?").
_INSISTS = re.compile(
    r"^\W*(but|none( of (them|these|those|it|this))?|nope|nothing)\b"
    r"(?!\W*(can|could|would|will|please|also|what|how|why|let'?s|maybe|perhaps|instead|"
    r"thanks?|no (worries|problem)|otherwise|before|first|then|now|if|when)\b)",
    re.IGNORECASE,
)


def insists_on_the_complaint(region: str) -> bool:
    """After the person said the work was wrong, a reply that opens against the agent's
    answer keeps that verdict: the agent explained or asked back, the person insists."""
    return bool(_INSISTS.search(region)) and not _WORKS_NOW.search(region[:200])


#: The complaint withdrawn ("nope, works now", "but it works now, thanks").
_WORKS_NOW = re.compile(
    rf"\b({_FOUND_GOOD}|solved)\b(?!\s+(yet|either))",
    re.IGNORECASE,
)


#: The agent's point granted, then a "but" that sets a fact against it ("yes, but that is
#: specific to this installation on this machine", "you're correct 100%, but playwright
#: gives the adversary better tooling …"): the objection is group "objection".
_GRANTS_THEN_OBJECTS = re.compile(
    r"^\W*((yes|yeah|yep|ok|okay|sure|right|true|agreed|fair enough|"
    r"(you'?re|you are) (right|correct)( \d+ ?%)?|"
    r"(that'?s|that is|this is) (good|right|true|fine|great))\W+){1,3}"
    r"(but|however)\W+(?P<objection>[^\n]+)",
    re.IGNORECASE,
)


#: What follows the "but" asks or adds rather than objects: a request, a requirement, a
#: question, a limit ("but lets come up with …", "but it should still stay on …", "but
#: only on mobile"), or the result found good after all ("but it works now").
_NO_OBJECTION = re.compile(
    r"^\W*(let'?s|lets|please|can|could|would|will|should|shall|also|only|just|maybe|perhaps|"
    r"first|then|now|make|add|do|use|try|keep|remove|change|what|why|how|when|where|which|"
    r"i'?d like|i would like|i want|we need|i need|you need|(it|this|that|they) "
    r"(should|must|needs?|could|would))\b"
    r"|\b(should|must|needs? to|have to)\b|\?"
    rf"|\b({_FOUND_GOOD})\b",
    re.IGNORECASE,
)


def grants_then_objects(region: str) -> bool:
    """The turn grants the agent's point, then sets a fact against it after "but": the
    work or the answer does not hold (a person labels it a correction). "That's good. But
    the darker highlight should still stay on …" asks for more instead: no objection."""
    found = _GRANTS_THEN_OBJECTS.match(region)
    return found is not None and not _NO_OBJECTION.search(found.group("objection")[:200])


#: "never commit to main; …": forbids an action outright (a correction once the agent acted).
_PROHIBITION = re.compile(
    # ("never mind, …" drops a question; it forbids nothing)
    r"^\W*(never(?!\s*mind\b)|don'?t ever|do not ever|(we|you) (really |probably )?"
    r"(should|must)(n'?t| not)( have)?)\s+\w+",
    re.IGNORECASE,
)


#: A negation typed in capitals ("we probably should NOT file issues in this way", "Edit
#: plan to NOT mention Instructor"): the person stresses the reversal of what was done.
#: A deferral ("do NOT push yet") stresses an order of steps, not a reversal.
_SHOUTED_NO = re.compile(r"\b(NOT|NEVER|DON'?T)\b(?![^.?!,;\n]*\b(yet|until|before)\b)")


#: A question that asks the agent to look for more of a kind ("do we have more functions
#: like this in tests that are duplicated?", "are there any other pages that are broken?")
#: or whether another change fixes it: what it describes is what to find, not what the
#: person met.
_SEARCH_QUESTION = re.compile(
    r"(?:^|(?<=[.!?\n]))\W*(((do|did) (we|you|i) (still )?have|(are|is) there|can you find|"
    r"could you find) (any|more|other|some|further)\b[^.!?\n]*\?"
    # or whether something else already fixes it ("does PR#68 https://… fix this?")
    # (a dot inside a link or a name goes on with the sentence)
    r"|(does|do|did|will|would|could) (?!(you|we|i)\b)([^.!?\n]|\.(?=\S)){1,160}?\bfix(es)? "
    r"(it|this|that|these|those)\b[^.!?\n]*\?)",
    re.IGNORECASE,
)


#: A question about what would or could happen ("we would see this same error -
#: legitimately?", "couldn't it block for a long time?", "or same error even then?", "can
#: this somehow create wrong branches?",
#: "while that test is running my local git config is messed up, right?"): it weighs a
#: case, it reports nothing seen. A "why" question is left to be read: "why would it still
#: fail?" disputes a result, and "could it be that the gradients are too far apart, meaning
#: it cannot …?" guesses at the cause of a failure seen.
_HYPOTHETICAL_QUESTION = re.compile(
    # from the start of the clause that weighs the case to its question mark: what the
    # clauses before it say ("I just had an error when doing resume …, but can you check
    # where it would make sense …?", "I mean not git config but git hooks, … right?") is
    # still read
    # (not a clause of what was so before: "previously the prompt displayed black and I
    # could start typing, that seems to be gone now?" tells what worked, then what broke)
    r"(?:^|(?<=[.!?\n,;:]))(?![^.!?\n,;:]*\bwhy\b)"
    r"(?!\W*(previously|before|earlier|until now|last time)\b)[^.!?\n,;:]*("
    r"\b(would(n'?t)?|could(?! it be\b)(n'?t)?|might)\b[^.!?\n]*|\beven then\b[^.!?\n]*"
    r"|\bcan (this|that|it)\b[^.!?\n]*"
    r"|,\s*right\s*)\?",
    re.IGNORECASE,
)


#: Hypotheticals ("will this work if the APIs are failing?") report no failure.
_CONDITIONAL = re.compile(
    # (what the person saw on trying the work is no hypothesis: "when I do that it opens and
    # stay on the first frame", "when I click save, nothing happens")
    # (nor is "not sure if that fixed it", a doubt of the result: its "if" is a "whether")
    # (nor is "if I run again now I still see 38 commits …": a run made again, now, and
    # what it showed, with no "would" or "will" of a guess)
    r"\b((?<!sure )(?<!certain )if(?!\s+i\s+(just\s+)?(run|try|do|click|open|reload|load|"
    r"restart|rebuild|build|test|start|check)\b[^.?!,;\n]{0,30}\b(again|now)\b"
    r"(?![^.?!,;\n]*\b(would|will|might|could|'ll|'d)\b))|"
    rf"(?!{TRIED_IT})(when|whenever)"
    # (nor is a "when" clause that tells what did not happen: "just when starting this
    # session didn't appear")
    r"(?![^.?!,;\n]*\b(didn'?t|did not|wasn'?t|was not|weren'?t|were not|couldn'?t|could not)\b)"
    # (nor one that opens the turn and tells what the result does not do when it is used:
    # "when merged the videos dont show up"; not "make the CI fail when the tests don't
    # run", a condition set in a request)
    r"(?!(?:(?<=^when)|(?<=^whenever))[^.?!,;\n]*\b(don'?t|do not|doesn'?t|does not)\s+"
    r"(show|appear|load|work|render|display|play|open|start|update|run)\b)"
    r"|in case|what if|"
    r"whether|unless|so that|otherwise|or else|"
    # a requirement set, no report ("make sure the debug panel is not visible in production")
    r"make sure|ensure|verify that|check that)\b[^.?!,;\n]*"
    # a warned consequence ("…, or the test will not work") is as hypothetical as an "if"
    r"|\bor\s+(?=[^.?!,;\n]{0,40}\b(will|would|won'?t|wouldn'?t)\b)[^.?!,;\n]*",
    re.IGNORECASE,
)


#: Redirects the approach without judging a result ("use pnpm instead", "why 32768?").
REDIRECT = re.compile(
    r"^\W*(but\s+)?(why|use|try|instead|rather|don'?t|do not|stop|avoid|switch to|"
    r"please (use|don'?t|do not|try|avoid)|"
    r"can you (use|try|avoid)|let'?s (use|try|go with|not))\b"
    r"|\b(instead of|rather than)\b",
    re.IGNORECASE,
)


#: A statement that something is not what it was taken for, opening the turn ("Synapse is
#: not an agent persona, in fact …", "these aren't the test files"): its subject a name or
#: a noun phrase, not the person's own hedge ("i think it is not required").
_DENIAL = re.compile(
    r"^\W*(?!(i|we|you|it|there|that|this)\b)(?P<subject>[\w.@/'-]+(\s+[\w.@/'-]+){0,3}?)\s+"
    r"(is|are|was|were)(n'?t|\s+not)\s+(an?|the|your|our|my)\s+(?P<what>[\w-]+(\s+[\w-]+){0,2})",
    re.IGNORECASE,
)


#: The same denial of what the agent just showed or used, pointed at ("Thats not my email
#: though its …", "that isn't the right branch", "this is not our repo"): not "that's not a
#: problem", which waves a worry away.
_DENIAL_OF_IT = re.compile(
    r"^\W*(that|this|it)(\s*'?\s*s|\s+is|\s+was)?(\s+not|n'?t)\s+"
    r"(my|our|your|the)\s+(?!end of\b)\w",
    re.IGNORECASE,
)


def denies_agent_claim(region: str, agent_text: str) -> bool:
    """The turn says a thing is not what the agent's last words called it: the denied
    noun phrase shares a content word with those words ("Synapse is not an agent persona"
    after the agent wrote up "the primary persona/service entry points"), or it points at
    what the agent showed and denies it ("Thats not my email", the address the agent was
    writing into the commits)."""
    if _DENIAL_OF_IT.match(region[:300]):
        return True
    match = _DENIAL.match(region[:300])
    if match is None:
        return False
    return _agent_said_any(re.findall(r"\w{4,}", match["what"].lower()), agent_text)


#: A thing said to be so, with the emphatic "does" ("golangci-lint does fire a few times",
#: "the hook did run twice"): its subject a name or a noun phrase, not the person ("I do
#: want …", a wish) nor a question, and its verb one of something that happens.
_EMPHATIC_STATEMENT = re.compile(
    r"^\W*(?!(i|we|you|if|when|why|how|what|where|who|which|can|could|would|should|will|"
    r"let'?s|ok|okay|so|then|please)\b)[\w.@/'-]+(\s+[\w.@/'-]+){0,3}?\s+"
    r"(does|do|did)\s+(still\s+|actually\s+|indeed\s+|in fact\s+)?"
    r"(fire|fail|happen|occur|break|crash|error|hang|freeze|complain|warn|flag|show( up)?|"
    r"appear|exist|trigger|run|throw|print|log|emit|leak|panic|time out|change)\b[^?\n]*$",
    re.IGNORECASE,
)

#: The agent's last words say something is absent or does not happen ("No lint issues —
#: everything is clean already.", "it never fires", "nothing was flagged").
_AGENT_DENIES = re.compile(
    r"\b(no|not|never|nothing|none|without|cannot)\b|n't\b|\bclean\b", re.IGNORECASE
)


def affirms_what_agent_denied(region: str, agent_text: str) -> bool:
    """The turn says, with an emphatic "does", that a thing happens where the agent's last
    words said it does not ("golangci-lint does fire a few times" after "No lint issues —
    everything is clean already."): the person sets the claim right."""
    said = first_sentence(region)
    if not _EMPHATIC_STATEMENT.match(said[:300]) or region[len(said) :].startswith("?"):
        return False
    return bool(_AGENT_DENIES.search(last_words(agent_text, 300)))


def _agent_said_any(words: Iterable[str], agent_text: str) -> bool:
    """Whether the agent's last words (3,000 characters) hold one of `words`, lowercase,
    at the start of a word of theirs."""
    said = agent_text[-3000:].lower()
    return any(re.search(rf"\b{re.escape(word)}", said) for word in words)


#: A negative yes/no question put against what the agent said ("doesn't every
#: userPromptSubmit update the 'last interaction'?", "emm - doesn't the .claude config in
#: here call go run in this folder?", "is not the code already starting from 1?"); not one
#: that asks for a way ("isn't there a library for this?") or weighs one ("isn't it better
#: to …?", "doesn't it make sense to …?", "Isn't it too much …?"), which steer.
_NEGATIVE_QUESTION = re.compile(
    r"(?:^|[.?!]\s+)\W*((emm*|hmm*|hm|but|wait|so|and|um+|uh|ok|okay)\W+)*"
    r"(doesn'?t|isn'?t|aren'?t|didn'?t|wasn'?t|weren'?t|hasn'?t|haven'?t|does not|is not|"
    r"are not|did not|was not)\s+"
    r"(?!(there|it (make|makes) sense|"
    r"(it|this|that) (be )?(better|easier|simpler|cleaner|nicer|too|a bit|overkill|enough|"
    r"necessary|needed|worth))\b)"
    r"(?P<what>[^?\n]{3,160})\?",
    re.IGNORECASE,
)
#: Words too common to tie a question to what the agent said.
_COMMON = STOP_WORDS | {"these", "those", "already", "still", "here", "every"}


def disputes_by_question(region: str, agent_text: str) -> bool:
    """A negative question set against the agent's last words: it asks about a thing
    those words spoke of, expecting the agent to be wrong about it."""
    for match in _NEGATIVE_QUESTION.finditer(region[:400]):
        words = {w for w in re.findall(r"[a-z]\w{3,}", match["what"].lower()) if w not in _COMMON}
        if _agent_said_any(words, agent_text):
            return True
    return False


#: A code review's finding, marked by its severity as review tools print them ("1. High:
#: `BestEffort` currently defeats the new `--force-with-lease` guarantee", "Medium: streaming
#: receive-pack pushes still cannot …", "- [P1] Avoid …", "**Critical**: …"): a line that opens
#: with the mark, not a priority set on work to do ("1. High priority: add login").
_REVIEW_FINDING = re.compile(
    r"^[ \t>*•\-]{0,6}(?:\d{1,2}[.)]\s*)?(?:\*\*)?"
    r"(?:\[P[0-3]\]|(?:critical|high|medium|low|major|minor)(?:\s+severity)?(?:\*\*)?\s*:)"
    r"(?:\*\*)?\s*\S",
    re.IGNORECASE | re.MULTILINE,
)


def pastes_review_findings(region: str, agent_text: str) -> bool:
    """A review's findings on the work pasted in: a line opens with a finding's severity,
    and the finding is not one the agent wrote itself (taking up the agent's own review
    is the next step of the work, judging nothing it did)."""
    agents: str | None = None  # the agent's words, read once a finding is met
    for match in _REVIEW_FINDING.finditer(region):
        end = region.find("\n", match.end())
        line = region[match.start() : end if end >= 0 else None]
        said = " ".join(_FINDING_WORD.findall(line.lower())[1:9])
        if agents is None:
            agents = " ".join(_FINDING_WORD.findall(agent_text.lower()))
        if said and said not in agents:
            return True
    return False


#: A word of a finding, as it is matched against the agent's own words.
_FINDING_WORD = re.compile(r"[a-z]\w{2,}")


#: A bare order to fix a check ("fix test", "fix the build", "please fix lint").
_FIX_THE_CHECK = re.compile(
    r"^\W*(please\s+|pls\s+)?(fix|repair)\s+(the\s+)?(failing\s+|broken\s+)?"
    r"(?P<check>tests?|build|lint|linter|linting|ci|checks?|typecheck|types)\s*(please|pls)?\W*$",
    re.IGNORECASE,
)
#: How the agent's words call each check green, by the word for it.
_PASS_WORDS = r"(now\s+|all\s+)?(pass|passes|passed|passing|succe\w*|green|clean|ok)\b"
_CHECK_NAMES = {
    "test": r"tests?",
    "build": r"build|builds|compiles",
    "lint": r"lint\w*",
    "ci": r"ci|checks?",
    "check": r"ci|checks?",
    "type": r"typecheck|types|tsc|mypy",
}


def fixes_what_was_said_to_pass(region: str, agent_text: str) -> bool:
    """A bare "fix test" right after the agent's last words called that check green:
    the person found it failing (before any such claim it is a request)."""
    asked = _FIX_THE_CHECK.match(region)
    if asked is None:
        return False
    check = asked["check"].lower()
    names = next(v for k, v in _CHECK_NAMES.items() if check.startswith(k))
    said = agent_text[-1500:]
    return bool(re.search(rf"\b({names})\b[^.\n]{{0,60}}?\b{_PASS_WORDS}", said, re.IGNORECASE))


#: What the agent's last words say is gone: after "instead of", "rather than", "no longer
#: shows", "replaced", "removed" ("All commits should now show "Durban-Designer" on GitHub
#: instead of "yollieblue101"").
_SAID_GONE = re.compile(
    r"\b(?:instead of|rather than|no longer (?:shows?|has|have|uses?|says?|contains?|is|are)|"
    r"replaced|removed|got rid of)\s+[`\"'“]?(?P<gone>[^`\"'”.,;:!?\n]{2,60})",
    re.IGNORECASE,
)
#: A distinctive word: long enough not to be a word every report holds.
_DISTINCT_WORD = re.compile(r"[a-z][a-z0-9_.+-]{4,}")


def names_what_was_gone(region: str, agent_text: str) -> bool:
    """A short statement, no request and no question, naming what the agent's last words
    said is gone ("You made them all yollieblue101" after "All commits should now show
    "Durban-Designer" instead of "yollieblue101""): the person sees the very state the
    agent said it had changed away from."""
    if len(region.split()) > 25 or "?" in region or not _STATES.match(region):
        return False
    gone = {
        word
        for found in _SAID_GONE.finditer(agent_text[-1200:])
        for word in _DISTINCT_WORD.findall(found["gone"].lower())
        if word not in STOP_WORDS
    }
    return bool(gone) and any(word in gone for word in _DISTINCT_WORD.findall(region.lower()))


#: A statement of what the person sees, opening with its subject ("You made them all …",
#: "it's still …", "they all show …", "the header still says …"), not an order or a yes.
_STATES = re.compile(
    r"^\W*(\[image[^\]]*\]\s*)*(you|you'?ve|it|it'?s|they|they'?re|i|we|the|this|that|"
    r"these|those|all|everything|every|still|now)\b(?!\s+(need|needs|should(?! not)|must(?! not)|"
    r"have to|"
    r"want|wants)\b)",
    re.IGNORECASE,
)


def is_redirect(region: str) -> bool:
    """An instruction about how to work, not a verdict on a result."""
    return bool(REDIRECT.search(region))


def correction_score(region: str, full: str, lexicon: Lexicon, reasons: list[str]) -> float:
    score = 0.0
    if has_pasted_error(full):
        score += 2
        reasons.append("pasted error")
    # a long message states its verdict up front; further down it is describing. A paste
    # (a console log, a program's output) with a few words of the person's after it has its
    # verdict there ("<the log> … the timeline name didn't change.")
    judged = region if len(region) <= 400 else region[:250] + "\n" + words_after_a_paste(region)
    judged = past_a_handling_request(judged)
    judged = _SUGGESTION.sub(" ", _OPINION.sub(" ", _CONDITIONAL.sub(" ", judged)))
    judged = _HYPOTHETICAL_QUESTION.sub(" ", _SEARCH_QUESTION.sub(" ", judged))
    if reports_failure(judged):
        score += 2
        reasons.append("failure report")
    if _DISLIKES.search(region[:300]):
        score += 2
        reasons.append("dislikes the result")
    if _UNDO.search(region[:300]):
        score += 2
        reasons.append("asks to undo")
    if _DID_BUT.search(region[:300]):
        score += 2
        reasons.append("faults what the agent did")
    if _KEEP.search(region[:300]):
        score += 1
        reasons.append("asks to keep what was")
    if lexicon.classify(region) is Feedback.CORRECTION and not is_redirect(region):
        score += 1
        reasons.append("correction lexicon")
    elif _PROHIBITION.search(region) or shouts_negation(region):
        score += 1
        reasons.append("forbids what was done")
    after = _OPINION.sub(" ", after_contrast(region))
    if after and reports_failure(after):
        score += 0.5
        reasons.append("contrast then failure")
    return score


def shouts_negation(region: str) -> bool:
    """A negation in capitals inside a message that is not itself typed in capitals."""
    letters = [c for c in region if c.isalpha()]
    mostly_caps = bool(letters) and sum(c.isupper() for c in letters) > len(letters) / 2
    return not mostly_caps and bool(_SHOUTED_NO.search(region))
