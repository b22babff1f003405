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
This module is pure and cheap: it reads only the part of a text that can carry
feedback (`feedback_region`), never a whole pasted log.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from sleepd.mining.commands import SlashCommand, runs_saved_prompt
from sleepd.mining.lexicon import Feedback, Lexicon


class TurnKind(enum.StrEnum):
    NEW_TASK = "new_task"
    FOLLOW_UP = "follow_up"
    CORRECTION = "correction"
    APPROVAL = "approval"
    STEERING = "steering"
    HOUSEKEEPING = "housekeeping"


TURN_KINDS: tuple[str, ...] = tuple(k.value for k in TurnKind)


@dataclass(frozen=True, slots=True)
class TurnInput:
    """One typed user turn and where it sits."""

    text: str
    command: SlashCommand | None = None
    #: an episode is running (an earlier intent of this session exists)
    has_episode: bool = False
    #: the agent's last words since the previous user turn ("" when none)
    agent_text: str = ""
    #: the agent did anything (text, tool calls) since the previous user turn
    agent_worked: bool = False
    after_interrupt: bool = False
    #: typed while the agent ran and sent into its running turn (Claude's queue)
    queued: bool = False
    #: seconds since the previous event of the session
    gap_s: float | None = None
    #: what the previous typed turn of the session was read as
    previous: TurnKind | None = None
    #: the agent changed something or ran commands in the running episode (a complaint
    #: before that is about the code as it was, not about the agent's work)
    agent_acted: bool = True
    #: the agent was stopped mid-work: its last call was refused by the person
    after_refusal: bool = False
    #: the running episode's request and the agent's last words (topic of the turn)
    context: str = ""
    #: the agent's last act before the turn was its words (it ended its turn), not a call
    agent_ended: bool = True
    #: the agent changed something or ran commands earlier in the session, before the
    #: running episode ("still …" can only be about such work)
    acted_before: bool = False
    #: the agent's turn was cut short by its service (a usage limit, an API error) and
    #: the agent wrote nothing after it
    after_service_error: bool = False
    #: the session's previous typed turn that was addressed to the agent ("" when none)
    previous_text: str = ""
    #: a slash command that Claude Code answered itself (its next record is the local
    #: command's output): a built-in, whatever its name, that the model never saw
    answered_by_the_cli: bool = False


@dataclass(frozen=True, slots=True)
class TurnDecision:
    kind: TurnKind
    confidence: float
    reasons: tuple[str, ...] = field(default_factory=tuple)
    #: close to another kind: a model may decide (model-assisted mining)
    hard: bool = False
    #: the turn accepts the previous work: a new request that opens with a verdict on it
    #: ("thanks! now …"), or a closing step asked for after the done claim ("commit")
    approves_previous: bool = False


# --- the part of a text that can carry feedback ---------------------------------

_FENCE = re.compile(r"```.*?(```|\Z)", re.DOTALL)
_PASTE_LINE = re.compile(
    r"^\s*(at\s+\S+.*[(:]\d+|File \".*\", line \d+|\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\[\d{2}:\d{2}|"
    r"[{}\[\]]\s*$|\"[\w-]+\"\s*:|[|│┃┌┐└┘├┤─━═║╔╗╚╝╭╮╰╯]|\$ |>>> |srv |main: |npm (ERR|WARN)|"
    r"warning:|#\d+ |\[?\d{1,2}:\d{2}:\d{2}([.,]\d+)?\]? |"
    # an agent's terminal transcript pasted back: Claude Code marks its messages and tool
    # calls with "⏺" or "●", their results with "⎿", its thinking with "✻" or "✽"
    r"[⏺●⎿✻✽])"
)
#: Where a line turns into such a transcript ("SEGUE COM O PLANO    ⎿ Found 3 lines").
_TRANSCRIPT_MARK = re.compile(r"\s*[⏺●⎿✻✽]")
#: What is kept of the typed part: its head and its tail.
REGION_HEAD = 600
REGION_TAIL = 300


def _is_prose(line: str) -> bool:
    """A long line a person typed (a paragraph with no line break), not a long line of
    output (minified JSON, a base64 blob, a log line): mostly letters, with spaces."""
    sample = line[:2000]
    letters = sum(c.isalpha() for c in sample)
    spaces = sample.count(" ")
    return letters >= 0.6 * len(sample) and spaces >= 0.08 * len(sample)


#: A web address pasted into a sentence ("for this im getting an empty https://…?page=1&…").
_WEB_ADDRESS = re.compile(r"\b(?:https?|wss?|ftp)://\S+", re.IGNORECASE)


def _is_output_line(line: str) -> bool:
    """A long line that is output, not typed: judged without the web addresses in it, so
    a sentence around a long query URL stays the person's words."""
    if len(line) <= 400:
        return False
    bare = _WEB_ADDRESS.sub(" ", line)
    return len(bare) > 400 and not _is_prose(bare)


def feedback_region(text: str) -> str:
    """The typed words around a paste: code fences, log and trace lines removed, then
    the head and the tail (a verdict opens or closes a message; a 50 KB log holds none)."""
    text = _FENCE.sub(" ", text[:20000])
    kept = []
    quoted = []
    for line in text.splitlines():
        if _is_output_line(line) or _PASTE_LINE.match(line):
            continue
        mark = _TRANSCRIPT_MARK.search(line)
        if mark:
            line = line[: mark.start()]
        if line.lstrip().startswith(">"):
            quoted.append(line.lstrip()[1:])
            continue
        kept.append(line)
    if not any(re.search(r"\w", line) for line in kept) and any(
        re.search(r"\w", line) for line in quoted
    ):
        # every word is in a quote block: a request written elsewhere and pasted as a
        # quote ("> Por favor, recrie o arquivo …"), not a quote of the agent answered below
        kept = quoted
    region = without_thinking_cues("\n".join(kept)).strip()
    if len(region) > REGION_HEAD + REGION_TAIL:
        region = region[:REGION_HEAD] + "\n" + region[-REGION_TAIL:]
    return region


#: Words that only set how hard the agent thinks ("ultrathink", "think hard"; Claude Code
#: raises its thinking budget on them), with a comma or "and" joining them to the rest.
#: "think hard" after a subject or "to" is the person's own words ("I think hard mode…").
_THINKING_CUE = re.compile(
    r"(\s*,\s*|\s+and\s+)?\b(?<!\bi )(?<!\bwe )(?<!\byou )(?<!\bto )(?<!\bthey )"
    r"(ultrathink|megathink|think (really |very |extra )?(hard(er)?|deeply|deeper))\b"
    r"(\s*,|\s+and\b)?",
    re.IGNORECASE,
)


def without_thinking_cues(text: str) -> str:
    """`text` without the words that only ask the agent to think harder: "continue,
    ultrathink" says what "continue" says, and "Yes please, think hard and continue" sent
    again after an interrupt says what "Yes please" said."""
    return _THINKING_CUE.sub(" ", text) if "hink" in text else text


# --- features --------------------------------------------------------------------

