"""The forms of a request: an imperative, a question that asks for work, a stance before a
request, a request for more after an acknowledgement, new work named outright.
"""

from __future__ import annotations

import re

from sleepd.mining.turns.closing import is_closing_step
from sleepd.mining.turns.failures import reports_failure
from sleepd.mining.turns.text import SENTENCE_END, after_cjk_comma, after_first, word_count
from sleepd.mining.turns.verdicts import APPROVAL_HEAD

#: The person says the turn starts something else.
EXPLICIT_NEW = re.compile(
    # (after a word that closes the last thing: "great, new change. while creating …")
    r"^\W*((great|ok|okay|cool|nice|perfect|good|thanks|alright)\W+)?"
    r"(new (feature|task|request|idea|topic|change)|next (task|feature|thing)|another (task|thing|"
    # (not "unrelated to the scripts, but tests are still failing": it scopes a state that
    # outlived the work asked before, which is no new subject)
    r"question|feature)|unrelated(?!\s+to\b[^.?!\n]{0,60}?,?\s+but\b[^.?!\n]{0,40}?\b(still|"
    r"again|keeps?|kept)\b)|"
    r"different (topic|question|task)|switching (gears|topics)|"
    r"never ?mind|forget (it|that|about))\b",
    re.IGNORECASE,
)


#: The turn opens by putting the running work off ("we'll come back to this later.",
#: "park that for now,", "等下再继续，", "先放一放，"), as a clause of its own: what
#: follows is something else. ("continue later with the rest", "finish it later please"
#: schedule the work itself.)
PUTS_OFF = re.compile(
    r"^\W*((ok|okay|alright|fine|good|thanks)\W+)?((let'?s|we('ll| will| can)|i('ll| will))\s+)?"
    r"((come back to|get back to|return to|continue|finish|pick up)\s+((this|that|it|"
    r"the rest)\s+)?(later|tomorrow|afterwards)|(park|shelve)\s+(this|that|it)|"
    r"(put|leave|set)\s+(this|that|it)\s+(on hold|aside|for later))(\s+for now)?"
    r"\s*([,.;:!?\u2014\u2013]|\s-\s|$)"
    r"|^\W*(等下|等一下|等会儿?|稍后|回头|晚点|之后)再(继续|做|弄|说|看|处理)\s*[，,。；;：:！!]"
    r"|^\W*先(放一放|放着|不管|停一下|别管)\s*[，,。；;：:！!]",
    re.IGNORECASE,
)
#: What turns back to the work just done ("the toggle still doesn't persist", "the file
#: you just added", "broken after your change", "刚才改的文件"): after a put-off, the
#: running work again, not a new one.
_BACK_TO_THE_WORK = re.compile(
    r"\b(just|still|again|you\s+(just\s+)?(added|changed|made|wrote|did|broke)|your\s+"
    r"(change|changes|fix|edit|edits|code|commit|patch|work))\b|刚才|刚刚|还是|仍然|依然",
    re.IGNORECASE,
)
#: Words that take leave, no request ("thanks for all the help today!", "good night").
_TAKES_LEAVE = re.compile(
    r"^\W*(thanks|thank you|thx|ty|cheers|bye|good ?night|see you|talk later|have a good)\b",
    re.IGNORECASE,
)
#: An order's "first" after its step ("please commit everything first"), which the
#: closing step's own reading does not take ("please" and "now" it does).
_FIRST = re.compile(r"\s+first\W*$", re.IGNORECASE)


def says_something_new(region: str) -> bool:
    """The turn says outright that it brings something new ("new task: …", "unrelated,
    but …"), or opens by putting the running work off. A "never mind" or a "later" that
    drops a side question and then asks for the closing step of the work ("never mind,
    we'll look at it later. commit, push and open a draft PR") brings nothing new."""
    found = EXPLICIT_NEW.search(region[:80])
    if found is not None:
        if re.search(r"\b(never ?mind|forget)\b", found.group(0), re.IGNORECASE):
            last = re.split(r"(?<=[.!?])\s+", region.strip())[-1]
            return not is_closing_step(last)
        return True
    put_off = PUTS_OFF.search(region[:80])
    if put_off is None:
        return False
    # what the turn turns to: a few words of its own ("let's continue tomorrow. thanks" is
    # no request), not the work just done, nor its closing step
    rest = region[put_off.end() :].strip(" \t\n,.;:!?，。；：！？、")
    if word_count(rest) < 3 and len(re.findall(r"[\u4e00-\u9fff]", rest)) < 4:
        return False
    if _BACK_TO_THE_WORK.search(rest) or _TAKES_LEAVE.match(rest) or reports_failure(rest):
        return False
    last = re.split(r"(?<=[.!?。！？])\s*", rest)[-1] or rest
    return not is_closing_step(_FIRST.sub("", last))


