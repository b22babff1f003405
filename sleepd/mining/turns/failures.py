"""Whether a turn reports that the work failed: pasted error text or a stack trace, a
said failure ("nothing happens when I press new game"), a wrong answer, a state that
outlived the fix.

These cues read the form of the words, the kind of rule that carried over to new authors
(docs/mining-measured.md, "Which rules read new authors well").
"""

from __future__ import annotations

import re

#: How much of a paste's head and tail is searched for an error.
PASTE_HEAD = 8000


PASTE_TAIL = 4000


#: The error codes Node gives a failed system call (libuv's names of the C library's errors).
_NODE_ERROR_CODE = (
    r"E(NOENT|ACCES|PERM|EXIST|ISDIR|NOTDIR|NOTEMPTY|MFILE|NOSPC|ADDRINUSE|ADDRNOTAVAIL|"
    r"CONNREFUSED|CONNRESET|CONNABORTED|TIMEDOUT|NOTFOUND|HOSTUNREACH|NETUNREACH|PIPE|"
    r"AI_AGAIN|PROTO|CANCELED|2BIG|NOBUFS)"
)

#: Pasted error output or a stack trace anywhere in the turn. (A line's leading space is
#: `[^\S\n]*`, not `\s*`: run over many blank lines, `^\s*` went on through all the lines
#: below from every line start, a search quadratic in the number of lines.)
_PASTED_ERROR = re.compile(
    r"Traceback \(most recent call last\)|^[^\S\n]*at \S+ \(?\S+:\d+:\d+\)?\s*$|"
    # a stack frame a plugin host prints with the line alone ("    at VideoClipTrackItem.value
    # (uxp://uxp-internal/middleware/index.js:1)", "    at e.exports.<anonymous> (a.js:75)")
    r"^[^\S\n]+at [\w$.<>\[\]]+ \([\w.:/@-]+\.[cm]?[jt]sx?:\d+\)\s*$|"
    # a host's status line for an action that failed ("Plugin Load Failed.", "Build Failed")
    r"^[^\S\n]*([A-Z][\w-]*[^\S\n]){1,4}Failed\.?[^\S\n]*$|"
    r"^[^\S\n]*File \"[^\"]+\", line \d+|^[^\S\n]*[\w.]*(Error|Exception)(:|\s*\[)|"
    r"\b(Uncaught|Unhandled)\b.*(Error|Exception|rejection)\b|"
    r"^[^\S\n]*(error|fatal|panic|ERROR|FATAL)(\[\w+\])?:|\berror TS\d{4}\b|\berror\[E\d{4}\]|"
    r"\bblocked by CORS policy\b|\bwas blocked because\b|\bNS_ERROR_\w+|\bnet::ERR_\w+|"
    r"\bFailed to load resource\b|\b(GET|POST|PUT|DELETE) https?://\S+\s+(\[HTTP/\S+ )?[45]\d\d\b|"
    r"\bHTTP [45]\d{2}\b|\bstatus(?: code)?:? [45]\d{2}\b|"
    r"\"error\"\s*:|\bSegmentation fault\b|\bcommand not found\b|\bModule not found\b|"
    # Python's missing module, also where `python -m` prints it alone ("…/python3: No module
    # named promptgrimoire.__main__; 'promptgrimoire' is a package and cannot be directly
    # executed")
    r"\bNo module named [\w'\".]+|"
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
    # the kernel's and the shell's word for a process it ended ("Out of memory: Killed
    # process 4412 (python3)", "Killed" alone on its line)
    r"\bOut of memory: Kill(ed)? process\b|^[^\S\n]*Killed[^\S\n]*$|"
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
    r"^[^\w\n]*((?i:warning):\s*|(?i:uncaught)\s+)?[\w$][\w$.]* is not "
    r"(defined|a function|iterable|a constructor)"
    r"\.?\s*$|\bCannot read propert(y|ies) of (undefined|null)\b|"
    # a Unix tool's own error line, "program: [object: ]reason", with the C library's words
    # ("umount: /run/media/x: target is busy.", "cp: cannot stat 'a': No such file …")
    r"^[^\S\n]*[a-z][\w.-]*: (\S[^\n]{0,200}: )?((cannot|can't) (access|stat|open|create|remove|"
    r"find|execute|connect|read|write|mount|load|allocate|overwrite|move)|"
    r"No such file or directory|Permission denied|Operation not permitted|"
    r"(Device or resource|target is) busy|"
    r"Read-only file system|Connection refused|Connection timed out|Is a directory|"
    r"Not a directory|Too many open files|No space left on device|Invalid argument|"
    r"Bad file descriptor|File exists|Broken pipe|Address already in use|"
    r"Network is unreachable|No route to host|Input/output error|Exec format error|"
    r"Resource temporarily unavailable|Argument list too long|Cannot allocate memory)|"
    # a program's own error line after its name, as argparse, clang or a linker prints it
    # ("cli.py: error: argument cmd: invalid choice: 'sd15'", "clang: error: linker command
    # failed"), and the dynamic loader's refusal ("… version `GLIBC_2.39' not found
    # (required by /usr/local/bin/x)", "error while loading shared libraries")
    r"^[^\S\n]*[\w./-]+: (error|fatal|ERROR|FATAL): \S|"
    r"\bversion `[^'\n]+' not found \(required by\b|\berror while loading shared libraries\b|"
    # a failed test as Go and Jest print it ("--- FAIL: TestResume_AfterMergingMain (3.72s)",
    # "FAIL\tgithub.com/x/cli\t0.41s", "FAIL src/app.test.ts"), a log line at error level
    # behind its tags ("[wingman] ERROR claude CLI failed …") or as JSON ("level":"ERROR"),
    # and a CLI's failure line behind a cross ("✖ Failed to start dashboard server.")
    r"^[^\S\n]*--- FAIL: \S|^[^\S\n]*FAIL(\t| +\S+\.(test|spec)\.[cm]?[jt]sx?\b)|"
    r"^[^\S\n]*(\[[\w.:/@-][\w.:/@ -]{1,39}\][^\S\n]*)+(ERROR|FATAL|CRITICAL|PANIC)\b"
    r"(?! (handling|reporting|logging|messages?|codes?|pages?|states?|boundar(y|ies))\b)|"
    r"\"level\"\s*:\s*\"(error|ERROR|fatal|FATAL|panic|PANIC|critical|CRITICAL)\"|"
    r"^[^\S\n]*[✖✗✘⨯][^\S\n]*(Failed|Error|Cannot|Could not|Unable)\b|"
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
    r"\bShow \d+ ignore-listed frames?\b|"
    # Node's own error lines: a child process that failed, as execSync and execa word it
    # ("Command failed: claude -p --output-format json"), and a system call's error code
    # after the call ("spawnSync claude ETIMEDOUT", "connect ECONNREFUSED 127.0.0.1:5432",
    # "getaddrinfo ENOTFOUND api.example.com") or before its words ("ENOENT: no such file
    # or directory, open 'a.json'"); a progress line that ends in its item's failure
    # ("[3/4] Analyse session … ... failed")
    r"(^[^\S\n]*(\[[^\]\n]{1,40}\][^\S\n]*)*|\bError: )Command failed: \S|"
    r"\b(spawn(Sync)?|connect|getaddrinfo|listen|read|write|open|scandir|stat|lstat|mkdir|"
    r"unlink|rename|copyfile|rmdir)( \S+)? " + _NODE_ERROR_CODE + r"(?=[\s:]|$)|"
    r"\b" + _NODE_ERROR_CODE + r": [a-z]|"
    r"(\.\.\.|…)[^\S\n]*failed\.?[^\S\n]*$",
    re.MULTILINE,
)