#: How much of a paste's head and tail is searched for an error.
PASTE_HEAD = 8000
PASTE_TAIL = 4000
#: Pasted error output or a stack trace anywhere in the turn. (A line's leading space is
#: `[^\S\n]*`, not `\s*`: run over many blank lines, `^\s*` went on through all the lines
#: below from every line start, a search quadratic in the number of lines.)
_PASTED_ERROR = re.compile(
    r"Traceback \(most recent call last\)|^[^\S\n]*at \S+ \(?\S+:\d+:\d+\)?\s*$|"
    r"^[^\S\n]*File \"[^\"]+\", line \d+|^[^\S\n]*[\w.]*(Error|Exception)(:|\s*\[)|"
    r"\b(Uncaught|Unhandled)\b.*(Error|Exception|rejection)\b|"
    r"^[^\S\n]*(error|fatal|panic|ERROR|FATAL)(\[\w+\])?:|\berror TS\d{4}\b|\berror\[E\d{4}\]|"
    r"\bblocked by CORS policy\b|\bwas blocked because\b|\bNS_ERROR_\w+|\bnet::ERR_\w+|"
    r"\bFailed to load resource\b|\b(GET|POST|PUT|DELETE) https?://\S+\s+(\[HTTP/\S+ )?[45]\d\d\b|"
    r"\bHTTP [45]\d{2}\b|\bstatus(?: code)?:? [45]\d{2}\b|"
    r"\"error\"\s*:|\bSegmentation fault\b|\bcommand not found\b|\bModule not found\b|"
    # a process result pasted as JSON or a debug print with a failure in it
    # ("\"exit_code\":-1", "\"stderr\": String(\"error: unexpected argument …")
    r"\\?\"exit_code\\?\"\s*:\s*-?[1-9]|"
    r"\\?\"stderr\\?\"\s*:\s*(String\()?\\?\"\s*(\w+ )?(error|fatal|panic)\b|"
    # a service's status as systemd prints it ("Active: failed (Result: exit-code)",
    # "Active: inactive (dead)", "(code=exited, status=1/FAILURE)")
    r"^[^\S\n]*Active: (failed|inactive \(dead\))|\bstatus=\d+/FAILURE\b|"
    r"\bnpm ERR!|\bFAILED\b.*::|\bexit(ed)? (with )?code [1-9]|\bexited with [1-9]|"
    r"^[^\S\n]*Internal Server Error\s*$|\blevel=(error|fatal|panic)\b|"
    # the agent's own service error, pasted back ("⎿ API Error (Request timed out.) ·
    # Retrying in 1 seconds…", "API Error: 529 {…overloaded…}")
    r"\bAPI Error\s*[(:]|"
    # a hosting platform's error page ("500: INTERNAL_SERVER_ERROR", "404: NOT_FOUND")
    r"^[^\S\n]*[45]\d\d: [A-Z][A-Z_]{3,}\s*$|"
    # an operating system error as Python prints it ("[Errno 8] nodename nor servname …"),
    # Python logging's default line (" - ERROR - "), a MySQL client error
    r"\[Errno \d+\]|\s-\s(ERROR|CRITICAL|FATAL)\s-\s|\bERROR \d{4} \([0-9A-Z]{5}\)|"
    # a compiler's or a linter's diagnostic, "file.ext:line:column message" (Xcode's
    # "KeyboardHandlingView.swift:166:131 Value of type … has no member …")
    r"^[^\S\n]*[\w./~-]+\.[A-Za-z]{1,6}:\d+:\d+:?\s+\S|"
    r"❌\s*(NOT FOUND|FAIL(ED)?|ERROR|MISSING)\b|"
    # a check's failure as a test framework prints it: XCTest's "XCTUnwrap failed:
    # expected non-nil value …", "Assertion failed: …", R testthat's "Failure (x.R:270:5):",
    # a GitHub Actions step's "google-github-actions/auth failed with: the workflow must …"
    r"^[^\S\n]*[\w.]+(?:[/@-][\w.]+)* failed(?: with)?: \S|"
    r"^[^\S\n]*(Failure|Error) \([\w./-]+:\d+(:\d+)?\)|"
    # a pull request's checks as GitHub lists them ("CI / Lint (pull_request)Failing after
    # 10s", "Some checks were not successful")
    r"\bFailing after \d+(\.\d+)?\s?[smh]\b|\bSome checks were not successful\b|"
    # a JavaScript runtime message on a line of its own, as a browser console prints it
    # ("Warning: timeSinceFirst is not defined", "Uncaught x.map is not a function")
    r"^[^\w\n]*(Warning:\s*|Uncaught\s+)?[\w$][\w$.]* is not "
    r"(defined|a function|iterable|a constructor)"
    r"\.?\s*$|\bCannot read propert(y|ies) of (undefined|null)\b|"
    # a Unix tool's own error line, "program: [object: ]reason", with the C library's words
    # ("umount: /run/media/x: target is busy.", "cp: cannot stat 'a': No such file …")
    r"^[^\S\n]*[a-z][\w.-]*: (\S[^\n]{0,200}: )?((cannot|can't) (access|stat|open|create|remove|"
    r"find|execute|connect|read|write|mount|load|allocate|overwrite|move)|"
    r"No such file or directory|Permission denied|Operation not permitted|"
    r"(Device or resource|target is) busy|"
    r"Read-only file system|Connection refused|Connection timed out|Is a directory|"
    r"Not a directory|Too many open files|No space left on device)|"
    # a build's or a service manager's failure as Docker prints it ("=> ERROR [worker
    # builder 4/6] RUN go mod download", "ERROR: failed to solve", Compose's "dependency
    # failed to start: container x has no healthcheck configured", "Error response from
    # daemon"), and a browser console's refusal ("Refused to apply style from '…' because
    # its MIME type …")
    r"^[^\S\n]*=> ERROR \[|^[^\S\n]*ERROR: failed to (solve|build)\b|"
    r"^[^\S\n]*[\w-]+ failed to start: |"
    r"\bError response from daemon\b|"
    r"^[^\S\n]*Refused to (apply|load|execute|connect|frame|display|evaluate)\b|"
    # an application's own error line, "Error <doing what>: <why>" ("Error loading
    # dashboard: Failed to fetch"; not a heading such as "Error handling: add retries"),
    # and a browser's failed request ("TypeError: Failed to fetch")
    r"^[^\S\n]*Error (?!(handling|reporting|logging|tracking|messages?|codes?)\b)[a-z]+ing\b"
    r"[^\n:]{0,80}:\s*\S|\bFailed to fetch\b|"
    # a dev server's error overlay as it is copied (Next.js: "Runtime Error" closing a line,
    # "components/ui/select.tsx (116:3) @ _c8", a code frame's "> 116 |", "Show 19
    # ignore-listed frame(s)")
    r"\b(Unhandled |Uncaught )?(Runtime|Build|Console) (Error|TypeError|ReferenceError)\s*$|"
    r"^[^\S\n]*[\w./@-]+\.(tsx?|jsx?|mjs|cjs|vue|svelte) \(\d+:\d+\) @ \S|^>\s*\d+ \|\s|"
    r"\bShow \d+ ignore-listed frames?\b",
    re.MULTILINE,
)
#: The same reports in Chinese, Japanese and Korean, as verb phrases: a bare noun
#: ("错误", "エラー", "오류") names error handling to build as often as an error seen,
#: so only a phrase that says something failed, does not run or still does not counts.
_FAILURE_REPORT_CJK = re.compile(
    r"(失败|报错|出错)(了|啦|[!！。]|\s*$)|运行不了|用不了|跑不(了|起来|通)|打不开|启动不了|"
    r"装不上|连不上|不能(用|运行|打开|启动)|没有?(反应|效果|生效|变化|改变)|不生效|不起作用|"
    r"还是(不行|不对|报错|失败|一样)|又(报错|出错|失败)|崩溃了|卡(住|死)了|太慢了?|慢得(要命|不行)"
    r"|遅すぎ(る|ます)|重すぎ(る|ます)|너무 느려|느려요"
    r"|失敗(しました|します|した(?=[。！!？?、\s]|$)|してい(る|ます)(?=[。！!？?、\s]|$))|"
    r"エラーが(出|発生|起き)|エラーにな(る|ります|った|りました)|"
    r"動か(ない|なかった)|動きません|動作し(ない|ません|なかった)|見えなくな(る|ります|った|"
    r"りました|って)|見えません|(表示|反映)され(ない|ません|なかった)|起動(しない|しません|でき"
    r"ない|できません)|うまく(いかない|いきません)|直って(ない|いない|いません)|直りません|"
    r"変わ(らない|りません)|(変わっ|動い|動作し|効い|反映され|表示され|適用され)て(ない|いない|いません|"
    r"ません)"
    r"|안\s?(돼|됩니다|되네|되요|돼요|되는데|나와|나옵니다|보여|보입니다)|"
    r"실패(했어요|했어|했습니다|했네|했다|합니다|해요|하네)(?![가-힣])|"
    r"(에러|오류)(가|는)?\s?(났|납니다|나요|발생했|떠요|뜹니다)|(작동|동작)(하지|이)\s?않|깨졌|"
    r"여전히\s?(안|에러|오류|실패)|되지\s?않(습니다|아요|아|네요|는다|음)|"
    r"(잘못|틀리)(됐|되었|했|었|렸)(어요|어|습니다|네요|다)(?![가-힣])",
)
#: Says the agent's answer is wrong ("That can't be right", "doesn't make sense"): a
#: failure report, and a correction even before the agent changed anything.
_WRONG_ANSWER = (
    r"|\b(that|this|it) (can'?t|cannot|couldn'?t) (possibly )?be (right|correct|true)\b"
    r"|\b(doesn'?t|does not|don'?t|do not) (really |quite )?make (a lot of |much |any )?sense\b"
    r"|\b(isn'?t|aren'?t|wasn'?t|weren'?t|is not|are not|was not|were not)\s+(\w+ly\s+)?"
    r"(?!enough\b)\w+\s+enough\b"
    # doubts the agent's result ("I don't trust you", "I am still a bit skeptical so test
    # again", "Still looks too good to be true", "these numbers look fishy")
    r"|\bi (don'?t|do not|can'?t|cannot) (trust|believe) (you|it|this|that|these|those|your|"
    r"the (results?|numbers?|figures?|benchmarks?|claims?|output|fps|speed))\b"
    r"|\b(i'?m|i am|we'?re|we are|i remain|still)\s+(still\s+)?(a bit |a little |quite |very |"
    r"really |even |somewhat |rather |highly )*(skeptical|sceptical|suspicious|doubtful|"
    r"unconvinced|not convinced)\b"
    # (not about an approach, "skeptical of adding Redis")
    r"(?!\s+(of|about|that)\s+(\w+ing|the idea|this approach|that approach|we)\b)"
    r"|\btoo good to be true\b|\bi doubt (it|that|this|these|those|the|your)\b"
    r"|\b(looks?|seems?|sounds?|is|are)\s+(very |a bit |pretty |kind of )?(fishy|suspicious|sus)\b"
    # disputes what the agent concluded ("wait what? What do you mean its not accessible?")
    r"|\bwhat do you mean\b[^?.!\n]{0,40}\b(not|can'?t|cannot|isn'?t|aren'?t|doesn'?t|don'?t|"
    r"won'?t|no|none|nothing|impossible|unavailable|inaccessible)\b"
    # says the agent took the request for another ("No, I want to confirm my code is correct",
    # "I was talking about this page", "你搞错了", "違います", "그게 아니라")
    r"|^\W*no\b[,.!]?\s+(i|we)\s+(want|wanted|meant|mean|asked|need|needed)\b"
    r"|^\W*no\b,?\s+(like|i mean)\b"
    # rejects the agent's answer as the wrong one ("I don't think that's it. It's something
    # else", "that's not the one")
    r"|^\W*(i )?(don'?t|do not) think (that'?s|that is|this is|it'?s|it is) (it|right|correct|"
    r"the (one|issue|problem|cause|reason|program|file|culprit))\b"
    r"|\b(that'?s|that is|this is|it'?s|it is) not the (one|program|process|file|app|culprit)\b"
    # holds the agent to what it should have known ("I'm on Ubuntu 22.04. You should know
    # this...") or done ("you run it, until it actually works")
    r"|\byou should (already |have )?(know|known|remember|remembered) (this|that)\s*([.!…]|$)"
    # what the agent should be doing set against what it does ("you should be creating a
    # prd document, not creating projects")
    r"|\byou should (be|have been) \w+ing\b[^.?!\n]{0,80}?\bnot\s+\w+ing\b"
    r"|\buntil it (actually|really|finally|truly) (works|runs|passes|builds|starts)\b"
    # opens by saying what the person meant ("I mean claude", after an answer about the
    # shell); "I mean, …" with its comma is a filler
    r"|^\W*i mean\b(?!,)"
    # asks why the agent did not do what it was asked ("why won't you run it?"; not "why
    # don't you try …", a suggestion)
    r"|\bwhy (won'?t|wouldn'?t|didn'?t|did not|haven'?t|have not|hasn'?t) you\b"
    r"|\bi (meant(?! to\b)|was talking about|was referring to|was asking about)\b"
    # says the agent took a request the person never made ("i dint mean to revert", "I
    # didn't ask for that"); not the person's own slip ("I didn't mean to interrupt you")
    r"|\bi (didn'?t|did not|dint|didnt) (mean|ask)\b(?! to (interrupt|stop|cancel|press|"
    r"hit|click|send|submit|reject|escape|close|type|enter|paste)\b)"
    # holds an act up to the agent, with a contrast or an emphasis ("but you started on
    # the branch that had our changes!", "why did you push that?? it was live")
    r"|^\W*but you (\w+[^\We]ed|made|did|went|put|took|wrote|broke|left|forgot|said|told|ran|"
    r"built|set|kept|threw|gave|got|began|chose|thought)\b"
    r"|\bwhy (did|would) you\b[^?!\n]{0,120}(\?\s*\?|!)"
    # the same in the other languages people write in: a second person's past act
    # questioned or set against ("por qué subiste …", "pero comenzaste …", "por que você
    # apagou …", "pourquoi as-tu …", "warum hast du …", "perché hai …")
    r"|\bpor ?qu[eé] (\w+aste|\w*[^\Wsx]iste|pusiste)\b|^\W*pero (\w+aste|\w*[^\Wsx]iste|pusiste)\b"
    r"|\bpor ?qu[eé] (voc[eê]|vc|tu) \w+(ou|eu|iu)\b"
    r"|\bpourquoi (as-tu|tu as|t'as|avez-vous|vous avez)\b|\bwarum (hast du|habt ihr)\b"
    r"|\bperch[eé] hai\b"
    # says the agent misread the request, or did what it was not to do ("you misunderstood",
    # "tu n'as pas compris, tu devais remplir …", "я тебя просил …", "no entendiste")
    r"|\byou (misunderstood|misread|got (it|that|me) wrong)\b"
    r"|\byou(\s*'?re| are|\s*'?ve| have) (misunderstanding|misunderstood|misreading|misread)\b"
    r"|\bi (had |already |clearly )*(specified|stated)\b[^.?!\n]{0,60}\b(not|instead)\b"
    r"|\b(tu n'as|vous n'avez) pas compris\b|\b(tu devais|vous deviez)\b"
    r"|\b(j'avais|je t'avais|je vous avais) (précisé|dit|demandé|indiqué|écrit)\b"
    r"|\bno (me )?entendiste\b|\bte (pedí|dije)\b|\bten[ií]as que\b"
    r"|\b(voc[eê]|vc) n[aã]o entendeu\b|\beu (te )?(pedi|disse)\b"
    r"|\bdu hast (mich |das )?(nicht|falsch) verstanden\b|\bich hatte (doch )?(gesagt|geschrieben|"
    r"gebeten)\b|\bnon hai capito\b|\bti avevo (detto|chiesto)\b"
    r"|\bя (тебя|вас) просил|\b(ты|вы) не понял"
    # disputes what the agent concluded, as "what do you mean …" above ("no entiendo a qué
    # te refieres con que ya está solucionado", "o que você quer dizer com já está
    # resolvido", "qu'est-ce que tu veux dire par c'est déjà corrigé", "was meinst du mit
    # es ist schon behoben")
    r"|\b(a )?qu[eé] te refieres con que\b[^?.!\n]{0,40}\b(no|ya|nada|ning[uú]n\w*)\b"
    r"|\bqu[eé] quieres decir con\b[^?.!\n]{0,40}\b(no|ya|nada|ning[uú]n\w*)\b"
    r"|\bo que (voc[eê]|vc|tu) (quer|queres) dizer com\b[^?.!\n]{0,40}\b(n[aã]o|j[aá]|nada)\b"
    r"|\bqu'est-ce que (tu veux|vous voulez) dire\b[^?.!\n]{0,40}\b(pas|d[eé]j[aà]|rien)\b"
    r"|\bwas meinst du (damit|mit)\b[^?.!\n]{0,40}\b(nicht|schon|kein\w*)\b"
    # says the result looks wrong or misses what was expected ("it shouldnt look like
    # this", "je n'ai pas l'interface ui", "je ne vois pas le bouton")
    r"|\b(it|this|that|they|these|the page|the ui|the screen)\s+(shouldn'?t|should not)\s+"
    r"(look|appear|behave|be like)\b"
    r"|\bje (ne vois (pas|rien)|n'ai (pas|rien) ((le|la|les) (?!temps\b)|l['’]))"
    # regrets an act of the work ("we should have done the tests before committing")
    r"|\b(we|you) should(n'?t| not)? have (\w+[^\We]ed|done|run|made|written|gone|kept|left|"
    r"put|told|used|asked|checked|tested)\b"
    # asks why something the work should have done did not happen ("why didn't speckit
    # answer in french!", "pourquoi speckit n'a pas répondu en français !"); "why didn't
    # we …" questions a choice, and "¿por qué no pruebas …?" suggests
    r"|\bwhy (didn'?t|did not|doesn'?t|does not|isn'?t|wasn'?t|hasn'?t|has not|haven'?t)\b"
    r"(?! (we|i)\b)"
    r"|\bpourquoi\b[^?!.\n]{0,40}\b(n'(a|as|avez|ont|est|es)|ne s'est)\s+pas\b"
    r"|\bpor ?qu[eé] no (se |lo |la |le )?\w+(ó|aste|iste|aron|ieron)\b"
    r"|\bpor ?que (voc[eê] |vc )?n[aã]o (se )?\w+(ou|eu|iu|aram|eram)\b"
    r"|\bperch[eé] non (ha|hai|hanno|è|sono)\b"
    r"|\bwarum (hat|hast|haben|habt|ist|wurde)\b[^?!.\n]{0,40}\bnicht\b"
    # the state is not what the person believed was done ("I thought we already planned
    # phase 9?", "I thought you had fixed that")
    r"|\bi thought (we|you|it|that)( had| have|'d| was| were)? already\b"
    r"|\bi thought (you|we) (had|'d) (fixed|done|added|removed|changed|updated|planned)\b"
    # asks what the error just met is, its output pasted ("what is this error? …",
    # "cosa è questo errore?", "c'est quoi cette erreur", "这是什么错误")
    r"|\b(what('?s| is)|why) (this|that) (error|warning|exception|failure)\b"
    r"|\bcos'?[aè]\s?(è )?(questo|quest') ?errore\b|\bqu[eé] es (este|ese) error\b"
    r"|\bc'est quoi (cette|ce) (erreur|warning|message)\b|\bque(l| est) (cette|ce) erreur\b"
    r"|\bwas (ist|sind) (das|diese[rs]?) (für )?(ein(en)? )?fehler\b"
    r"|这是什么(错误|报错)|这个(错误|报错)是什么"
    r"|\bwhat i('?m| am| was) (saying|trying to say|asking)\b|我(说|說)的是|我的意思是"
    r"|\bя (говорил|говорила|имел в виду|имела в виду)\b"
    r"|你(搞|弄)(错|錯)了|不是(这个|這個)意思|違います|そうじゃなくて|그게 아니라"
)
#: Reports that the work does not do what it should.
_FAILURE_REPORT = re.compile(
    # (with the misspellings people type fast: "it dosent go anywhere", "dosn't load")
    r"(\b(doesn'?t|does not|dosen'?t|dosn'?t|dosent|doesen'?t|didn'?t|did not|isn'?t|is not|"
    r"aren'?t|are not|wasn'?t|weren'?t|"
    # a bare "not" after a word that makes it an instruction or a suggestion ("let's not
    # create links", "we should not inline prompts", "why not use …") says what to do,
    # not what went wrong
    r"won'?t|can'?t|cannot|couldn'?t|(?<!let's )(?<!lets )(?<!let us )(?<!should )"
    r"(?<!must )(?<!why )(?<!please )(?<!do )(?<!to )not|never|no longer|still not|still doesn'?t)"
    # "the links dont work": a plural subject, not a prohibition ("don't run the tests")
    r"|\b(they|these|those|\w\w+s|made|did|added|changed|applied|wrote|suggested)\s+"
    r"(don'?t|do not))\s+"
    r"(even |really |actually |(seems?|appears?) to (be )?|always |properly |correctly )?"
    # ("you've not worked on this project yet" says what the agent has not done before)
    r"(work|works|working|worked(?! on\b)|write|written|save|saved|saving|load|loads|loading|"
    r"loaded|show|"
    r"shows|showing|shown|display|displayed|displaying|appear|appears|appearing|render|renders|"
    r"rendering|rendered|change|changed|update|updated|updating|run|runs|running|start|starts|"
    r"started|open|opens|compile|compiles|build|builds|pass|passes|passing|happen|happens|"
    r"happening|exist|exists|respond|responds|move|moves|play|plays|playing|fix|fixed|look right|"
    r"look correct|look good|match|matches|find|found|create|created|install|installed|connect|"
    # ("i do not see why you decided …" asks for the agent's reasons, sees nothing missing)
    r"connects|connected|stop|stops|get called|trigger|triggered|fire|fires|respect|use|used|"
    r"see(?:ing)?(?! (why|how|when|whether|the (point|need|reason))\b)|"
    r"reach|access|return|returns|scroll|scrolls|click|respond|finish|finished|complete|"
    r"completed|go anywhere|lead anywhere|"
    r"generate|generated|print|printed|send|sent|sync|detect|detected|recognize|recognized|"
    # what a screen or a state fails to do ("it doesnt stay in birds eye view")
    r"stay|stays|stayed|remain|remains|persist|persists|stick|sticks|disappear|disappears|"
    r"align|aligns|fit|fits|scale|scales|resize|resizes|animate|animates|toggle|toggles|"
    # what is not there to see ("you can see it in the prompt, but it is not visible to me")
    r"visible|"
    r"switch|switches|switched|launch|launches|launched|close|closes|refresh|refreshes|"
    r"reload|reloads|apply|applies|applied|take effect|register|registers|registered|"
    # a thing that is not where it should be ("the tray icon isn't there"; not "isn't there
    # a simpler way", "won't there be issues")
    r"there(?! (a|an|any|some|another|one|more|anything|something|be|been|was|were|is|are)\b)"
    r"(?!\s*\?)|"
    # what a fix fails to do ("I changed it to round in AA 50 but that didn't correct it")
    r"correct|corrected|solve|solved|resolve|resolved|help(?! but)|helped|change anything|"
    r"do anything)\b"
    r"|\bnothing (happens|happened|changed|changes|shows|showed|works|is shown|appears)\b"
    # what none of a kind does ("No teams or leads are loading into the pane now"; not "no
    # errors are showing", good news)
    r"|\bno (?!(errors?|warnings?|issues?|problems?|failures?|exceptions?|bugs?|complaints?|"
    r"matter|doubt|need|way|longer|sooner)\b)"
    r"(\w+ ){1,4}(is|are|was|were|gets?|got) (being )?(loading|loaded|showing|shown|displayed|"
    r"displaying|appearing|rendered|rendering|saved|created|returned|generated|sent|received|"
    r"coming (up|through|in))\b"
    # what a thing named before fails to do, whatever stands between ("the buttons on the
    # sidebar don't do anything"; not "please don't do anything", a prohibition)
    r"|\b(?!(please|pls|just|and|so|now|then|but|i|we|you|yet|still)\b)[a-z]+\s+"
    r"(don'?t|do not|doesn'?t|does not) do anything\b"
    # ("there seems to be some functionality missing", "This Serverless Function has crashed")
    r"|\bthere (is|are|seems to be|seem to be|appears to be|'s) (still )?(some |a few |a lot of )?"
    r"(\w+ ){0,3}missing\b|\b(has|have|had) (just )?(crashed|stopped working|failed)\b"
    # a thing said to hold an error ("benchmark.ts has a typescript error in the imports",
    # "the build has errors", "browser shows error"; not "has error handling")
    r"|\b(has|had|shows?|showing|gives?|giving)( got)? (an? |some |\d+ |a few |a lot of |"
    r"lots of )?((typescript|type|syntax|build|compile|compiler|lint|linting|runtime|import|"
    r"ts|js|console|test)[- ])?(errors?|exceptions?)\b(?!\s*(handling|handlers?|messages?|"
    r"codes?|states?|boundar(y|ies)|checking|reporting|logging|cases?|paths?|types?|pages?))"
    # what a browser says of a server that is not there ("localhost refused to connect",
    # "ERR_CONNECTION_REFUSED")
    r"|\brefused to connect\b|\bconnection (was )?refused\b|\b(could ?n[o']t|can'?t) be reached\b"
    r"|\berr_(connection|name_not|address|ssl|cert|timed_out|empty_response|internet|network)"
    r"|\bno (visual |visible |noticeable |apparent |real )?(change|difference|effect|output|"
    r"sound|response|results)\b"
    # (not what is sought: "figure out what is missing", "contrast with something that is
    # missing")
    r"|(?<!\bwhat )(?<!something that )(?<!anything that )"
    r"\b(is|are|was|were|still|stays|remains|looks|seems|sound|sounds|feels)\s+"
    r"(still\s+)?(empty|blank|missing|"
    r"broken|wrong|stuck|frozen|off|misaligned|cut off|the same|gone|black|white|incorrect|"
    r"invisible|hidden|duplicated|not there|offline|unreachable|unresponsive|not responding)\b"
    r"|\b(is|are|was|were|still)\s+still\s+(unstable|flaky|failing|crashing|there|present|"
    r"visible)\b"
    # "we still have these failures:", "I still get the same errors"
    r"|\b(we|i|you|it|they)\s+still\s+(have|has|get|see|got)\s+(these|those|the same|the|"
    r"some|this|that|an?)?\s*(\w+\s+)?(failures?|errors?|failing tests?|issues?|problems?|"
    r"bugs?)\b"
    # the result as it should have been ("They should have been a tickets/ directory")
    r"|\b(it|this|that|they|these|those)\s+should(?: have|'ve) been\b"
    # the same of a thing named at a sentence's start ("The runtime directory should have
    # been populated")
    r"|(^|[.!?]\s+)\W*the\s+(\w+\s+){1,3}should(?: have|'ve) been\b"
    r"|\bsame (error|issue|problem|result|thing|behaviou?r)\b|\bstill (the )?same\b"
    r"|\bsame (as before|as it was)\b"
    # "it keeps crashing", "there is 3 items and only load 2", "why is not reflected"
    r"|\bkeeps? (on )?(crashing|failing|erroring|breaking|freezing|hanging|timing out|"
    r"looping|reloading|resetting|disappearing|coming back)\b"
    r"|\b(and|but|it|they|this|that|which|still)\s+only (loads?|shows?|returns?|displays?|"
    r"renders?|gets?|finds?|lists?|loaded|showed|returned|displayed|rendered|got|found|listed|"
    r"detected|imported|processed|scanned|picked up) \d+\b"
    # a run that died ("crashed again i think", "ran out of memory about 60% through",
    # "segfaulted on the big file")
    r"|^\W*((it|that|this)\s+)?(crashed|died|froze|hung|errored|failed)(\s+(again|too))?"
    r"\s*([.!?,]|$|i think|with|on|at|after|when|while|because)"
    r"|\b(ran|runs|running|run)\s+out\s+of\s+(memory|ram|heap|disk|space)\b"
    # what a run did ("they both exit immediately") and what a try gave ("I tried to run the
    # gui using your instructions and got: …")
    r"|(?<!make )(?<!makes )(?<!let )(?<!have )(?<!should )(?<!to )"
    r"\b(it|they|both|this|that|app|gui|server|process|program|script|window|commands?)\s+"
    r"(both\s+|all\s+|just\s+)?(exits?|exited|quits?|closes|closed|crashes|dies|died)\s+"
    r"(immediately|right away|"
    r"instantly|at once|straight away|on (start|startup|launch))\b"
    r"|\b(tried|ran|run|running|launched|started)\b[^.?!\n]{0,80}\band (got|get)\s*:"
    r"|\b(got|gets|was|were|get|been)\s+(oom[- ]?)?killed\b|\bsegfault(ed|s)?\b"
    # the output described as wrong ("the output has a lot of users with empty names")
    r"|\b(output|result|results|list|report|export|file|table|page|data)\s+(has|have|contains?|"
    r"shows?|includes?|is full of)\s+(a lot of|lots of|many|some|several|a bunch of|tons of|"
    r"too many|\d+)\s+(\w+\s+){0,3}(with\s+)?(empty|blank|missing|duplicated?|wrong|broken|"
    r"invalid|garbage|garbled|null|undefined|nan)\b"
    r"|\b(is|are|was|were|isn'?t|aren'?t)\s+not\s+(reflected|showing up|updated|saved)\b"
    r"|\b(isn'?t|aren'?t|wasn'?t|weren'?t) (reflected|showing up|updated|saved)\b"
    r"|\bwhere (did|have) (all )?my\b[^.?!\n]{0,40}\bgo(ne)?\b|\bwhere (is|are|'s)? ?all my\b"
    r"|\b(we|you|it)\s+(just\s+)?(lost|deleted|removed|broke|dropped|wiped|overwrote)\b"
    # what a run seems to have done ("When I reran the enrich, it appears to have removed
    # the section"), and a run that timed out ("hermes timed out on the enrich")
    r"|\b(it|this|that|they|which)\s+(appears|seems|seem|appear)\s+to\s+have\s+(removed|deleted|"
    r"lost|broken|dropped|wiped|overwritten|replaced|reverted|undone|erased|corrupted)\b"
    r"|\b(?!(if|when|whenever|before|once|until)\b)\w+\s+timed out\b"
    r"|\bi\s+(just\s+)?lost (all|my|the|every)\b"
    r"|^\W*(oh no|uh oh|oops|hmm+,? no)\b|\bare you sure\b|\bthat'?s not (it|right|the issue)\b"
    # the agent's claim doubted ("does formatting really succeed?" after "formatting is
    # clean") and a mismatch found in the result ("note the following name discrepancy")
    r"|\b(does|did|do|is|are|was|were|has|have)\s+(\w+\s+){0,2}really\s+(succeed|succeeded|"
    r"work|works|worked|pass|passed|run|ran|fix|fixed|build|built|compile|compiled|finish|"
    r"finished|complete|completed|format|formatted)\b"
    r"|\b(note|notice|noticed|there'?s|there (is|are)|i see|i found|found|seeing)\b[^.?!\n]{0,40}"
    r"\b(discrepanc(y|ies)|mismatch(es)?|inconsisten(cy|cies))\b"
    + _WRONG_ANSWER
    + r"|\b(i|we) (still )?(don'?t|do not|can'?t|cannot|didn'?t|did not) (see|find|hear) "
    r"(the|any|my|our|it|them|a|anything|nothing)\b"
    r"|\b(seemed|seems|seem) to (hang|freeze|stall|be hanging|be stuck)\b"
    r"|\b(did|are|were) (you|it) (just )?(hang|hanging|freeze|freezing|stall|stalling|get stuck|"
    r"stuck|crash|die)\b"
    r"|\bthere (are|is|were|was) (still |some |a few |many |several |new |more |\d+ )?"
    r"(errors?|exceptions?|failures?|crash(es)?)\b"
    r"|^\W*(errors?|exceptions?|failures?|crash(es)?) (in|on|during|when|while|with|from)\b"
    r"|\b(is|was) there (a|an|any) (problem|issue|error)\b|\bhow did .{0,60}\bhappen\b"
    r"|(^|[.!?]\s+)\W*what happened\b|\bwhat happened\s*\?"
    r"|\bi (only|just) (wanted|asked|meant)\b|\bi (wanted|asked for|meant) (only|just)\b"
    r"|\bi (didn'?t|did not|never) (want|ask)(ed)?( you)? (to|for)\b"
    r"|\b(is|are|was|were|'s|looks|seems|feels|reads)\s+(still\s+|way\s+|far\s+|much\s+|a bit\s+|"
    r"a little\s+)?too\s+(long|short|verbose|wordy|big|small|large|wide|narrow|tall|dense|busy|"
    r"cluttered|slow|loud|bright|dark|complex|complicated|generic|vague|formal|confident|strong|"
    r"optimistic|aggressive|certain|assertive|harsh|salesy|repetitive|technical)\b"
    r"|\b(that'?s|this is|it'?s) not what i (asked|wanted|meant)\b|\bi (said|told you)\b"
    r"|\b(came back|are back|is back|back again|back into|reappear(ed|s)?|"
    r"showing up again)\b"
    r"|\b(seem|seems|appear|appears|look|looks)\s+(to be\s+)?(either\s+)?(stuck|broken|hung|"
    r"frozen|dead|empty|wrong|off|missing|blank)\b"
    # what the person meets: an error or the same result again ("I'm getting a 500", "still
    # seeing the old page"); not what they are fetching or describing ("I'm getting an IP
    # for the one on sdf1", "the effects we're seeing are subtle")
    r"|\bstill (getting|seeing)\b"
    r"|\b(i'?m|i am|we'?re|we are) (getting|seeing)\b(?=[^.?!\n]{0,60}\b(errors?|exceptions?|"
    r"warnings?|failures?|crash(es)?|blank|empty|wrong|stale|nothing|undefined|null|nan|same|"
    r"old|issues?|problems?|bugs?|\d{3})\b)"
    r"|\b(i|we) (get|got|see|saw)\b[^.?!\n]{0,40}\b(error|exception|warning|failure|crash|"
    r"blank|nothing|404|500|undefined|null|nan)\b"
    # ("that" opening a relative clause, "a diagram that shows our design", "an endpoint
    # that returns the users", describes what to build: a request, no report)
    r"|\b(it|this|(?:(?<![a-z] )|(?<=\bbut )|(?<=\band )|(?<=\bnow )|(?<=\bso )|(?<=\bstill ))"
    r"that|the \w+( (?!(still|also|now|just|only|never|"
    r"always|really)\b)\w+)?) "
    r"(says|shows|throws|gives|returns|prints|crashes|crashed|"
    r"fails|"
    r"failed|breaks|broke|hangs|freezes)\b"
    r"|\b(still|now|it|this|that|they|which|everything|build|tests?|page|app)\s+(fails|failed|"
    r"crashes|crashed|breaks|broke|errors|errored|hangs|freezes)\b"
    # a failure the person met ("'just fmt' fails for me", "the tests fail when I run them")
    r"|\b(fails|failed|fail|breaks|crashes)\s+(for me|on my (machine|side|end|computer|phone)|"
    r"locally|again|every time|each time|when i (run|try|open|click|start))\b"
    r"|\b(tests|builds|checks|commands|scripts|jobs|pipelines|deploys|deployments)\s+(still\s+)?"
    r"(fail|failed|are failing|keep failing)\b"
    # trouble the person meets ("I have trouble with my trackpad: when I want to scroll up
    # in that timeline …", "we're running into issues when deploying")
    r"|\b(i'?m|i am|we'?re|we are|i|we) (still )?(having|have|had|running into|ran into|run into) "
    r"(some |a |an |real |the same |a lot of )?((trouble|problems?|issues?|difficult(y|ies))"
    r"\s+(with|when|while|getting|using|running|installing|building|compiling|deploying|"
    r"connecting|logging|loading|opening|starting|launching|scrolling|clicking|saving|"
    r"accessing|importing|reaching|seeing)\b|(trouble|problems|issues|difficulties)\s*([.!]|$))"
    # what the person cannot do with the result ("It seems I cannot remove the default
    # styles", "I can't log in")
    r"|\b(i|we) (still )?(can'?t|cannot|am unable to|am not able to) (remove|delete|edit|save|"
    r"log ?in|sign ?in|open|click|scroll|select|upload|download|change|add|create|submit|drag|"
    r"type|move)\b(?![^.?!\n]{0,20}\b(myself|by hand|manually)\b)"
    # (a constraint with its reason is no report: "i cant delete the default ruleset as it
    # is set by my organisation")
    r"(?![^.?!\n]{0,60}\b(as|because|since|due to)\b)"
    r"|\b(is|are|was|were|got|gets|seems|looks|it'?s|that'?s)\s+(now\s+|still\s+)?(broken|buggy|"
    r"failing|crashing)\b|\bregress(ed|ion)\b"
    # a result in the words people use for it: CI gone red, a status code met, a control
    # that does nothing, a thing messed up or slower than before, a check that fails, a
    # blank screen ("the build is red on CI", "getting a 404 when I open /about", "the
    # button does nothing", "lint fails", "white screen")
    r"|\b(build|builds|ci|pipeline|checks?|tests?|workflow|job)\s+(is|are|was|were|went|turned|"
    r"goes|stays?)\s+(still\s+|all\s+)?red\b"
    r"|\b(getting|got|hitting|seeing)\s+(an?\s+|the\s+)?(http\s+)?[45]\d\d\b"
    r"|(?<!should )(?<!must )(?<!to )\b(does|did)\s+nothing\b(?!\s+(if|unless|until)\b)"
    # what the result does not let the person do, or keeps doing ("it wont let me since it
    # keeps saying loop", "it keeps asking me to log in again")
    r"|\b(it|this|that|they|the \w+)\s+(won'?t|will not|doesn'?t|does not|didn'?t|did not)\s+"
    r"let (me|us)\b"
    r"|\b(it|this|that|they|the \w+)\s+(still\s+)?keeps?\s+(saying|asking|showing|giving|"
    r"throwing|returning|crashing|failing|popping up|redirecting|looping|spinning|reloading|"
    r"logging (me|us) out)\b"
    r"|\b(is|are|was|were|got|gets|looks?|seems?|it'?s|that'?s|everything'?s)\s+(now\s+|still\s+|"
    r"all\s+|completely\s+|totally\s+)?(messed|screwed|borked|busted) ?(up)?\b"
    r"|\b(slower|worse|buggier|laggier|glitchier)\s+than\s+(before|it was|yesterday)\b"
    r"|^\W*(the\s+)?(lint|linting|linter|typecheck|type ?check(ing)?|tsc|mypy|eslint|ruff|ci|"
    r"pipeline|compil(e|ation)|install(ation)?|deploy(ment)?|migrations?|login|upload|checks?)\s+"
    r"(still\s+)?(fails|failed|is failing|are failing|errors|errored|breaks|broke)\b"
    r"|^\W*((just|only|still|now)\s+)?(an?\s+)?(white|blank|black|empty)\s+(screen|page|window)\b"
    # less than all of it works ("not everything works", "everything works except the
    # login"), and a thumbs-down alone
    r"|^\W*not (everything|all( of)?( it| them| the \w+)?) (works?|is working|are working|loads?|"
    r"shows?|passe?s?)\b|\b(everything|all|it) (works|is working)(,)? (except|apart from|"
    r"other than)\b|^\s*(\U0001F44E(\ufe0f|[\U0001F3FB-\U0001F3FF])?\s*)+[!.]*\s*$"
    # asks why something fails ("why is the command being blocked?", "why does the build
    # still fail?")
    r"|\bwhy (is|are|was|were|does|do|did) (it|this|that|they|the \w+( \w+)?|my \w+)"
    r"( still)? (being )?(blocked|failing|fail|broken|crashing|crash|denied|rejected|empty|"
    r"timing out|hanging)\b"
    r"|\b(doesn'?t|does not|don'?t|didn'?t) (look|sound|feel|read) (quite )?(right|good|correct|"
    r"like)\b"
    r"|\b(try|please) (to fix|fix)\b|\bfix (it|this|that|these|those)\b(?!\s+[a-z])"
    r"|(^\W*|\b(it|this|that|they)\s+(is|are|was|'s)\s+)not (just|only)\b"
    r"|^\W*not\s+(?!(sure|bad|yet|now|only|just|really|much)\b)[^.?!\n]{1,60}?\bbut\b"
    # where it should have gone set against where it went ("that should be put into the
    # user's claude.md not the project one", "this belongs in utils, not in the component")
    r"|\b(should|must|needs? to|has to|ought to) (be |go |live |sit )?(put |placed |added |"
    r"moved |saved |written |stored |kept )?(in|into|under|inside|at)\s"
    r"(?:[^.?!\n]|\.(?=\S)){1,60}?[,;]?\s+(and )?not\s+(in|into|under|inside|at|the|my|our|"
    r"this|that)\b"
    r"|\bbelongs? (in|into|under|inside|to)\s(?:[^.?!\n]|\.(?=\S)){1,60}?[,;]?\s+not\s+"
    r"(in|into|under|inside|to|the|my|our|this|that)\b"
    r"|\b(it|this|that|they|which|version)\s+(is|are|was|'s|shows)\s+still\b"
    r"(?!\s+(in progress|pending|open|a draft|being|to be|needed|required|useful|fine|good))"
    # what the agent changed, named ("the starting threshold values are still -1000000")
    r"|^\W*the\s+(\w+\s+){0,3}(is|are|was|were)\s+still\b(?!\s+(in progress|pending|open|"
    r"a draft|being|to be|needed|required|useful|fine|good|running|loading|building|working))"
    r"|(?<!what's )(?<!whats )(?<!what is )(?<!went )(?<![-_/])\bwrong\b(?![-_/]\w)"
    r"|\bstill (doesn'?t|does not|don'?t|do not|didn'?t|did not) (have|contain|include)\b"
    # an error message's own opening, pasted or retyped ("Cannot apply unknown utility
    # class `border-primary-400/40`", "Failed to compile")
    r"|^\W*(cannot|could not|couldn'?t|unable to|failed to)\s+\w+"
    r"|\bincorrect(ly)?\b|\bnot what i\b|\byou (forgot|missed|ignored|broke|deleted|"
    r"removed|didn'?t)\b|\bstill (fail|failing|fails|broken|wrong|not|no|nothing|the same|"
    r"isn'?t|aren'?t|doesn'?t|don'?t|won'?t|can'?t|"
    r"an? (error|issue|problem|bug))\b",
    re.IGNORECASE,
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
    r"\b(can|could|should|shall|would|why|couldn'?t|can'?t|shouldn'?t|wouldn'?t)\s+(we|you|i|it)"
    r"\s+not\b|\bwhy (don'?t|not)\b",
    re.IGNORECASE,
)
#: Asks to take the work back: a verdict on it whatever the wording.
_UNDO = re.compile(
    r"^\W*(please\s+)?(revert|undo|roll ?back|put (it|that|them) back)\b(?![./_-]\w)|"
    r"\b(revert|undo|roll ?back) (that|this|it|those|these|"
    r"the (last|previous) (change|commit|edit)s?|your (change|commit|edit)s?)\b|"
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
    r"as[- ]is|unchanged|untouched)\b",
    re.IGNORECASE | re.MULTILINE,
)
#: "no, …" as the first word of a reply.
_NO_OPEN = re.compile(
    r"^\W*(no|nope|nah|nein|non|não|нет|hayır)\b\s*([,.!:;\-–—]|$)"
    # the same "no" in the languages without spaces between words, before their comma or
    # stop ("違う、単純にP5を消すだけで良かった", "不对，…", "아니, …"), and "いや別に…" (nah, …)
    r"|^\W*(違う|ちがう|違います|いや|いいえ|不是|不对|不對|아니요?|아뇨)\s*([、。，,.!！:：]|\s|$)"
    r"|^\W*いや別に",
    re.IGNORECASE,
)
#: The person says the turn starts something else.
_EXPLICIT_NEW = re.compile(
    r"^\W*(new (feature|task|request|idea|topic)|next (task|feature|thing)|another (task|thing|"
    r"question|feature)|unrelated|different (topic|question|task)|switching (gears|topics)|"
    r"never ?mind|forget (it|that|about))\b",
    re.IGNORECASE,
)
#: "never commit to main; …": forbids an action outright (a correction once the agent acted).
_PROHIBITION = re.compile(
    r"^\W*(never|don'?t ever|do not ever|(we|you) (really |probably )?(should|must)(n'?t| not)"
    r"( have)?)\s+\w+",
    re.IGNORECASE,
)
#: Opens by forbidding something ("don't …", "do not …", "never …").
_FORBIDS_OPEN = re.compile(r"^\W*(don'?t|do not|never)\b(?!\s+mind\b)", re.IGNORECASE)
#: A negation typed in capitals ("we probably should NOT file issues in this way", "Edit
#: plan to NOT mention Instructor"): the person stresses the reversal of what was done.
#: A deferral ("do NOT push yet") stresses an order of steps, not a reversal.
_SHOUTED_NO = re.compile(r"\b(NOT|NEVER|DON'?T)\b(?![^.?!,;\n]*\b(yet|until|before)\b)")
#: Hypotheticals ("will this work if the APIs are failing?") report no failure.
_CONDITIONAL = re.compile(
    r"\b(if|when|whenever|in case|what if|whether|unless|so that|otherwise|or else|"
    # a requirement set, no report ("make sure the debug panel is not visible in production")
    r"make sure|ensure|verify that|check that)\b[^.?!,;\n]*"
    # a warned consequence ("…, or the test will not work") is as hypothetical as an "if"
    r"|\bor\s+(?=[^.?!,;\n]{0,40}\b(will|would|won'?t|wouldn'?t)\b)[^.?!,;\n]*",
    re.IGNORECASE,
)
#: The greeting words a longer message may open with ("Hello can you …").
_HELLO = r"hi|hello|hey|hallo|hola|bonjour|salut|ciao|good (morning|afternoon|evening)"
_GREETING = re.compile(
    rf"^\W*({_HELLO}|ol[aá]|oi|privet|test|ping|konn?n?i(ch|t)iw?h?a|こんにちは|こんばんは|おはよう(ございます)?|你好|您好|"
    r"안녕(하세요)?|привет|здравствуйте|how are you|how'?s it going|what'?s up|как дела|ça va|"
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
#: Openings of an answer to the agent's question or offer.
_ANSWER = re.compile(
    r"^\W*(yes|yeah|yep|no|nope|ok|okay|sure|fine|done|option|the (first|second|third|last)|"
    r"\d+\b|[a-d]\)|let'?s (do|go with|use)|go with|i('?d)? (prefer|choose|pick|'ll take)|"
    r"both|neither|either)\b",
    re.IGNORECASE,
)
_CONTENT = re.compile(r"[a-z][a-z0-9_.-]{3,}")
_STOP = frozenset(
    [
        "this",
        "that",
        "with",
        "from",
        "have",
        "what",
        "when",
        "where",
        "which",
        "would",
        "could",
        "should",
        "there",
        "their",
        "them",
        "they",
        "then",
        "than",
        "your",
        "just",
        "like",
        "make",
        "sure",
        "also",
        "into",
        "about",
        "some",
        "more",
        "only",
        "very",
        "much",
        "want",
        "need",
        "does",
        "doesn",
        "done",
        "been",
        "being",
        "will",
        "were",
        "please",
        "thanks",
        "okay",
        "let's",
        "lets",
        "can't",
        "don't",
    ]
)


def topic_overlap(text: str, context: str) -> float:
    """Share of the turn's content words that the running episode already used."""
    words = {w for w in _CONTENT.findall(text.lower()[:1500]) if w not in _STOP}
    if not words:
        return 0.0
    seen = set(_CONTENT.findall(context.lower()[-6000:]))
    return len(words & seen) / len(words)


#: Redirects the approach without judging a result ("use pnpm instead", "why 32768?").
_REDIRECT = re.compile(
    r"^\W*(but\s+)?(why|use|try|instead|rather|don'?t|do not|stop|avoid|switch to|"
    r"please (use|don'?t|do not|try|avoid)|"
    r"can you (use|try|avoid)|let'?s (use|try|go with|not))\b"
    r"|\b(instead of|rather than)\b",
    re.IGNORECASE,
)
#: Plain acceptance of a proposal.
_ACCEPT_WORD = (
    r"(yes|yep|yeah|yup|y|ok|okay|k|sure|proceed|go ahead|go for it|do (it|that|this|so)|"
    r"please|pls|let'?s do it|please do|"
    r"sounds good|ship it|approve|approved|confirmed?|agreed|ja|oui|sí|sim|はい|好的|是的|"
    r"同意|可以|行|好|没问题|赞同|就这样|确认|確認|确定|开始(吧|执行|实施|重构|修改|实现)?|动手吧|"
    r"let'?s start|start (it|now)|start|begin|go|let'?s go|let'?s begin|いいです(よ|ね)?|"
    r"了解(です)?|네|좋아요|좋아|좋다|좋습니다|응|그래|그래요|오케이|"
    r"진행(해|해줘|해주세요|하세요|합시다)|동의합니다|동의해요|"
    r"đúng|đồng ý|được|vâng|evet|tamam|tamamdır|olur|peki|onaylıyorum|onayla|devam et|"
    r"devam edelim|да|давай|ага|хорошо|ок|окей|конечно|согласен|согласна|так|добре|sì|"
    r"va bene|certo|d'accordo|"
    # "do it", "go ahead" in the languages people write to agents in ("ja, mach das", "oui,
    # fais-le", "sí, hazlo", "pode fazer", "sì, fallo", "да, сделай это", "はい、お願いします",
    # "네, 해주세요", "好的，做吧")
    r"mach (das|es|mal)|mach'?s|leg los|nur zu|gerne|vas-y|allez-y|fais[- ](le|ça|ca)|"
    r"c'est parti|hazlo|h[aá]galo|adelante|dale|procede|pode fazer|fa[çc]a isso|faz isso|"
    r"pode seguir|prossiga|vai em frente|manda ver|bora|fallo|procedi|vai pure|fai pure|"
    r"сделай( это)?|делай|вперёд|お願いします|お願い|やってください|進めてください|해주세요|해줘|"
    # Japanese said plainly: "うん" (yeah), "そうしよう" (let's do that), "じゃあして" (then do
    # it), "それでお願い" (that way, please)
    r"うん|ええ|いいよ|(じゃあ|では|なら)?(そうしよう|そうして|それで(お願い(します)?|いこう)?|して)|"
    r"부탁(해요|합니다|해)|做吧|去做吧|执行吧|请执行|"
    # taking the agent's point: "you're right", "fair enough", "makes sense", "got it"
    r"(you'?re|you are|that'?s) (right|correct)|fair enough|(that )?makes sense|good point|"
    r"got it|understood|i see|"
    # Codex's plan mode sends "Implement the plan." when the person accepts its plan
    r"(implement|execute|go with) (the|this|that|your) plan|"
    # the proposal taken as it stands ("Go ahead with the implementation" after the agent's
    # sketch); "go ahead with option 2" picks one of several, a follow-up
    r"(go ahead|proceed|continue) with (the|this|that|your|these|those) (plan|implementation|"
    r"changes?|proposal|approach|design|fix(es)?|refactor|migration)|"
    # the agent's own suggestion taken ("let's go with your suggestion", "önerinle devam
    # edelim")
    r"(let'?s )?(go|continue|proceed|go ahead) with your (suggestion|recommendation|proposal)|"
    r"(önerin|önerini[sz]|tavsiyen|tavsiyeniz)le devam (et|edelim|edin))"
)
#: A sound of surprise before it ("oh ok you're right!", "ah, got it").
_INTERJECTION = r"((oh+|ah+|aha|hm+)\W+)?"
#: Acceptance and nothing else: one acceptance word or a run of them ("yes, go ahead",
#: "ok sure, do it"), with at most a word of urgency and a "please" or a "thanks".
_ACCEPT = re.compile(
    rf"^\W*{_INTERJECTION}{_ACCEPT_WORD}(\W+{_ACCEPT_WORD})*\W*"
    # ("yes immediately please", "ok right away")
    r"((right )?now|immediately|right away|asap)?\W*"
    r"(please|pls|plz|thanks|thank you|thx)?\W*$",
    re.IGNORECASE,
)
#: Opens with a verb: an instruction.
_IMPERATIVE = re.compile(
    r"^\W*(please\s+)?(run|add|make|use|create|fix|update|check|write|remove|change|test|"
    r"build|deploy|commit|push|merge|open|review|install|rename|move|delete|implement|"
    r"refactor|try|document|ensure|also|then|now|and)\b"
    # the same openings in the other languages people write to agents in
    r"|^\W*(vérifie[zs]?|ajoute[zs]?|crée[zs]?|corrige[zs]?|installe[zs]?|supprime[zs]?|"
    r"modifie[zs]?|fais|faites|lance[zs]?|implémente[zs]?|écri[st]|mets|mettez|peux-tu|"
    r"pouvez-vous|agrega|añade|crea|arregla|actualiza|instala|elimina|revisa|haz|puedes|"
    r"adicione|adiciona|crie|corrija|atualize|atualiza|instale|remova|verifique|faça|"
    r"füge|erstelle|korrigiere|aktualisiere|installiere|entferne|prüfe|überprüfe|"
    r"kannst du|добавь|создай|исправь|обнови|установи|удали|проверь|сделай|напиши|"
    r"можешь)\b"
    r"|^\W*(帮我|请|添加|创建|修复|更新|安装|删除|检查|实现|编写|生成|分析)",
    re.IGNORECASE,
)
#: A request in Chinese, Japanese or Korean after a verdict's comma ("现在加一个导出按钮",
#: "再把按钮改成蓝色", "次はエクスポートボタンを追加して", "이제 내보내기 버튼 추가해줘"): by its
#: opening "now / next" and verb, a 把 phrase, or a request ending. (Read only there: as a
#: turn's opening anywhere it would move the labelled set's Korean follow-ups.)
_CJK_REQUEST = re.compile(
    r"^\W*(现在|然后|接下来|再|顺便)(请|帮我)?(加|添加|增加|创建|修复|修改|改|更新|删除|实现|写|"
    r"生成|做|部署|提交|优化|重构)"
    r"|^\W*(再|也|请|帮我)?(把|将)[^，。\n]{1,30}(改成|改为|换成|设为|设置为|删掉|删除|加上|去掉)"
    r"|(して|してください|して下さい|しておいて|してほしい|お願いします?)\W*$"
    r"|(해줘|해 줘|해주세요|해 주세요|해봐|해줄래|부탁(해|해요|합니다|드려요|드립니다))\W*$"
)
#: The file a request acts on, named before its verb ("En el archivo /var/www/js/app.js
#: elimina …", "In src/app.ts, rename …", "Dans le fichier x.py, ajoute …").
_IN_FILE = re.compile(
    r"^\W*(in|en|dans|em|no|na|im)\s+((the|el|la|le|o|a|der|dem|das)\s+)?"
    r"(file|archivo|fichero|fichier|arquivo|datei)?\s*[`'\"]?[\w./~@-]+\.\w{1,6}[`'\"]?\s*,?\s+",
    re.IGNORECASE,
)
#: Asks for something in a question ("should we bump it to 3.0.3?", "can you add …").
_REQUEST = re.compile(
    r"^\W*(should|shall|can|could|would|will) (we|you|i)\b|^\W*let'?s\b|^\W*please\b",
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
    r"\blet'?s (also )?(make|add|create|build|write|include)\b|\bis there a way to\b",
    re.IGNORECASE,
)
#: Judges what the agent said (its answer or reasoning), not the code: a correction even
#: before the agent changed anything ("That can't be right, …", "this justification
#: really does not make a lot of sense to me").
_JUDGES_ANSWER = re.compile(
    _WRONG_ANSWER[1:]
    + r"|\b(that'?s|that is|this is|it'?s|it is) not (right|true|correct)\b|\bare you sure\b"
    r"|\byou'?re (wrong|mistaken)\b",
    re.IGNORECASE,
)
#: Says an earlier attempt left the state as it was.
_STILL = re.compile(r"\bstill\b|\b(keeps|kept) (on )?[a-z]+ing\b", re.IGNORECASE)
#: Asks the agent to do again what it was stopped doing.
_RETRY = re.compile(
    r"\b(try|do|run) (it |that )?again\b|\bretry\b|^\W*((ok|okay|done)\W+)?try (it )?now\b",
    re.IGNORECASE,
)
_CONTRAST = re.compile(r"\b(but|however|though|although|except|yet)\b", re.IGNORECASE)
#: A reply opening with a verdict that the work is good.
_APPROVAL_HEAD = re.compile(
    r"^\W*(thanks|thank you|thx|ty|perfect|excellent|awesome|great|nice|brilliant|cool|good|"
    r"lgtm|((that|this|it|everything) )?looks (good|great|fine|right|perfect|awesome|amazing|nice)|"
    r"works|it works|that works|that worked|works now|"
    r"merged|approved|ship it|shipped|all good|beautiful|amazing|wonderful|yay|"
    r"that'?s (good|great|perfect|it|right|better|correct)|this is (good|great|perfect)|"
    r"good job|well done|exactly|correct(?!\s+(the|this|that|these|those|it|them|my|your|our|"
    r"all|any|every|each|a|an)\b)|fantastic|sweet|love it|(this|that|it) works"
    # "working!", "it's working now" (not "working directory", "working on the parser")
    r"|((it|that|this|everything)'?s |(it|that|this|everything) is |all )?(now )?working"
    r"(?=\s*([!.,;:]|$|\s+(now|fine|great|perfectly|well|again|as expected)\b)))\b",
    re.IGNORECASE,
)
#: An acceptance word before the verdict ("yes, this is good", "ok, this works").
_ACCEPT_OPEN = re.compile(
    r"^\W*((ah+|oh+)\W+)?(yes|yeah|yep|ok|okay|sure|alright|of course|i see)\b[\s,.!:-]*",
    re.IGNORECASE,
)
#: Resumes the running work ("limits are reset. continue where you left off").
_RESUME = re.compile(
    r"\b(continue|resume|carry on|keep going|keep doing|go on|pick (it )?up|ti[eế]p t[uụ]c)\b",
    re.IGNORECASE,
)
#: Keep-going words: feedback without a verdict ("yes", "continue", "继续").
_GO_ON_WORDS = (
    r"continue|go on|go ahead|keep going|keep doing|proceed|carry on|yes|yep|yeah|yup|ok|okay|k|"
    r"sure|do it|please do|sounds good|go for it|try it|test it|run it|retry|resume|next|y|"
    r"weiter|ja|oui|sí|sim|continua|继续|好的|是的|はい|続けて|devam|evet|tamam|"
    r"да|давай|продолжай|продолжи|дальше|ti[eế]p t[uụ]c( đi| di)?"
)
#: The words of a go-ahead, a pick of what the agent offered among them ("option 2", "3").
_GO_AHEAD = rf"({_GO_ON_WORDS}|option \w+|\d+|[a-d]\)?)"
_CONTINUE = re.compile(r"^\W*" + _GO_AHEAD + r"\b", re.IGNORECASE)
#: A go-ahead word opening a longer reply ("ok, …"): not a bare number or letter, which
#: picks only as the whole reply (a pasted score card opens with its "60").
_GO_ON_OPENING = re.compile(rf"^\W*({_GO_ON_WORDS})\b", re.IGNORECASE)
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
#: What names a session other than this one ("previous sessions", "a previous Claude chat").
_ELSEWHERE_SESSION = r"\s+((claude|codex)\s+)?(sessions?|conversations?|chats?|threads?)\b"
#: Words that point at the previous turn ("this"/"these" usually point at the project;
#: "the REST API" is not "the rest" of the work).
_BACK_REF = re.compile(
    r"^\W*that\b|^\W*(please\s+)?[a-z]+ (that|those) [a-z]|"
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
    r"(the|these|this|those|your) ((recent|latest|last|previous) )?(new|changes?|fix(es)?|edits?)|"
    r"what you (did|changed|wrote)|your work|"
    # the agent's last act or words named ("when you tried executing bash commands right
    # now you reported errors", "you said the tests pass")
    r"(when|where|after) you (just )?(tried|ran|did|said|wrote|changed|reported)|"
    r"you (just )?(said|reported|mentioned|told me|claimed)|"
    # whether the person must start it again to see the change ("do I need to restart or
    # is there hot reload?", "should we rebuild first?")
    r"(do|does|will|would|should|shall|must) (i|we|it) ((need|have) to )?(restart|reload|"
    r"refresh|rebuild|reinstall|relaunch|redeploy|rerun|re-run|reopen|reboot)|"
    r"(for|of|on|commit|push|review|merge|test|check) "
    r"(the|this|that|all (of )?(the|this)) work)\b",
    re.IGNORECASE,
)
#: The agent said the work is finished.
_DONE_CLAIM = re.compile(
    r"\b(i'?ve|i have|we'?ve|we have)\s+(now\s+|successfully\s+|also\s+)?(added|updated|fixed|"
    r"created|implemented|changed|modified|removed|refactored|written|wrote|replaced|renamed|"
    r"moved|set up|configured|installed|completed|finished|made|migrated|resolved|cleaned|"
    r"converted|deleted|restored|improved|enabled|disabled|applied|committed|pushed)\b"
    # the same in the simple past ("I created CLAUDE.md with …", "we added a test")
    r"|\b(i|we)\s+(now\s+|also\s+|just\s+)?(added|updated|fixed|created|implemented|"
    r"changed|modified|removed|refactored|wrote|replaced|renamed|moved|configured|installed|"
    r"migrated|resolved|converted|deleted|restored|enabled|disabled|applied|committed|pushed)\b"
    r"|\b(all )?(\d+ )?(tests|checks|specs) (now )?(pass|passed|are passing)\b"
    r"|\b(is|are|has been|have been|was|were) (now )?(successfully )?(fixed|updated|added|"
    r"implemented|complete|completed|done|working|resolved|in place|ready|merged|created|"
    r"committed|pushed|deployed)\b"
    r"|^[^\w\n]*(done|all done|finished|complete|fixed|implemented|updated|released|published|"
    r"deployed|merged|pushed|committed|shipped|created|added|removed|renamed|wrote|refactored|"
    r"replaced|installed|configured|changed|modified|deleted|restored|converted|migrated)\b"
    r"|\bsuccessfully\b|\bsummary\b|✅|\bshould now\b"
    r"|\bnow (works|shows|displays|uses|handles|has|supports|correctly)\b"
    r"|\bhere'?s (a summary|what i|what was)\b|\bthe (fix|change|changes|implementation) "
    r"(is|are|has|have)\b|\bi made the following\b|\bchanges made\b|\bnow (be|work)\b"
    # the same claim in the other languages agents answer in: "已生成…", "修正しました",
    # "수정했습니다", "He actualizado", "Adicionei", "J'ai ajouté", "Ich habe … behoben",
    # "Готово", "Я добавил"
    r"|已(经)?(完成|生成|修改|修复|添加|更新|创建|实现|删除|提交|推送|部署|合并|改好|改成|重构)"
    r"|已(经)?(给|給|把|将|將|为|為)[^。\n]{1,40}(加上|添加|改为|改成|换成|換成|设置|設定|更新|修复|"
    r"修復|删除|刪除|移除)"
    r"|(设置|設定|配置|修改|修复|修復|部署|安装|安裝|更新|实现|實現|处理|處理)(完成|好了)|"
    r"(改|修|弄|做|搞|写|寫|加|装|裝)好了"
    # the agent names the commit it made ("コミット\n- 34d48bb fix: …", "Committed: 1a2b3c4")
    r"|(コミット|已提交|提交了|커밋|\bcommitted\b|\bcommit\b(?=\s*[:：]))[^\n]{0,30}?"
    r"(\n\s*[-*•]?\s*)?`?\b[0-9a-f]{7,12}\b"
    r"|(完成|修正|追加|作成|更新|実装|削除|変更|対応)(しました|済み)|完了しました"
    r"|(완료|추가|수정|생성|변경|구현|삭제|반영)(했습니다|하였습니다|됐습니다|되었습니다)"
    r"|\b(he|hemos) (añadido|actualizado|corregido|creado|implementado|cambiado|eliminado)\b"
    r"|\b(adicionei|atualizei|corrigi|criei|implementei|alterei|removi|ajustei)\b"
    r"|\bj'ai (ajouté|mis à jour|corrigé|créé|implémenté|modifié|supprimé)\b"
    r"|\b(ich habe|habe)\b[^.\n]{0,60}\b(hinzugefügt|aktualisiert|behoben|erstellt|"
    r"implementiert|geändert|entfernt)\b"
    r"|\bготово\b|\bя (добавил|обновил|исправил|создал|реализовал|изменил|удалил)\b"
    # "successfully" and the passive report ("Archivo creado exitosamente", "Mejoras
    # aplicadas con éxito", "se ha actualizado …", "foi criado", "a été ajouté", "wurde
    # erstellt"), and a one-word verdict opening the reply ("¡Listo!", "Pronto", "Fertig")
    r"|\b(exitosamente|con [ée]xito|com sucesso|avec succès|erfolgreich)\b"
    r"|\b(se ha|se han|ha sido|han sido|foi|foram|a été|ont été|wurde|wurden)\s+(\w+\s+)?"
    r"(cread[oa]s?|actualizad[oa]s?|corregid[oa]s?|añadid[oa]s?|agregad[oa]s?|eliminad[oa]s?|"
    r"implementad[oa]s?|aplicad[oa]s?|criad[oa]s?|atualizad[oa]s?|adicionad[oa]s?|"
    r"removid[oa]s?|créée?s?|mise?s? à jour|corrigée?s?|ajoutée?s?|supprimée?s?|erstellt|"
    r"aktualisiert|behoben|hinzugefügt|entfernt|angewendet)\b"
    r"|^[^\w\n]*(listo|hecho|terminado|pronto|feito|terminé|fertig|erledigt)\b",
    re.IGNORECASE | re.MULTILINE,
)
_ASKS = re.compile(
    r"[?？]\s*$"
    # a question, then how to answer it ("你想找什么样的人？直接描述就行，例如：`…`",
    # "Which repo should I use? For example: `org/app`")
    r"|[?？][^?？]{0,200}(例如|比如|for example|for instance|e\.g\.|zum beispiel|par exemple|"
    r"por ejemplo|например)[^?？]{0,300}$"
    # a checkpoint that waits on the person ("Type \"approved\" if user scan works
    # correctly, or describe any issues", "Warte auf deine Entscheidung welchen Weg …")
    r"|\b(type|reply|respond|say|enter) [\"'`“*]+[\w-]+[\"'`”*]+ (if|when|to|once)\b"
    r"|\bor describe (any|the|what)\b"
    r"|\b(waiting|wait) (for|on) your (decision|input|choice|go-ahead|answer|confirmation|"
    r"approval)\b|\bwarte auf (deine|ihre|eure) (entscheidung|antwort|rückmeldung|freigabe|"
    r"bestätigung)\b|\bj'attends (ta|votre) (décision|réponse|confirmation)\b|"
    r"\bespero (tu|su) (decisión|respuesta|confirmación)\b|"
    r"\baguardo (sua|tua) (decisão|resposta|confirmação)\b|жду (твоего|вашего) (решения|ответа)"
    r"|\b(would you like|do you want|should i|shall i|let me know|which (one|option|"
    r"approach)|want me to|reply with|pick (one|a number)|choose (one|from)|"
    r"tell me (what|whether|if|which|where|how) (you|it|that|this|they)|"
    r"can you (confirm|share|run|try|check|paste|provide)|could you "
    r"(confirm|share|run|try|check|paste|provide)|please (confirm|let me know|choose|select))\b",
    re.IGNORECASE,
)
#: The agent invites a fresh request ("What can I help you with?", "Anything else?").
_INVITES = re.compile(
    r"\b(what can i (help|do)( you)?( with)?|how can i help|anything else|what (would|do) you "
    r"(like|want)( me)? to (do|work on|focus on)( next)?|what'?s next|what should i (do|work on) "
    r"next|ready for (the |your )?next (task|request|one|step|thing)|let me know what (else |"
    r"specific |other )?((task|thing|part)s? )?(you'?d like|you want|you need|to (do|work on|"
    r"build|look at))|what (else )?do you need)\b"
    # the same open question in the other languages agents answer in
    r"|有什么(我)?(可以|能)(帮|为)|需要我(帮|做)(你|您)?(做)?什么|我(可以|能)为(你|您)做(些)?什么|"
    r"何か(お手伝い|手伝え)|何をしましょうか|무엇을 도와드릴까요|도와드릴 (일|것)|"
    r"en qu[ée] (te|le|les) puedo ayudar|(como|em que) posso (te |lhe )?ajudar|"
    r"comment (puis-je|je peux) (vous|t') ?aider|wie kann ich (dir|ihnen|euch) helfen|"
    r"чем (я )?могу (вам |тебе )?помочь|có thể giúp gì",
    re.IGNORECASE,
)
#: The agent proposes a plan and waits for the go-ahead (a proposal, not a result).
_PROPOSAL = re.compile(
    r"\b(shall i|should i|want me to|ready to) (proceed|go ahead|start|implement|make|apply|"
    r"begin|continue)\b|\bhere'?s (the|my) plan\b|\bproceed\?|\bcould you (restart|run|try)\b",
    re.IGNORECASE,
)
#: Lettered choices the agent laid out ("**A** — …", "B) …", "Option C", "**Option 1 —
#: Pin to an older version**"): a bare "yes" to them picks the one it recommended, an
#: answer inside the task rather than a verdict.
_LETTERED_OPTIONS = re.compile(
    r"\*\*\(?[A-D]\)?\*\*|^[^\S\n]*[-*]?[^\S\n]*\(?[A-D]\)\s|\b[Oo]ption (?:[A-D]|[1-9])\b",
    re.MULTILINE,
)
#: A number in a reply ("5", "#3", "target 2"), not part of a figure ("5 minutes").
_ITEM_NUMBER = re.compile(
    r"(?<![\w.,/:-])#?([1-9]|1\d)(?![\w.,/:%-])(?!\s*(min|minutes?|secs?|seconds?|hours?|hrs?|"
    r"days?|weeks?|months?|years?|times|px|ms|mb|gb|kb|x|files?|lines?|tests?|items?|pages?|"
    r"people|users?|more|of)\b)",
    re.I,
)


def picks_listed_item(region: str, agent_text: str) -> bool:
    """The reply names a number that heads an item of the numbered list the agent's
    last words laid out ("5. **Install as wfc-skill-fixer skill**")."""
    numbers = {m.group(1) for m in _ITEM_NUMBER.finditer(region)}
    if not numbers:
        return False
    tail = _last_words(agent_text, 2500)
    return any(re.search(rf"(?m)^\s*(?:[-*]\s+)?(?:\*\*)?{n}[.)]\s", tail) for n in numbers)


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
_PUSHBACK = re.compile(r"^\W*(no|not|why|wait|hmm+|actually|instead)\b", re.IGNORECASE)
_AGENT_GAVE_UP = re.compile(
    r"\b(i (couldn'?t|could not|was unable|wasn'?t able|am unable|can'?t|cannot) "
    r"(get|make|find|fix|reproduce|figure)|unfortunately|still (fail|failing|broken))\b"
    # stopped short for want of what it was not given ("I can't proceed yet: the feature
    # spec file is missing", "Please run the command again with the actual description"),
    # or a prompt's own error as its whole answer (Spec Kit's `ERROR "No feature
    # description provided"`)
    r"|\bi (can'?t|cannot|am unable to|couldn'?t|could not) (proceed|continue|go on)\b"
    r"|\bplease (re-?run|run) (the|this) command again\b"
    # the model refusing the request ("I'm sorry, but I can't assist with that.")
    r"|\bi (can'?t|cannot|won'?t|am unable to) (assist|help) with (that|this)\b"
    r"|(?-i:^\W*ERROR\b)",
    re.IGNORECASE,
)
_WORD = re.compile(r"\w+", re.UNICODE)
#: Openings that only make sense as a change to what was just delivered.
_FOLLOW_STRONG = re.compile(
    r"^\W*(but|however|actually|instead|make it|make them|it should|this should|that should|"
    r"same for|similarly|can you also make|could you also make)\b",
    re.IGNORECASE,
)
#: "also"/"now"/"next" followed by a new piece of work rather than a tweak.
_NEW_WORK = re.compile(
    r"^\W*(let'?s\s+)?(also|now|next|then|and)[,:]?\s+"
    r"(let'?s\s+|please\s+|can you\s+|could you\s+)?"
    r"(add|migrate|implement|create|write|build|set up|setup|refactor|port|convert|integrate|"
    r"introduce|support|deploy|release|publish|document|upgrade|rewrite|extract)\b|"
    # the same in French, Spanish, Portuguese, German and Italian ("Maintenant ajoute un
    # bouton export", "Ahora agrega …", "Agora adicione …", "Jetzt füge … hinzu")
    r"^\W*(maintenant|ensuite|puis|et aussi)[,:]?\s+(peux-tu\s+|pourrais-tu\s+|il faut\s+)?"
    r"(ajoute|crée|implémente|écris|construis|déploie|migre|intègre|documente|rédige|"
    r"mets en place)\b|"
    r"^\W*(ahora|luego|después|y también)[,:]?\s+(puedes\s+|podrías\s+|por favor\s+)?"
    r"(agrega|añade|crea|implementa|escribe|construye|despliega|migra|integra|documenta)\b|"
    r"^\W*(agora|depois|em seguida|e também)[,:]?\s+(pode\s+|podes\s+|por favor\s+)?"
    r"(adicione|adiciona|crie|cria|implemente|implementa|escreva|escreve|construa|migre|"
    r"integre|documente)\b|"
    r"^\W*(jetzt|dann|als nächstes|außerdem)[,:]?\s+(bitte\s+)?"
    r"(füge|erstelle|implementiere|schreibe|baue|migriere|integriere|dokumentiere)\b|"
    r"^\W*(ora|adesso|poi|inoltre)[,:]?\s+(puoi\s+|per favore\s+)?"
    r"(aggiungi|crea|implementa|scrivi|costruisci|migra|integra|documenta)\b|"
    # and in Chinese, Japanese and Korean ("现在加一个导出按钮", "次はエクスポートボタンを追加して",
    # "이제 내보내기 버튼 추가해줘")
    r"^\W*(现在|接下来|然后)(请|帮我)?(加|添加|增加|创建|实现|写|做|部署)|"
    r"^\W*次は[^。\n]{0,40}(追加|作成|実装|作って|書いて)|"
    r"^\W*(이제|다음(은|으로)?)\s[^.\n]{0,40}(추가|만들|구현|작성)",
    re.IGNORECASE,
)
#: A line of a pasted finding or spec that says what to do ("Fix: Add Content-Signal
#: directives to your robots.txt …", "TODO: remove the old route").
_FIELD_INSTRUCTION = re.compile(
    r"^[^\w\n]*(fix|task|todo|to do|action|next step|step \d+|required|requirement)[^\S\n]*:"
    r"[^\S\n]*(?P<rest>.+)",
    re.IGNORECASE | re.MULTILINE,
)


def _asks_in_a_field(region: str) -> bool:
    """A pasted finding or spec whose "Fix:" / "TODO:" line asks for a change."""
    return any(
        _IMPERATIVE.search(match["rest"]) for match in _FIELD_INSTRUCTION.finditer(region[:4000])
    )


#: Opens by setting a next piece of work of the person's own ("i think we should do a
#: release now", "Let's make a small code change", "we need to add …").
_OWN_NEXT_STEP = re.compile(
    r"^\W*(i think\s+|so\s+|now,?\s+)?"
    r"(we should|we need to|let'?s|i want to|i'?d like to|i need to)"
    r"\s+(now\s+)?(do|make|start|create|add|build|write|set up|setup|cut|prepare|ship|publish|"
    r"release|deploy|work on|move on to|tackle)\b",
    re.IGNORECASE,
)
#: After a verdict, "now" or "next" turns to the next piece of work when a request follows
#: ("great! Next, please investigate …", "perfect, now can you polish the whole website",
#: "Thank you. Now where are we in our … project?"); not when it hands something over for
#: the work at hand ("thanks. Now here is the session id …"), asks to check that work
#: ("OK. Good. Now verify …"), or asks nothing ("great, now I can finally sleep").
_TURNS_TO_NEXT = re.compile(
    r"^\W*(and\s+|so\s+)?(now|next)\b(?!\s*(here|here'?s|this is|these are|time)\b)"
    r"(\s*[,:])?\s+(please\s+|(can|could|would) (you|we)\s+|let'?s\s+)?"
    r"(?!(verify|check|test|confirm|double[- ]check|make sure|ensure|run|try|commit|push|fix|"
    r"review|re-?run|retry)\b)"
    r"((please|(can|could|would) (you|we)|let'?s|we (should|need to|have to|must)|"
    r"i (want|need|would like|'d like) to|i wanna|where|what|how|which)\b|"
    r"\w[^.!?\n]{0,80}\b(can|could) you\b)",
    re.IGNORECASE,
)


def _sets_next_work(text: str) -> bool:
    """After a verdict, the text sets the next piece of work: new work ("now add …"), the
    person's own next step ("we should do a release"), or "now"/"next" with a request."""
    return bool(
        _NEW_WORK.search(text) or _OWN_NEXT_STEP.search(text) or _TURNS_TO_NEXT.search(text)
    )


#: Opens with a goal of the person's own ("I want to …", "now I'd like to …"); not a wish to
#: know or see something, which asks about the work at hand.
_STATES_GOAL = re.compile(
    r"^\W*((now|ok(ay)?|so|next)\W+){0,2}i\s*((want|would like|'d like|need)\s+to|wanna)\s+"
    r"(?!(know|understand|see|ask|confirm|check|make sure|be sure|clarify)\b)",
    re.IGNORECASE,
)
#: Opens with the person's own stance or observation ("I very much like this idea",
#: "i think it is not required..", "I saw in passing that …", "yea, i already had …").
_STANCE = re.compile(
    r"^\W*((oh|yea|yeah|yes|ok|okay|so|well|hmm+),?\s+)?i\s+((very much|really|actually|just|"
    r"already|somewhat|also|still|do|did|don'?t|didn'?t|do not|did not|much)\s+)*(like|love|hate|"
    r"dislike|think|thought|believe|feel|saw|see|noticed|found|find|had|have|agree|disagree|"
    r"prefer|guess|suppose|understand)\b",
    re.IGNORECASE,
)
#: A sentence that asks for something.
_ASKS_FOR = re.compile(
    r"^\W*((now|so|then|ok|okay|but|and),?\s+)?((can|could|would|will) you|please|let'?s|"
    r"(we|you) (now |also )?(need|have) to|"
    r"(go back and )?(list|explain|propose|tell me|show me|describe|summari[sz]e|compare|write|"
    r"replace|add|make|create|build|update|change|remove|fix|implement|look at|check|review|"
    r"find|give me|suggest))\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+|\.\.+\s*|\n+|;\s+")


def _own_request(region: str) -> str:
    """After a stance ("I very much like this idea, …"), the later sentence that asks
    for something ("Can you list … the strengths of this proposal?"); "" when none."""
    if not _STANCE.search(region):
        return ""
    sentences = [x.strip() for x in _SENTENCE_END.split(region) if x and x.strip()]
    for index in range(len(sentences) - 1, 0, -1):
        if _ASKS_FOR.search(sentences[index]):
            return " ".join(sentences[index:])
    return ""


#: A pasted image or document as harvested ("[image: image/png, 66273 bytes]").
_IMAGE = re.compile(r"\[(?:image|document): [^\]]*\]\s*", re.IGNORECASE)
#: Asks to change a thing by its definite name ("make the modal bigger").
_CHANGE_NAMED = re.compile(
    r"^\W*(please\s+)?(?:make|change|move|resize|shrink|widen|rename|remove|hide|show|tweak|"
    r"adjust)\s+the\s+([a-z][\w-]{2,})",
    re.IGNORECASE,
)
#: The closing steps people ask for on work just done ("commit", "commit and push").
_CLOSING_STEP = re.compile(
    r"^\W*((ok|okay|yes|sure|great|good|now),?\s+)?(let'?s\s+|please\s+|"
    r"(can|could|would|will) (you|u)\s+(please\s+)?|(you can|go ahead and|feel free to)\s+)?"
    r"(commit|push|merge|"
    r"deploy|release|publish|ship|stage|tag|rebase|squash|lint|format|build|test|pr|"
    r"(open|create|raise|make) (a |the )?(pr|pull request)|(make|do|create) (a |the )?commit)"
    r"(\s+(and|&|\+|then)\s+(commit|push|"
    r"merge|deploy|release|publish|ship|tag|(open|create|raise) (a |the )?(pr|pull request)|pr))?"
    r"(\s+(it|this|that|them|please|now|all|everything|(all\s+)?(your|the|these|those)\s+"
    r"((recent|latest|last)\s+)?(changes|edits|work|fix(es)?)))?"
    # where it goes ("push to github", "make a commit to github", "merge into main")
    r"(\s+(to|on|into)\s+(the\s+)?(github|gitlab|main|master|origin|remote|repo|repository|"
    r"[\w./-]+ branch))?\W*$",
    re.IGNORECASE,
)
#: The same closing steps in the other languages people write to agents in ("crea el pr",
#: "faz o commit e push", "erstelle den PR", "fais le commit", "提交并推送", "コミットして",
#: "커밋해줘"): a step with no object of its own, on the work just done.
_CLOSING_STEP_ELSEWHERE = re.compile(
    r"^\W*((ok|okay|vale|dale|bien|listo|perfecto|beleza|certo|gut|super|d'accord|parfait),?\s+)?"
    r"((por favor|por favor,|bitte|s'il te plaît|stp)\s+)?"
    r"((haz|hace|crea|abre|sube|manda|genera|faça|faz|cria|crie|abra|abre|suba|sobe|erstelle|"
    r"mach|öffne|fais|crée|ouvre|pousse)\s+(el |un |los |o |um |os |den |einen |das |le |la |"
    r"un |les )?(commit|push|pr|pull request|merge|deploy|release)|commitea|pushea|commita|"
    r"committe|pushe)"
    r"(\s+(y|e|und|et|and)\s+((haz |faz |fais |mach )?(el |o |den |le )?(commit|push|pr|merge|"
    r"pull request)|pushea|commita|pushe))?"
    r"(\s+(por favor|bitte|s'il te plaît|stp|los cambios|as alterações|die änderungen|"
    r"les changements))?\W*$"
    r"|^\W*(请|帮我)?(提交|推送|提个?\s?(pr|PR)|创建\s?(pr|PR)|开个?\s?(pr|PR))(一下|吧)?"
    r"((并|然后|再)?(推送|提交|提个?\s?(pr|PR))(一下|吧)?)?\W*$"
    r"|^\W*(コミット|プッシュ|PRを?(作成|作っ))(して|しといて|お願い)(ください)?\W*$"
    r"|^\W*(커밋|푸시|PR\s?(만들어|올려))\s?(해|해줘|해주세요|줘|주세요)?\W*$",
    re.IGNORECASE,
)


#: A documentation step and nothing else: the docs, a README, a changelog, named files
#: ending `.md` ("and other relevant documentation"), at most "accordingly" or "to
#: reflect the changes" after them, and a closing step.
#: What names documentation: the docs, a README, a changelog, release notes, a `.md` file.
_DOC_NAMES = r"docs?|docu\w*|readme|changelog|release notes|[\w./-]+\.md"
_DOCUMENTS_WORK = re.compile(
    r"^\W*((ok|okay|great|good|perfect|nice|thanks|now)[,.!]?\s+)*(please\s+|let'?s\s+|"
    r"(can|could|would) (you|u)\s+(please\s+)?|now\s+)*(update|refresh|sync)\s+"
    r"((the|our|your|all|any)\s+)*(" + _DOC_NAMES + r")((\s*,\s*|\s+(and|&)\s+)((the|all|any|"
    r"other|relevant|related|affected)\s+)*(files|" + _DOC_NAMES + r"))*"
    r"(\s+(accordingly|as needed|as necessary|too|as well|(to (reflect|match|include)|with)\s+"
    r"((the|these|this|our|your|all|what|latest|recent|new)\s+)*(changes?|work|reality|progress|updates?|"
    r"(we|you) did|was done)))?"
    r"(\s*(,|and|then)?\s*(commit|push|commit and push))?(\s+please)?\W*$",
    re.IGNORECASE,
)


#: What a closing step may add without asking for work of its own: the commit's message
#: ("with appropriate message", "com a mensagem \"Docs: …\"", "-m …") …
_STEP_MESSAGE = re.compile(
    r"(?<!\s)\s+(with (an? |the )?((appropriate|proper|good|short|clear|descriptive) )?(commit )?"
    r"message|using (the |a )?message|com (a )?mensagem|con (el )?mensaje|avec (le )?message|"
    r"mit (der )?(commit-)?nachricht|-m)\b.*$",
    re.IGNORECASE | re.DOTALL,
)
#: … and which changes it takes ("das alterações no CLAUDE.md", "of the changes in X").
_STEP_CHANGES = re.compile(
    r"(?<!\s)\s+(of the|das|dos|de los|de las|des|der)\s+(changes|alterações|mudanças|cambios|"
    r"changements|änderungen)(\s+(in|to|on|no|na|nos|nas|em|en|dans|im|am)\s+\S+)?",
    re.IGNORECASE,
)
_STEP_WITH_MESSAGE_MAX = 300
_GIT_BEFORE_STEP = re.compile(r"\bgit\s+(?=(commit|push|merge|tag)\b)", re.IGNORECASE)


def _is_closing_step(region: str) -> bool:
    """A bare closing step on the work just done, in any of the languages above."""
    if _CLOSING_STEP.search(region) or _CLOSING_STEP_ELSEWHERE.search(region):
        return True
    if len(region) > _STEP_WITH_MESSAGE_MAX:
        return False  # a step with its message fits in a line or two
    core = _STEP_CHANGES.sub("", _GIT_BEFORE_STEP.sub("", _STEP_MESSAGE.sub("", region)))
    return core != region and bool(
        _CLOSING_STEP.search(core) or _CLOSING_STEP_ELSEWHERE.search(core)
    )


#: A sentence telling what the person did themselves ("I made some additional updates to
#: the README", "I've fixed the typo in main.py").
_OWN_DOING = re.compile(
    r"^\W*(i|we)\s+((have|'ve|just|also|already|now)\s+)*(made|added|updated|changed|fixed|"
    r"edited|tweaked|removed|deleted|renamed|moved|wrote|rewrote|cleaned|reverted|merged|"
    r"pushed|committed|ran|tested|adjusted|corrected)\b",
    re.IGNORECASE,
)


def reports_then_closes(region: str) -> bool:
    """What the person did on the work, then its closing step ("I made some additional
    updates to the README. You can commit now"): the task's end, nothing new asked."""
    sentences = [s for s in _SENTENCE_END.split(region.strip()) if s.strip()]
    return (
        len(sentences) >= 2
        and _is_closing_step(sentences[-1])
        and all(_OWN_DOING.match(s) for s in sentences[:-1])
    )


#: A go-ahead and nothing else ("yes", "go ahead please", "option 2", "继续").
#: What may follow a go-ahead: courtesies, and what it goes on with when that lives in the
#: exchange ("proceed with the plan", "continue to the next step", "go ahead with the changes").
_GO_AHEAD_TAIL = (
    r"(\W+(please|now|then|thanks|thank you|it|that|this|so|do it|go ahead|"
    r"with|to|on|the|your|our|next|plan|steps?|proposal|suggestions?|recommendations?|"
    r"changes|implementation|phase|rest))*\W*$"
)
_GO_AHEAD_ONLY = re.compile(r"^\W*" + _GO_AHEAD + _GO_AHEAD_TAIL, re.IGNORECASE)
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
#: A short question on what the agent did ("Did you commit?", "have u pushed it?").
_ASKS_WHAT_AGENT_DID = re.compile(
    r"^\W*(did|have|has|were|are)\s+(you|u|yo|ya)\b[^?]{0,80}\?\W*$", re.IGNORECASE
)
#: At most this many words, a turn after the agent finished names too little to stand alone.
SHORT_TURN = 8
#: A turn whose content words are this much the running episode's is about the same thing.
FOLLOW_OVERLAP = 0.15


#: Words that point at something instead of naming it ("fix this", "do the same for them").
_POINTING = re.compile(
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
_GENERIC_WORDS = frozenset(
    _WORD.findall(
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


#: The end of a sentence: a stop followed by a space or the end, not a dot in a file name.
_SENTENCE_STOP = re.compile(r"[.!?。！？](\s|$)|\n")


def names_own_object(region: str) -> bool:
    """A request of four words or more whose first sentence names what it acts on
    (`_OWN_OBJECT`) and points back at nothing: it can be replayed on the repository alone."""
    region = _POINTS_AHEAD.sub(" ", region)
    end = _SENTENCE_STOP.search(region)
    head = region[: end.start() if end else 300][:300]
    if len(_WORD.findall(head)) < 4 or _BACK_REF.search(head) or _POINTING.search(head):
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
#: A demonstrative with no noun after it ("for that?"): it stands for something before.
_BARE_DEMONSTRATIVE = re.compile(r"\b(this|that|these|those)\b(?!\s+[a-z])", re.IGNORECASE)


def points_back(head: str) -> bool:
    """Whether the first words point at the exchange before them ("make it smaller",
    "the same for the footer"). A pronoun after a thing the message named itself
    points at that thing ("rework the readme, it is out of date"), not back."""
    excused = False
    for match in _BACK_REF.finditer(head):
        word = match.group(0).strip()
        if _PRONOUN.fullmatch(word) and (
            _NAMED_HERE.search(head[: match.start()]) or _OWN_OBJECT.search(head[: match.start()])
        ):
            excused = True
            continue
        return True
    # "could we reuse session_nav.html for that?": a demonstrative standing alone still
    # points back, whatever the message named
    return excused and bool(_BARE_DEMONSTRATIVE.search(head))


def takes_offer(region: str, agent_text: str) -> bool:
    """Most of the request's content words come from the agent's last words: it takes
    up what the agent offered or asked, in the person's own words."""
    return topic_overlap(region, agent_text.strip()[-600:]) >= 0.5


def names_nothing(text: str) -> bool:
    """A short request whose object is only a pointing word ("lets get a pr up for
    this", "fix it", "explain that error"): what it acts on was in the exchange before
    it. Pointing at the repository ("add a README to this repo") names enough."""
    if len(text) > NAMES_NOTHING_MAX_CHARS:
        return False  # twelve words fit; a longer text names something (and is not lexed)
    words = [w.lower() for w in _WORD.findall(text)]
    if not words or len(words) > 12 or not _POINTING.search(text):
        return False
    if _POINTS_AT_REPOSITORY.search(text) or _NAMES_A_THING.search(text):
        return False
    return len(words) <= SHORT_POINTING or all(word in _GENERIC_WORDS for word in words)


def _request_region(text: str) -> str:
    """A request as its words are read: curly apostrophes straightened, pasted images out."""
    return _IMAGE.sub("", text.replace("\u2019", "'")).strip()


def asks_about_agent(region: str) -> bool:
    """A short question about the assistant itself (`_ASKS_ABOUT_AGENT`)."""
    return len(region) <= 80 and bool(_ASKS_ABOUT_AGENT.search(region))


def opens_session(turn: TurnInput) -> bool:
    """A session's first request with nothing before it: no episode yet, and none of the
    agent's words for it to answer."""
    return not turn.has_episode and not (turn.agent_worked and turn.agent_text.strip())


def is_bare_answer(text: str) -> bool:
    """A reply that only picks or agrees ("3", "c", "option 2", "yes", "继续", a pasted
    image and nothing else): it means something only next to what it answered."""
    region = _request_region(text)
    return not region or bool(
        len(region) == 1 or _GO_AHEAD_ONLY.match(region) or _GO_AHEAD_ELSEWHERE.match(region)
    )


def _without_transcript(text: str) -> str:
    """The text up to where an agent's pasted terminal transcript begins."""
    mark = _TRANSCRIPT_MARK.search(text)
    if mark is None or not _PASTE_LINE.match(text[mark.start() :].lstrip(" \t")):
        return text
    return text[: mark.start()]


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


def needs_context(text: str, *, shown: bool = False) -> bool:
    """Whether a request only makes sense after the exchange before it: a go-ahead, a
    closing step on work just done ("commit and push"), a short question on what the
    agent did, a request that points at its object without naming it ("fix this").
    Such a request opens a session now and then (a resumed conversation), or opens an
    episode the rules could not attach to the one before, but it is never a task on its
    own: a replay would have nothing to act on. `shown`: the person showed the agent
    something just before (the output of a command they ran themselves), which is what
    "fix these" points at and what the task's context then carries."""
    region = _request_region(text)
    if not region:
        return True
    typed = _request_region(_without_transcript(text))
    if typed != region and is_bare_answer(typed):
        return True  # "continua" over a pasted transcript of another session's work
    if is_code_only(text):
        return True  # a file pasted with no request: what to do with it was elsewhere
    return bool(
        _GO_AHEAD_ONLY.match(region)
        or _GO_AHEAD_ELSEWHERE.match(region)
        or asks_about_agent(region)
        or (len(region) <= 80 and _ONLY_AN_ID.match(region))
        or _is_closing_step(region)
        or (_ASKS_WHAT_AGENT_DID.match(region) and len(_WORD.findall(region)) <= 10)
        or (names_nothing(region) and not shown)
    )


def _last_words(agent_text: str, chars: int) -> str:
    """The agent's last `chars` characters, curly apostrophes read as straight ones."""
    return agent_text.strip()[-chars:].replace("\u2019", "'")


def _first_words(agent_text: str, chars: int) -> str:
    """The agent's first `chars` characters, read as `_last_words` reads its last."""
    return agent_text.strip()[:chars].replace("\u2019", "'")


def agent_claims_done(agent_text: str) -> bool:
    tail = _last_words(agent_text, 2500)
    return bool(_DONE_CLAIM.search(tail)) and not _AGENT_GAVE_UP.search(tail[-800:])


def agent_asks(agent_text: str) -> bool:
    """The agent's last words ask the person something."""
    return bool(_ASKS.search(_last_words(agent_text, 600)))


def agent_invites(agent_text: str) -> bool:
    """The agent's last words invite a new request rather than ask about the work."""
    return bool(_INVITES.search(_last_words(agent_text, 300)))


#: The agent hands its result over for a verdict ("Tell me what it looks like", "Let me
#: know what you think!", "Try it now", "Let me know if you see the red backgrounds").
_AWAITS_VERDICT = re.compile(
    r"\b(tell me (what|how) (it|that|this|they) (looks?|feels?|works?|goes)|let me know (what you "
    r"think|how it (looks|goes|works|feels)|if (it|that|this|they|you see|everything|anything)\b)|"
    r"(try|test|check) it (out )?(now|again)|give it a (try|spin|go)|try (navigating|reloading|"
    r"refreshing|running|opening|clicking)\b[^.?!\n]{0,60}\bnow\b|how does (it|that|this) look)"
    # the same hand-over in the other languages agents answer in
    r"|(效果|结果)(怎么样|如何)|看看[^。？?\n]{0,30}(怎么样|如何)|试试看|"
    r"いかがでしょうか|確認してみてください|試してみてください|확인해\s?(보세요|주세요)",
    re.IGNORECASE,
)
#: A state described as not right: a negated verb, "still …", "no longer …".
_NEGATIVE_STATE = re.compile(
    r"\b((is|are|was|were|does|do|did|has|have|can|could|will|would)(n'?t| not)|not\s+\w+ing|"
    r"still|no longer|nothing)\b",
    re.IGNORECASE,
)


#: The agent handed the person steps to carry out: a command block, or words asking them
#: to run or try something ("上記手順を試して", "Run `npm run dev` and …", "请运行").
_GAVE_STEPS = re.compile(
    r"```(bash|sh|shell|zsh|console|powershell|ps1|cmd)?\s*\n|\b(run|try|execute|restart|reload|"
    r"refresh|reinstall) (this|these|the following|the commands?|it again|again|`)|"
    r"\b(please|then) (run|try|execute|restart|reload|refresh)\b|"
    r"(试一下|试试|运行以下|执行以下|请运行|请执行)|試して|実行して|실행해\s?(보세요|주세요)",
    re.IGNORECASE,
)


def runs_agents_line(text: str, agent_text: str) -> bool:
    """The turn opens with a line of the agent's own, long enough to be a command or a
    snippet it handed over ("console.log('UniSat available:', …);"): the person ran it
    and pastes it back with what it printed."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    # with nothing after it the line is the person's words ("generate a formal incident
    # report", taking up the agent's offer in its own words), not a run and its output
    return len(lines) >= 2 and len(lines[0]) >= MIN_ECHOED_LINE and lines[0] in agent_text


#: One item of a numbered list of steps for the person at a screen ("2. Navigate to
#: claude.ai", "3. Log in with your credentials"); not the agent's own plan ("1. Add the
#: model"), whose verbs are the agent's work.
_STEP_FOR_THE_PERSON = re.compile(
    r"^[^\S\n]*\d{1,2}[.)][^\S\n]+(\*\*)?(click|open|navigate|go to|install|log ?in|sign ?in|"
    r"select|enter|type|press|choose|copy|paste|download|visit|enable|restart|reload|refresh)\b",
    re.IGNORECASE | re.MULTILINE,
)


def agent_gave_steps(agent_text: str) -> bool:
    """The agent's last words hand the person steps to carry out: a failure they then
    report is about the agent's advice, even when the agent itself changed nothing."""
    tail = _last_words(agent_text, 1500)
    return bool(_GAVE_STEPS.search(tail)) or len(_STEP_FOR_THE_PERSON.findall(tail)) >= 2


def agent_awaits_verdict(agent_text: str) -> bool:
    """The agent's last words hand its result over for the person's verdict."""
    return bool(_AWAITS_VERDICT.search(_last_words(agent_text, 300)))


def agent_proposes(agent_text: str) -> bool:
    """The agent's last words are a plan or a suggestion waiting for the go-ahead."""
    return bool(_PROPOSAL.search(_last_words(agent_text, 600)))


def agent_offers_options(agent_text: str) -> bool:
    """The agent's last words lay out lettered options to choose from."""
    return bool(_LETTERED_OPTIONS.search(_last_words(agent_text, 1500)))


#: A refusal as a model opens its answer with it ("I can't help with this request. There
#: are several issues: …", then reasons and an alternative offered at length).
_AGENT_REFUSES = re.compile(
    r"^\W*(i'?m sorry,?\s*(but\s*)?|sorry,?\s*(but\s*)?)?i (can'?t|cannot|won'?t|will not|"
    r"am unable to|am not able to) (help|assist) (you )?with (that|this)\b",
    re.IGNORECASE,
)


def agent_gave_up(agent_text: str) -> bool:
    """The agent's last words say it could not do the task, or its answer opens by refusing
    it (curly apostrophes, as models write them, read as straight ones)."""
    return bool(
        _AGENT_GAVE_UP.search(_last_words(agent_text, 1500))
        or _AGENT_REFUSES.search(_first_words(agent_text, 300))
    )


#: A log line's own time stamp ("09:21:01.788 Error: …", "[12:03:44] …"), read past so
#: that what the line says is read from its start.
_LOG_STAMP = re.compile(
    r"^[ \t]*\[?(\d{4}-\d{2}-\d{2}[T ])?\d{1,2}:\d{2}:\d{2}([.,]\d+)?Z?\]?[ \t]+", re.MULTILINE
)


#: A first line that asks for error handling to be built ("handle the Failed to fetch
#: error offline", "catch TypeError: Failed to fetch and show a banner", "return status
#: 404 for unknown ids"): the error it names is the subject of the request, not output
#: the person saw.
_ASKS_TO_HANDLE = re.compile(
    r"^\W*(?:(?:please|pls|now|also|and|then|next)\W+)*(?:(?:can|could|would|will) you\s+)?"
    r"(?:(?:gracefully\s+)?handle|catch|retry|suppress|silence|swallow|mock|simulate|"
    # or to answer with one ("return status 404 for unknown ids", "respond with HTTP 404")
    # (not "return to the previous version", which asks to go back)
    r"return(?! to\b)|respond(?: with)?|reply with|send back|throw|raise|"
    r"add (?:\w+ ){0,2}(?:retr(?:y|ies)|handling|handlers?|fallbacks?|tests?|toasts?|"
    r"banners?))\b[^\n]*",
    re.IGNORECASE,
)


#: A first line asking for something to happen when an error occurs ("show a toast when we
#: get Failed to fetch", "log a warning whenever we see TypeError: …"): the error is the
#: condition of the request, not a paste ("I get Failed to fetch when I open the page" is).
_ACTS_ON_AN_ERROR = re.compile(
    r"^\W*(?:(?:please|pls|now|also|and|then|next)\W+)*(?:(?:can|could|would|will) you\s+)?"
    r"(?:show|display|render|surface|log|print|record|track|report|notify|alert|warn|send|"
    r"emit|flash|toast|redirect|fall back|ignore|skip|hide|disable)\b[^\n]*?"
    r"\b(?:when|whenever|if|on|upon|in case of|after)\b[^\n]*",
    re.IGNORECASE,
)


def has_pasted_error(text: str) -> bool:
    """An error in the paste's head or, for a long log, its tail: a build or deploy log
    ends with what failed. An error named in a first line that asks for its handling is
    not counted; a paste below that line still is."""
    pasted = (
        text
        if len(text) <= PASTE_HEAD + PASTE_TAIL
        else text[:PASTE_HEAD] + "\n" + text[-PASTE_TAIL:]
    )
    request = _ASKS_TO_HANDLE.match(pasted) or _ACTS_ON_AN_ERROR.match(pasted)
    if request:
        pasted = pasted[request.end() :]
    return bool(_PASTED_ERROR.search(_LOG_STAMP.sub("", pasted)))


def is_redirect(region: str) -> bool:
    """An instruction about how to work, not a verdict on a result."""
    return bool(_REDIRECT.search(region))


def _first_clause(text: str) -> str:
    match = re.search(r"[.!?\n。！？]|\b(but|however)\b", text, re.IGNORECASE)
    return text[: match.start()] if match else text


def _after_contrast(text: str) -> str:
    match = _CONTRAST.search(text)
    return text[match.end() :] if match else ""


#: Cues that judge a result; without one of them a turn is never a correction.
_JUDGING_CUES = frozenset(
    {
        "pasted error",
        "failure report",
        "forbids what was done",
        "contrast then failure",
        "asks to undo",
        "asks to keep what was",
        "says no to the result",
        "disputes what it quoted",
    }
)


def _correction_score(region: str, full: str, lexicon: Lexicon, reasons: list[str]) -> float:
    score = 0.0
    if has_pasted_error(full):
        score += 2
        reasons.append("pasted error")
    # a long message states its verdict up front; further down it is describing
    judged = region if len(region) <= 400 else region[:250]
    judged = _SUGGESTION.sub(" ", _OPINION.sub(" ", _CONDITIONAL.sub(" ", judged)))
    if _reports_failure(judged):
        score += 2
        reasons.append("failure report")
    if _UNDO.search(region[:300]):
        score += 2
        reasons.append("asks to undo")
    if _KEEP.search(region[:300]):
        score += 1
        reasons.append("asks to keep what was")
    if lexicon.classify(region) is Feedback.CORRECTION and not is_redirect(region):
        score += 1
        reasons.append("correction lexicon")
    elif _PROHIBITION.search(region) or shouts_negation(region):
        score += 1
        reasons.append("forbids what was done")
    after = _OPINION.sub(" ", _after_contrast(region))
    if after and _reports_failure(after):
        score += 0.5
        reasons.append("contrast then failure")
    return score


#: The same reports in the other languages people write to agents in, as whole phrases
#: that say something does not work, does not show, or still fails ("rien ne s'affiche",
#: "no funciona", "o erro ainda persiste", "funktioniert nicht", "не работает").
_FAILURE_REPORT_ELSEWHERE = re.compile(
    r"\b(ne|n')\s?(fonctionne|marche|s'affiche|charge|démarre|compile|s'ouvre|appara[iî]t|"
    r"se lance)( plus| toujours)?"
    r" pas\b|\brien ne (s'affiche|se passe|marche|fonctionne|change)\b|"
    r"\btoujours (la même erreur|le même problème|le même bug)\b|"
    # "toujours pas, vérifie …" as the whole verdict: still not (working)
    r"^\W*toujours pas\b|"
    # what the person cannot reach or do with the result ("je n'y accède pas depuis une
    # autre machine", "no puedo acceder", "não consigo acessar", "ich kann nicht zugreifen")
    r"\bje n'(y )?(accède|arrive)( toujours)? pas\b|\bje n'arrive (toujours |plus )?pas à "
    r"(y )?(accéder|me connecter|ouvrir|lancer|voir)\b|\bje ne peux (toujours |plus )?pas "
    r"(y )?(accéder|me connecter|ouvrir|lancer)\b|"
    r"\bno (puedo|consigo|logro) (acceder|entrar|conectar(me)?|abrir)\b|"
    r"\bnão (consigo|dá para) (acessar|entrar|conectar|abrir)\b|"
    r"\bkann (immer noch |noch immer )?nicht (darauf |drauf )?(zugreifen|verbinden|öffnen)\b|"
    r"\bno (funciona|aparece|carga|se muestra|arranca|compila|sirve|se ve)n?\b|"
    r"\bno se (ven|muestran|cargan)\b|"
    # "sigue sin verse las imagenes", "siguen sin aparecer": still not (any infinitive)
    r"\bsiguen? (sin \w+(ar|er|ir)(se)?|fallando|igual|dando (el mismo )?error)\b|"
    # what keeps showing after the fix ("se sigue mostrando la versión antigua", "sigue
    # apareciendo el error", "continua aparecendo", "s'affiche toujours", "continua a
    # comparire"; not "se sigue viendo bien", still fine)
    r"\bse siguen? \w+(ando|iendo)\b(?! (bien|correctamente|perfecto)\b)|"
    r"\bsiguen? (apareciendo|saliendo|mostrando)\b|\bcontinuam? (aparecendo|mostrando)\b|"
    r"\b(s'affiche|s'affichent|appara[iî]t|apparaissent) toujours\b|"
    r"\bcontinuan?o? a (comparire|apparire|mostrare)\b|"
    # "veo la página sin imágenes aún", "todavía sin datos": still without
    r"\bsin (?!embargo\b)\w+ (aún|aun|todavía|todavia)\b|\b(aún|todavía|todavia) sin \w+\b|"
    r"\bnada (aparece|pasa|funciona|se muestra)\b|"
    r"\bnão (funciona|aparece|carrega|abre|compila|mostra)\b|"
    # the same in the progressive, and a thing that stopped working, however spaced ("a
    # tela de vendas não  esta carregando  a lista", "no está cargando", "parou de
    # funcoonar tudo novamente" typed fast, "dejó de funcionar", "ha smesso di funzionare")
    r"\b(não|nao|no)\s+(está|esta|tá|ta|estão|estao|están|estan)\s+(carregando|cargando|"
    r"funcionando|aparecendo|apareciendo|abrindo|abriendo|mostrando|salvando|guardando|"
    r"enviando|conectando|rodando|corriendo)\b|"
    r"\b(parou|pararam|dejó|dejo|dejaron)\s+de\s+func\w*\b|\bha(nno)? smesso di funzionare\b|"
    r"\b(o )?erro (ainda |continua a )?persist(e|iu)\b|\bcontinua (dando erro|com erro|igual|"
    r"sem funcionar)\b|\bnada acontece\b|"
    r"\bfunktioniert (immer noch |noch immer |weiterhin )?nicht\b|"
    # ("es geht nicht darum, dass …" is "it is not about …")
    r"\bgeht (immer noch )?nicht\b(?! (darum|um)\b)|"
    # nothing heard or seen ("kann nichts hören", "Ich höre aber nichts", "nur Stille", "je
    # n'entends rien", "no oigo nada", "não vejo nada")
    r"\b(kann|konnte) (immer noch |noch immer |noch |leider |aber )*nichts (hören|sehen)\b|"
    r"\b(höre|sehe) (immer noch |noch immer |noch |leider |aber )*nichts\b|\bnur stille\b|"
    r"\bje n'(entends|vois) (toujours )?rien\b|\bno (oigo|escucho|veo) nada\b|"
    r"\bnão (ouço|escuto|vejo) nada\b|"
    r"\bwird nicht (angezeigt|geladen|gespeichert)\b|\b(immer noch|weiterhin) (der gleiche|"
    r"derselbe) fehler\b|\bnichts passiert\b|"
    # Turkish ("çalışmıyor", "resimler görünmüyor", "hala aynı hata", "hata veriyor")
    r"\b(çalışmıyor|görünmüyor|gözükmüyor|açılmıyor|yüklenmiyor|derlenmiyor)\b|"
    r"\bhala (aynı hata|hata veriyor|çalışmıyor)\b|\bhata veriyor\b|\bhiçbir şey olmuyor\b|"
    # a thing that is down ("server ist offline", "el servidor está caído", "le site est
    # hors ligne", "o servidor está fora do ar")
    r"\b(ist|sind|war) (immer noch |noch immer |wieder )?(offline|down|nicht erreichbar|kaputt)\b|"
    r"\b(está|están|sigue|siguen) (caíd[oa]s?|offline|fuera de línea|inaccesible)\b|"
    r"\b(est|sont) (toujours |encore )?(hors ligne|offline|inaccessible|injoignable|planté)\b|"
    r"\b(está|estão|continua) (fora do ar|offline|inacessível|caíd[oa])\b|"
    r"\bnon (funziona|si vede|appare|carica|parte)\b|\bancora lo stesso errore\b|"
    # the result called wrong, as "that's wrong" ("c'est faux", "está mal", "está errado",
    # "das ist falsch", "è sbagliato")
    r"\bc'est (faux|pas (bon|ça|correct))\b|\bce n'est pas (bon|ça|correct)\b|"
    r"\b(está|esta|eso está|eso esta) mal\b|\b(está|esta|tá|isso está) errad[oa]\b|"
    r"\b(ist|das ist|ist das) (leider |immer noch |noch )?falsch\b|\bstimmt (so |leider )?nicht\b|"
    r"\b(è|e') sbagliat[oa]\b|\bnon è (corretto|giusto)\b|"
    # "(when I run it) the following 2 warnings come", "me sale este error", "dá erro"
    r"\b(kommen|kommt|bekomme ich|erhalte ich|kriege ich)\s+(die |der |folgende[nr]? |diese[nr]? |"
    r"einen |ein |\d+ )*(fehler|warnung\w*|fehlermeldung\w*)\b|"
    r"\bme (sale|salen|da|dan|aparece|aparecen|tira|lanza)\s+(el |un |los |este |estos |esta |la "
    r"|una |siguiente |siguientes |\d+ )*(error(es)?|advertencias?|warnings?)\b|"
    r"\b(está|tá|esta) dando (um |o )?erro\b|\b(dá|deu) (um |o )?erro\b|"
    r"\b(recebo|aparece|aparecem|aparecendo) (o |um |este |esse |os |estes |seguinte |seguintes "
    r"|\d+ )*(erros?|avisos?|warnings?)\b|"
    r"\bj'ai (une |cette |l'|des |les |ces |\d+ )*(erreurs?|avertissements?|warnings?)\b|"
    r"\b(выдаёт|выдает|выводит|получаю) (ошибк|предупрежден)|"
    r"не (работает|отображается|загружается|запускается|компилируется|открывается)|"
    r"по-прежнему (ошибка|не)|ничего не (происходит|показывается|отображается)|"
    # what the person had asked for, said again ("я же просил на русском", "ich habe doch
    # gesagt", "je t'ai demandé", "te dije", "eu pedi"), as English "I said"
    r"\bя (же |ведь |тебя |тебе )*(просил|просила|говорил|говорила|сказал|сказала)\b|"
    r"\bich (hab|habe) (doch |dir |ja |bereits )*(gesagt|gebeten)\b|"
    r"\bje (t'ai|vous ai) (déjà |pourtant )?(dit|demandé)\b|\bte (dije|pedí)\b|"
    r"\beu (te |já |lhe )*(disse|pedi)\b|"
    # a few phrases each of Vietnamese (with and without its accents), Dutch, Polish,
    # Indonesian, Hebrew, Arabic and Hindi: does not work / run, still an error
    r"\b(vẫn|van) (lỗi|loi|bị lỗi|bi loi|không (chạy|được)|khong (chay|duoc))\b|"
    r"\b(không|khong) (chạy|chay|hoạt động|hoat dong|hiện|hien|lên|len)( được| duoc)?\b|"
    r"\b(bị lỗi|bi loi)\b|"
    r"\b(werkt|doet het) (nog steeds |nog altijd |nog |helaas )?niet\b|"
    r"\b(nog steeds|nog altijd) (een )?(fout|foutmelding|error)\b|"
    r"\bnie (działa|wyświetla się|ładuje się|uruchamia się|kompiluje się)\b|"
    r"\b(dalej|nadal|wciąż|ciągle) (nie działa|jest błąd|błąd)\b|"
    r"\b(masih|tetap) (error|eror|gagal|tidak (jalan|bisa|berfungsi)|belum (jalan|bisa))\b|"
    r"\b(tidak|nggak|gak) (berfungsi|jalan|muncul)\b|"
    r"לא (עובד|עובדת|עובדים|נטען|מופיע)|עדיין (לא|יש שגיאה)|"
    r"لا (يعمل|تعمل|يشتغل)|(ما زال|مازال|لا يزال|لازال) (لا|الخطأ|هناك خطأ)|"
    r"\b(kaam|kam) nahi?n? (kar raha|kar rahi|karta|ho raha)\b|\bnahi?n? chal (raha|rahi)\b|"
    r"\b(abhi bhi|ab bhi|phir se) error\b|काम नहीं कर|नहीं चल रहा",
    re.IGNORECASE,
)


#: A state that outlived the fix ("the agents under orchestrator still have read-only mode
#: on", "the docs still say v1"; not "I still have a question", "we still have to …").
_STATE_OUTLIVED = re.compile(
    r"(?<!\bi )(?<!\bwe )(?<!should )(?<!must )(?<!can )(?<!will )(?<!would )(?<!could )"
    # ("fewer still have …", "better still": "still" as "even", no state)
    r"(?<!to )(?<!fewer )(?<!more )(?<!less )(?<!better )(?<!worse )(?<!further )"
    r"\bstill\s+(has|have|shows?|uses?|contains?|says?|lists?|displays?|points? to|"
    r"refers? to|reads?|prints?)\s+(?!to\b)"
    # ("it passed, but still there is the svg that is rotating")
    r"|\bstill there (is|are)\b",
    re.IGNORECASE,
)
#: The same with the state named around "still": a negation after it ("it seems still that
#: the web search capability doesn't fully analyze …") or a defect before a "still" that
#: ends its clause ("a bunch of out of date context in readme still - can we …"; not "fix
#: the broken link but still keep the header").
_STATE_OUTLIVED_AROUND = re.compile(
    r"\bstill\b(?! (need|want|have to|has to|got to|should|must)\b)[^.?!\n]{0,60}?"
    r"\b(doesn'?t|does not|isn'?t|is not|aren'?t|are not|can'?t|cannot|won'?t|didn'?t|did not)\b"
    # the wrong thing still there in place of the right one ("there is still a line rather
    # than page break between title page and abstract"; not "I'd still use X rather than
    # Y", a preference)
    r"|(?<!\bi )(?<!\bwe )(?<!'d )(?<!would )(?<!should )(?<!could )\bstill\b"
    r"(?! (use|prefer|like|want|need|go with|pick|choose|think)\b)[^.?!\n]{0,40}?"
    r"\b(rather than|instead of)\b"
    r"|\b(out of date|outdated|stale|broken|wrong|incorrect)\b[^.?!\n]{0,40}?\bstill\s*"
    r"([-–—,.;:!?]|$)",
    re.IGNORECASE,
)
#: What must hold, said before such a "still" in its sentence ("make sure the page still
#: shows the header", "so that it still uses the cache"): a requirement, not a report.
_REQUIRES = re.compile(
    r"\b(make sure|ensure|so that|as long as|verify that|check that|if|when|should|must|"
    r"needs? to|keep)\b",
    re.IGNORECASE,
)


def _state_outlived(text: str) -> bool:
    """A state said to have outlived the agent's fix, in a sentence that sets no requirement."""
    matches = [*_STATE_OUTLIVED.finditer(text), *_STATE_OUTLIVED_AROUND.finditer(text)]
    for match in matches:
        start = max(text.rfind(mark, 0, match.start()) for mark in ".!?\n") + 1
        if not _REQUIRES.search(text, start, match.start()):
            return True
    return False


def _reports_failure(text: str) -> bool:
    return bool(
        _FAILURE_REPORT.search(text)
        or _FAILURE_REPORT_CJK.search(text)
        or _FAILURE_REPORT_ELSEWHERE.search(text)
        or _state_outlived(text)
    )


def shouts_negation(region: str) -> bool:
    """A negation in capitals inside a message that is not itself typed in capitals."""
    letters = [c for c in region if c.isalpha()]
    mostly_caps = bool(letters) and sum(c.isupper() for c in letters) > len(letters) / 2
    return not mostly_caps and bool(_SHOUTED_NO.search(region))


def _requests_more(text: str) -> bool:
    """After a verdict, the turn goes on to ask for something (not the person's own next
    step: "Great. I'll see if these end up in the transcript." asks the agent nothing)."""
    first = _after_first(text)
    rest = first or _after_cjk_comma(text)
    if not re.search(r"\w", rest):
        rest = ""  # "great, can you also add a footer?": its "?" is no clause of its own
    if (
        rest
        and not first
        and not (
            _IMPERATIVE.search(rest)
            or _REQUEST.search(rest)
            or _CJK_REQUEST.search(rest)
            or re.search(r"[?？]", rest)
        )
    ):
        return False  # "可以了，谢谢": more of the verdict after its comma, nothing asked
    if not rest:
        # one clause ("great job, now add a dark mode"): what follows the verdict's words
        # asks for more only when it is a request
        rest = _APPROVAL_HEAD.sub("", text, count=1).strip(" .,!;:-\n")
        if rest == text.strip(" .,!;:-\n"):
            # the verdict was read from the whole clause ("OK, make sure the beads are
            # correct in both projects."): what follows its acknowledgement is what it asks
            rest = _ACK_HEAD.sub("", text, count=1).strip(" .,!;:-\n")
        if rest == text.strip(" .,!;:-\n") or not (
            _IMPERATIVE.search(rest) or _REQUEST.search(rest) or _sets_next_work(rest)
        ):
            return False
    if _OWN_STEP.search(rest) and "?" not in rest and not _ADDRESSES_AGENT.search(rest):
        return False
    if _THANKS_ONLY.match(rest):
        return False  # "Perfect. Thank you very much!": the thanks asks for nothing
    if _MORE_PRAISE.match(rest) and not _ASKS_ANYWHERE.search(rest):
        # "THANKS!! it works perfectly, even hosted … now awaiting my friends input :)":
        # more of the verdict, and nothing asked
        return False
    return _word_count(rest) >= 3


#: An acknowledgement opening a clause, with the comma that ends it ("OK, …", "sure, …").
_ACK_HEAD = re.compile(r"^\W*(ok|okay|alright|all right|sure|yes|yep|yeah)\b\s*[,:;-]\s*", re.I)
#: The verdict said again in other words ("it works perfectly", "works great now").
_MORE_PRAISE = re.compile(
    r"^\W*((it|that|this|everything|all)\s+)?(works|worked|is working|runs|looks)\s+"
    r"(perfectly|great|fine|beautifully|flawlessly|like a charm|as expected|now)\b",
    re.IGNORECASE,
)
#: Anything that asks: a question mark, or a sentence that opens with a request.
_ASKS_ANYWHERE = re.compile(
    r"\?|(^|[.!\n][^\S\n]*)\W{0,10}((please|pls)\b|(can|could|would|will) you\b|let'?s\b|"
    r"now\s+\w+\b|"
    r"(add|make|fix|change|update|remove|create|commit|push|deploy|run|write)\b)",
    re.IGNORECASE,
)
#: Thanks and nothing else ("Thanks a lot for this", "ありがとうございます", "merci beaucoup").
_THANKS_ONLY = re.compile(
    r"^(\W*(thanks|thank you|thank u|thx|ty|cheers|much appreciated|appreciate it|"
    r"ありがとう(ございます|ございました)?|どうも|谢谢(你|您)?|多谢|감사합니다|고맙습니다|고마워요?|"
    r"merci|danke|gracias|obrigad[oa]|grazie|teşekkürler|teşekkür ederim|sağ ?ol(un)?)"
    r"(\s+(so|very) much|\s+a (lot|ton|bunch|million)|\s+beaucoup|\s+schön|\s+sehr|"
    r"\s+again)?(\s+for\s+(this|that|it|everything|the help|your help|all( of)? (this|that|"
    r"your help)|your (work|time|patience|help)))?)+\W*$",
    re.IGNORECASE,
)


#: The person says what they will do next themselves.
_OWN_STEP = re.compile(
    r"^\W*(i'?ll|i will|i'?m going to|i am going to|i'?m gonna|will)\b", re.IGNORECASE
)
#: Words that ask the agent for something.
_ADDRESSES_AGENT = re.compile(r"\b(you|please|let'?s|can|could|should)\b", re.IGNORECASE)
#: The agent's last sentence offers to do one thing ("Want me to clarify this nuance in the
#: README?"): the offer is the words after the asking phrase, up to the question mark.
_OFFER = re.compile(
    r"\b(want me to|shall i|should i|would you like me to|do you want me to)\s+([^?]{3,200})\?\s*$"
    r"|\b(if you(?:'d)? (?:want|like)(?: me to)?,? i can(?: also)?|let me know if you(?:'d)? "
    r"(?:want|like) me to|i can also)\s+([^?.!\n]{3,200})[.!]?\s*$",
    re.IGNORECASE,
)


def _stem(word: str) -> str:
    return word[:5]


def restates_offer(region: str, agent_text: str) -> bool:
    """ "Yes please add a clarification to the README" to "Want me to clarify this nuance
    in the README?": takes the offer as made, every content word of it from the offer."""
    offer = _OFFER.search(_last_words(agent_text, 400))
    offered_text = (offer.group(2) or offer.group(4)) if offer else ""
    if offer is None or re.search(r"\bor\b", offered_text):
        return False  # "… or is this enough?" is a choice: the reply picks an option
    if _ACCEPT_OPEN.search(region):
        rest = _ACCEPT_OPEN.sub("", region, count=1)
    else:
        # or the offered act itself in a few words, with no "yes" ("kill it" to "Would you
        # like me to kill it so your server can start?")
        # (a bare closing step, "commit it" to "Want me to commit?", stays the task's step)
        rest = region
        verb = _WORD.findall(offered_text.lower())[:1]
        if (
            not 2 <= len(_WORD.findall(rest)) <= 4
            or not verb
            or not rest.lower().startswith(verb[0])
            or _is_closing_step(rest)
        ):
            return False
    if len(_WORD.findall(rest)) > 12:
        return False
    words = {w for w in _CONTENT.findall(rest.lower()) if w not in _STOP}
    offered = {_stem(w) for w in _CONTENT.findall(offered_text.lower())}
    return bool(words) and all(_stem(w) in offered for w in words)


#: Codex plan mode hands the accepted plan back as the next message.
PLAN_ACCEPTED = re.compile(r"^\s*please implement this plan:", re.IGNORECASE)


#: New tasks read from the turn's own form (a command, a first request, "new task: …"),
#: not from where it sits in the exchange.
_NEW_BY_FORM = frozenset(
    {
        "slash command",
        "saved prompt or skill run",
        "a plan handed over to implement",
        "first request",
        "says it is something new",
    }
)


def classify_turn(turn: TurnInput, lexicon: Lexicon) -> TurnDecision:
    """The kind of one typed user turn (rule-based; see the module docstring).

    A turn the task miner could not replay alone (`needs_context`: a file pasted with no
    request, "are you in the docker container?") is never read as a new task by its
    place in the exchange: once the agent has worked, it goes on with the running task
    (unless the person had just accepted the work, which closed it).
    """
    decision = _classify_turn(turn, lexicon)
    if (
        decision.kind is TurnKind.NEW_TASK
        and turn.agent_worked
        and turn.previous is not TurnKind.APPROVAL
        and not _NEW_BY_FORM.intersection(decision.reasons)
        and needs_context(turn.text)
    ):
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("leans on the exchange",), hard=True)
    return decision


def _classify_turn(turn: TurnInput, lexicon: Lexicon) -> TurnDecision:
    reasons: list[str] = []
    if turn.command is not None:
        if turn.command.is_housekeeping:
            return TurnDecision(TurnKind.HOUSEKEEPING, 0.95, ("built-in command",))
        if turn.answered_by_the_cli:
            # a built-in this list does not name yet ("/usage-credits"): a command that
            # runs a prompt or a skill is answered by the model, never by the CLI
            return TurnDecision(TurnKind.HOUSEKEEPING, 0.9, ("answered by the CLI itself",))
        return TurnDecision(TurnKind.NEW_TASK, 0.9, ("slash command",))
    text = turn.text.strip().replace("\u2019", "'").replace("\u2018", "'")
    if runs_saved_prompt(text):
        # Codex's `$name`, written as a link to the skill, or a saved prompt run by typing
        # its path: a custom command by another name
        return TurnDecision(TurnKind.NEW_TASK, 0.85, ("saved prompt or skill run",))
    if PLAN_ACCEPTED.match(text):
        # Codex plan mode's "Implement plan": the plan it proposed, now the work to do
        return TurnDecision(TurnKind.NEW_TASK, 0.85, ("a plan handed over to implement",))
    region = feedback_region(text)
    if _GREETING.search(region):
        return TurnDecision(TurnKind.HOUSEKEEPING, 0.8, ("greeting",))
    if _LAUNCHER.match(region):
        return TurnDecision(TurnKind.HOUSEKEEPING, 0.8, ("the agent's launcher, for the shell",))
    if _LEAVES.match(region):
        return TurnDecision(TurnKind.HOUSEKEEPING, 0.8, ("leaves or logs in, for the program",))
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
    words = len(_WORD.findall(region))
    if turn.after_service_error and _sent_again(_request_region(text), _requests_of(turn)):
        # the request sent again word for word after a usage limit or an API error cut the
        # agent off: "try again", with nothing new and no verdict
        return TurnDecision(TurnKind.STEERING, 0.75, ("sent again after the service stopped",))
    if (
        turn.after_service_error
        and words <= 3
        and (_RESUME.search(region) or _RETRY.search(region) or _accepts(region))
    ):
        # a bare "continue", "try again" or "go" there is the same retry in one word; a reply
        # that says more ("Limits are reset. Continue where we left off.") is read as
        # anywhere else
        return TurnDecision(TurnKind.STEERING, 0.65, ("retries after the service stopped",))
    done = agent_claims_done(turn.agent_text) or turn.previous is TurnKind.APPROVAL
    asked = agent_asks(turn.agent_text)
    corr = _correction_score(region, text, lexicon, reasons)
    if (
        _NO_OPEN.search(region)
        and turn.agent_worked
        and turn.agent_acted
        and not agent_asks(turn.agent_text)
    ):
        corr += 1  # "no, …" right after the agent acted, unasked, answers what it did
        reasons.append("says no to the result")
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
        and not judges_answer
        and not still
    ):
        corr = 0.0  # nothing of the agent's to judge yet: a complaint is a request
    if "pasted error" not in reasons and (
        (_FIX_IT.match(region) and _OFFERS_A_FIX.search(_last_words(turn.agent_text, 800)))
        or takes_up_findings(region, turn.agent_text)
    ):
        # "fix this" to "Want me to fix the `findAdmin` inconsistency?", "fix the critical
        # issues" after the agent's review listed them: takes the agent up on what it found
        # (and offered to fix), judging nothing it did
        corr = 0.0
    if _TAKES_UP_NEXT.match(region):
        # "let's now turn to this test failure: …", "I want to focus on 4 skipped tests":
        # the person sets the failure up as the next piece of work, judging nothing done
        corr = 0.0
    opened = _ACCEPT_OPEN.sub("", region, count=1)
    # the verdict may follow an "OK." of its own ("OK. Deploy works now!!"): what comes
    # after the verdict is then read after that sentence, not after the "OK."
    verdict = region
    approval_head = bool(_APPROVAL_HEAD.search(opened))
    if approval_head and not _APPROVAL_HEAD.search(region):
        # "ah, of course\nTHANKS!! it works perfectly …": the verdict follows an
        # acknowledgment, and what comes after the verdict is read after it
        verdict = opened
    if not approval_head and words <= 12:
        if lexicon.classify(_first_clause(region)) is Feedback.APPROVAL:
            approval_head = True
        elif opened != region and lexicon.classify(_first_clause(opened)) is Feedback.APPROVAL:
            approval_head, verdict = True, opened
    if _EXPLICIT_NEW.search(region[:80]):
        return TurnDecision(TurnKind.NEW_TASK, 0.8, ("says it is something new",))
    mid_task = turn.queued or turn.after_interrupt or turn.after_refusal
    if mid_task:
        where = "typed into the running turn" if turn.queued else "after the agent was stopped"
        if turn.after_interrupt and sent_again_amended(region, turn.previous_text):
            # stopped at once to send the same words again, at most with a thinking cue or
            # a go-on word added ("…, think hard and continue"): how to work, nothing new
            return TurnDecision(TurnKind.STEERING, 0.75, (where, "sent again"))
        # the person stopped the agent: one cue of a correction is enough
        if corr >= 1:
            return TurnDecision(TurnKind.CORRECTION, 0.75, (where, *reasons))
        if (
            not turn.queued
            and agent_asks(turn.agent_text)
            and _ANSWER.search(region)
            and not _RETRY.search(region)
            and words <= 40
        ):
            # stopped while the agent waited on its question: the reply answers it
            return TurnDecision(TurnKind.FOLLOW_UP, 0.6, (where, "answers the agent"), hard=True)
        if turn.queued and words <= 6 and _accepts(region):
            # "Ok go ahead" typed while the agent ran, after it announced what it would do
            # ("Flagging something before continuing: …"): redirects nothing, accepts it
            return TurnDecision(
                TurnKind.APPROVAL, 0.6, (where, "accepts what it announced"), hard=True
            )
        if turn.queued and approval_head and not _requests_more(verdict):
            # "approved #33 in chat and in the issue itself": a verdict on work the agent
            # showed earlier, typed while it goes on, asks nothing
            return TurnDecision(TurnKind.APPROVAL, 0.6, (where, "verdict"), hard=True)
        if (
            turn.queued
            and words >= 5
            and not _REDIRECT.search(region)
            and (
                _IMPERATIVE.search(region)
                or _REQUEST.search(region)
                or _asks_in_a_field(region)
                or _ADDS_WORK.search(region)
            )
        ):
            # queued while it ran, but an extra step of the task ("run the review and …");
            # one that redirects ("use pnpm instead of npm for all of it") steers
            return TurnDecision(TurnKind.FOLLOW_UP, 0.6, (where, "adds a step"), hard=True)
        # position alone makes it steering; a redirect or a retry says so in words
        cued = bool(_REDIRECT.search(region) or _RETRY.search(region))
        return TurnDecision(TurnKind.STEERING, 0.8 if cued else 0.6, (where,), hard=not cued)
    # A verdict that the work is good outweighs one weak cue ("great, works now");
    # a contrast clause that reports a failure does not ("looks correct. But … doesn't").
    weak_praise = approval_head and corr < 2.5 and not _after_contrast(region)
    if not weak_praise and (corr >= 2 or (corr >= 1 and words <= 30 and turn.agent_worked)):
        return TurnDecision(TurnKind.CORRECTION, min(0.6 + 0.1 * corr, 0.95), tuple(reasons))
    if _HOLDS_THE_AGENT.match(region):
        # "stop, cancel this loop", "wait, I think I've got vim 9.0 source already?": the
        # person holds the agent back, the words in writing of an interrupt
        return TurnDecision(TurnKind.STEERING, 0.65, ("holds the agent back",), hard=True)
    if (
        turn.agent_acted
        and agent_awaits_verdict(turn.agent_text)
        and _NEGATIVE_STATE.search(_first_clause(region)[:300])
        and not _NEW_WORK.search(region[:80])
    ):
        # "Tell me what it looks like." / "the tracks are not starting at the beginning":
        # asked for a verdict on its result, the person describes it as not right
        return TurnDecision(
            TurnKind.CORRECTION, 0.6, ("a verdict asked for: not right",), hard=True
        )
    if approval_head:
        after_head = _APPROVAL_HEAD.sub("", verdict, count=1)
        after_verdict = _after_first(verdict) or (after_head if after_head != verdict else "")
        if after_verdict and _is_closing_step(after_verdict):
            # "Nice...please commit", "great, commit and push": the work is accepted and
            # the person asks for the task's closing step, still part of the task
            return TurnDecision(
                TurnKind.FOLLOW_UP,
                0.7,
                ("verdict then a closing step",),
                approves_previous=True,
            )
        if not _requests_more(verdict):
            return TurnDecision(TurnKind.APPROVAL, 0.85, ("verdict", *reasons))
        rest = _after_verdict(verdict)
        # the verdict may end at a comma ("perfect, now can you polish the whole website")
        next_step = _sets_next_work(rest) or bool(not rest and _TURNS_TO_NEXT.search(after_verdict))
        if not next_step and (
            _BACK_REF.search(" ".join(rest.split()[:12])) or _FOLLOW_OPEN.search(rest)
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
    if _ACCEPT.search(region) and words <= 6 and agent_offers_options(turn.agent_text):
        # "yes" to "A, B or C? My recommendation: A": takes the option, the task goes on
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("takes the recommended option",), hard=True)
    if _ACCEPT.search(region) and words <= 6:
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
    if (_CONTINUE.search(region) and words <= 4) or (_RESUME.search(region) and words <= 10):
        # the agent's turn had ended: "continue", "yes, Option A" go on with the task; after
        # a question or a plan, "继续", "c" for "[C] Continue" may also accept what it laid
        # out (an approval): the labellers of the wild samples read 9 of them so
        offered = asked or agent_proposes(turn.agent_text)
        return TurnDecision(TurnKind.FOLLOW_UP, 0.7, ("goes on with the task",), hard=offered)
    if turn.agent_worked and (_RAN_COMMAND.match(text) or runs_agents_line(text, turn.agent_text)):
        # a command the person ran, pasted with what it printed ("╰─❯ apt install …",
        # "user@host:~/app$ npm run …", a console snippet the agent handed over): a report
        # on the running task, never a task of its own (one that shows an error is a
        # correction, above)
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("pastes a command it ran",), hard=True)
    refers_back = points_back(" ".join(region.split()[:12]))
    request_part = _own_request(region) if turn.agent_ended and words >= 12 else ""
    if request_part and not _BACK_REF.search(" ".join(request_part.split()[:12])):
        # a stance on the previous answer, then a request that stands on its own: the
        # stance closes that thread, the request opens the next one
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("a stance, then a request",), hard=True)
    if turn.agent_worked and turn.agent_acted and _DOCUMENTS_WORK.match(region):
        # "update AGENT_CONTEXT.md and other relevant documentation" after the agent
        # changed things: the task's own write-up, with no subject of its own
        return TurnDecision(TurnKind.FOLLOW_UP, 0.65, ("documents the work just done",), hard=True)
    if turn.agent_worked and (
        _is_closing_step(region)
        or reports_then_closes(region)
        or (words == 1 and _one_word(region))
    ):
        # a bare step with no object of its own ("commit", "commit and push", the typo
        # "commi") acts on the work just done: the task's closing step
        return TurnDecision(
            TurnKind.FOLLOW_UP,
            0.65,
            ("a bare step on the work just done",),
            approves_previous=agent_claims_done(turn.agent_text),
        )
    if (
        agent_invites(turn.agent_text)
        and not refers_back
        and not _FOLLOW_STRONG.search(region)
        and words >= 3
    ):
        # "What can I help you with?": the agent closed its work and waits for a request
        return TurnDecision(TurnKind.NEW_TASK, 0.7, ("request after an open invitation",))
    if (
        not asked
        and _STATES_GOAL.match(region)
        and not _is_closing_step(_STATES_GOAL.sub("", region))
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
    if (done or asked) and _NEW_WORK.search(region[:80]) and not refers_back:
        # "Let's also migrate to AudioWorklet" after the agent finished: more work
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("new work after done",), hard=True)
    if asked and (words <= 8 or _ANSWER.search(region)) and words <= 40:
        # picks an option, answers the question, reports doing what was asked
        return TurnDecision(TurnKind.FOLLOW_UP, 0.65, ("answers the agent",), hard=True)
    rest = _ACCEPT_OPEN.sub("", region, count=1)
    own_request = (
        done
        and not asked
        and rest != region
        and len(_WORD.findall(rest)) >= 3
        and bool(_IMPERATIVE.search(rest) or _REQUEST.search(rest))
        and not _FOLLOW_OPEN.search(rest)
    )
    if _GO_ON_OPENING.search(region) and words <= 25 and not own_request:
        # "ok, …" after the agent finished goes on with its task, unless what follows the
        # "ok" is a request of its own ("ok lets get back to main"): the rules below decide
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("goes on with the task",), hard=True)
    overlap = topic_overlap(region, turn.context)
    if _EXPLICIT_NEW.search(region[:80]):
        return TurnDecision(TurnKind.NEW_TASK, 0.8, ("says it is something new",))
    if turn.agent_worked and _FORBIDS_OPEN.match(region):
        # "Do not add the full names", "don't edit the database by hand; use alembic …":
        # a constraint on the work at hand, never a task of its own
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
    changed = _CHANGE_NAMED.search(_IMAGE.sub("", region))
    if changed and re.search(rf"\b{re.escape(changed.group(2))}\b", turn.agent_text[-1500:], re.I):
        # "make the modal bigger" right after the agent reported what it did to the modal
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("changes what the agent named",), hard=True)
    points = bool(_POINTING.search(" ".join(region.split()[:20])))
    if words >= 40 and (done or (turn.agent_ended and not asked and not points)):
        # a long message after the agent finished carries a request of its own
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("long request after done",), hard=True)
    # a failure report before the agent acted is about the code as it was: a request
    request = bool(
        _IMPERATIVE.search(_IN_FILE.sub("", region, count=1)) or _REQUEST.search(region) or reports
    )
    answered = turn.agent_ended and bool(turn.agent_text.strip())
    retry = words <= 4 and bool(_RETRY.search(region))
    if answered and not asked and not done and request and overlap < FOLLOW_OVERLAP and not retry:
        # the agent answered (no question, no plan): a request on another subject is new
        # ("try now" after its steps to set something up asks it to go on)
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("new request after an answer",), hard=True)
    named = names_own_object(region) and not takes_offer(region, turn.agent_text)
    if answered and request and named:
        # "update system_notes.md and changelog …" after the agent's report or its offer of
        # something else: a request that names what it acts on stands without the exchange
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("a request naming its own object",), hard=True)
    if turn.agent_ended and words >= 4 and _GREETING_OPEN.match(region) and not asked:
        # "Hello can you give me the specs in violation-details", "hi seed the products":
        # a greeting opens a new exchange, whatever the agent said last
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("opens with a greeting",), hard=True)
    if asked or not done:
        # the agent is still at it, or asked something: the turn goes on with its task
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("the task is still open",), hard=True)
    if overlap >= FOLLOW_OVERLAP:
        return TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("same subject",), hard=True)
    closed = turn.previous is TurnKind.APPROVAL and not _ASKS_WHAT_AGENT_DID.match(region)
    if not own_request and not closed and _word_count(text) <= SHORT_TURN:
        # a few words name too little to stand alone: they lean on the exchange (unless
        # the person had accepted the work, which closed it, and asks nothing about it)
        return TurnDecision(TurnKind.FOLLOW_UP, 0.55, ("a short turn after done",), hard=True)
    # what is left: no cue decided the turn, and only the absence of shared words says it
    # is new. On new authors this default is no certain reading (bench/blind_branches.py)
    return TurnDecision(
        TurnKind.NEW_TASK, 0.6, ("new subject after the agent finished",), hard=True
    )


