"""What a turn points back to, and whether it can stand alone: back-references ("it",
"that", "again"), a bare answer, code only, a turn that names nothing of its own.

A turn that needs the running task's context can never be a replay task on its own.
"""

from __future__ import annotations

import re

from sleepd.mining.commands import parse_command
from sleepd.mining.turns.closing import is_closing_step
from sleepd.mining.turns.requests import IMPERATIVE, REQUEST, orients_only
from sleepd.mining.turns.text import WORD, first_sentence, request_region, without_transcript

#: Keep-going words: feedback without a verdict ("yes", "continue", "继续").
GO_ON_WORDS = (
    r"continue|go on|go ahead|keep going|keep doing|proceed|carry on|yes|yep|yeah|yup|ok|okay|k|"
    r"sure|do it|please do|sounds good|go for it|try it|test it|run it|retry|resume|next|y|"
    r"weiter|ja|oui|sí|sim|continua|继续|好的|是的|はい|続けて|devam|evet|tamam|"
    r"да|давай|продолжай|продолжи|дальше|ti[eế]p t[uụ]c( đi| di)?"
)


#: The words of a go-ahead, a pick of what the agent offered among them ("option 2", "3").
GO_AHEAD = rf"({GO_ON_WORDS}|option \w+|\d+|[a-d]\)?)"


#: What names a session other than this one ("previous sessions", "a previous Claude chat").
_ELSEWHERE_SESSION = r"\s+((claude|codex)\s+)?(sessions?|conversations?|chats?|threads?)\b"


#: Words that point at the previous turn ("this"/"these" usually point at the project;
#: "the REST API" is not "the rest" of the work).
BACK_REF = re.compile(
    r"^\W*that\b|^\W*(please\s+)?[a-z]+ (that|those) [a-z]|"
    # an opening that goes on from what was said ("alternatively keep the old layout if
    # it reads better", "then update the issue with this plan", "in that case …")
    r"^\W*(alternatively|otherwise|then|in that case|if so|if not)\b|"
    # reports doing what the agent asked ("did that, and …"), picks one of its options
    # (a capital letter or a digit: "an option a user can set" names none)
    r"^\W*(i\s+)?(did|done|tried|ran)\s+(that|this|those)\b|\boption ((?-i:[A-D])|[1-9])\b|"
    r"\b(it|its|it'?s|those|them|they|again|same|above|instead|as well|too|"
    # not a word for what lies outside the running exchange ("in a previous session",
    # "from earlier in this session", "in another terminal window")
    rf"previous(?!{_ELSEWHERE_SESSION})|earlier(?!\s+(in|during) (this|the|our) "
    r"(session|conversation|chat))|another(?!\s+(terminal|window|tab|shell|session|project|"
    r"repo|repository|machine|computer|browser|instance|branch|worktree)s?\b)|"
    r"last one|(?-i:[Tt]he rest)|remaining|still|accordingly|"
    # a step done once more ("… and repeat", "please recheck the files", "fix all and
    # re-review") and the agent's own advice taken up ("per your suggestion, …")
    r"repeat|redo|re-?(check|run|test|review|verify|generate|build|do|try|evaluate)|"
    r"(per|following|based on) your (suggestions?|recommendations?|feedback|review|advice|"
    r"comments?|proposal)|as you (suggested|recommended|proposed)|"
    r"(the|these|this|those|your) ((recent|latest|last|previous) )?(new|changes?|"
    r"(bug ?|hot ?)?fix(es)?|edits?)|"
    r"what you (did|changed|wrote)|your work|"
    # what was just made, put somewhere ("put this in dotfiles and create PR?", "can we add
    # this as a git hook rule?"), not a "this" that a colon then spells out ("add this to
    # the README: …")
    r"(put|add|move|save|commit|push|apply|write|copy|store|include|turn|document|persist)"
    r"\s+this\s+(in|into|to|on|onto|as|under)\b(?![^:\n]{0,80}:)|"
    # the same in the other languages people write to agents in ("faça o commit dessas
    # alterações", "estos cambios", "ces modifications", "diese Änderungen", "le modifiche")
    r"(d?[ea]ss[ae]s|d?[ea]st[ae]s|estos|esos|estas|esas|ces|diese[nrs]?|le|queste|tali)\s+"
    r"(altera\w*|mudan\w*|modifica\w*|cambios|changements|Änderungen|modifiche)|"
    # the agent's last act or words named ("when you tried executing bash commands right
    # now you reported errors", "you said the tests pass")
    r"(when|where|after) you (just )?(tried|ran|did|said|wrote|changed|reported)|"
    r"you (just )?(said|reported|mentioned|told me|claimed)|"
    # whether the person must start it again to see the change ("do I need to restart or
    # is there hot reload?", "should we rebuild first?")
    r"(do|does|will|would|should|shall|must) (i|we|it) ((need|have) to )?(restart|reload|"
    r"refresh|rebuild|reinstall|relaunch|redeploy|rerun|re-run|reopen|reboot)|"
    r"(for|of|on|commit|push|review|merge|test|check) "
    r"(the|this|that|all (of )?(the|this)) work|"
    # what was just made, said to work or not ("add a test that tests this works end2end",
    # "make sure that still runs on windows"); not "this works for me", a verdict
    r"(tests?|checks?|verif(y|ies)|prove|proves|ensure|make sure|confirm|whether|if) "
    r"(this|that) (really |actually |still )?(works|worked|is working|runs|passes|fails|"
    r"holds))\b",
    re.IGNORECASE,
)