#: The same reports in Chinese, Japanese and Korean, as verb phrases: a bare noun
#: ("错误", "エラー", "오류") names error handling to build as often as an error seen,
#: so only a phrase that says something failed, does not run or still does not counts;
#: a condition set for the work to meet ("没有响应时自动重试", retry when there is no
#: response; "…没有任何反应的话", if … has no effect) reports nothing.
_FAILURE_REPORT_CJK = re.compile(
    r"(失败|报错|出错)(了|啦|[!！。:：]|\s*$)|运行不了|用不了|跑不(了|起来|通)|打不开|启动不了|"
    r"装不上|连不上|不能(用|运行|打开|启动)|没有?(任何)?(反应|响应|回应|效果|生效|变化|改变)"
    r"(?!的话|时|的时候)|"
    r"不生效|不起作用|还是(不行|不对|报错|失败|一样|没有?|只有)|卡(在|住)|又(报错|出错|失败)|"
    r"又(发生|出现)了|崩溃了|卡(住|死)了|太慢了?|慢得(要命|不行)"
    r"|遅すぎ(る|ます)|重すぎ(る|ます)|너무 느려|느려요"
    # what the person said, said again ("…の中に作れって言ってる", "我说过…", "…라고 했잖아"), as
    # "I told you …"
    r"|って言って(る|ます|いる|るでしょ|るじゃん)|と言って(る|ます|いる)|って言った(よね|でしょ|じゃん)?|"
    r"と言った(よね|でしょ|じゃん|のに)|我(说过|说了|已经说了)|라고\s?(했잖아|했는데|했어요)"
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
    r"(잘못|틀리)(됐|되었|했|었|렸)(어요|어|습니다|네요|다)(?![가-힣])"
    # what a screen fails to do, said of the thing ("필터에서 사라지지 않아요", "保存されない",
    # "消えない")
    r"|(사라지|바뀌|저장되|표시되|보이|열리|닫히|실행되|적용되|반영되)지\s?않"
    r"|(消え|保存され|更新され|削除され|送信され|閉じ)(ない|ません|なかった)",
)