#: A yes proper (not "ok", which as often only acknowledges), with a "please" or a "to".
_YES_OPEN = re.compile(
    r"^\W*(yes|yep|yeah|yup|ja|да|oui|sí|sim|proceed|go ahead)\b(?P<to>\s+to\b)?[\s,.!:;-]*"
    r"(?P<please>(please|pls|bitte|por favor|пожалуйста)\b)?[\s,.!:;-]*",
    re.IGNORECASE,
)
#: What a yes goes on with when it adds to the same work: "and", "also" in the languages
#: people write to agents in.
_AND_MORE = re.compile(
    r"^(and|also|plus|then|und|auch|а также|а|и|ещё|et|aussi|y|también|e|também)\b", re.IGNORECASE
)


def yes_and_more(region: str) -> bool:
    """A yes that goes on to ask for more: "yes, and …", "yes please go deeper. Also …".

    LABELS.md reads a yes that adds or changes something as a follow-up; a yes followed by
    a statement ("yes, in a previous session we …") or by the person's own next step
    ("yes! on to the timeline bug", "yes, let's now …") is left to the other rules.
    """
    match = _YES_OPEN.match(region)
    if match is None:
        return False
    rest = region[match.end() :]
    if _word_count(rest) < 3 or _OWN_NEXT_STEP.search(rest) or _EXPLICIT_NEW.search(rest[:80]):
        return False
    asks = bool(match.group("to") or match.group("please"))
    return asks or bool(_AND_MORE.match(rest) or _IMPERATIVE.match(rest))