#: A go-ahead and nothing else ("yes", "go ahead please", "option 2", "继续").
#: What may follow a go-ahead: courtesies, and what it goes on with when that lives in the
#: exchange ("proceed with the plan", "continue to the next step", "go ahead with the changes").
_GO_AHEAD_TAIL = (
    r"(\W+(please|now|then|thanks|thank you|it|that|this|so|do it|go ahead|"
    r"with|to|on|the|your|our|next|plan|steps?|proposal|suggestions?|recommendations?|"
    r"changes|implementation|phase|rest))*\W*$"
)


_GO_AHEAD_ONLY = re.compile(
    # (a go-on after a yes is still nothing else: "yes continue", "ok, go ahead"; nor is a
    # yes to each of two questions, "yes and yes", "yes to both")
    r"^\W*"
    + GO_AHEAD
    + rf"(\W+({GO_ON_WORDS})|\W+(and|&)\W+({GO_ON_WORDS})|\W+to (both|all))?"
    + _GO_AHEAD_TAIL,
    re.IGNORECASE,
)


#: A go-ahead in the other languages people write to agents in, alone or with "the
#: changes" ("pode fazer as alterações", "hazlo", "vas-y", "mach weiter", "давай").
_GO_AHEAD_ELSEWHERE = re.compile(
    r"^\W*((pode|podes|puedes|puede)\s+(fazer|seguir|continuar|prosseguir|aplicar|"
    r"implementar|hacer|seguir|continuar|proceder|aplicar)|faça|faz|manda ver|bora|segue|"
    r"prossiga|adelante|hazlo|dale|sigue|contin[uú]a|procede|vas-y|allez-y|fais-le|"
    r"procedi|procediamo|vai avanti|vai pure|fallo|"
    r"mach (weiter|das|es)|los geht'?s|давай|продолжай|делай|сделай|вперё?е?д|"
    r"(继续|繼續)(执行|執行|实施|實施|进行|進行)?(计划|計劃|下一步)?|按(计划|計劃)(执行|執行|进行|進行))"
    r"(\W+(as|os|las|los|les|die|the|a|o|la|el|le|it|isso|isto|eso|esto|ça|das|это|"
    r"com|con|avec|mit|plano|plan|план|próximo|siguiente|passo|paso|étape|schritt|"
    r"alteraç(ões|ão)|mudanças|modificaç(ões|ão)|cambios|changements|modifications|"
    r"änderungen|изменения|changes|edits|por favor|porfa|pf|s'il te plaît|bitte|"
    r"пожалуйста|please|então|entonces|alors|dann|тогда|sim|sí|oui|ja|да))*\W*$",
    re.IGNORECASE,
)