#: Says the agent's answer is wrong ("That can't be right", "doesn't make sense"): a
#: failure report, and a correction even before the agent changed anything.
WRONG_ANSWER = (
    r"|\b(that|this|it) (can'?t|cannot|couldn'?t|could not) (possibly )?be (right|correct|true)\b"
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
    # doubts that the result works, anywhere in the turn ("<pasted output> I don't think this
    # is working as it should", "I don't think that fixed it")
    r"|\bi (don'?t|do not) think (that'?s|that is|this is|it'?s|it is|it|this|that|they|they'?re|"
    r"they are) (really |actually |quite )?(working|works|worked|work|fixed|solved|resolved|"
    r"helped|changed anything)\b"
    # a measure of the answer or the result found wrong ("this is too big.. make it small and
    # natural" under a drafted post, "that is to much tracing: …")
    r"|\b(that|this|it|these|those)('s| is| are| was| were)\s+(way\s+|far\s+|much\s+|still\s+)?"
    r"(too|to)\s+(much|many|long|verbose|noisy|slow|big|large|small|wide|narrow|dark|bright)\b"
    # denies what the agent said ("Not true. You changed the cdn settings an hour ago!!",
    # "that's not true")
    r"|^\W*not true\b|\b(that'?s|that is|this is|it'?s|it is|that was) (not|n'?t) (true|accurate)\b"
    # the result, said not to work, in the other order ("[image] Seems not to work?")
    r"|\b(seems?|appears?) not to (work|be working|run|load|start|build|pass|help|do anything)\b"
    # doubts that the fix took ("[image] Not sure if the fix worked?", "not sure if that
    # fixed it"; "that fixed it" alone is praise)
    r"|\b(not sure|unsure|not certain|i doubt)( if| whether| that)?\s+"
    r"((it|that|this|the|they|you|we)( \w+)? )?(really |actually )?"
    r"(fixed|solved|worked|helped|did anything|did the trick|changed anything)\b"
    # sets the agent itself right ("you are not correct: "In addition to …"", "you're
    # mistaken"; not "if you are wrong, …", a condition)
    r"|(?<!\bif )(?<!\bwhen )\byou('?re| are) (\w+ly )?(not (quite )?(right|correct)|wrong|"
    r"mistaken|incorrect)\b"
    # holds the result to what was settled before ("i thought we found a way to include it
    # in the script", "I thought we'd removed the concept of …?", "I thought we already
    # planned phase 9?"; not "I thought we could …", a suggestion)
    r"|\bi thought (we|you)('d|'ve| had| have)?( already)? (fixed|solved|resolved|removed|"
    r"handled|addressed|found|added|planned|agreed|decided|dropped|deleted|changed|made|had|"
    r"got rid of|took care of)\b"
    r"|\b(that'?s|that is|this is|it'?s|it is) not the (one|program|process|file|app|culprit)\b"
    # holds the agent to what it should have known ("I'm on Ubuntu 22.04. You should know
    # this...") or done ("you run it, until it actually works")
    r"|\byou should (already |have )?(know|known|remember|remembered) (this|that)\s*([.!…]|$)"
    # what the agent should be doing set against what it does ("you should be creating a
    # prd document, not creating projects")
    r"|\byou should (be|have been) \w+ing\b[^.?!\n]{0,80}?\bnot\s+\w+ing\b"
    r"|\buntil it (actually|really|finally|truly) (works|runs|passes|builds|starts)\b"
    # opens by saying what the person meant ("I mean claude", after an answer about the
    # shell, "I mean not git config but git hooks"); "I mean, …" with its comma is a
    # filler, and so is "I mean" before a clause of its own ("I mean we need to accept
    # that …", "I mean this is already the … PR, so why not")
    r"|^\W*i mean\b(?!,)(?!\s+(we|you|i|they|it'?s|it is|this is|that'?s|that is|there)\b)"
    # asks why the agent did not do what it was asked ("why won't you run it?"; not "why
    # don't you try …", a suggestion)
    r"|\bwhy (exactly |again |then |on earth )?(won'?t|wouldn'?t|didn'?t|did not|haven'?t|have not|"
    r"hasn'?t) you\b"
    # (not agreeing: "But that's what I meant, I want to see it in the agent")
    r"|(?<!that's what )(?<!thats what )(?<!that is what )(?<!this is what )"
    r"(?<!exactly what )\bi (meant(?! to\b)|was talking about|was referring to|was asking about)\b"
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
    # says the work went past what was asked ("i think you've done more than is necessary,
    # could we just run cargo package?", "you did way too much here"; not "you've done more
    # than enough, thanks", praise)
    r"|\byou('?ve| have| did)( done)? (way |far |much |a lot )?(more than (is |was |what )?"
    r"(necessary|needed|required|asked|i asked)|too much\b(?! work\b))"
    # regrets an act of the work ("we should have done the tests before committing")
    r"|\b(we|you) should(n'?t| not)? have (\w+[^\We]ed|done|run|made|written|gone|kept|left|"
    r"put|told|used|asked|checked|tested)\b"
    # asks why something the work should have done did not happen ("why didn't speckit
    # answer in french!", "pourquoi speckit n'a pas répondu en français !"); "why didn't
    # we …" questions a choice, and "¿por qué no pruebas …?" suggests
    r"|\bwhy (didn'?t|did not|doesn'?t|does not|isn'?t|is not|wasn'?t|was not|hasn'?t|has not|"
    r"haven'?t|have not)\b"
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


#: What remains wrong, named ("alignment problems", "the same errors", "a few bugs").
_TROUBLE = (
    r"(some |a few |a lot of |lots of |many |more |the same |that |this |these |those |an? )?"
    r"([\w-]+ ){0,2}(problems?|issues?|errors?|bugs?|glitch(es)?|failures?|exceptions?)\b"
    # (not what the code has for trouble: "still has error handling")
    r"(?!\s*(handling|handlers?|messages?|codes?|states?|boundar(y|ies)|checking|reporting|"
    r"logging|cases?|paths?|types?|pages?))"
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
    # (a bare "not" after "and" or "or" goes with the verb before it: "we need to make the
    # persona dynamic and not stick to 1 or 2")
    r"(?<!must )(?<!why )(?<!please )(?<!do )(?<!to )(?<!and )(?<!or )not|never|no longer|"
    r"still not|still doesn'?t)"
    # "the links dont work": a plural subject, not a prohibition ("don't run the tests")
    r"|\b(they|these|those|\w\w+s|made|did|added|changed|applied|wrote|suggested)\s+"
    r"(don'?t|do not)"
    # ("I mean, it just don't work": "it" with "don't", as people write it in a hurry or in
    # a second language; not "don't work on it", a prohibition)
    r"|\b(it|this|that)\s+(just\s+|still\s+|really\s+)?(don'?t|dont|do not))\s+"
    # (two of them at most: "it doesn't seem to correctly color the symbol")
    r"(even |really |actually |(seems?|appears?) to (be )?|always |properly |correctly ){0,2}"
    # ("you've not worked on this project yet" says what the agent has not done before)
    r"(work|works|working|worked(?! on\b)|write|written|save|saved|saving|load|loads|loading|"
    r"loaded|show|"
    r"shows|showing|shown|display|displayed|displaying|appear|appears|appearing|render|renders|"
    r"rendering|rendered|change|changed|update|updated|updating|run|runs|running|start|starts|"
    r"started|open|opens|compile|compiles|build|builds|pass|passes|passing|happen|happens|"
    r"happening|exist|exists|respond|responds|move|moves|play|plays|playing|fix|fixed|look right|"
    r"look correct|look good|look well|look ok|look okay|look fine|match|matches|find|found|"
    r"create|created|install|installed|connect|"
    # ("i do not see why you decided …" asks for the agent's reasons, sees nothing missing)
    r"connects|connected|stop|stops|get called|trigger|triggered|fire|fires|respect|use|used|"
    r"see(?:ing)?(?! (why|how|when|whether|the (point|need|reason))\b)|"
    r"reach|access|return|returns|scroll|scrolls|click|respond|finish|finished|finishes|"
    r"complete|completes|completed|succeed|succeeds|ends|terminates|"
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
    # the same in the progressive ("… but nothing is happening. Isn't it supposed to fire
    # after 30s?")
    r"|\bnothing (is|was) (happening|changing|showing|working|loading|appearing|rendering)\b"
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
    # (not "there is nothing missing", good news)
    r"|\bthere (is|are|seems to be|seem to be|appears to be|'s) (still )?(some |a few |a lot of )?"
    r"(?!(nothing|no)\b)(\w+ ){0,3}missing\b"
    # (not a counterfactual: "it should have failed", "would have crashed")
    r"|(?<!should )(?<!would )(?<!could )(?<!must )(?<!might )"
    r"\b(has|have|had) (just )?(crashed|stopped working|failed)\b"
    # trouble said to remain after the attempt ("nope, there's still alignment problems",
    # "still getting the same errors", "it still has issues with long urls")
    r"|\bthere(\s+is|\s+are|'s|\s+seems? to be|\s+appears? to be)\s+still\s+"
    + _TROUBLE
    + r"|\bstill\s+(has|have|having|getting|gets|get|seeing|see|shows?|showing|throws?|"
    r"throwing)\s+"
    + _TROUBLE
    # a thing said to hold an error ("benchmark.ts has a typescript error in the imports",
    # "the build has errors", "browser shows error"; not "has error handling")
    + r"|\b(has|had|shows?|showing|gives?|giving)( got)? (an? |some |\d+ |a few |a lot of |"
    r"lots of )?((typescript|type|syntax|build|compile|compiler|lint|linting|runtime|import|"
    r"ts|js|console|test)[- ])?(errors?|exceptions?)\b(?!\s*(handling|handlers?|messages?|"
    r"codes?|states?|boundar(y|ies)|checking|reporting|logging|cases?|paths?|types?|pages?))"
    # an error page the result shows, however it is named ("The home page at localhost:3000
    # shows Next.js default 404", "it gives a blank page"; not what to build: "add a route
    # that shows a 404 page", "make the page show a 404")
    r"|(?<!\bthat )(?<!\bwhich )(?<!\bshould )(?<!\bwill )(?<!\bmust )(?<!\bto )"
    r"\b(shows|showing|gives|giving|displays|renders)\s+(an? |the )?"
    r"(([\w.]+ ){0,2}(default|blank|generic|empty|same|old|white) )?"
    r"(40[134]|50[0234]|blank (page|screen)|white (page|screen)|error page)\b"
    # what a browser says of a server that is not there ("localhost refused to connect",
    # "ERR_CONNECTION_REFUSED")
    r"|\brefused to connect\b|\bconnection (was )?refused\b"
    r"|\b(could ?n[o']t|can'?t|cannot) be reached\b"
    r"|\berr_(connection|name_not|address|ssl|cert|timed_out|empty_response|internet|network)"
    r"|\bno (visual |visible |noticeable |apparent |real )?((change|difference|effect|output|"
    r"sound|response|results)\b"
    # (the plural as people say it after trying: "tried again. No changes."; not "no
    # changes needed", "no changes to the API")
    r"|(changes|differences)\b"
    r"(?!\s+(needed|required|necessary|to|in|for|on|from|were|are|have|made|since|yet)\b))"
    # (not what is sought: "figure out what is missing", "contrast with something that is
    # missing")
    r"|(?<!\bwhat )(?<!something that )(?<!anything that )"
    # (nor a condition: "as long as it is empty", "if they are missing")
    r"(?<!\bif it )(?<!\bif they )(?<!\bas long as it )(?<!\bas long as they )(?<!\bunless it )"
    r"(?<!\bunless they )(?<!\bwhen it )(?<!\bwhen they )(?<!\bwhether it )(?<!\bin case it )"
    r"\b(is|are|was|were|still|stays|remains|looks|seems|sound|sounds|feels)\s+"
    r"(still\s+)?(really\s+|very\s+|way\s+|totally\s+|completely\s+|all\s+)?"
    r"(empty|blank|missing|"
    # ("the same" as a state; "is the same as used while compiling" compares)
    r"broken|wrong|stuck|frozen|off|misaligned|cut off|the same(?!\s+as\b)|gone|black|white|"
    r"incorrect|"
    r"invisible|hidden|duplicated|not there|offline|unreachable|unresponsive|not responding|"
    # what was made found unusable ("the pdf is a bunch of nulls", "the game is hardcoded")
    r"garbage|garbled|corrupted|corrupt|truncated|hard-?coded|"
    r"(a bunch|full|made up|nothing but) of (nulls?|zeros?|garbage|nans?|null bytes))\b"
    # what was made shows none of what it should ("the cli now shows no checkpoints"; not
    # "shows no errors", the good news, nor a search's "returns no matches")
    r"|\b(shows?|displays?|lists?|returns?|finds?|renders?)\s+(no|zero|0)\s+"
    r"(?!(errors?|warnings?|regressions?|issues?|problems?|failures?|conflicts?|diffs?|"
    r"differences?|leaks?|vulnerabilit(y|ies)|findings?|matches|match|hits?)\b)[a-z]"
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
    # (not the same done again elsewhere: "now do the same thing in stanza_test")
    r"|(?<!\bdo the )(?<!\bdoes the )(?<!\bdid the )(?<!\bdoing the )(?<!\bapply the )"
    r"\bsame (error|issue|problem|result|thing|behaviou?r)\b|\bstill (the )?same\b"
    r"|\bsame (as before|as it was)\b"
    # a regression: what was right a moment ago is not now ("you had it a second ago", "it
    # was working a minute ago", "this worked fine before your change"; not "it worked
    # before I restarted", which says what fixed it)
    r"|\byou (had|got) (it|this|that)( right| working)? (just )?(a (second|sec|minute|moment|"
    r"few minutes) ago|before|earlier)\b"
    r"|\b(it|this|that|they)\s+(was|were)\s+(working|fine|right|correct)( fine)?\s+(just\s+)?"
    r"(a (second|sec|minute|moment|few minutes) ago|before (the|your|this|that) (change|edit|"
    r"commit|update)s?|earlier)\b"
    r"|\b(it|this|that|they)\s+worked( fine| perfectly)?\s+(just\s+)?(a (second|sec|minute|"
    r"moment|few minutes) ago|before (the|your|this|that) (change|edit|commit|update)s?|earlier)"
    r"(?![^.?!\n]{0,40}\b(restart|reboot|reinstall|clear)\w*)"
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
    r"|\b(is|are|was|were|isn'?t|aren'?t)\s+not\s+(reflected|showing up|updated|saved|present)\b"
    r"|\b(isn'?t|aren'?t|wasn'?t|weren'?t) (reflected|showing up|updated|saved|present)\b"
    # one thing found wrong, announced, then what does not happen ("Seems to work fine. One
    # issue. is that the MCP does not seems to ready the data from the rea time devices
    # table. ?"; not "One issue: can you also add a legend?", "one problem though - I don't
    # know the API key")
    r"|\b(one|another|the only|the one|a small|a minor|one small|one minor)\s+(more\s+)?"
    r"(issue|problem|bug)\b(?>\s*(though|tho|left|remaining)?\s*[:.,;\-–—]?\s*(is\s+)?(that\s+)?)"
    # (the person's own trouble is theirs: "one problem though - I don't know the API key")
    r"(?!(i|we|i'?m|we'?re|i'?ve|we'?ve)\b)"
    r"[^.?!\n]{0,80}?\b(does not|doesn'?t|do not|don'?t|did not|didn'?t|is not|isn'?t|are not|"
    r"aren'?t|can ?not|can'?t|won'?t|never)\b"
    # what the work was to give back and did not, on the occasion the person tried ("the
    # reponse was not given", "the answer wasn't returned"; not "make sure the answer is
    # not given away", nor a present "is not shown to anonymous users", how it is meant)
    r"|(?<!sure )(?<!ensure )(?<!that )\b(response|reponse|answer|reply|result|output|value)s?"
    r"\s+(was|were|has been|have been)\s*(not|never|n'?t)\s+(given|returned|shown|displayed|"
    r"provided|sent|generated|produced)\b(?!\s+away\b)"
    # what should be there is not, not even that ("this is super quick, there isn't even a
    # container running"; not "there isn't even a need to …")
    r"|\bthere (isn'?t|is not|wasn'?t|was not|aren'?t|are not|weren'?t|were not) even\b"
    r"(?!\s+(an?\s+)?(need|reason|point|way|rush)\b)"
    r"|\bwhere (did|have) (all )?my\b[^.?!\n]{0,40}\bgo(ne)?\b|\bwhere (is|are|'s)? ?all my\b"
    r"|\b(we|you|it)\s+(just\s+)?(lost|deleted|removed|broke|dropped|wiped|overwrote)\b"
    # what a run seems to have done ("When I reran the enrich, it appears to have removed
    # the section"), and a run that timed out ("hermes timed out on the enrich")
    r"|\b(it|this|that|they|which)\s+(appears|seems|seem|appear)\s+to\s+have\s+(removed|deleted|"
    r"lost|broken|dropped|wiped|overwritten|replaced|reverted|undone|erased|corrupted)\b"
    r"|\b(?!(if|when|whenever|before|once|until)\b)\w+\s+timed out\b"
    r"|\bi\s+(just\s+)?lost (all|my|the|every)\b"
    r"|^\W*(oh no|uh oh|oops|hmm+,? no)\b|\bare you sure\b"
    r"|\b(that'?s|that is) not (it|right|the issue)\b"
    # disbelief at what the agent said or did ("wait, what.", "wait what?!")
    r"|^\W*wait\W{1,3}what\W*?[.?!]"
    # doubt that the agent works on the right thing ("are we definitely referencing the right
    # documentation?"), or word that it took another one ("it's a different program")
    r"|\bare (we|you) (definitely|really|certain|sure)\b[^.?!\n]{0,60}\b(right|correct)\b"
    r"|\b(it'?s|that'?s|this is|it is|that is) (a |the )?(different|another) (one|program|"
    r"app|file|process|repo|repository|branch|project|folder|directory|service|server|page|"
    r"window|screen|machine|version|package|command|function|module|component|key|account)\b"
    # the agent's claim doubted ("does formatting really succeed?" after "formatting is
    # clean") and a mismatch found in the result ("note the following name discrepancy")
    r"|\b(does|did|do|is|are|was|were|has|have)\s+(\w+\s+){0,2}really\s+(succeed|succeeded|"
    r"work|works|worked|pass|passed|run|ran|fix|fixed|build|built|compile|compiled|finish|"
    r"finished|complete|completed|format|formatted)\b"
    r"|\b(note|notice|noticed|there'?s|there (is|are)|i see|i found|found|seeing)\b[^.?!\n]{0,40}"
    r"\b(discrepanc(y|ies)|mismatch(es)?|inconsisten(cy|cies))\b"
    + WRONG_ANSWER
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
    # the message itself, in the program's words, as what the person meets ("I am seeing
    # `failed to generate summary: failed to parse summary JSON: …`"; not "I'm seeing how
    # the retry handles a failed upload")
    r"|\b(i'?m|i am|we'?re|we are) (getting|seeing)\s*(this|the following)?\s*:?\s*[`\"']"
    r"[\w.-]{0,20}:?\s*(failed|unable|denied|refused|timed out|not found|unexpected|invalid|"
    r"cannot|can'?t|could not|no such)\b"
    # ("I recieved the following error.", "we encountered this exception")
    r"|\b(i|we) (received|recieved|receive|encountered|hit|ran into|run into) (the following|this|"
    r"these|an?|the same|some)( \w+)? (errors?|exceptions?|failures?|crash(es)?)\b"
    r"|\b(i|we) (get|got|see|saw)\b[^.?!\n]{0,40}\b(error|exception|warning|failure|crash|"
    r"blank|nothing|404|500|undefined|null|nan)\b"
    # ("that" opening a relative clause, "a diagram that shows our design", "an endpoint
    # that returns the users", describes what to build: a request, no report)
    # (not "this is what it shows" with the screenshot the agent asked for: the content,
    # no statement of what went wrong; nor "make the log so it shows a normal format",
    # what the change is for)
    r"|(?<!\bwhat )(?<!\bso )(?<!\bso that )"
    r"\b(it|this|(?:(?<![a-z] )|(?<=\bbut )|(?<=\band )|(?<=\bnow )|(?<=\bso )|"
    r"(?<=\bstill ))that|the \w+( (?!(still|also|now|just|only|never|"
    r"always|really)\b)\w+)?) "
    r"(says|shows|throws|gives|returns|prints|crashes|crashed|"
    r"fails|"
    r"failed|breaks|broke|hangs|freezes)\b"
    # the person's diagnosis of what went wrong, opening the turn ("the problem is ssl")
    r"|^\W*(the|my|our|that'?s the|this is the) (real |actual |main )?(problem|issue|bug)"
    r"( here)?( is| was|:)\s"
    # a status the person reads off ("a CI badge that says failing", "the check shows failed")
    r"|\b(says|shows|reads)\s+(failing|failed|broken|errored)\b"
    r"|\b(still|now|it|this|that|they|which|everything|build|tests?|page|app)\s+(fails|failed|"
    r"crashes|crashed|breaks|broke|errors|errored|hangs|freezes)\b"
    # the same said of several, in the plural ("can you explain why they fail now?" after
    # "All tests pass now")
    # (said of now: not "they fail if the token is missing", how they are meant to work)
    r"|(?<!\bdo )(?<!\bdid )(?<!\bwill )(?<!\bwould )(?<!\bcould )(?<!\bcan )(?<!\bmight )"
    r"\b(they|these|those)\s+((still|now)\s+(all\s+)?(fail|crash|break|hang|freeze)\b|"
    r"(all\s+)?(fail|crash|break|hang|freeze)\s+(now|again|too|as well)\b)"
    # a failure the person met ("'just fmt' fails for me", "the tests fail when I run them")
    # (not one foreseen: "tests would also fail on my machine if I hadn't gemini installed")
    r"|(?<!would )(?<!could )(?<!might )(?<!would also )(?<!could also )(?<!might also )"
    r"\b(fails|failed|fail|breaks|crashes)\s+(for me|on my (machine|side|end|computer|phone)|"
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
    # ("pr run failed, can you check")
    r"pipeline|compil(e|ation)|install(ation)?|deploy(ment)?|migrations?|login|upload|checks?|"
    r"pr( run)?|ci run|workflow( run)?|release|e2e( run)?|test run)\s+"
    r"(still\s+)?(fails|failed|is failing|are failing|errors|errored|breaks|broke)\b"
    # a command the person ran, quoted, said to fail ('"mise run test:ci" fails' right after
    # the agent said the tests pass)
    r"|^\W*(\"[^\"\n]{2,80}\"|`[^`\n]{2,80}`|'[^'\n]{2,80}')\s+(still\s+)?(fails|failed|"
    r"is failing|errors|errored|breaks|broke|crashes|crashed|hangs)\b"
    # (the bare verb only as the whole report, "lint fail 😭"; "lint fail on warnings" asks
    # for a behaviour)
    r"|^\W*(the\s+)?(lint|linting|linter|typecheck|tsc|mypy|eslint|ruff|ci|build|tests?|checks?)"
    r"\s+(still\s+)?fail\W*$"
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
    # ("that warn does not sound rigth": "right" with its letters swapped, as typed fast)
    r"|\b(doesn'?t|does not|don'?t|do not|didn'?t|did not) (look|sound|feel|read) (quite )?"
    r"(right|rigth|good|"
    r"correct|like)\b"
    # the result found wrong in so many words ("the starting symbol is not right", "that's
    # not correct"; a requirement or a condition around it, "make sure the header is not
    # right-aligned", is taken out by the caller before this is read)
    r"|\b(is|are|was|were|it'?s|that'?s)\s+not\s+(quite\s+)?(right|correct)\b"
    r"|\b(isn'?t|aren'?t|wasn'?t|weren'?t)\s+(quite\s+)?(right|correct)\b"
    # a part of the result that misses the right state ("The transient prompt does not seem
    # to end in the correct color", "it doesn't land on the right page"; not "I don't know
    # the right way", the person's own doubt)
    r"|\b(it|this|that|they|which|(the|my|our|its|their)\s+(\w+\s+){0,2}\w+)\s+"
    r"(doesn'?t|does not|don'?t|do not|didn'?t|did not|isn'?t|is not|aren'?t|are not|wasn'?t|"
    r"was not|won'?t|will not)\s+((seem|appear) to\s+)?(\w+\s+){0,3}?(the|a|an)\s+"
    r"(correct|right|expected|proper)\s+\w+"
    # what the person still meets after the fix ("I still see the old header", "I've still
    # got a shadow, no condensation commit"; not "I still see why …")
    r"|\b(i|we)('ve| have)?\s+still\s+(see|get|got|hit|receive|encounter|notice)\b"
    r"(?!\s+(to|why|what|how|your point|the point)\b)"
    # what the change did to something that worked ("the amend has broken our entire
    # checkpoints"; not "pages that have broken links", a thing to look for)
    # ("it's clobbered my config" reads "it is clobbered my config", its contraction written out)
    r"|((?<!that )(?<!which )(?<!who )\b(has|have|'ve)|\b(is|'s))\s+(now\s+|just\s+|completely\s+|"
    r"totally\s+)?(broken|broke|messed up|screwed up|wrecked|corrupted|clobbered|wiped out)\s+"
    r"(our|my|the|all|every|everything|it|this|that|these|those)\b"
    # what hangs, wherever it hangs ("it gets stuck on loading", "[image] Seems to get
    # stuck on loading?"; not "I'm stuck", "the rename stuck")
    r"|\b(it|this|that|they|which|the (\w+\s+){0,2}\w+)\s+(now\s+|still\s+|just\s+|always\s+)?"
    r"((seems?|appears?) to\s+)?(gets?|got|is|are|was|were|be|get)\s+stuck\b"
    r"|(?:^|[\n\]])\W*((it|this)\s+)?(seems|appears) to (get stuck|be stuck|hang|freeze)\b"
    # what stops the work ("it is being blocked by 'block-local-merge-to-main' but the
    # current branch is not main"; not "it should be blocked", a requirement)
    r"|\b(it|this|that|they|the \w+( \w+)?)\s+(is|are|was|were|gets|got)\s+(still\s+)?"
    r"(being\s+)?(blocked|rejected|denied|refused)\b"
    # an expectation the result did not meet ("I would have expected to see more checkpoints
    # than what ./entire explain is showing (7)", "I expected it to …")
    r"|\bi('d| would)( have)? expected\b|\bi expected (to|it|that|this|the|a|an|more|less)\b"
    # what the result does wrongly, in the progressive or the passive ("it's not adding the
    # trailer properly??", "they are not being parsed properly")
    r"|\b((is|are|was|were|it'?s|that'?s|they'?re)\s+not|isn'?t|aren'?t|wasn'?t|weren'?t)\s+"
    r"(being\s+)?\w+(ing|ed)\s+([\w'.-]+\s+){0,3}?(properly|correctly|right)\b"
    r"|\b((is|are|was|were|it'?s|that'?s|they'?re)\s+not|isn'?t|aren'?t|wasn'?t|weren'?t)\s+"
    r"(being\s+)?(properly|correctly)\s+\w+(ed|ing)\b"
    # a build or a check said to fail, however tersely ("argghh build failing: lint", "we
    # fail build 😭"; not "fix the build failing tests" nor "tests failing jobs")
    r"|\b(build|builds|tests|ci|lint|checks|pipeline)\s+((is|are)\s+)?(still\s+)?failing\b"
    r"(?!\s+(test|tests|check|checks|job|jobs|step|steps|case|cases)\b)"
    r"|\b(we|it|this|that)\s+(still\s+)?(fail|failed|break|broke)\s+(the\s+)?(build|ci|lint|"
    r"tests|checks|pipeline)\b"
    # failures the person got ("we got test failures", "we got test failz"; not "we got
    # rid of the failures")
    r"|\b(we|i)\s*('ve|'re|'m|\s+have|\s+are|\s+am)?\s+(got|get|getting|see|seeing|saw|hit)\s+"
    r"(some\s+|a few\s+|new\s+|more\s+|the same\s+)?(test|build|lint|ci|type|compile)?\s*"
    r"(failures|failz|fails|errors)\b"
    # what the work does not do, named ("the test isn't really checking the metadata …")
    r"|\b(test|tests|check|checks|script|hook|fix|function)\s+(is|are|was|were)?(n'?t|\s+not)\s+"
    r"(really\s+|actually\s+)?(checking|testing|catching|covering|handling|verifying|"
    r"validating|doing anything)\b"
    # part of the result seen, the rest not ("I see the formatting change but not the 'last
    # seen' strings"; not "I see your point but not sure …")
    r"|\bi (can )?see (the |a |an |that |this )?[^.?!\n]{1,60}?\bbut not\b(?! sure\b)"
    # what did not happen, opening the turn ("Did not deploy? <link to the run>") and an
    # error the agent itself met ("I think you got an API error?")
    r"|^\W*(it\s+)?(did(n'?t| not)|has(n'?t| not)|does(n'?t| not))\s+(deploy|deployed|build|built|"
    r"run|ran|work|worked|load|loaded|start|started|install|installed|publish|published|merge|"
    r"merged|push|pushed|save|saved|update|updated)\b"
    # (not "you get an error if the token expires", how it is meant to behave)
    r"|\byou (got|hit|ran into|are getting|'re getting)\s+(an?\s+)?(\w+\s+)?(error|exception)\b"
    # a measure still wrong after the attempt ("[image] still too hard."; not the question
    # "is it still too slow?")
    r"|(?<!is it )(?<!is this )(?<!are they )(?<!is that )\bstill (way |far |much )?too \w+"
    # a case the change leaves out ("so I guess this skip-check doesn't handle the 'update'
    # commit case?"; not "we don't need to handle the empty case")
    r"|\b(doesn'?t|does not|didn'?t|did not|won'?t|will not|can'?t|cannot)\s+(\w+\s+)?(handle|"
    r"cover|catch|support|account for|deal with)\s+(the|this|that|a|an)\b[^.?!\n]{0,60}?\bcases?\b"
    r"|\b(try|please) (to fix|fix)\b"
    # trouble the person sees in the result ("It picked up my POSH_CONFIG and I can see some
    # issues in the rendering"; not "I see some issues with this approach", a view of a plan)
    r"|\b(i|we)\s+(can\s+|could\s+|still\s+|now\s+)?(see|notice|noticed|spotted|found|"
    r"am seeing|'m seeing|are seeing|'re seeing)\s+(some|a few|several|many|a couple of|a lot of|"
    r"lots of|two|three|more)\s+(issues|problems|bugs|glitches|errors|artifacts|regressions)\b"
    r"(?!\s+(with|in|about)\s+(this|that|the|your|our)\s+(approach|plan|idea|proposal|design|"
    r"suggestion|spec)\b)"
    # what the person just described said to want fixing ("… but prompt quality shows always
    # in expanded view..this should be fixed"; not "this should be fixed in a later PR")
    r"|\b(this|that|it|which)\s+(should|needs? to|must|has to)\s+be\s+fixed\b"
    r"(?!\s+(in|by|on|later|separately|upstream|first|next|when|once|before|after)\b)"
    r"|\b(this|that|it)\s+needs\s+fixing\b"
    # (not a go-ahead on the fix the agent laid out: "ok fix it, `ssh bamboo` if you need a
    # linux box to test", nor what a step is for: "if not, just make a pr to fix this")
    r"|(?<!\bok )(?<!\bok, )(?<!\bokay )(?<!\bokay, )(?<!\byes )(?<!\byes, )(?<!\bsure )"
    r"(?<!\bsure, )(?<!\bgo ahead and )(?<!\bto )\bfix (it|this|that|these|those)\b(?!\s+[a-z])"
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
    # (not the person's own "can't wait to see it", "cant reproduce anymore", written out)
    r"|^\W*(cannot|could not|couldn'?t|unable to|failed to)\s+"
    r"(?!(wait|believe|thank|reproduce|complain|help but|imagine|tell)\b)\w+"
    # a result other than the one expected ("It results in a different icon than if installed
    # as AppImage"), a screen that will not move on ("it opens and stay on the first frame")
    # (a subject, so that a request is not read: "use a different font than Arial", "commit
    # and stay on the same branch")
    r"|\b(it|this|that|they|which|the \w+)\s+(now\s+|still\s+)?(results? in|gives|shows|produces|"
    r"creates|ends up with|uses|gets|returns|displays)\s+(a |an )?different\s+(\w+\s+){0,2}"
    r"(than|from)\b"
    r"|\b(it|this|that|they|which|the \w+)\s+(\w+\s+and\s+)?(just\s+|still\s+)?(stays?|stayed|"
    r"is stuck|gets stuck|got stuck|remains|hangs|freezes|froze)\s+(on|at|in)\s+(the\s+)?"
    r"(very\s+)?(first|same|initial|loading|blank|splash|login|start|old|previous)\b"
    # exasperation at what the agent missed ("don't you see all the "#"?", "why can you not
    # keep track of …", "why do you keep …"; not "why can't you just …", a suggestion)
    r"|\b(don'?t|can'?t|didn'?t) you see\b"
    r"|\bwhy (can you not|do you keep|are you still|is it still)\b"
    r"|\b((is|are|was|were) (also )?not|isn'?t|aren'?t|wasn'?t) (really )?(relevant|applicable)\b"
    # what the result says back ("It flitters, then says no clip found", "it shows
    # undefined"), where it alone works ("It only loads in premiere pro beta"), a step the
    # agent gave that the person cannot find ("there is no setting called plugins"), a
    # dotted name a JavaScript runtime calls no function ("label error: clip.setName is not
    # a function"), a part said to have no business with what it does
    r"|\b(says|shows|gives|prints|returns|displays)\s+[\"'“]?(no \w+( \w+)? (found|available|"
    r"detected|selected)|not found|undefined|null|nan|an? error|error)\b"
    # (not "make it only work for me", "I don't want it to only run …")
    r"|(?<!make )(?<!makes )(?<!let )(?<!have )(?<!want )(?<!to )"
    r"\b(it|this|that|they)\s+only\s+(loads?|works?|runs?|shows?|appears?|opens?|renders?|"
    r"starts?|builds?|compiles?)\s+(in|on|when|with|for|if|after|under)\b"
    r"|\bthere (is|are|was) no (setting|option|button|menu|menu item|file|folder|tab|field|"
    r"command|page|section|item|entry|toggle|checkbox|link|panel|screen)s? "
    r"(called|named|labell?ed)\b"
    r"(?![^.?!\n]{0,60}\b(add|create|make|implement|build)\b)"
    r"|[\w$]+\.[\w$.]+ is not a function\b"
    r"|\b(should|must) have nothing to do with\b"
    r"|\birrelevant\b"
    r"|\bincorrect(ly)?\b|\bnot what i\b|\byou (forgot|missed|ignored|broke|deleted|"
    # (not the person's own doubt: "still not sure how we make this portal …")
    r"removed|didn'?t|did not)\b|\bstill (fail|failing|fails|broken|wrong|"
    r"not(?! (sure|certain|clear|convinced that|decided)\b)|no|nothing|the same|"
    r"isn'?t|aren'?t|doesn'?t|don'?t|won'?t|can'?t|(is|are|does|do|will) not|cannot|"
    r"an? (error|issue|problem|bug))\b",
    re.IGNORECASE,
)


#: A log line's own time stamp ("09:21:01.788 Error: …", "[12:03:44] …", with its zone:
#: "2026-02-13T08:45:11+01:00 [wingman] ERROR …"), read past so
#: that what the line says is read from its start.
_LOG_STAMP = re.compile(
    r"^[ \t]*\[?(\d{4}-\d{2}-\d{2}[T ])?\d{1,2}:\d{2}:\d{2}([.,]\d+)?"
    r"(Z|[+-]\d{2}:?\d{2})?\]?[ \t]+",
    re.MULTILINE,
)

#: The name a task runner prints before each line of a task's output ("[lint:go] ", mise's
#: and hk's "[build] "): what follows is the program's own line.
_TASK_PREFIX = re.compile(r"^[ \t]*\[[\w:./@-]{1,40}\][ \t]+", re.MULTILINE)


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
    lines = _LOG_STAMP.sub("", past_a_handling_request(pasted))
    if _PASTED_ERROR.search(lines):
        return True
    # the same lines without a task runner's names before them ("[lint:go] main.go:45:9:
    # error returned …"; a level behind such a name, "[wingman] ERROR …", reads above)
    unnamed = _TASK_PREFIX.sub("", lines)
    return unnamed != lines and bool(_PASTED_ERROR.search(unnamed))


def past_a_handling_request(text: str) -> str:
    """The text after a first line that asks for a failure to be handled, tested or acted
    on ("add test to check we print wrong agent name", "show a toast when we get Failed to
    fetch"): the failure that line names is what to build for, not what the person saw."""
    request = _ASKS_TO_HANDLE.match(text) or _ACTS_ON_AN_ERROR.match(text)
    return text[request.end() :] if request else text


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
    # the same in the progressive ("it's still using `Checkpoints` as a term")
    r"|\b(is|are|'s|'re)\s+still\s+(using|showing|displaying|printing|returning|listing|"
    r"saying|pointing to|referring to|calling|writing)\b"
    # ("it passed, but still there is the svg that is rotating")
    r"|\bstill there (is|are)\b",
    re.IGNORECASE,
)