#: A greeting at the head of a longer message ("Hello can you …", "hi, i'd like …").
_GREETING_OPEN = re.compile(rf"^\W*({_HELLO})\b(?!\s*(\.\.\.|…))", re.IGNORECASE)
#: From this many words a turn can carry a request of its own.
LONG_TURN = 20
#: Characters from which a line the turn shares with the agent's words is no chance match.
MIN_ECHOED_LINE = 20
#: A shell prompt and the command after it, as a terminal shows them: `user@host:~/app$`,
#: zsh themes' `❯` and `➜`, a two-line theme's `╰─❯`, PowerShell's `PS C:\app>`, `$`, a
#: powerline prompt, a folder before `$`.
_RAN_COMMAND = re.compile(
    r"^\s*(?:\S+@[\w.-]+:\S*\s?[$#]|[$❯➜]|╰─❯|PS [A-Z]:\\[^>]*>)\s+\S"
    # a powerline theme's prompt: Nerd Font icons and segment arrows, private-use glyphs
    # ("\uf312 \ue0b0 \uf015 ~ \ue0b0   systemctl --user status …")
    r"|^\s*[\ue000-\uf8ff][^\n]*[\ue0b0\ue0b4]\s+\S"
    # a prompt that shows the folder ("/work $ ping www.googleapis.com", "~/app % ls"), and
    # zsh's own "user@host folder %" ("neil@MacBook-Pro app % npm run cli")
    r"|^\s*[~/][\w./~-]*\s*[$#%]\s+\S"
    r"|^\s*(\([\w.-]+\)\s*)?[\w.-]+@[\w.-]+(\s+[^\s%$#]{1,60})?\s*[%$#]\s+\S"
)
#: Han, kana and hangul: written without spaces, about two characters to a word.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def _word_count(text: str) -> int:
    """Words typed, a pasted image's placeholder left out, CJK text counted by characters."""
    text = _IMAGE.sub("", text)
    cjk = len(_CJK.findall(text))
    return len(_WORD.findall(_CJK.sub(" ", text))) + (cjk + 1) // 2


