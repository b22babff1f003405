"""Acceptance: the words and openings by which a person takes the result or an offer
("perfect", "yes do it", "うん"), in the languages the labelled set holds.
"""

from __future__ import annotations

import re

#: Plain acceptance of a proposal.
_ACCEPT_WORD = (
    r"(yes|yep|yeah|yup|y|ya|yah|yea|ok|okay|k|sure|sure thing|fair|proceed|go ahead|go for it|"
    r"do (it|that|this|so)|"
    # ("oki doki", "okey-dokey", "okie dokie")
    r"ok(i|ie|ey|ay|y)?[- ]?dok(i|ie|ey|y)|"
    # the plan or proposal taken as it stands ("i am good with the plan", "I'm ok with that")
    r"(i'?m|i am|we'?re|we are) (good|ok|okay|fine|happy|cool)( with (the|this|that|your|it)"
    r"( (plan|approach|proposal|idea|design|suggestion|change|changes))?)?|"
    # the agent's reading confirmed ("that was the idea, yes", "that's exactly what I meant")
    r"(that|this)('s| is| was) (exactly |precisely )?(the idea|the plan|the point|"
    r"what i (meant|wanted|had in mind))|"
    r"please|pls|let'?s do (it|this|that)|please do|"
    r"sounds (good|great|perfect|fine|like a plan)|(that|this|it) works for (me|us)|ship it|"
    r"send it|post it|submit it|approve|"
    r"approved|confirmed?|agreed|"
    # the offer judged worth taking ("yes, that would be good", "that'd be great")
    r"(that|this|it)( would|'d| will|'ll) be (good|great|nice|helpful|useful|perfect|awesome|"
    r"fine|lovely|ideal|amazing|fantastic|wonderful)|(that|this|it) would help|"
    r"ja|oui|sí|sim|はい|好的|是的|"
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
    r"(you'?re|you are|that'?s|that is) (right|correct)|fair enough|(that )?makes sense|good point|"
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
ACCEPT = re.compile(
    # ("Ok now do that", "yes then go ahead", "yes and yes" to two offers)
    rf"^\W*{_INTERJECTION}{_ACCEPT_WORD}(\W+((now|then|so|and)\W+)?{_ACCEPT_WORD})*\W*"
    # to every offer at once ("yes to both", "yes to all", "ok, all of them")
    r"((to )?(both|all|everything|all of (them|those|these|the above)|them all)\W*)?"
    # with what was offered named in a word ("go ahead with implementation", "proceed with
    # the plan")
    r"((with|on)\s+(the\s+)?(it|this|that|these|them|plan|implementation|fix|fixes|change|"
    r"changes)\W*)?"
    # ("yes immediately please", "ok right away")
    r"((right )?now|immediately|right away|asap|then)?\W*"
    r"(please|pls|plz|thanks|thank you|thx|bitte|por favor|per favore|s'il (te|vous) pla[iî]t)?"
    r"\W*$",
    re.IGNORECASE,
)


#: A reply opening with a verdict that the work is good.
APPROVAL_HEAD = re.compile(
    r"^\W*(thanks|thank you|thx|ty|perfect|excellent|awesome|great|nice|brilliant|cool|good|"
    r"lgtm|((that|this|it|everything) )?(looks|seems) "
    r"(good|great|fine|right|perfect|awesome|amazing|nice)|"
    r"((that|this|it|everything) )?seems to work|"
    r"works|it works|that works|that worked|works now|"
    # "it worked and changed the timeline clip" (not "it worked before …", "it worked
    # locally", "it worked for a while": the past set against now)
    r"(it|this|everything|all) worked(?!\s+((fine|well|great|perfectly|ok|just fine)\s+)?"
    r"(before|earlier|yesterday|until|till|last|previously|once|at first|for a while|in|on|"
    r"locally|when|if|with)\b)|"
    r"merged|approved|ship it|shipped|all good|beautiful|amazing|wonderful|yay|"
    r"(that'?s|that is) (good|great|perfect|it|right|better|correct)|this is (good|great|perfect)|"
    # the same verdict with a word of degree, or in other words of praise ("ok. That's
    # really cool.", "this is so much better")
    r"(that'?s|that is|this is) (really |so |very |pretty |super |much |so much )"
    r"(good|great|perfect|better|cool|awesome|amazing|nice|neat|excellent|impressive)|"
    r"(that'?s|that is|this is) (cool|awesome|amazing|nice|neat|excellent|impressive|"
    r"fantastic|brilliant|beautiful|wonderful)|"
    r"good job|well done|exactly|correct(?!\s+(the|this|that|these|those|it|them|my|your|our|"
    r"all|any|every|each|a|an)\b)|fantastic|sweet|love it|(this|that|it) works"
    # "working!", "it's working now" (not "working directory", "working on the parser")
    r"|((it|that|this|everything)'?s |(it|that|this|everything) is |all )?(now )?working"
    r"(?=\s*([!.,;:]|$|\s+(now|fine|great|perfectly|well|again|as expected)\b)))\b",
    re.IGNORECASE,
)


#: An acceptance word before the verdict ("yes, this is good", "ok, this works").
ACCEPT_OPEN = re.compile(
    r"^\W*((ah+|oh+)\W+)?(yes|yeah|yep|ok|okay|sure|alright|of course|i see)\b[\s,.!:-]*",
    re.IGNORECASE,
)


#: An acceptance opening a longer reply, in any of the languages `_ACCEPT_WORD` knows, with
#: a courtesy ("yes, please …", "ja, bitte …", "oui, s'il te plaît …", "好的，请…").
ACCEPT_HEAD = re.compile(
    rf"^\W*{_INTERJECTION}{_ACCEPT_WORD}(\W+({_ACCEPT_WORD}|bitte|s'il te pla[iî]t|"
    r"s'il vous pla[iî]t|por favor|per favore|請|请))*(?=\W|$)[\s,.!:;、，。-]*",
    re.IGNORECASE,
)


def accepts(region: str) -> bool:
    """An acceptance and nothing else, an opening "ok" or "yes" allowed ("Ok go ahead")."""
    return bool(ACCEPT.search(region) or ACCEPT.search(ACCEPT_OPEN.sub("", region, count=1)))


#: The person's own next step after the yes ("yes, commit, and then I will push", "ok, go
#: ahead, I'll test it after"): what they will do themselves asks nothing of the agent.
_OWN_NEXT_STEP = re.compile(
    r"[,;.]?\s*(and\s+)?(then\s+)?(i|we)(\s+will|'ll|\s+am going to|'m going to|\s+can)\s+"
    r"(then\s+)?(push|test|check|try|run|look|deploy|merge|review|verify|release|publish|"
    r"handle|do the rest|take it from there|take over)\b[^.?!\n]*[.!]?\s*$",
    re.IGNORECASE,
)


def without_own_next_step(region: str) -> str:
    """The reply less a closing clause that says what the person will do themselves."""
    return _OWN_NEXT_STEP.sub("", region, count=1) or region