#: What the person saw on trying the work ("when I run `entire list` it's still using …",
#: "when I click save, nothing happens"): a report, where another "when" sets a condition or
#: a requirement.
TRIED_IT = (
    r"when(ever)?\s+i\s+(just\s+|then\s+)?(do|did|run|ran|try|tried|click|clicked|open|opened|"
    r"press|pressed|start|started|launch|launched|reload|reloaded|load|loaded|use|used|type|"
    # (not "when I do not …", a condition)
    r"typed|go|went|install|installed|build|built|test|tested)\b(?!\s+not\b)"
)


#: The same with the state named around "still": a negation after it ("it seems still that
#: the web search capability doesn't fully analyze …") or a defect before a "still" that
#: ends its clause ("a bunch of out of date context in readme still - can we …"; not "fix
#: the broken link but still keep the header").
_STATE_OUTLIVED_AROUND = re.compile(
    r"\bstill\b(?! (need|want|have to|has to|got to|should|must)\b)[^.?!\n]{0,60}?"
    r"\b(doesn'?t|does not|isn'?t|is not|aren'?t|are not|can'?t|cannot|won'?t|will not|didn'?t|"
    r"did not)\b"
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


#: A behaviour said to go on after the fix, whatever the verb ("rebuild still runs twice on
#: save", "it still fires an hour early", "umlauts still come out as Ã¼"): a subject, then
#: "still", then what it does. Not what still holds or is still wanted ("it still works",
#: "that still makes sense", "we still need a test"), nor "still" after a modal ("you can
#: still use the old flag").
_STILL_DOES = re.compile(
    # (not a question's subject: "are they still being written?")
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bdo )(?<!\bdoes )(?<!\bdid )(?<!\bhas )"
    r"(?<!\bhave )"
    r"\b(?!(and|but|or|so|yet|then|now|while|though|although|i|we|you|is|are|was|were|be|been|"
    r"can|could|should|would|will|must|might|may|shall|did|does|do|not|never|it'?ll|"
    r"which|that|who|whom|whose|what|where|when|if|unless|until|also|only|just|would|please|"
    r"pls|maybe|perhaps|probably|ideally|hopefully|obviously|though)\b)"
    r"(it|this|that|they|these|those|[a-z]{3,})\s+still\s+"
    r"(?!(work|works|working|worked|pass|passes|passing|passed|compile|compiles|compiling|"
    r"build|builds|building|run fine|runs fine|load|loads|looks? (good|great|fine|ok|okay|right)|"
    r"seems? (fine|ok|okay|good|right)|need|needs|want|wants|have|has|had|is|are|was|were|"
    r"got to|makes? sense|holds?|applies|apply|matters?|stands?|counts?|depends?|exists? for|"
    r"uses? the same|supports?|handles?|respects?|keeps?|gets? (it|the job done)|go|goes|"
    r"in|on|at|for|the|a|an|to|not|no|n'?t|think|thinks|prefer|prefers|like|likes|love|"
    r"believe|hope|wonder|remember|stay|stays|being|ask|asks|asking|request|requests|pending|"
    r"running|waiting|open|worth|valid|true|relevant|required|necessary|useful|fine|good|ok|"
    r"okay|green|alive|available|up|in progress|match|matches|matching|boot|boots|render|"
    r"renders|behaves the same|the same|\w+s? (fine|correctly|properly|well|as (before|expected)))"
    r"\b)"
    r"[a-z]+s?\b",
    re.IGNORECASE,
)