def has_words(text: str) -> bool:
    """The turn holds typed words, not only a pasted image's placeholder."""
    return bool(re.search(r"\w", _IMAGE.sub("", text)))


def _requests_of(turn: TurnInput) -> str:
    """The running episode's request and refinements: its context less the agent's words."""
    agent = turn.agent_text
    if agent and turn.context.endswith(agent):
        return turn.context[: -len(agent)]
    return turn.context


def flattened(text: str) -> str:
    """`text` with case and spacing set aside: lowercased, each run of white space one
    space, none at either end."""
    return " ".join(text.lower().split())


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
    r"^\W*(please\s+|pls\s+|ok,?\s+|yes,?\s+)*(fix|correct|solve)\s+(it|this|that|them|these|"
    r"those|both|all( of them| of these)?|everything)(\s+(please|pls|too|all))?\W*$",
    re.IGNORECASE,
)
#: The agent offering to fix what it found ("Want me to: - Fix the `findAdmin`
#: inconsistency?", "Should I fix these?", "I can fix this if you'd like").
_OFFERS_A_FIX = re.compile(
    r"\b(want me to|should i|shall i|would you like me to|do you want me to|i can)\b"
    r"[^?]{0,200}?\b(fix|correct|solve|address|resolve|patch)\b",
    re.IGNORECASE,
)