#: An id and nothing else (a session uuid, a commit hash, a number): the answer to a
#: question the request does not hold.
_ONLY_AN_ID = re.compile(
    r"^\W*([0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}|[0-9a-f]{7,40}|#?\d+)\W*$", re.IGNORECASE
)


#: A question about the assistant itself, the typed form of `/model` ("which model is
#: this session using", "are you claude?", "当前使用的是哪个大模型"): nothing of the project's
#: to replay.
_ASKS_ABOUT_AGENT = re.compile(
    r"^\W*((which|what)\s+(llm|model|ai model|version of (claude|codex|gpt))\s+"
    r"(are (you|u)|is (this|that|the|this session)|do (you|u)|are we|am i)\b"
    r"|are (you|u)\s+(claude|codex|gpt|opus|sonnet|haiku)\b"
    r"|(who|what) are (you|u)\s*\?*\s*$"
    # the assistant's own budget ("how many token credits do you have", "how much context
    # do you have left")
    r"|how (many|much)\s+(\w+\s+)?(tokens?|credits?|context|usage|quota)\s+(\w+\s+)?"
    r"(do|have) (you|u)\s+(have|got|left|used)\b)"
    r"|(哪个|什么|哪一个)(大)?模型|使用的(是)?大模型\W*$|どのモデル|何のモデル|어떤 모델",
    re.IGNORECASE,
)


#: A short question on what the agent did ("Did you commit?", "have u pushed it?").
ASKS_WHAT_AGENT_DID = re.compile(
    r"^\W*(did|have|has|were|are)\s+(you|u|yo|ya)\b[^?]{0,80}\?\W*$", re.IGNORECASE
)


#: Words that point at something instead of naming it ("fix this", "do the same for them").
POINTING = re.compile(
    # "that" opening a clause ("indicate that the agent needs …", "make sure that we …")
    # is a conjunction, not a pointer
    r"\b(this|that(?!\s+(the|a|an|we|you|i|they|there|our|my|your|all|each|every|no|any|its|"
    r"their)\b)|these|those|it|them|above|same|here|there)\b",
    re.IGNORECASE,
)


#: "this repo": the repository is every task's context, so pointing at it names enough.
_POINTS_AT_REPOSITORY = re.compile(
    r"\b(this|the|our|my)\s+(repo|repository|project|codebase|code base|app|folder|"
    r"directory|package|library|workspace)\b",
    re.IGNORECASE,
)


#: A token that names something specific: a path, a file, an identifier, a version, a
#: quoted or code-marked word, a capitalised name after the first word.
_NAMES_A_THING = re.compile(
    r"[\w-]+[./_:#@][\w/.-]+|\d|[`\"'][^`\"']+[`\"']"
    r"|(?<=\s)[A-Z][a-z]+[A-Z]\w*|(?<=[a-z,]\s)[A-Z][a-z]\w*"
)


#: Longer than this, a request is not read for pointing words at all.
NAMES_NOTHING_MAX_CHARS = 200


#: At most this many words, a request pointing at its object names nothing else ("make
#: it faster", "why is this failing?"); a longer one must be all generic words.
SHORT_POINTING = 6