#: A symptom said of the result: what a screen or a run does wrong, in the words people use
#: for it ("on mobile the legend overlaps the bars", "typing lags like crazy now", "the last
#: letter i type gets ignored", "numbers come out doubled", "contrast is terrible now",
#: "it's worse now", "space scrolls the page instead of pausing", "where did the rest go?").
#: A requirement around it ("make sure it doesn't flicker", "it should not overlap") is
#: taken out by the caller's guard, as for "still".
_SYMPTOM = re.compile(
    # (not "to prevent the overlap", a noun; "overlaps" needs a subject before it)
    r"\b(it|this|that|they|\w+s?)\s+(now\s+|still\s+|just\s+|always\s+|sometimes\s+|randomly\s+)?"
    r"(flickers|lags|stutters|glitches|overlaps|overflows|jumps (back |straight )?(to|around)|"
    r"resets|spins forever|loads forever|hangs forever|scrolls (to the top|away|back)|"
    r"gets (ignored|skipped|dropped|lost|cut off|truncated|duplicated|doubled|overwritten|"
    r"reset|wiped|mangled|garbled|clipped|stuck|hidden)|"
    r"(comes?|came) (out|back|up) (as |doubled|twice|empty|blank|wrong|garbled|mangled|"
    r"truncated|negative|null|undefined|nan)|"
    r"(runs|fires|triggers|opens|loads|renders|prints|sends|fetches) (twice|two times|"
    r"three times|multiple times|over and over|again and again|early|late|too early|"
    r"too late|\w+ (hours?|minutes?|seconds?|days?) (early|late)))\b"
    r"|\b(is|are|'s|'re|looks?|feels?|seems?|got|gets|became|went)\s+(now\s+|still\s+|really\s+|"
    r"so\s+|very\s+|kind of\s+|kinda\s+|pretty\s+|super\s+|completely\s+|totally\s+|even\s+|"
    r"much\s+|way\s+|a lot\s+)*"
    r"(terrible|awful|horrible|unusable|unreadable|illegible|janky|laggy|sluggish|choppy|"
    r"blurry|pixelated|distorted|inverted|reversed|backwards|upside down|doubled|tripled|"
    r"worse)\b"
    # (opening the turn: "we want to stop here, too slow" says why the person stops)
    r"|^\W*(way\s+|far\s+|much\s+|still\s+|just\s+)?too\s+(slow|fast|big|small|"
    r"long|short|loud|dark|bright|wide|narrow|tall|verbose|wordy|cheesy|generic|vague|formal|"
    r"busy|cluttered|cramped|complicated|complex|aggressive)\b"
    # (what it does to a thing named, not a request's plural: "add tests instead of mocking")
    r"|\b(it|this|that|he|she|\w+)\s+(now\s+|still\s+|just\s+)?(\w+s)\s+(the|a|an|my|your|its|"
    r"their|our|it|them|everything|all)\s+(\w+\s+){0,2}instead of\s+\w+ing\b"
    r"|\bwhere (did|have|has) (the rest|the others|it|they|those|these|the \w+|my \w+|all the \w+)"
    r"( \w+)? (go|gone)\b"
    # no change from before ("its exactly as slow as before", "still there" under a paste)
    r"|(?<!\bhalf )(?<!\btwice )(?<!\bnearly )(?<!\balmost )(?<!\bnot )"
    r"\bas (slow|bad|broken|buggy|laggy|flaky|noisy|ugly|wrong|big|large|bloated) as "
    r"(before|it was|ever|yesterday|earlier)\b"
    r"|(^|\n)\W*still (there|here|present|visible|happening|the same)\W*$"
    # what a try gave, in one word ("clicked it, 404", "opened it: blank")
    r"|\b(clicked|opened|ran|tried|loaded|visited|curled|hit|refreshed|reloaded|retried|"
    r"restarted|clicked \w+)( it| that| this| the \w+)?"
    r"\s*[,:-]+\s*"
    r"(40[0-9]|50[0-9]|blank|nothing|error|crash(ed)?|timeout|timed out|empty|same|no change|"
    r"no luck|still nothing)(?=\s*([.!;,]|$))"
    # so many checks failing ("i ran the tests and 3 fail", "2 tests failed")
    # (not "0 failed", the good news of a test run pasted back)
    r"|\b(?!0+\s)\d+\s+((of (them|the tests)|tests?|checks?|specs?|cases?)\s+)?(still\s+)?"
    r"(fail|failed|failing|fails|broke|break|error|errored)\b"
    # (not those that failed and pass now: "the 2 failing tests pass now")
    r"(?!\s+(tests?\s+|checks?\s+)?(now\s+)?(pass|passed|are passing|work|succeed))"
    r"|\b(isn'?t|is not|aren'?t|are not|wasn'?t|was not)\s+(fixing|solving|helping|changing)\s+"
    r"(it|this|that|anything|the (issue|problem|bug))\b"
    r"|\b(it|they|this|that|these|those|tests?)\s+(test|tests|check|checks|catch|catches|verify|"
    r"verifies|print|prints|show|shows|return|returns|change|changes|save|saves|send|sends)\s+"
    r"nothing\b"
    r"|\b(says|shows|reads)\s+(unknown|invalid|n/a|none|nan|undefined|null)\W*$"
    r"|\b(that'?s|that is|this is|it'?s|it is)\s+(just\s+)?(cheating|hacky|a hack|sloppy|"
    r"nonsense)\b"
    # the result lands where it should not ("the link just opens the home screen")
    r"|\b(just|only|always)\s+(opens|shows|goes to|redirects to|lands on|loads|takes me to)\s+"
    r"(the\s+)?(home|start|login|main|blank|default|same|old|first|previous|wrong)\b"
    # what a safe run did after all ("ran with --dry-run and it actually deleted the files")
    r"|\b(it|they|this|that)\s+actually\s+(deleted|removed|wiped|overwrote|dropped|sent|pushed|"
    r"published|charged|emailed|committed)\b"
    # German, French, Spanish: the result empty, broken, gone ("die Datei ist leer")
    # (not "weg", "verschwunden", "disparu": the error gone is good news)
    r"|\b(ist|sind) (immer noch |noch |jetzt |wieder )?(leer|kaputt|falsch|doppelt)\b"
    r"|\b(est|sont) (toujours |encore )?(vides?|cassée?s?)\b"
    r"|\b(está|están|sale|salen) (todavía |aún )?(vacíos?|vacías?|rotos?|rotas?|"
    r"duplicad[oa]s?)\b"
    r"|\b(sigo|seguimos) (viendo|teniendo|recibiendo)\b|\bsigue (apareciendo|saliendo|mostrando)\b"
    # what it does though it should not ("clicking Cancel deletes it anyway"), forever
    # ("for f(x)=x^3-x it loops forever"), or now and not before ("black stripes now that it
    # didn't have before")
    r"|\b(deletes|saves|sends|posts|submits|closes|charges|commits|pushes|overwrites|runs|goes "
    r"through)( it| them| the \w+)? anyway\b"
    r"|\b(loops|runs|hangs|spins|waits|loads|blocks|retries|keeps going) (forever|indefinitely|"
    r"endlessly)\b"
    r"|\b(did not|never) (have|do|happen|show|appear)( \w+)? before\b"
    # nothing came of the run ("it printed nothing"), part of it failing ("ran it 20 times in a
    # loop, failed 4 of them"), at random ("now test_db randomly fails")
    r"|\b(it|this|that|they)\s+(printed|returned|showed|output|found|sent|wrote|did|produced|"
    r"logged)\s+nothing\b"
    r"|\bfail(ed|s)? (?!0\b)\d+ (of|out of|times)\b"
    r"|\b(?!0\b)\d+ of (them|those|these|the \w+) fail(ed|s)?\b"
    r"|\b(randomly|sometimes|intermittently|occasionally)\s+(fails|crashes|breaks|hangs|errors|"
    r"freezes|times out)\b"
    # what the result says or points to in place of a value ("every email says 'Hi
    # undefined'", "comes out as #DIV/0!", "the next link points to an empty page")
    r"|\b(says|shows|reads|prints|displays|outputs)\s+[\"'“]?[^\"'”\n]{0,20}?"
    r"(\bundefined\b|\bnan\b|\bnull\b|\[object object\])"
    r"|#(div/0!|ref!|value!|n/a\b|name\?|num!)"
    r"|\b(points|leads|links|goes|redirects) to (an? |the )?(empty|blank|wrong|broken|dead|404)\b"
    r"|\b(show|shows|showing) broken\b"
    r"|\b(appears|shows up|is listed|is shown|repeats|is repeated|is printed)\s+(twice|two times|"
    r"\d+ times|multiple times|again and again)\b"
    r"|\b(does not|doesn'?t|did not|didn'?t) (test|check|catch|verify) anything\b"
    r"|\b(and|but) (it|they|that) (should not|shouldn'?t)( be)?\W*$"
    r"|^\W*still,?\s+(i|we)\s+(see|get)\b"
    r"|\bwhere (are|is) the (rest|missing|remaining|other \d+)\b"
    # (not "nobody can see it but admins", what is wanted)
    r"|\b(nobody|no one|none of (us|them))\s+(received|got|gets|saw|sees)\b"
    r"|\b(is|are|looks?|seems?) (really |very |quite |pretty )?(misleading|confusing)\b",
    re.IGNORECASE,
)