#: Opens with a verb: an instruction.
IMPERATIVE = re.compile(
    r"^\W*(please\s+)?(run|add|make|use|create|fix|update|check|write|remove|change|test|"
    r"build|deploy|commit|push|merge|open|review|install|rename|move|delete|implement|"
    r"refactor|try|document|ensure|modify|edit|also|then|now|and)\b"
    # the same openings in the other languages people write to agents in
    r"|^\W*(vérifie[zs]?|ajoute[zs]?|crée[zs]?|corrige[zs]?|installe[zs]?|supprime[zs]?|"
    r"modifie[zs]?|fais|faites|lance[zs]?|implémente[zs]?|écri[st]|mets|mettez|peux-tu|"
    r"pouvez-vous|agrega|añade|crea|arregla|actualiza|instala|elimina|revisa|haz|puedes|"
    r"adicione|adiciona|crie|corrija|atualize|atualiza|instale|remova|verifique|faça|"
    r"füge|erstelle|korrigiere|aktualisiere|installiere|entferne|prüfe|überprüfe|"
    r"kannst du|добавь|создай|исправь|обнови|установи|удали|проверь|сделай|напиши|"
    r"можешь|esegui|aggiungi|fai|usa|correggi|sistema|aggiorna|controlla|verifica|scrivi|"
    r"rimuovi|modifica|cambia|testa|costruisci|committa|apri|installa|rinomina|sposta|elimina|"
    r"cancella|implementa|prova|documenta|assicurati|puoi|potresti)\b"
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
    r"|^\W*(再|也|请|帮我)?(把|将)[^，,。\n]{1,30}(改成|改为|换成|设为|设置为|删掉|删除|加上|去掉)"
    r"|(して|してください|して下さい|しておいて|してほしい|お願いします?)\W*$"
    r"|(해줘|해 줘|해주세요|해 주세요|해봐|해줄래|부탁(해|해요|합니다|드려요|드립니다))\W*$"
)


#: A request only to look at the project before any work: read, open or explore its README,
#: its code, a folder of it ("阅读readme", "查看所有代码", "open M-Claude repo", "read the
#: README", "familiarize yourself with the codebase"), nothing asked of what is read: no
#: question, no "and tell me …", no verdict to reach. A review or an analysis is work.
_ORIENTS = re.compile(
    r"^\W*(?:(?:please|pls|can you|could you|first|now|ok|okay|hi|hey)\W+)*"
    r"(?:read|open|look at|look through|go through|explore|get to know|get familiar with|"
    r"familiari[sz]e yourself with|load|skim)\s+"
    r"(?:(?:the|this|our|my|your|all(?: of)?(?: the)?|whole|entire|current)\s+)*"
    r"(?:[\w@./\\~-]+\s+){0,3}"
    r"(?:readme(?:\.md)?|codebase|code ?base|code|repo|repository|project|claude\.md|agents\.md|"
    r"docs?|documentation|folder|directory|dir|files?|scripts?|[\w@~-]*[./\\][\w./\\-]+)"
    r"\W*$"
    r"|^\W*(?:请|先|帮我)?(?:阅读|查看|看看|看一下|读一下|读读|浏览|打开|熟悉(?:一下)?)\s*"
    r"(?:一下)?(?:当前|这个|整个|所有|全部|项目)?(?:的)?"
    r"(?:[\w@./\\~-]*(?:目录|文件夹)?(?:里|下)?的?(?:全部|所有)?)?"
    r"(?:readme(?:\.md)?|代码|项目|仓库|目录|文档|docs?|脚本|文件|[\w@~-]*[./\\][\w./\\-]+)"
    r"(?:目录|文件夹)?\W*$"
    r"|^\W*(?:readme|README\.md|コード|リポジトリ|プロジェクト|ドキュメント)を?(?:読んで|見て)"
    r"(?:ください|下さい)?\W*$",
    re.IGNORECASE,
)


def orients_only(text: str) -> bool:
    """The request only has the agent look at the project (`_ORIENTS`): what it asks for
    comes next, so it is no task to replay, and the request after it opens the work."""
    return bool(_ORIENTS.match(text.strip())) and word_count(text) <= 10


#: Asks for something in a question ("should we bump it to 3.0.3?", "can you add …").
REQUEST = re.compile(
    r"^\W*(should|shall|can|could|would|will) (we|you|i)\b|^\W*let'?s\b|^\W*please\b",
    re.IGNORECASE,
)