#: Words of a request that name an action or a kind of thing, never the thing itself.
GENERIC_WORDS = frozenset(
    WORD.findall(
        "a an the to for of on in at up out with and or so now then again please pls plz can "
        "could would will you u me us we i my our let lets let's go get got make do does did "
        "done put set take give have has is are was be it its it's this that these those them "
        "they here there above same one ones thing things stuff bit part look check see fix "
        "fixed review explain describe tell show run rerun try retry test tests testing build "
        "write add update change changes edit edits create open raise submit push commit merge "
        "deploy ship release publish pr prs pull request requests mr code file files work job "
        "bug bugs error errors issue issues problem problems something all everything whole "
        "too also as well just quickly real quick ok okay sure yes yeah cool great nice good "
        "thanks thank what why how is into onto from about over back don dont doesn isn s t"
    )
)


#: What a request acts on, named so that it needs no exchange before it: a path or a file
#: name, an identifier (snake_case, a.b, a:b, #12, @x), a URL, a code-marked or quoted word.
_OWN_OBJECT = re.compile(
    r"[\w-]+/[\w./-]+|\b[\w-]{2,}\.[a-z][a-z0-9]{0,5}\b|\b[a-z]+_[a-z_]+\b|https?://\S+|"
    r"`[^`]+`|\"[^\"]{2,60}\"|"
    # a kebab-case name of a thing in the repository ("the push-pr command", "the
    # code-review skill"): the kind after it says it is a name, not a hyphenated word
    r"\b[a-z0-9]+(-[a-z0-9]+)+\s+(command|skill|script|workflow|agent|hook|package|branch|"
    r"component|module|function|service|job|plugin|tool|endpoint|route|template|action|"
    r"target|task|crate|binary|cli)s?\b",
    re.IGNORECASE,
)


#: A demonstrative that points ahead at what the message goes on to give ("follow these
#: rules. It should check …", "these steps:"), not back at the exchange.
_POINTS_AHEAD = re.compile(
    r"\b(these|this|the following)\s+(rules?|steps?|requirements?|instructions?|criteria|"
    r"conditions?|specs?|points?|items?|guidelines?)\b(?=\s*(:|[.!]?\s*\n|[.!]\s+\S))",
    re.IGNORECASE,
)


def names_own_object(region: str) -> bool:
    """A request of four words or more whose first sentence names what it acts on
    (`_OWN_OBJECT`) and points back at nothing: it can be replayed on the repository alone."""
    region = _POINTS_AHEAD.sub(" ", region)
    head = first_sentence(region)[:300]
    if len(WORD.findall(head)) < 4 or BACK_REF.search(head) or POINTING.search(head):
        return False
    return bool(_OWN_OBJECT.search(head))


#: A pronoun that may stand for a thing the message itself named before it.
_PRONOUN = re.compile(r"it|its|it'?s|they|them", re.IGNORECASE)


#: A thing named by the person: "the readme", "our install script", a path or a URL.
_NAMED_HERE = re.compile(
    r"\b(the|our|my|a|an)\s+(?!(same|rest|previous|last|earlier|other|new|changes?|fix(es)?|"
    r"edits?|one|ones|way)\b)[a-z][\w-]{2,}",
    re.IGNORECASE,
)


#: Things named in the plural with no article ("check for merge conflicts and fix them",
#: "find all failing tests and rerun them"): what a later "them" or "they" stands for.
_NAMED_PLURAL = re.compile(
    r"\b(for|of|all|any|some|both|every|your|their)\s+(?!the\b)([a-z][\w-]+\s+){0,2}"
    # (not what the exchange made: "of the changes", "all your edits", "the other ones")
    r"(?!(changes|fixes|edits|ones|others|things|steps|suggestions|updates)\b)[a-z][\w-]{2,}s\b",
    re.IGNORECASE,
)
#: An "it" that stands for nothing ("make it so that …", "is it possible to …", "it would be
#: nice to …"; not "it seems broken", which may stand for the result), read from a few
#: characters before the pronoun.
_EXPLETIVE_IT = re.compile(
    r".{0,5}?\b(make it so\b|is it (possible|ok|okay|worth|better)\b|it( would|'d| will|'ll) be "
    r"(nice|great|good|cool|better|helpful|useful|easier)\b|(it'?s|it is) (possible|time|worth)\b)",
    re.IGNORECASE | re.DOTALL,
)