#: What must hold, said before such a "still" in its sentence ("make sure the page still
#: shows the header", "so that it still uses the cache"): a requirement, not a report.
_REQUIRES = re.compile(
    # (not what the person saw on trying the work: "when I run `entire list` it's still
    # using …")
    r"\b(make sure|ensure|so that|as long as|verify that|check that|if|"
    rf"(?!{TRIED_IT})when|should|must|needs? to|keep)\b",
    re.IGNORECASE,
)


#: The state named, then taken as meant ("the timer resets on reload, which is what I want",
#: "the old API still returns XML, keep that"): no failure.
_AS_MEANT = re.compile(
    r"[^.?!\n]{0,40}?\b(keep (that|it|this|them)|leave (that|it|this|them)( as is)?|"
    r"which is (fine|ok|okay|good|right|correct|expected|intended|what i want(ed)?)|"
    r"(that|this|which) is (fine|ok|okay|right|correct|expected|intended|what i want(ed)?)|"
    r"as (expected|intended|designed|it should))\b",
    re.IGNORECASE,
)


#: A question that takes the failure as met: why it happens, where a thing went.
#: (read with `match` from the clause's start, so no "^")
_ASKS_WHY = re.compile(r"\W*((ok|so|but|and|hmm+|then)\W+)?(why|where|how come)\b", re.IGNORECASE)