#: A request to fix things of a kind ("fix the critical issues", "fix all the high
#: severity bugs"): the kind is group 1.
_FIX_THE_KIND = re.compile(
    r"\b(?:fix|address|resolve|solve|tackle|handle)\b[^.?!\n]{0,60}?\b(issues?|problems?|bugs?|"
    r"findings?|vulnerabilit(?:y|ies)|warnings?|concerns?|gaps?|risks?)\b",
    re.IGNORECASE,
)
#: An answer to words quoted back with ">" (the turn opens with the quote) that says they
#: are wrong ("Actually, …", "No, …", "That's not …"; not "Actually, can you also …", a
#: request, nor "No errors now", a "no" that is no answer).
_DISPUTE_OPEN = re.compile(
    r"^\W*(actually|no(?=[,.!;:]| -)|nope|not (quite|really|true|exactly)|that'?s not|"
    r"this is not|this isn'?t|wrong)\b(?![,\s]+(can|could|would|will|please|let'?s|also)\b)",
    re.IGNORECASE,
)


#: Words that say the findings are still there or were not fixed: a verdict, not a request.
_SAYS_IT_FAILED = re.compile(
    r"\b(did|do|does|is|are|was|were|have|has|had|wo|ca|could|should|would)n'?t\b"
    r"|\b(not|never|still|wrong|broken|again|anymore|same)\b",
    re.IGNORECASE,
)