#: A demonstrative with no noun after it ("for that?"): it stands for something before.
_BARE_DEMONSTRATIVE = re.compile(
    # (before its verb it stands alone: "that is broken", however typed: "that's broken")
    r"\b(this|that|these|those)\b(?!\s+(?!(is|are|was|were|has|had|will|would|does|did|should|"
    r"could|can|cannot|must|seems?|looks?)\b)[a-z])",
    re.IGNORECASE,
)


def points_back(head: str) -> bool:
    """Whether the first words point at the exchange before them ("make it smaller",
    "the same for the footer"). A pronoun after a thing the message named itself
    points at that thing ("rework the readme, it is out of date"), not back."""
    excused = False
    for match in BACK_REF.finditer(head):
        word = match.group(0).strip()
        if not _PRONOUN.fullmatch(word):
            return True
        if _EXPLETIVE_IT.match(head[max(match.start() - 5, 0) :]):
            continue  # "make it so that …", "is it possible …": an "it" that stands for nothing
        before = head[: match.start()]
        if (
            _NAMED_HERE.search(before)
            or _OWN_OBJECT.search(before)
            or (word.lower() in ("they", "them") and _NAMED_PLURAL.search(before))
        ):
            excused = True
            continue
        return True
    # "could we reuse session_nav.html for that?": a demonstrative standing alone still
    # points back, whatever the message named
    return excused and bool(_BARE_DEMONSTRATIVE.search(head))


def names_nothing(text: str) -> bool:
    """A short request whose object is only a pointing word ("lets get a pr up for
    this", "fix it", "explain that error"): what it acts on was in the exchange before
    it. Pointing at the repository ("add a README to this repo") names enough."""
    if len(text) > NAMES_NOTHING_MAX_CHARS:
        return False  # twelve words fit; a longer text names something (and is not lexed)
    words = [w.lower() for w in WORD.findall(text)]
    if not words or len(words) > 12 or not POINTING.search(text):
        return False
    if _POINTS_AT_REPOSITORY.search(text) or _NAMES_A_THING.search(text):
        return False
    return len(words) <= SHORT_POINTING or all(word in GENERIC_WORDS for word in words)


def asks_about_agent(region: str) -> bool:
    """A short question about the assistant itself (`_ASKS_ABOUT_AGENT`)."""
    return len(region) <= 80 and bool(_ASKS_ABOUT_AGENT.search(region))


#: A pick among what the agent offered, with at most a yes and a preference before it
#: ("yes, Option A", "i prefer 2", "let's go with approach b", "both").
_PICK_ONLY = re.compile(
    r"^\W*((yes|yeah|yep|ok|okay|sure)\W+)?"
    r"((i'?d|i would|i|we|let'?s)\s+(prefer|choose|pick|take|go with|do|use)\s+|go with\s+)?"
    r"(option \w+|approach \w+|plan \w+|choice \w+|both|neither|either( one)?|all of them|"
    r"the (first|second|third|fourth|last|other)( one| option)?|\d+|[a-d]|"
    # items of the agent's findings by number, a range or a list ("Fix 1-3" after "Tell me
    # which findings you'd like fixed", "do 2 and 4")
    r"(fix|do|implement|address|tackle|apply|handle)\s+((items?|findings?|points?|issues?)\s+)?"
    r"#?\d{1,2}(\s*(-|\u2013|to|and|&|,)\s*#?\d{1,2})*)" + _GO_AHEAD_TAIL,
    re.IGNORECASE,
)


#: The person's own step reported done, at most with a go-on ("done", "it is done.
#: continue"): it says the agent may go on, nothing about the work.
_DONE_ONLY = re.compile(
    rf"^\W*((it'?s|it is|that'?s|all)\s+)?(done|finished|did it|done it)\b(\W+({GO_ON_WORDS}))?"
    + _GO_AHEAD_TAIL,
    re.IGNORECASE,
)