#: A negation just before a symptom's words ("it no longer flickers", "nothing got worse",
#: "none of the metrics got worse", "so it never loops forever"): the symptom is gone or
#: is not to be.
_NEGATED_BEFORE = re.compile(
    r"\b(no longer|never|not|nothing|none( of [\w ]{1,30})?|no|without)\s+(\w+\s+){0,2}$",
    re.IGNORECASE,
)


def _clause_start(text: str, before: int, marks: str) -> int:
    """Where the clause that runs up to `before` starts: just after the last of `marks`."""
    return max(text.rfind(mark, 0, before) for mark in marks) + 1


def _negated(text: str, match: re.Match[str]) -> bool:
    start = _clause_start(text, match.start(), ".!?\n,;")
    said = text[start : match.start()] + " " + match.group(0)
    return bool(_NEGATED_BEFORE.search(text, start, match.start())) or " no longer " in said


def names_a_symptom_only(text: str) -> bool:
    """The failure read in `text` is a symptom said in everyday words and nothing stronger
    (no error pasted, no failure word): a verdict that follows it may say it is the
    result that was asked for ("the sort order is reversed now 👍")."""
    return not _reports_failure(text, symptoms=False) and _reports_failure(text)


def _asked_whether(text: str, match: re.Match[str]) -> bool:
    """The behaviour is asked about, not reported ("is the build still running?", "is it
    true that the hook runs twice?"); "why does it still run twice?" reports it."""
    start = _clause_start(text, match.start() + 1, ".!?\n,;:")
    ends = [i for i in (text.find(mark, match.end()) for mark in ".!\n") if i >= 0]
    question = text.find("?", match.end())
    if question < 0 or (ends and min(ends) < question):
        return False
    return not _ASKS_WHY.match(text, start)