def takes_up_findings(region: str, agent_text: str) -> bool:
    """The person asks to fix things of the kind the agent's last words listed as found
    ("now fix the critical issues" after a review's "**3 Critical Issues:** …"): the
    agent's findings taken up as work, not a verdict on what it did."""
    asked = _FIX_THE_KIND.search(region[:300])
    if asked is None or _SAYS_IT_FAILED.search(region[:300]):
        return False  # "you didn't fix the issues", "the bugs are still there": a verdict
    kind = asked.group(1).lower().rstrip("s").removesuffix("ie").removesuffix("y")
    tail = _last_words(agent_text, 2500).lower()
    return bool(re.search(rf"\b(found|review|audit|identified|\d+)\b[^\n]{{0,80}}\b{kind}", tail))


#: An opening that takes up the next piece of work ("let's now turn to …", "I want to
#: focus on …", "Let's start by fixing …", "next, let's look at …").
_TAKES_UP_NEXT = re.compile(
    r"^\W*((ok|okay|great|good|thanks|alright|right)\W+)*((and )?next,?\s+)?"
    r"(let'?s|i want to|i'?d like to|we need to|now|next)\s+(now\s+|next\s+)?"
    r"(turn to|focus on|move on to|start (by|with)|switch to)\b",
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


def _accepts(region: str) -> bool:
    """An acceptance and nothing else, an opening "ok" or "yes" allowed ("Ok go ahead")."""
    return bool(_ACCEPT.search(region) or _ACCEPT.search(_ACCEPT_OPEN.sub("", region, count=1)))


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


def _one_word(region: str) -> bool:
    return bool(re.fullmatch(r"\W*[a-z]+\W*", region, re.IGNORECASE))


def _after_first(text: str) -> str:
    return text[len(_first_clause(text)) :].strip(" .,!;:-\n")


def _after_verdict(text: str) -> str:
    """What follows a verdict's clause, its sentence or, in Chinese, Japanese and Korean,
    its comma."""
    return _after_first(text) or _after_cjk_comma(text)


def _after_cjk_comma(text: str) -> str:
    """What follows the first comma of a text in Chinese, Japanese or Korean, where a
    verdict often ends ("好了，现在加一个导出按钮", "ありがとう、次は…を追加して", "고마워요, 이제
    … 추가해줘") as an English one would end its sentence; "" for any other text."""
    if not _CJK.search(text) or not re.search(r"[，、,]", text):
        return ""
    return re.split(r"[，、,]", text, maxsplit=1)[1].strip(" .,!;:-\n。！")