def is_bare_answer(text: str) -> bool:
    """A reply that only picks or agrees ("3", "c", "option 2", "yes, Option A", "i prefer
    2", "yes", "继续", "it is done. continue", a pasted image and nothing else): it means
    something only next to what it answered."""
    region = request_region(text)
    return not region or bool(
        len(region) == 1
        or _GO_AHEAD_ONLY.match(region)
        or _GO_AHEAD_ELSEWHERE.match(region)
        or _PICK_ONLY.match(region)
        or _DONE_ONLY.match(region)
    )


#: How a source file, not a sentence, begins: a module's imports, a Dockerfile's base image,
#: a markup document's declaration, a definition.
_FILE_OPENING = re.compile(
    r"^\s*(import [\w.{]|from [\w.]+ import |FROM [\w./:@-]+|<!doctype |<html\b|<\?xml |package "
    r"[\w.]+;?$|#!/|(def|class|function|const|let|var|export|using|public class) [\w{]|"
    r"#include [<\"]|\"use strict\")",
    re.IGNORECASE,
)


#: A line of code or configuration: an opening keyword, or ending the way code lines end.
_CODE_LINE = re.compile(
    r"^\s*(import|from|def|class|return|if|elif|else|for|while|try|except|with|const|let|var|"
    r"function|export|public|private|package|FROM|RUN|ENV|COPY|WORKDIR|CMD|EXPOSE|ARG|#|//|"
    r"/\*|\*|@|<)|[:;{}()\[\],=\\>]\s*$|^\s*[\w.]+\s*[:=(]"
)