#: "also"/"now"/"next" followed by a new piece of work rather than a tweak.
NEW_WORK = re.compile(
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


def asks_in_a_field(region: str) -> bool:
    """A pasted finding or spec whose "Fix:" / "TODO:" line asks for a change."""
    return any(
        IMPERATIVE.search(match["rest"]) for match in _FIELD_INSTRUCTION.finditer(region[:4000])
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
TURNS_TO_NEXT = re.compile(
    r"^\W*(and\s+|so\s+)?(now|next)\b(?!\s*(here|here'?s|this is|these are|time)\b)"
    r"(\s*[,:])?\s+(please\s+|(can|could|would) (you|we)\s+|let'?s\s+)?"
    r"(?!(verify|check|test|confirm|double[- ]check|make sure|ensure|run|try|commit|push|fix|"
    r"review|re-?run|retry)\b)"
    r"((please|(can|could|would) (you|we)|let'?s|we (should|need to|have to|must)|"
    r"i (want|need|would like|'d like) to|i wanna|where|what|how|which)\b|"
    r"\w[^.!?\n]{0,80}\b(can|could) you\b)",
    re.IGNORECASE,
)


def sets_next_work(text: str) -> bool:
    """After a verdict, the text sets the next piece of work: new work ("now add …"), the
    person's own next step ("we should do a release"), or "now"/"next" with a request."""
    return bool(NEW_WORK.search(text) or _OWN_NEXT_STEP.search(text) or TURNS_TO_NEXT.search(text))


#: Opens with the person's own stance or observation ("I very much like this idea",
#: "i think it is not required..", "I saw in passing that …", "yea, i already had …").
_STANCE = re.compile(
    r"^\W*((oh|yea|yeah|yes|ok|okay|so|well|hmm+),?\s+)?i\s+((very much|really|actually|just|"
    r"already|somewhat|also|still|do|did|don'?t|didn'?t|do not|did not|much)\s+)*(like|love|hate|"
    # ("had" and "have" as verbs of their own, "I had a look", not "I have added …")
    r"dislike|think|thought|believe|feel|saw|see|noticed|found|find|(had|have)(?!\s+(just\s+|"
    r"already\s+|now\s+|also\s+)?(been\b|(\w+ed|had|done|made|got|gotten|seen|run|written|"
    # (a participle then what it acts on: "I have added the tests"; not "I have mixed
    # feelings", an adjective before its noun)
    r"taken|given|found|put|set|left|read|sent|built|begun|tried|thought)\s+(the|a|an|this|"
    r"that|these|those|it|its|them|my|our|your|some|all|every|each|both|to|in|on|at|with|for|"
    r"from|up|out|down|back|and|but|so)\b|(\w+ed|had|done|made)\W*$))|agree|disagree|"
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


def request_after_stance(region: str) -> str:
    """After a stance ("I very much like this idea, …"), the later sentence that asks
    for something ("Can you list … the strengths of this proposal?"); "" when none."""
    if not _STANCE.search(region):
        return ""
    sentences = [x.strip() for x in SENTENCE_END.split(region) if x and x.strip()]
    for index in range(len(sentences) - 1, 0, -1):
        if _ASKS_FOR.search(sentences[index]):
            return " ".join(sentences[index:])
    return ""


def requests_more(text: str) -> bool:
    """After a verdict, the turn goes on to ask for something (not the person's own next
    step: "Great. I'll see if these end up in the transcript." asks the agent nothing)."""
    first = after_first(text)
    rest = first or after_cjk_comma(text)
    if not re.search(r"\w", rest):
        rest = ""  # "great, can you also add a footer?": its "?" is no clause of its own
    if (
        rest
        and not first
        and not (
            IMPERATIVE.search(rest)
            or REQUEST.search(rest)
            or _CJK_REQUEST.search(rest)
            or re.search(r"[?？]", rest)
        )
    ):
        return False  # "可以了，谢谢": more of the verdict after its comma, nothing asked
    if not rest:
        # one clause ("great job, now add a dark mode"): what follows the verdict's words
        # asks for more only when it is a request
        rest = APPROVAL_HEAD.sub("", text, count=1).strip(" .,!;:-\n")
        if rest == text.strip(" .,!;:-\n"):
            # the verdict was read from the whole clause ("OK, make sure the beads are
            # correct in both projects."): what follows its acknowledgement is what it asks
            rest = _ACK_HEAD.sub("", text, count=1).strip(" .,!;:-\n")
        if (
            rest == text.strip(" .,!;:-\n")
            or _SAYS_WHAT_IT_DID.match(rest)
            or not (
                IMPERATIVE.search(rest)
                or REQUEST.search(rest)
                or sets_next_work(rest)
                or _ADDS_TO_IT.search(rest)
            )
        ):
            return False
    if _OWN_STEP.search(rest) and "?" not in rest and not _ADDRESSES_AGENT.search(rest):
        return False
    if (
        _OWN_STEP_DONE.search(rest)
        and "?" not in rest
        and not _ADDRESSES_AGENT.search(rest)
        and not any(IMPERATIVE.search(part.strip()) for part in _CLAUSE_BREAK.split(rest)[1:])
    ):
        return False
    if _THANKS_ONLY.match(rest):
        return False  # "Perfect. Thank you very much!": the thanks asks for nothing
    if _MORE_PRAISE.match(rest) and not _ASKS_ANYWHERE.search(rest):
        # "THANKS!! it works perfectly, even hosted … now awaiting my friends input :)":
        # more of the verdict, and nothing asked
        return False
    return word_count(rest) >= 3


#: The go-ahead joined to more of the work by "and" and a word that adds ("great, go ahead
#: and also add a footer", "good idea, lets proceed like that and the stop hook can show
#: you that as well"): a yes with more, not the offer taken as made.
_ADDS_TO_IT = re.compile(
    # "and (also) <a verb of work> …" ("and also add a footer", "and make the button red too")
    r"\band\s+((also|then|please)\s+)*(add|make|run|use|create|fix|update|check|write|"
    r"remove|change|test|build|deploy|document|ensure|include|show|keep|let)\b|"
    # "and <something> can/should … as well" (what else the work must do)
    # (bounded: the clause is short, and an unbounded run made a long line of "and"s cost
    # time that grows with the square of its length)
    r"\band\b[^.?!\n]{0,120}?\b(should|can|could|must|needs? to|has to)\b[^.?!\n]{0,120}?"
    r"\b(also|as well|too)\b",
    re.IGNORECASE,
)


#: The verdict goes on to say what the work did ("it worked and changed the timeline
#: clip"): an "and" before a past tense reports, it asks nothing.
_SAYS_WHAT_IT_DID = re.compile(r"^\W*and\s+(it\s+)?(also\s+)?[a-z]+ed\b", re.IGNORECASE)


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
    # (not "I won't use the old flag", written out "I will not …": a step the person refuses)
    r"^\W*(i'?ll|i will|i'?m going to|i am going to|i'?m gonna|will)\b(?!\s+not\b)",
    re.IGNORECASE,
)
#: What the person has already done with the work ("looks great. merged the PR", "thanks,
#: pushed it", "great. this is merged"): a report, however short; it asks for nothing unless
#: an order follows it.
_OWN_STEP_DONE = re.compile(
    r"^\W*(((i|we)\s+)?((just|already|also|have|'ve)\s+)*|"
    # or said of the work ("great. this is merged", "the PR was merged")
    r"(it|this|that|the pr|the branch|the change|the fix)\s+(is|was|has been|got)\s+"
    r"((now|just|already)\s+)?)"
    r"(merged|pushed|deployed|released|published|shipped|tagged|approved|installed|tested|"
    r"restarted)\b",
    re.IGNORECASE,
)
#: Where one clause of a short report ends and the next begins ("merged the PR, then bump
#: the version").
_CLAUSE_BREAK = re.compile(r"[,;]|\b(?:and|then)\b", re.IGNORECASE)


#: Words that ask the agent for something.
_ADDRESSES_AGENT = re.compile(r"\b(you|please|let'?s|can|could|should)\b", re.IGNORECASE)


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
    if word_count(rest) < 3 or _OWN_NEXT_STEP.search(rest) or EXPLICIT_NEW.search(rest[:80]):
        return False
    asks = bool(match.group("to") or match.group("please"))
    return asks or bool(_AND_MORE.match(rest) or IMPERATIVE.match(rest))


#: A question that asks for something of its own: it opens with a question word or an
#: inverted verb ("how to test if …", "is AI a tool for the team …?", "where can I find
#: …?") and its first sentence ends in a question mark. Not one that weighs the answer
#: ("why …", "what about …", "how about …", "what if …", "so …").
_OWN_QUESTION = re.compile(
    r"^\W*(how|what|where|when|who|which|is|are|was|were|does|do|did|can|could|should|"
    r"would|will|has|have)\b(?!\s+(about|if|not|else)\b)[^.!?\n]{3,200}\?",
    re.IGNORECASE,
)
#: What ties a question to the work in hand: more of the same ("anything similar?", "what
#: else …"), a word that points ("do we have test coverage for this?"), the project as
#: "we" or "our" ("is what we have sufficient?"), the state the work left ("… more often
#: now?", "does the method have tests so far?").
_TIED_TO_THE_WORK = re.compile(
    r"\b(similar|else|other|another|too|also|either|this|that|these|those|it|its|they|them|"
    r"here|there(?! (is|are|was|were|a|an|any)\b)|we|our|us|now|so far|yet|still|anymore|"
    r"currently|any more)\b",
    re.IGNORECASE,
)


def asks_its_own_question(region: str) -> bool:
    """The turn is a question asking for something of its own, in words that tie it to
    nothing of the work in hand (the caller also checks it shares no word with the
    exchange)."""
    found = _OWN_QUESTION.match(region)
    return found is not None and not _TIED_TO_THE_WORK.search(found.group(0))