def _state_outlived(text: str, symptoms: bool = True) -> bool:
    """A state said to have outlived the agent's fix, or a symptom of the result, in a
    sentence that sets no requirement."""
    said = [*_STILL_DOES.finditer(text), *_SYMPTOM.finditer(text)] if symptoms else []
    matches = [
        *_STATE_OUTLIVED.finditer(text),
        *_STATE_OUTLIVED_AROUND.finditer(text),
        *(m for m in said if not _asked_whether(text, m) and not _negated(text, m)),
    ]
    for match in matches:
        start = _clause_start(text, match.start(), ".!?\n")
        if not _REQUIRES.search(text, start, match.start()) and not _AS_MEANT.match(
            text, match.end()
        ):
            return True
    return False


def reports_failure(text: str) -> bool:
    if _ASKS_WHERE_IT_FAILS.match(text):
        return False
    return _reports_failure(text) or (
        _HEDGE.search(text) is not None and _reports_failure(without_hedges(text))
    )


#: A question, and nothing else, of whether a failure happens somewhere else too ("does it
#: fail locally?", "is the build failing on main too?"), asked while a failure is looked
#: into: it asks the agent to find out where, and reports no failure of its own. (A
#: question of why, "why does the build still fail?", takes the failure as met; "is it
#: stuck?" asks of the agent's own state.)
_ASKS_WHERE_IT_FAILS = re.compile(
    r"^\W*(does|do|did|is|are|will|would)\s+(it|this|that|they|these|those|the\s+[\w-]+)"
    r"\s+(also\s+)?(fail|failing|crash|crashing|break|breaking)\s+"
    r"(locally|too|as well|also|(on|in|with|under|for)\s+(the\s+)?[\w./-]+"
    r"(\s+(too|as well|also))?)\W*\?\W*$",
    re.IGNORECASE,
)


def _reports_failure(text: str, symptoms: bool = True) -> bool:
    return bool(
        _FAILURE_REPORT.search(text)
        or _FAILURE_REPORT_CJK.search(text)
        or _FAILURE_REPORT_ELSEWHERE.search(text)
        or _state_outlived(text, symptoms)
    )


#: A state said with a hedge ("This still seems to be an issue", "the transition seems to
#: be a bit too strong"): a person softens a verdict, and the verdict is the same.
_HEDGE = re.compile(r"\b(seems?|appears?|looks?)\s+to\s+be\b", re.IGNORECASE)
_STILL_HEDGED = re.compile(r"\bstill\s+(seems?|appears?|looks?)\s+to\s+be\b", re.IGNORECASE)


def without_hedges(text: str) -> str:
    """`text` with "seems to be" read as "is" ("still seems to be" as "is still")."""
    return _HEDGE.sub("is", _STILL_HEDGED.sub("is still", text))
