"""The feedback lexicon: how a follow-up message says "wrong", "undo" or "thanks".

One small, documented pattern set (English, German, French, Spanish, Portuguese,
Italian, Chinese, Japanese, Korean, Turkish, Russian, and a few phrases each of
Vietnamese, Dutch, Polish, Indonesian, Hebrew, Arabic and Hindi), extended by
`MiningConfig.correction_patterns` and `approval_patterns`. Classification is
negation-aware and ordered so that the cheap mistakes are avoided:

1. *Neutral* phrases are blanked first ("no problem", "kein Problem", "没问题"),
   so their "no" is never read as a correction.
2. *Corrections* win over approvals ("thanks, but still failing" is a correction;
   "incorrect", "not working", "funktioniert nicht" are negated positives).
3. *Approvals* use word boundaries, so "incorrect" never matches "correct".
4. *Continuations* ("continue", "go on", "weiter") are feedback without polarity.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from sleepd.mining.contractions import written_out


class Feedback(enum.StrEnum):
    CORRECTION = "correction"
    APPROVAL = "approval"
    CONTINUATION = "continuation"
    NONE = "none"


#: Phrases whose negation word does not negate anything; removed before matching.
NEUTRAL: tuple[str, ...] = (
    r"\bno (problem|worries|rush|need|hurry)\b",
    # the trouble gone ("no more crash on my ipad", "no more flicker")
    r"\bno more (crash(es|ing)?|errors?|warnings?|failures?|flicker(s|ing)?|lag|bugs?|issues?|"
    r"problems?|timeouts?|hangs?|freezes?|leaks?|duplicates?|flakes?|flakiness)\b",
    r"\bno (crash(es)?|errors?|warnings?|failures?|issues?|problems?|timeouts?|leaks?) "
    r"(anymore|any more)\b",
    r"\bnot a problem\b",
    r"\bno,? thanks?\b(?! *,? *(but|that))",
    r"\bkein problem\b",
    r"\bpas de (problème|souci)\b",
    r"\bno hay problema\b",
    r"\bsin problema\b",
    r"\bnão (tem|há) problema\b",
    r"\bsem problema\b",
    r"\bnessun problema\b",
    r"没问题",
    r"問題(ない|ありません)",
    r"\b(sorun|problem|hata) (yok|olmadı|değil)\b",
    # a word inside a name (a repository, a package, a branch, a file): "install the skills
    # from awesome-claude-code-toolkit", "see perfect_hash.py", "fix/broken-link"
    r"\w+(?:[-_/]\w+)+",
)

#: Corrections: negated positives first, then plain complaints. Case-insensitive.
CORRECTION: tuple[str, ...] = (
    # English: negated positives
    r"\b(not|n't|no longer|never)\s+(\w+\s+)?(work|working|works|correct|right|fixed|compile|"
    r"compiling|pass|passing|what i)\b",
    r"\b(doesn'?t|didn'?t|don'?t|isn'?t|wasn'?t|won'?t|can'?t|(does|did|do|is|was|will) not|cannot)"
    r"\s+(\w+\s+)?(work|help|fix|pass|"
    r"run|compile|build|load|start)",
    # a doubt around the praise ("not sure if that fixed it" holds no "that fixed it")
    r"\b(not sure|unsure|not certain|i doubt)\b[^.?!\n]{0,30}\b(fixed|worked|works|helped)\b",
    # a negation that reaches the praise word ("does not end in the correct color" holds
    # no "correct" verdict)
    r"(\bnot|n't|\bnever)\s+(\w+\s+){0,4}(the|a|an)\s+(correct|right|expected|proper)\b",
    r"\bincorrect\b",
    r"\bwrong\b",
    r"\bbroke(n)?\b",
    r"^\s*(no|nope|nah)\b",
    r"\b(that'?s|that is) not\b",
    r"\bstill\s+(fail|failing|fails|broken|wrong|erroring|crash|crashing|not|getting|the same|"
    r"an? error|doesn'?t|does not|shows?)\b",
    r"\b(same|another) error\b",
    r"\bnot what i\b",
    r"\byou (forgot|missed|ignored|broke|deleted|removed)\b",
    # what the agent should have done instead ("you should be updating index.html"; not
    # "you should have access to …", "you should be able to …")
    r"\byou should(n'?t| not)? (have|'ve) (used|run|asked|checked|read|kept|left|tested|waited|"
    r"updated|edited|changed|followed|done|created|written|touched)\b",
    r"\byou should(n'?t| not)? be (updating|editing|using|changing|modifying|working (on|in))\b",
    r"\bwhy did you\b",
    r"\b(use|try)\s+\S+\s+(not|instead of|rather than)\s+\S+",
    r"\b(don'?t|do not|stop|never)\s+(use|do|change|touch|add|remove|delete|run|modify)\b",
    r"\bundo (that|this|it|the)\b",
    # the old version preferred ("the old version was way better", "the old code was so clean")
    r"\b(the )?(old|previous|original|earlier|former) (\w+ )?(version|one|layout|code|design|ui|"
    r"style|look|output|way|behaviou?r|approach)?\s*(was|were|looked|looks|is|felt|seemed) "
    r"(\w+ )?(better|cleaner|nicer|faster|clearer|simpler|clean|nice|good)\b"
    # (not set against a new one that is better still: "the old one was good, but this …")
    r"(?![^.?!\n]{0,40}\b(but|and|yet)\b)",
    # a doubt of liking it ("not sure I like it")
    r"\b(not sure|unsure)\b[^.?!\n]{0,20}\b(i )?(like|love) (it|this|that)\b",
    r"^\s*(revert|undo)\b",
    r"\btry again\b",
    r"^\s*why (did you|do you|are you|is it|not|\d+)",
    r"\bi (only |just )?want(ed)? (only|just)\b",
    r"\bi (said|asked|told you)\b",
    # a pasted error as the whole reply means "still broken"
    r"^\s*(error|traceback \(most recent call last\)|exception|fatal|panic)\b",
    r"^\s*[\w.]*(error|exception):",
    r"^\s*api \d{3}\b",
    # German
    r"^\s*nein\b",
    r"\bfalsch\b",
    r"\b(funktioniert|geht|klappt|läuft|kompiliert)\s+(immer noch |noch |leider |trotzdem )?"
    r"(nicht|nich)\b",
    r"\bstimmt (so )?nicht\b",
    r"\bimmer noch\b",
    r"\bdas ist nicht\b",
    r"\brückgängig\b",
    # French
    r"^\s*non\b",
    r"\bc'est (faux|pas (ça|bon|correct))\b",
    r"\bne (marche|fonctionne|compile|passe)\s+(toujours\s+)?pas\b",
    r"\btoujours (pas|une erreur|la même erreur)\b",
    r"\b(annule|annuler)\b",
    r"\bpas (correct|bon)\b",
    # Spanish
    r"\bestá mal\b",
    r"\bincorrecto\b",
    r"\bno (funciona|sirve|compila|anda)\b",
    r"\bsigue (fallando|sin funcionar|dando error)\b",
    r"\b(deshaz|deshacer)\b",
    r"^\s*no,",
    # Portuguese
    r"^\s*não\b",
    r"\b(está|tá) errado\b",
    r"\berrado\b",
    r"\bnão (funciona|funcionou|compila|passou)\b",
    r"\bainda (falha|não|dá erro)\b",
    r"\b(desfaz|desfazer|desfaça)\b",
    # Italian
    r"\bnon (funziona|va|compila|parte|carica|passa)\b",
    r"\b(è |sono )?(sbagliat|errat)[oaie]\b",
    r"\bancora (non|errore|lo stesso errore)\b",
    r"\bannulla\b",
    # Chinese
    r"不对",
    r"错了",
    r"不是这样",
    r"还是不行",
    r"不行",
    r"没用",
    r"撤销",
    r"还是(报错|失败|有错)",
    # Japanese
    r"違[うい]",
    r"ちがう",
    r"間違",
    r"動かない",
    r"まだ(エラー|失敗|動かない)",
    r"元に戻して",
    r"そうじゃない",
    # Turkish
    r"^\s*hayır\b",
    r"\byanlış\b",
    r"\b(çalışmıyor|olmadı|düzelmedi)\b",
    r"\bhala (çalışmıyor|hata|aynı)\b",
    r"\bhata (veriyor|alıyorum)\b",
    r"\bgeri al\b",
    # Korean: wrong, does not work, still, undo
    r"틀렸|잘못(됐|되었|된)",
    r"안\s?(돼요|됩니다|돼|되네요)|작동하지 않|동작하지 않",
    r"여전히 (에러|오류|안)",
    r"되돌려",
    # Russian (negated positives first): no, wrong, does not work, still, not what I asked
    r"^\s*нет\b",
    r"\b(неправильно|неверно|ошибочно)\b",
    r"\bне (работает|работают|работало|так|то|запускается|компилируется|помогло)\b",
    r"\b(всё|все) (ещё|еще) (не|ошибка|падает)\b|\bопять (ошибка|не)\b",
    r"\bне нравится\b",
    r"\bя (же |ведь |тебя |тебе )*(просил|говорил|сказал)\b",
    r"\b(отмени|откати|верни как было)\b",
    # Vietnamese, with and without its accents ("vẫn lỗi", "khong chay duoc")
    r"\b(vẫn|van) (lỗi|loi|bị lỗi|bi loi|không|khong|chưa|chua)\b",
    r"\b(không|khong) (chạy|chay|hoạt động|hoat dong|hiện|hien|lên|len)\b",
    r"\b(bị lỗi|bi loi|lỗi rồi|loi roi)\b",
    # Dutch
    r"\b(werkt|doet het) (nog steeds |nog altijd |nog |helaas )?niet\b",
    r"\b(klopt niet|is fout)\b",
    # Polish
    r"\bnie działa\b",
    r"\b(dalej|nadal|wciąż|ciągle) (nie|błąd|jest błąd)\b",
    # Indonesian
    r"\b(masih|tetap) (error|eror|gagal|tidak|nggak|gak|belum)\b",
    r"\b(tidak|nggak|gak|ga) (berfungsi|jalan|bisa|muncul)\b",
    # Hebrew
    r"לא (עובד|עובדת|עובדים)",
    r"עדיין (לא|יש שגיאה)",
    # Arabic
    r"لا (يعمل|تعمل|يشتغل)",
    r"(ما زال|مازال|لا يزال|لازال) (لا|الخطأ|هناك خطأ)",
    # Hindi, romanised and in Devanagari
    r"\b(kaam|kam) nahi?n? (kar raha|kar rahi|karta|ho raha)\b",
    r"\bnahi?n? chal (raha|rahi)\b",
    r"\b(abhi bhi|ab bhi|phir se) error\b",
    r"काम नहीं कर|नहीं चल रहा",
)

#: Emoji that praise whatever they follow ("👍", "👌", "🎉", "✅", "🚀" …).
_PRAISING = (
    r"\U0001F44D\U0001F44C\U0001F389\u2705\U0001F4AF\U0001F64C\U0001F44F\U0001F973\U0001F680"
)
#: An emoji's presentation and skin-tone marks ("👌🏽").
_EMOJI_MARKS = r"(?:\ufe0f|[\U0001F3FB-\U0001F3FF])?"
#: One praising emoji: after a report, the verdict on it.
PRAISING_EMOJI = rf"[{_PRAISING}]{_EMOJI_MARKS}"
#: One approving emoji: the praising ones, and 🙏, ❤ and 🔥, which approve when sent
#: alone but after a request are as often "please" or trouble ("prod is down 🔥").
APPROVING_EMOJI = rf"[{_PRAISING}\U0001F64F\u2764\U0001F525]{_EMOJI_MARKS}"

#: Explicit approval. Word-bounded; only counted when no correction matched.
APPROVAL: tuple[str, ...] = (
    r"\b(thanks|thank you|thx|ty)\b",
    r"\b(perfect|excellent|awesome|great|nice|brilliant|terrific|fantastic|wonderful|superb|"
    r"amazing|splendid)\b",
    r"\blgtm\b",
    r"\blooks (good|great|right|correct|awesome|amazing|fantastic|beautiful|perfect|solid|"
    r"fine|nice|clean)\b",
    r"(?<!\bnothing )(?<!\bnot )(?<!\bnever )"
    r"\b(works|working) (now|fine|great|perfectly|beautifully|flawlessly|as expected|"
    r"as intended|like a charm|a treat)\b",
    # praise in the words people use for it ("chef's kiss", "nailed it", "that did the
    # trick", "spot on", "you're a legend", "much better now", "much appreciated"), never
    # asked ("much better?", "is it all green?"), denied ("not impressive", "not much
    # better"), wished or supposed ("would be appreciated if …", "if that fixed it, …")
    r"(?<!\bnot )(?<!\bnot very )(?<!\bnot that )(?<!\bnot so )(?<!\bnot really )"
    r"(?<!\bnever )(?<!\bhardly )(?<!\bbe )(?<!\bbe much )(?<!\bif )(?<!\bwhether )"
    # (nor doubted, nor a state waited on or asked for: "I don't think you fixed it", "not
    # sure I like it", "let me know when CI is green", "get CI green")
    r"(?<!\bthink )(?<!\bbelieve )(?<!\bsure )(?<!\bwhen )(?<!\buntil )(?<!\bonce )"
    r"(?<!\bget )(?<!\bmake )(?<!\bkeep )"
    r"(\b(impressive|stellar|chef'?s kiss|spot on|bang on|bingo|nailed it|"
    r"appreciate it(?!\s+if\b)|"
    r"(much )?appreciated|good catch|good call|well played|hell yeah|hell yes|heck yes|"
    r"woo+hoo+)\b|"
    r"\b(did|does) the trick\b|\b(that|this) (will|'?ll) do\b(?!\s+\w)|"
    r"\byou (are|'?re) (a|an|the|my) (absolute |real )?(genius|legend|star|hero|champ|gem|"
    r"wizard|rock ?star|lifesaver|life saver|best)\b(?=\W*$|\s*[.!,;])|"
    r"^\W*(legend|genius|lifesaver)\W*$|"
    r"\b(much|way|so much|a lot|far|lots) better( now)?\b(?=\W*$|\s*[.!,;])|"
    r"\b(just|exactly|precisely) what i (needed|wanted|was looking for|had in mind)\b|"
    r"\b(that|this) (is|was|'?s) what i (needed|wanted|was looking for)\b(?!\s+to\b)|"
    r"\b(problem|issue|bug|mystery) solved\b|\b(that|this|you) (solved|fixed|nailed) (it|that)\b|"
    r"\b(all|ci|tests?|build|pipeline|checks?|everything) (is |are )?(now )?(all )?green\b|"
    r"(?<!\bnot )\ball good\b(?!\s*,?\s*(except|but|apart from|other than|besides)\b)|"
    r"^\W*((ah+|oh+)\W+)?finally\W*$|"
    # (said of the result as a whole: "I like that you …" goes on to say what)
    r"(\bi (really |do |absolutely )?(like|love)|\blov(e|ing)) (it|this|that|the result)"
    r"( (a lot|so much|very much|much))?(?=\W*$|\s*[.!,;])|"
    # (the whole said of the result, not of a thing it names: "it is really good practice")
    r"\b(very|really|so|pretty|super) (good|nice|cool|clean|neat)(?=\W*$|\s*[.!,;]))"
    r"(?![^.!\n]*\?)",
    # "It does seem to be working", "everything appears to work" (not "doesn't seem …")
    r"\b(it|that|this|everything|all) (does |really |now )?(seems?|appears?) to (be )?"
    r"work(s|ing)?\b",
    # (not supposed: "if that fixed it, close the issue")
    r"(?<!\bif )(?<!\bwhether )\bthat (works|worked|did it|fixed it)\b",
    # ("exactly as slow as before", "exactly the same": nothing changed)
    r"\b(correct|exactly(?!\s+(as|the same|like)\b)|well done|good job)\b",
    # the person's own check of the result ("confirmed working", "tested it, works",
    # "verified, it works on prod", "everything works")
    r"(\bconfirmed,? (it )?(working|works|fixed)\b|"
    r"\b(tested|tried|checked|verified)( it)?,? (it )?(works|working)\b|"
    r"(?<!not )\b(everything|all) (works|is working|working)\b|"
    r"^\W*(verified|confirmed),? (it )?works\b|\bit works on (prod|production|staging|my)\b)"
    r"(?!,? (except|but|apart from|other than|besides)\b)",
    # a turn of approving emoji alone ("👍", "🎉🎉", "👌🏽")
    rf"^\s*(?:{APPROVING_EMOJI}\s*)+[!.]*\s*$",
    # what the person did with the work, and nothing more ("merged", "deployed it on the
    # backup host", "pushed it, pipeline green"; not "deployed it and the page is blank")
    r"^\W*(i |we )?(just )?(approved|merged|deployed|shipped|released|published|pushed|"
    r"rolled (it )?out)( it| that| this| them| the (pr|branch|change|changes|fix))?"
    r"(\s+(to|on|in|into) [\w./-]+( [\w./-]+){0,3})?[\s.!]*$",
    r"\bdanke\b",
    # (as a whole clause: "die Klasse", "der Test läuft noch" and "passt nicht" are no praise)
    r"^\W*passt( so)?( schon)?\W*$",
    r"\b(excelente|de lujo|funciona (bien|perfecto|perfectamente))\b",
    # (not a word that also intensifies or measures: "すごい遅い", "最高値", "최고 속도")
    r"太棒了|(?<!不是)(?<!不)很好用|(?<!得)厉害|最高(です|だ|！|!|\s*$)|완벽(해요|합니다|하네요|해)|최고(예요|에요|입니다|야|다)",
    r"\b(perfekt|super|prima)\b",
    r"\b(funktioniert|klappt|läuft) (jetzt|wieder)\b",
    r"\bsieht gut aus\b",
    r"\bmerci\b",
    r"\b(parfait|nickel|génial)\b",
    r"\bça (marche|fonctionne)\b",
    r"\b(franchement|vraiment|trop|c'est|c est) top\b|\bimpeccable\b",
    r"\bgracias\b",
    r"\b(perfecto|genial)\b",
    r"\bya funciona\b",
    r"\bobrigad[oa]\b",
    r"\b(perfeito|ótimo)\b",
    r"\bfuncionou\b",
    r"\b(valeu|vlw|brigad[oa])\b",
    r"\bgrazie\b",
    r"\b(perfetto|ottimo|fantastico)\b",
    r"\b(ora|adesso) funziona\b|\bfunziona (ora|adesso|bene|perfettamente)\b",
    r"谢谢",
    r"完美",
    r"可以了",
    r"好了",
    r"(解决|搞定|成功)了",
    r"ありがとう",
    r"完璧",
    r"動いた",
    r"いいね",
    # "solved", "fixed", "it worked" ("解決しました。ありがとうございます")
    r"解決(しました|した|できました)",
    r"直(りました|った)",
    r"うまく(いきました|いった)",
    r"動きました",
    # Korean: thanks, solved, works well
    r"감사합니다|고맙습니다|고마워요?",
    r"해결(됐|되었|했)",
    r"잘 (돼요|됩니다|되네요|작동합니다)",
    r"\b(teşekkürler|teşekkür ederim|sağ ?ol(un)?)\b",
    r"\b(harika|mükemmel|süper)\b",
    r"\b(şimdi|artık) (çalışıyor|oldu)\b",
    r"\bспасибо\b",
    r"\b(отлично|супер|идеально|прекрасно)\b",
    r"\b(теперь|всё|все) работает\b",
    r"\b(cảm ơn|cám ơn|cam on)\b",
    r"\b(chạy rồi|chay roi|được rồi|duoc roi|tuyệt vời|tuyet voi)\b",
    r"\b(bedankt|dank je( wel)?|dankjewel)\b",
    r"\bwerkt (nu|perfect|prima)\b",
    r"\b(dzięki|dziękuję|świetnie)\b",
    r"(?<!nie )\bdziała (teraz|już)\b",
    r"\b(terima kasih|makasih|mantap)\b",
    r"\b(sudah|udah) (jalan|bisa|berhasil)\b",
    r"תודה|מעולה|מושלם|עובד עכשיו|עכשיו (זה )?עובד",
    r"شكرا|شكراً|ممتاز|يعمل الآن",
    r"\b(dhanyavaad|dhanyawad|shukriya|badhiya)\b",
    r"धन्यवाद|शुक्रिया",
)

#: Follow-ups that steer without judging ("continue", "go on").
CONTINUATION: tuple[str, ...] = (
    r"^\s*(continue|go on|go ahead|keep going|proceed|carry on|yes|yep|ok|okay|sure|do it)\b",
    r"^\s*(done|finished|ok done)\b",
    r"^\s*(weiter|mach weiter|ja)\b",
    r"^\s*(continue[rz]?|vas-y|oui)\b",
    r"^\s*(continúa|sigue|sí)\b",
    r"^\s*(continua|sim|pode)\b",
    r"^\s*(继续|好的|是的)",
    r"^\s*(続けて|はい)",
    r"^\s*(devam|evet|tamam|olur)\b",
    r"^\s*(продолжай|продолжи|дальше|да|давай|хорошо|ок)\b",
)

#: Undo / revert, in user text or in a command the agent ran.
UNDO_TEXT: tuple[str, ...] = (
    r"\bundo (that|this|it|the|your|those)\b",
    r"^\s*(revert|undo)\b",
    r"\brevert (that|this|it|the|your|those)\b",
    r"\brückgängig\b",
    r"\b(annule|annuler)\b",
    r"\b(deshaz|deshacer)\b",
    r"\b(desfaz|desfazer|desfaça)\b",
    r"\bannulla\b",
    r"撤销",
    r"元に戻",
    r"\bgeri al\b",
    r"되돌려",
    r"\b(отмени|откати|верни как было)\b",
)
UNDO_COMMAND = re.compile(
    r"\bgit\s+(revert\b|checkout\s+--\s|restore\s|reset\s+--hard\b|stash\s+drop\b)"
)

#: A follow-up longer than this is read as a new task unless it opens with a correction.
FEEDBACK_MAX_CHARS = 400


def _compile(patterns: Iterable[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Lexicon:
    """Compiled patterns; extra ones come from `MiningConfig`."""

    extra_corrections: tuple[str, ...] = ()
    extra_approvals: tuple[str, ...] = ()
    neutral: re.Pattern[str] = field(init=False, repr=False)
    correction: re.Pattern[str] = field(init=False, repr=False)
    approval: re.Pattern[str] = field(init=False, repr=False)
    continuation: re.Pattern[str] = field(init=False, repr=False)
    undo: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "neutral", _compile(NEUTRAL))
        corrections = (*CORRECTION, *map(_as_read, self.extra_corrections))
        approvals = (*APPROVAL, *map(_as_read, self.extra_approvals))
        object.__setattr__(self, "correction", _compile(corrections))
        object.__setattr__(self, "approval", _compile(approvals))
        object.__setattr__(self, "continuation", _compile(CONTINUATION))
        object.__setattr__(self, "undo", _compile(UNDO_TEXT))

    def classify(self, text: str) -> Feedback:
        """What a user follow-up says about the previous work (its contractions read
        written out, as every rule reads them)."""
        cleaned = self.neutral.sub(" ", written_out(text.strip()).lower())
        if self.correction.search(cleaned):
            return Feedback.CORRECTION
        if self.approval.search(cleaned):
            return Feedback.APPROVAL
        if self.continuation.search(cleaned) and len(cleaned) < 80:
            return Feedback.CONTINUATION
        return Feedback.NONE

    def is_undo_request(self, text: str) -> bool:
        return bool(self.undo.search(text.lower()))


#: A contraction spelt as a regular expression in a person's own pattern ("doesn'?t",
#: "that'?s", "you'?re", "i'?m"): what it matches, written out as the rules read text.
_NEGATION_SPELT = re.compile(r"\b(\w+?)(n)'\??t\b", re.IGNORECASE)
_VERB_SPELT = re.compile(
    r"\b(it|that|what|there|here|who|where|how|he|she|you|we|they|i|could|should|would|might|"
    r"must)'\??(s|re|m|ve|ll)\b",
    re.IGNORECASE,
)
_WRITTEN = {"s": "is", "re": "are", "m": "am", "ve": "have", "ll": "will"}


def _negation_either_way(found: re.Match[str]) -> str:
    stem = found.group(1)
    out = {"ca": "cannot", "wo": "will not"}.get(stem.lower(), f"{stem} not")
    return f"(?:{stem}{found.group(2)}'?t|{out})"


def _verb_either_way(found: re.Match[str]) -> str:
    who, short = found.group(1), found.group(2).lower()
    written = f"{who} {_WRITTEN[short]}"
    if short == "s":
        written += f"|{who} has"  # "it's been ages" reads "it has been ages"
    return f"(?:{who}'?{found.group(2)}|{written})"


def _as_read(pattern: str) -> str:
    """A person's own pattern, matched as the rules read text, with contractions written
    out (`contractions.written_out`): a contraction typed in it is written out, and one
    spelt as a regular expression matches either form, so "doesn't compile",
    "doesn'?t compile" and "\\bthat's awful" each match every spelling of their words."""
    pattern = pattern.replace("\\b", "\0")  # a boundary is no letter of the word after it
    pattern = written_out(pattern)
    pattern = _NEGATION_SPELT.sub(_negation_either_way, pattern)
    pattern = _VERB_SPELT.sub(_verb_either_way, pattern)
    return pattern.replace("\0", "\\b")


@lru_cache(maxsize=16)
def lexicon_for(corrections: Sequence[str] = (), approvals: Sequence[str] = ()) -> Lexicon:
    """A cached lexicon per distinct set of configured extra patterns."""
    return Lexicon(tuple(corrections), tuple(approvals))


def is_undo_command(command_text: str) -> bool:
    return bool(UNDO_COMMAND.search(command_text))