def is_code_only(text: str) -> bool:
    """A message that is only a pasted source file (it opens as one, and nine in ten of its
    lines, ten or more, the last among them, read as code): a file shown with no request
    typed around it."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) < 10 or not _FILE_OPENING.match(lines[0]) or not _CODE_LINE.search(lines[-1]):
        return False
    return sum(1 for line in lines if _CODE_LINE.search(line)) >= 0.9 * len(lines)


#: A request to go on with earlier work that names none of it ("Please pick up where we
#: left off.", "continue from the last session", "mach da weiter, wo wir aufgehört haben",
#: "继续上次的工作"): what it asks for lives in a session a replay does not have.
_RESUMES_EARLIER_WORK = re.compile(
    r"^\W*((ok(ay)?|so|now|alright|right)\W+)?(please\s+)?"
    r"((let'?s|can you|could you|we (can|should|will))\s+)?"
    r"(pick (it |things |this |everything )?(back )?up|continue|resume|carry on|keep going|"
    r"get back to (it|work)|go on)"
    r"(\s+(with\s+)?(the|our|my|your|this)\s+(work|task|session|plan|progress|project))?"
    r"\s*(from\s+|at\s+)?"
    r"(where (we|you|i|it) (left off|stopped|were|ended|finished)|"
    r"(the\s+)?(last|previous|earlier|prior) (session|time|conversation|chat)|"
    r"(yesterday|before|last time))"
    r"(\s+(yesterday|last time|earlier|today|before))?(\s+please)?\W*$"
    # where the work stands, asked of the agent ("I have lost track of where we're up to",
    # "remind me where we left off")
    r"|^\W*((ok(ay)?|so|now|alright|hmm)\W+)*(i('ve|\s+have)?\s+)?(lost track of|forgot|"
    r"(can you |please )?remind me( of)?) where (we|i)('re|\s+(are|were|was|left off|stopped))"
    r"(\s+(up to|at|with (it|this|the work)))?\W*$"
    r"|^\W*(mach(en wir)?|machen) (da |dort )?weiter,? wo wir (aufgehört|stehen geblieben) "
    r"(haben|sind)\W*$"
    r"|^\W*(reprenons|reprends|continuons|continue) (là )?où (on|nous|tu) (s'était|s'est|"
    r"étions|en était|t'étais) (arrêtés?|restés?)?\W*$"
    r"|^\W*(sigamos|continuemos|continúa|contin[uú]a|vamos a seguir) (desde )?donde "
    r"(lo )?(dejamos|nos quedamos)\W*$"
    r"|^\W*(continue|continua|vamos continuar) (de )?onde (paramos|parou|paraste)\W*$"
    r"|^\W*(请)?(继续|接着)(上次|之前|昨天)的(工作|任务|进度)\W*$"
    r"|^\W*前回の続き(から|を)(お願い(します)?|やって(ください)?|進めて(ください)?)?\W*$",
    re.IGNORECASE,
)


def resumes_earlier_work(region: str) -> bool:
    """Whether the request only asks to go on with earlier work it does not name: one of
    its sentences says so, and the others ask for nothing (a greeting, the date: "good
    morning buddy, it's 24 July 26 at 0546 local philly time. Please pick up where we left
    off."). "pick up where we left off and add the export" names work of its own."""
    # each sentence with the mark that ends it (a question asks for something of its own)
    sentences = [s.strip() for s in _SENTENCE.findall(region) if s.strip(" .!?。！？")]
    resumes = [s for s in sentences if _RESUMES_EARLIER_WORK.match(s)]
    if not resumes:
        return False
    return not any(
        IMPERATIVE.search(s) or REQUEST.search(s) or s.endswith(("?", "？"))
        for s in sentences
        if s not in resumes
    )


_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")


#: A request to act on a pull request's review ("address pr feedback", "have a look at the
#: review comments", "can you look at the copilot comments?"): feedback, or comments and
#: suggestions named as a review's or a pull request's, not a file's code comments.
_REVIEW_FEEDBACK = (
    r"((the|any|all|new|remaining|latest|open|outstanding|unresolved)\s+)*"
    r"(((pr|pull request|code review|review|reviewer'?s?|copilot|bugbot|coderabbit|codex|"
    r"gemini|github)\s+)*feedback"
    r"|((pr|pull request|review|reviewer'?s?|copilot|bugbot|coderabbit|codex|gemini)\s+)+"
    r"(comments?|suggestions?|nits?|remarks?|findings?|threads?)"
    r"|(comments?|suggestions?|remarks?)\s+((made|left)\s+)?(on|in|from)\s+(this|the)\s+"
    r"(pr|pull request)\b)"
)
_WORKS_THE_REVIEW = re.compile(
    r"^\W*((ok|okay|now|great|thanks|cool|alright|next)[,.!]?\s+)*"
    r"((please|pls|can you|could you|would you|let'?s|go ahead and|now|then)\s+)*"
    r"(address|handle|fix|resolve|apply|implement|look at|have a look at|take a look at|"
    r"check|review|go through|respond to|reply to|work through|work on|"
    r"(start\s+)?work(ing)?\s+(our|my|your)\s+way\s+through)\s+" + _REVIEW_FEEDBACK + r"(\W|$)",
    re.IGNORECASE,
)


#: The same request said as what there is to do ("and now we have some new PR comments to
#: respond to? check with pagination", "there are review comments to address").
_REVIEW_TO_WORK = re.compile(
    r"\b((new|more|some|the|any|unresolved|open)\s+)?" + _REVIEW_FEEDBACK + r"\s+to\s+"
    r"(respond to|reply to|address|handle|fix|resolve|go through|work through)\b",
    re.IGNORECASE,
)


def works_the_review(region: str) -> bool:
    """A request to act on a pull request's review ("address pr feedback", "we have some
    new PR comments to respond to")."""
    return bool(_WORKS_THE_REVIEW.match(region) or _REVIEW_TO_WORK.search(region[:300]))


#: A plan, a design or a proposal taken up as the conversation left it ("run the plan with
#: @"technical-architect (agent)" and get their approval", "i am good with the plan.. …
#: proceed to implementation", "run the design for a review with …"): what it acts on was
#: written in the exchange, not in the repository (a plan named by its file is there).
_TAKES_UP_THE_PLAN = re.compile(
    r"\b(run|execute|implement|start|proceed with|go (ahead )?with|good with|fine with|ok with|"
    r"happy with|approve|follow|build|carry out|review|send)\s+(the|your|this|that)\s+"
    r"(plan|design|proposal|approach|draft|outline)\b(?!\s*(in|at|from|of|file|doc|document|spec)\b)"
    # a plan named as the exchange left it, whatever is done with it ("yes please, draft the
    # revised plan", "go with the proposed approach"): revised, proposed or agreed there
    r"|\b(the|your|this|that)\s+(revised|updated|amended|proposed|suggested|agreed|"
    r"recommended)\s+(plan|design|proposal|approach|draft|outline|fix|solution)\b",
    re.IGNORECASE,
)
#: A file the request names (`@docs/plan.md`, `docs/superpowers/specs/x-design.md`).
_NAMES_A_FILE = re.compile(r"[\w.-]+/[\w./-]+|\b[\w-]+\.(md|mdx|txt|rst|adoc)\b")


def takes_up_the_plan(region: str) -> bool:
    """A request to act on a plan or design the exchange before it made (`_TAKES_UP_THE_PLAN`)."""
    return bool(_TAKES_UP_THE_PLAN.search(region)) and not _NAMES_A_FILE.search(region)


#: A workflow's command that writes the plan the conversation designed, or runs the plan
#: the conversation wrote (`/superpowers:write-plan`, `/superpowers:execute-plan`,
#: `/gsd:execute-plan`).
_PLAN_STEP_COMMAND = re.compile(r"(^|[-_:])(write|writing|execute|executing)[-_]plans?$")


def runs_a_plan_step(text: str) -> bool:
    """A plan step's command whose arguments name neither the plan's file nor work of
    their own ("/superpowers:execute-plan use subagent", "/superpowers:write-plan first.
    check we have good test coverage"): the plan, or the design it is written from, is
    in the exchange before it. `/gsd:execute-plan .planning/phases/03-PLAN.md` names it."""
    command = parse_command(text)
    if command is None or not _PLAN_STEP_COMMAND.search(command.name.lower()):
        return False
    args = command.args.strip()
    return not _NAMES_A_FILE.search(args) and not names_own_object(args)


def needs_context(text: str, *, shown: bool = False) -> bool:
    """Whether a request only makes sense after the exchange before it: a go-ahead, a
    closing step on work just done ("commit and push"), a short question on what the
    agent did, a request that points at its object without naming it ("fix this").
    Such a request opens a session now and then (a resumed conversation), or opens an
    episode the rules could not attach to the one before, but it is never a task on its
    own: a replay would have nothing to act on. `shown`: the person showed the agent
    something just before (the output of a command they ran themselves), which is what
    "fix these" points at and what the task's context then carries."""
    region = request_region(text)
    if not region:
        return True
    typed = request_region(without_transcript(text))
    if typed != region and is_bare_answer(typed):
        return True  # "continua" over a pasted transcript of another session's work
    if is_code_only(text):
        return True  # a file pasted with no request: what to do with it was elsewhere
    return bool(
        _GO_AHEAD_ONLY.match(region)
        or _GO_AHEAD_ELSEWHERE.match(region)
        or asks_about_agent(region)
        or (len(region) <= 80 and _ONLY_AN_ID.match(region))
        or is_closing_step(region)
        or (ASKS_WHAT_AGENT_DID.match(region) and len(WORD.findall(region)) <= 10)
        or (names_nothing(region) and not shown)
        or resumes_earlier_work(region)
        or orients_only(region)
        # what it acts on, a pull request's review, is neither in the repository nor here
        or works_the_review(region)
        # nor is a plan the agent wrote in the exchange, taken up in words or by a command
        or takes_up_the_plan(region)
        or runs_a_plan_step(text)
    )
