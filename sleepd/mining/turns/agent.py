"""What the agent's last message says: it claims to be done, asks, invites, proposes,
offers options, gives the person steps, awaits a verdict, or gives up.

A person's turn is read against this: "yes" after a question is an answer, after a
done-claim it is a verdict.
"""

from __future__ import annotations

import re

from sleepd.mining.json_text import json_value
from sleepd.mining.turns.closing import is_closing_step
from sleepd.mining.turns.text import (
    CJK,
    CONTENT_WORD,
    SENTENCE_END,
    STOP_WORDS,
    WORD,
    as_typed,
    stem,
    topic_overlap,
)
from sleepd.mining.turns.verdicts import ACCEPT_HEAD, without_own_next_step

#: What a build or a program does when it goes through ("builds again", "runs cleanly").
_RUNS_THROUGH = r"(builds|compiles|runs|passes|succeeds|works|loads|renders|starts)"

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
    # (not "Nothing was committed.", "none of it has been pushed")
    r"|(?<!nothing )(?<!none )(?<!none of it )"
    r"\b(is|are|has been|have been|was|were) (now )?(successfully )?(fixed|updated|added|"
    r"implemented|complete|completed|done|working|resolved|in place|ready|merged|created|"
    r"committed|pushed|deployed)\b"
    r"|^[^\w\n]*(done|all done|finished|complete|fixed|implemented|updated|released|published|"
    r"deployed|merged|pushed|committed|shipped|created|added|removed|renamed|wrote|refactored|"
    r"replaced|installed|configured|changed|modified|deleted|restored|converted|migrated|"
    r"re(created|wrote|worked|built|generated|verted|based|organized|structured)|simplified|"
    r"extracted|bumped|moved|cleaned up|tightened|enabled|disabled|applied|documented|switched|"
    r"upgraded|generated|initialized|synced|tagged)\b"
    r"|\bsuccessfully\b|\bsummary\b|✅|\bshould now\b"
    r"|\bnow (works|shows|displays|uses|handles|has|supports|correctly)\b"
    # what the changed code now does, an adverb allowed ("The idle+down case now
    # explicitly returns `down`", "Headings now render as styled text")
    r"|\b(now|no longer)\s+(\w+ly\s+)?(returns?|renders?|reads?|writes?|runs?|builds?|loads?|"
    r"sends?|logs?|checks?|skips?|points?|includes?|matches|respects?|detects?|validates?|"
    r"accepts?|rejects?|fires?|triggers?|appears?|calls?|falls? back|waits?|opens?|starts?|"
    r"shows up|works?)\b"
    # the checks the agent ran came back clean ("The build passes", "lint and tests pass")
    r"|\b(the )?(build|builds|lint|linters?|ci|typecheck|type check|tests?)( and \w+)? "
    r"(now )?(passes|pass|passed|succeeds|succeeded|is green|are green)\b"
    # a short verdict on the whole ("All committed.", "everything pushed", "The release is
    # live"), and a thing named, then what was done to it ("PR created: https://…")
    r"|\b(all|everything( is)?)\s+(committed|pushed|merged|synced|deployed|in place)\b"
    r"|^[^\w\n]*(you'?re\s+|you are\s+)?all set\b|\b(is|are) (now )?live\b"
    # (not a plan's "Files to be created:", "What gets pushed:", nor "Nothing was committed.")
    r"|^[^\w\n]*(?!(nothing|no|not|never|none)\b)(\S+\s+){1,3}"
    r"(?<!\bbe )(?<!\bto )(?<!\bnot )(?<!\bget )(?<!\bgets )(?<!\bwill )"
    r"(created|merged|opened|pushed|deployed|committed|published|released|filed|tagged)\s*[:.!]"
    # the terse report, a thing named and what was done to it ("Export button added.",
    # "Lint errors fixed; the lint job passes.", "Migration written and applied locally.");
    # not what is still to be done ("Tests to be written.", "needs to be fixed")
    # (a state said with "is" is read above, where a condition around it is weighed)
    # (nor what a thing needs, or had before: "Git needs your identity configured.", "You
    # already have staticcheck enabled.")
    r"|^[^\w\n]*(?!(nothing|no|not|never|none|what|which|still|if|when|until|till|once|after|"
    r"before|unless|whether)\b)"
    r"(?!([\w`./'@#-]+\s+){0,3}(needs?|must|should|has to|have to|requires?|wants?|have|has|"
    r"already|you|your|previously|originally|once|like|'?d)\b)([\w`./'@#-]+\s+){1,4}"
    r"(?<!\bbe )(?<!\bto )(?<!\bnot )(?<!\bget )(?<!\bgets )(?<!\bwill )(?<!\bbeen )(?<!\bnever )"
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbeing )"
    r"(added|fixed|written|updated|removed|renamed|implemented|resolved|applied|configured|"
    r"installed|refactored|migrated|converted|documented|bumped|capped|wired( up)?|enabled|"
    r"disabled|set up|tested|generated|cleaned( up)?|replaced|moved|deleted|restored|adjusted|"
    # (not "redacted": stored text holds the redaction's own "REDACTED" markers)
    r"tweaked|corrected|patched|pinned|upgraded|reverted|extracted|simplified|trained|exported|"
    r"scheduled)"
    r"(\s+and\s+(\w+\s+){0,2}\w+ed)?(\s*[;:.,!—-]|\s*$|\s+(in|to|on|with|for|under|from|via|"
    r"at|as|across|everywhere|locally)\b)(?![^.!\n]*\?)"
    # what the changed code now does, any verb ("Toasts now stack vertically", "Dates now
    # use the user's locale"), and what runs again ("Storybook builds again", "the Dockerfile
    # builds now", "`go build ./...` succeeds now", "all pass", "22 pass")
    r"|(?<!\bwill )(?<!\bwould )(?<!\bshould )(?<!\bcan )(?<!\bcould )(?<!\bmight )(?<!\bmust )"
    # (the verb in the present, said of the thing: not "right now", "for now", "you can now
    # install", "let me now update", "the output will now show"; nor a word that is no
    # verb, "now around", "now pointing"; nor a failure, "tests now fail"; nor what seems,
    # "this now looks like a bug"; nor what a check reports, "the diagnostics now show that")
    r"\b(?!(right|for|by|until|till|just|from|of|can|could|will|would|should|must|might|may|"
    r"to|me|us|you|i|we|it'?ll|is|are|was|were)\s+now\b)\w+s?\s+now\s+(\w+ly\s+)?"
    r"(?!(needs|wants|has|fails|crashes|breaks|errors|throws|hangs|times|stops|dies|gets|"
    r"looks|seems|appears|sounds|feels|is|was|does|goes|means|requires|segfaults|freezes|"
    r"refuses|rejects|leaks|panics|loops|causes)\b)(?![a-z]+(ous|ss|us|is|ics)\b)"
    r"([a-z]{2,}s|use|show|work|pass|run|point|stack|follow|render|load|match|resolve|return|"
    r"include|appear|live|sit|respect|handle|support|skip|open|close|sort|wrap|fit|align)\b"
    r"(?!\s+that\b)(?=[^?\n]*([.!;]|$))"
    # (not what then goes wrong: "The lock file now pins an old react, which causes the error")
    r"(?![^.\n]*\b(causes?|causing|error|errors|fails?|failing|broken|breaks)\b)"
    # (a noun's plural is no verb: "I'm profiling both runs now")
    rf"|\b{_RUNS_THROUGH}\s+(again|cleanly|"
    r"end to end|without (errors|warnings))\b|\b(compiles|succeeds|works)\s+now\b"
    # (not none of them, nor some with failures beside them: "0 passed, 3 failed")
    r"|\b(all|(?!0\b)\d+)\s+(tests?\s+)?pass(ed)?\b(?!\s+(if|when|once|after)\b)"
    r"(?![^.\n]{0,20}\b[1-9]\d*\s+(failed|failing|errors?|errored)\b)"
    r"|\b(here'?s|here is) (a summary|what i|what was)\b|\bthe (fix|change|changes|implementation) "
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
    # "完了です。", "… と正しく表示されるようになりました" (it now shows … correctly)
    r"|完了(です|。|！|!)|ようになりました"
    r"|(완료|추가|수정|생성|변경|구현|삭제|반영)(했습니다|하였습니다|됐습니다|되었습니다)"
    # the bare noun after what was done ("PR #235 머지 완료.", "auto-merge 활성화 완료 —")
    r"|\S\s*완료(됨|입니다)?(?=\s*([.!—:\-]|$))"
    r"|\b(he|hemos) (añadido|actualizado|corregido|creado|implementado|cambiado|eliminado)\b"
    r"|\b(adicionei|atualizei|corrigi|criei|implementei|alterei|removi|ajustei)\b"
    r"|\bj'ai (ajouté|mis à jour|corrigé|créé|implémenté|modifié|supprimé)\b"
    r"|\b(ich habe|habe)\b[^.\n]{0,60}\b(hinzugefügt|aktualisiert|behoben|erstellt|"
    r"implementiert|geändert|entfernt)\b"
    # the German report in participles ("Problem behoben", "**Fix:** Pfad korrigiert in …"),
    # not what is still to be done ("muss noch korrigiert werden")
    r"|(?<!nicht )(?<!noch )\b(behoben|korrigiert|umgesetzt|angepasst)\b(?!\s+(werden|wird|"
    r"worden|müssen|muss|sollte|soll))"
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
    r"|^[^\w\n]*(listo|hecho|terminado|pronto|feito|terminé|fertig|erledigt)\b"
    # Italian: "Ho modificato la stringa …", "abbiamo aggiunto", "è stato aggiornato",
    # "Fatto!"; not "non ho ancora modificato" (not yet)
    r"|(?<!non )\b(ho|abbiamo)\s+(ora\s+|anche\s+|già\s+)?(aggiunt|aggiornat|modificat|corrett|"
    r"creat|implementat|rimoss|eliminat|sistemat|risolt|completat|configurat|installat|"
    r"spostat|rinominat|sostituit|applicat|convertit|ripristinat|abilitat|disabilitat|"
    r"semplificat|reso|res|scritt|fatt)[oaie]?\b"
    r"|\b(è|e'|sono) stat[oaie]\s+(\w+\s+)?(aggiunt|aggiornat|modificat|corrett|creat|"
    r"implementat|rimoss|eliminat|sistemat|risolt|completat|configurat|installat|applicat)[oaie]\b"
    r"|\bcon successo\b|^[^\w\n]*(fatto|completato|ecco fatto)\b"
    # Turkish ("Dosyayı güncelledim", "Hata düzeltildi", "başarıyla tamamlandı"), Dutch
    # ("Ik heb de test toegevoegd"), Polish ("Dodałem test"), Indonesian ("Sudah
    # diperbaiki", "berhasil") and Vietnamese ("Tôi đã sửa …")
    r"|\b\w*(ekledim|güncelledim|düzelttim|oluşturdum|değiştirdim|kaldırdım|sildim|"
    r"tamamladım|uyguladım|yaptım|eklendi|güncellendi|düzeltildi|oluşturuldu|değiştirildi|"
    r"kaldırıldı|silindi|tamamlandı|uygulandı)\b|\bbaşarıyla\b"
    r"|\b(ik heb|we hebben)\b[^.\n]{0,60}\b(toegevoegd|bijgewerkt|aangepast|opgelost|gemaakt|"
    r"verwijderd|geïmplementeerd|gewijzigd)\b|(?<!niet )\bsuccesvol\b"
    r"|\b(dodałem|dodałam|zaktualizowałem|naprawiłem|naprawiłam|utworzyłem|zmieniłem|"
    r"usunąłem|zaimplementowałem|poprawiłem)\b|\bpomyślnie\b"
    r"|\bsudah (di)?(tambahkan|perbarui|perbaiki|buat|hapus|ubah|terapkan)\b"
    r"|(?<!tidak )(?<!belum )(?<!gagal )\bberhasil\b"
    r"|\bđã (thêm|cập nhật|sửa|tạo|xóa|thay đổi|triển khai|hoàn thành)\b",
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
    r"(like|want)( me)? to (do|work on|focus on)( next)?|(what'?s|what is) next|"
    r"what should i (do|work on) "
    r"next|ready for (the |your )?next (task|request|one|step|thing)|"
    # ("Want me to proceed to the next feature/task now?": the next piece of work, whatever
    # it is, not the next step of a plan)
    r"(proceed|move on|go on|continue) (on )?to (the |a )?next (feature|task|request|item|ticket|"
    r"issue)|let me know what (else |"
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
    r"begin|continue)\b|\b(here'?s|here is) (the|my) plan\b|\bproceed\?"
    r"|\bcould you (restart|run|try)\b",
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


#: Every item of a list, by its count ("all 6", "all 3 of them").
_ALL_ITEMS = re.compile(r"\ball\s+(the\s+)?\d+\b", re.IGNORECASE)


def picks_listed_item(region: str, agent_text: str) -> bool:
    """The reply names a number that heads an item of the numbered list the agent's
    last words laid out ("5. **Install as wfc-skill-fixer skill**")."""
    # ("yes, address all 6" takes every item, it picks none)
    numbers = {m.group(1) for m in _ITEM_NUMBER.finditer(_ALL_ITEMS.sub(" ", region))}
    if not numbers:
        return False
    return _heads_an_item(numbers, agent_text)


def _heads_an_item(numbers: set[str], agent_text: str) -> bool:
    """One of the numbers heads an item of a numbered list in the agent's last words ("5.
    **Install …**", "### 2) Helpers")."""
    tail = last_words(agent_text, 2500)
    return any(
        re.search(rf"(?m)^\s*(?:[-*]\s+)?(?:#+\s*)?(?:\*\*)?{n}[.)]\s", tail) for n in numbers
    )


#: A number written as a reference to a listed item ("point 6", "item 2", "(5)", "#3", "the
#: problem with 2. is"): group 1 to 4, whichever matched.
_ITEM_REFERENCE = re.compile(
    r"\b(?:points?|items?|numbers?|no\.|options?|issues?|findings?|steps?)\s*#?(\d{1,2})\b"
    r"|\((\d{1,2})\)|(?<![\w.#])(\d{1,2})\.(?=\s)|(?<!\w)#(\d{1,2})\b",
    re.IGNORECASE,
)

#: The opening of a list of the person's own ("1. Run: git status 2. …").
_OWN_LIST = re.compile(r"(^|\s)1[.)]\s")


def names_listed_item_by_number(head: str, agent_text: str) -> bool:
    """The words name, as a reference, a number that heads an item of the numbered list
    the agent's last words laid out ("the problem with 2. is …" under "2. **Helpers**
    …"); numbers of a list of the person's own refer to nothing of the agent's."""
    if _OWN_LIST.search(head):
        return False
    numbers = {n for found in _ITEM_REFERENCE.finditer(head) for n in found.groups() if n}
    return bool(numbers) and _heads_an_item(numbers, agent_text)


_AGENT_GAVE_UP = re.compile(
    r"\b(i (couldn'?t|could not|was unable to|wasn'?t able to|was not able to|am unable to|"
    r"can'?t|cannot) "
    r"(get|make|find|fix|reproduce|figure|complete|finish|build|compile|push)"
    r"|unfortunately|still (fail|failing|broken))\b"
    # stopped short for want of what it was not given ("I can't proceed yet: the feature
    # spec file is missing", "Please run the command again with the actual description"),
    # or a prompt's own error as its whole answer (Spec Kit's `ERROR "No feature
    # description provided"`)
    r"|\bi (can'?t|cannot|am unable to|couldn'?t|could not) (proceed|continue|go on)\b"
    r"|\bplease (re-?run|run) (the|this) command again\b"
    # the model refusing the request ("I'm sorry, but I can't assist with that.")
    r"|\bi (can'?t|cannot|won'?t|will not|am unable to) (assist|help) with (that|this)\b"
    r"|(?-i:^\W*ERROR\b)"
    # the same in the languages whose done claims are read: "No pude arreglar …",
    # "Infelizmente …", "Je n'ai pas réussi à …", "Leider konnte ich … nicht …", "Non sono
    # riuscito a …", "无法修复", "修正できませんでした", "수정하지 못했습니다", "Не удалось
    # исправить", "Maalesef …"
    r"|\bno (pude|he podido|logré|conseguí)\b|\b(lamentablemente|desafortunadamente)\b"
    r"|\bnão (consegui|pude)\b|\binfelizmente\b"
    r"|\bje n'ai pas (pu|réussi)\b|\bmalheureusement\b"
    r"|\bleider\b|\bkonnte ich [^.\n]{0,60}\bnicht\b"
    r"|\bnon (sono riuscit[oa]|ho potuto|riesco)\b|\bpurtroppo\b"
    r"|(无法|没能|未能)(完成|修复|修復|解决|解決|构建|編譯|编译|找到|复现)"
    r"|(修正|完了|解決|ビルド|再現)できませんでした|残念ながら"
    r"|(수정|완료|해결|빌드)(하지 못했|할 수 없었)|아쉽게도"
    r"|\bне (удалось|смог)\b|\bк сожалению\b|\bmaalesef\b",
    re.IGNORECASE,
)


def takes_offer(region: str, agent_text: str) -> bool:
    """Most of the request's content words come from the agent's last words: it takes
    up what the agent offered or asked, in the person's own words."""
    return topic_overlap(region, agent_text.strip()[-600:]) >= 0.5


#: The tools through which an agent puts questions to the person and waits on the answer
#: (Claude Code's AskUserQuestion, Codex's request_user_input); both take
#: `{"questions": [{"question": …, "options": [{"label": …}, …]}, …]}`.
QUESTION_TOOLS = frozenset({"AskUserQuestion", "request_user_input"})


def questions_put(tool_name: str | None, call_input: str) -> str:
    """The questions a question tool's call puts to the person, each with its options'
    labels, one per line: the agent's last words to the person, though written as a
    call. "" for any other tool, or for input that holds no question (hostile or cut
    JSON included)."""
    if tool_name not in QUESTION_TOOLS:
        return ""
    payload = json_value(call_input)
    questions = payload.get("questions") if isinstance(payload, dict) else None
    lines: list[str] = []
    for item in questions if isinstance(questions, list) else ():
        if not isinstance(item, dict) or not isinstance(item.get("question"), str):
            continue
        lines.append(item["question"].strip())
        options = item.get("options")
        for option in options if isinstance(options, list) else ():
            if isinstance(option, dict) and isinstance(option.get("label"), str):
                lines.append(f"- {option['label'].strip()}")
    return "\n".join(line for line in lines if line)


#: A line the Codex app reads as an action, not as words to the person
#: ("::git-create-pr{cwd="…" branch="…" url="…"}"): its last lines after the agent's words.
_APP_DIRECTIVE = re.compile(r"^[ \t]*::[a-z][\w-]*\{[^\n]*\}[ \t]*$", re.MULTILINE)


def last_words(agent_text: str, chars: int) -> str:
    """The agent's last `chars` characters as words are read (`as_typed`), and
    the app's action lines after them left out (the question before them is the last word)."""
    if "::" in agent_text:
        agent_text = _APP_DIRECTIVE.sub("", agent_text)
    return as_typed(agent_text.strip()[-chars:])


def _first_words(agent_text: str, chars: int) -> str:
    """The agent's first `chars` characters, read as `last_words` reads its last."""
    return as_typed(agent_text.strip()[:chars])


def agent_claims_done(agent_text: str) -> bool:
    tail = last_words(agent_text, 2500)
    claimed = any(not _under_condition(tail, found) for found in _DONE_CLAIM.finditer(tail))
    return claimed and not _AGENT_GAVE_UP.search(tail[-800:])


#: A state said of the work ("is resolved", "are done"), as `_DONE_CLAIM` reads one.
_STATE_CLAIMED = re.compile(r"(is|are|has been|have been|was|were)\s", re.IGNORECASE)
#: A state said with its own verb, which a condition or a check ahead holds as a state does
#: ("once it passes cleanly", "let me verify the build compiles cleanly", "after the
#: toasts now stack").
_STATE_SAID = re.compile(
    # (a state said with "is now" keeps its own reading: "that case is now fixed" is now)
    r"(?!(is|are|was|were|been)\s)\w+s?\s+now\s|"
    rf"{_RUNS_THROUGH}\s+(again|cleanly|end to end|without|now)\b|(all|\d+)\s+(tests?\s+)?pass",
    re.IGNORECASE,
)
#: A clause that puts what follows under a condition or in time to come ("Until that is
#: resolved, …", "long after they are done", "once it is merged", "if it is ready"), up to
#: the state it holds.
_CONDITION_OPEN = re.compile(
    r"\b(until|till|after|once|when|whenever|if|unless|before|whether|as soon as"
    # a doubt or a check ahead, not a claim: "I am not sure it is working", "let me make
    # sure it is ready", "check what is deployed" (not "here is what is fixed")
    r"|not sure|unsure|do not think|doubt|check|verify|confirm|make sure|ensure|see if|"
    r"(?<!here is )(?<!this is )(?<!that is )what)"
    # (its subject only, a few words: "After the migration the endpoint is working" has a
    # clause of its own after the phrase, and "and", "but", "so" or "then" end the clause)
    r"(\s+(?!(and|but|so|then)\b)[^\s.!?;:,—]+){0,3}\s+$",
    re.IGNORECASE,
)


def _under_condition(tail: str, found: re.Match[str]) -> bool:
    """A state inside a clause of condition or of time to come claims nothing done: the
    agent says what will hold then, not what holds now (a first person's "I fixed …"
    after "after" is still a report)."""
    said = found.group(0)
    if _STATE_SAID.match(said):
        pass  # ("once it passes cleanly", "let me verify the build compiles cleanly")
    elif not _STATE_CLAIMED.match(said) or " now " in said:
        return False  # ("… and that case is now fixed": now, not then)
    window = tail[max(0, found.start() - 80) : found.start()]
    condition = _CONDITION_OPEN.search(window)
    if condition is None:
        return False
    # ("The redirect after login is fixed": the "after" sits inside the subject, a thing
    # named, and the state is said of it)
    # (and "once the PR is merged" is a clause, "after login is fixed" no clause: a bare
    # word, not a thing with its determiner, between the condition word and the state)
    opening = re.split(r"[.!?;:\n]", window[: condition.start()])[-1]
    bare = _ONE_BARE_WORD.fullmatch(window[condition.end(1) :]) is not None
    return not (_SUBJECT_SO_FAR.match(opening) and bare)


#: One word with no determiner, between a condition word and the state ("after login is"),
#: where a clause would name its subject ("once the PR is", "after it is").
_ONE_BARE_WORD = re.compile(
    r"\s+(?!(the|a|an|it|this|that|they|we|you|i|he|she|your|my|our|its|their)\b)[\w-]+\s+",
    re.IGNORECASE,
)


#: The opening of a sentence that is only a thing named so far ("The redirect", "the new
#: tests"): a condition word after it qualifies the thing, and opens no clause.
_SUBJECT_SO_FAR = re.compile(
    r"^\W*(the|a|an|this|that|these|those|my|your|our|its|their|every|each|all)\s+"
    r"([\w-]+\s+){0,2}$",
    re.IGNORECASE,
)


def agent_asks(agent_text: str) -> bool:
    """The agent's last words ask the person something."""
    return bool(_ASKS.search(last_words(agent_text, 600)))


def agent_invites(agent_text: str) -> bool:
    """The agent's last words invite a new request rather than ask about the work."""
    return bool(_INVITES.search(last_words(agent_text, 300)))


#: The agent hands its result over for a verdict ("Tell me what it looks like", "Let me
#: know what you think!", "Try it now", "Let me know if you see the red backgrounds", "Let
#: me know if the refresh fixes it").
_AWAITS_VERDICT = re.compile(
    r"\b(tell me (what|how) (it|that|this|they) (looks?|feels?|works?|goes)|let me know (what you "
    r"think|how it (looks|goes|works|feels)|if (it|that|this|they|you see|everything|anything)\b|"
    # ("Let me know if the refresh fixes it", "… if the new build works for you")
    r"if (the|your) [^.?!\n]{1,60}\b(works?|fix(es)?|helps?|resolves?|solves?)\b)|"
    r"(try|test|check) it (out )?(now|again)|give it a (try|spin|go)|try (navigating|reloading|"
    r"refreshing|running|opening|clicking)\b[^.?!\n]{0,60}\bnow\b|how does (it|that|this) look)"
    # the same hand-over in the other languages agents answer in
    r"|(效果|结果)(怎么样|如何)|看看[^。？?\n]{0,30}(怎么样|如何)|试试看|"
    r"いかがでしょうか|確認してみてください|試してみてください|확인해\s?(보세요|주세요)",
    re.IGNORECASE,
)


#: The agent handed the person steps to carry out: a command block, or words asking them
#: to run or try something ("上記手順を試して", "Run `npm run dev` and …", "请运行").
_GAVE_STEPS = re.compile(
    r"\b(run|try|execute|restart|reload|"
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


#: A line that opens or closes a fenced block, with the block's language if any.
_FENCE = re.compile(r"^[^\S\n]*```[^\S\n]*([\w+-]*)", re.MULTILINE)
#: Languages of a block the person runs (an unnamed block may be a command too).
_SHELL_BLOCKS = frozenset(("", "bash", "sh", "shell", "zsh", "console", "powershell", "ps1", "cmd"))


def agent_gave_steps(agent_text: str) -> bool:
    """The agent's last words hand the person steps to carry out: a failure they then
    report is about the agent's advice, even when the agent itself changed nothing. A
    block of commands reaching into them counts; a block of code the agent quoted (a Go
    struct in an answer) does not, though its closing fence looks like an opening one."""
    text = last_words(agent_text, len(agent_text))
    tail_from = max(0, len(text) - 1500)
    tail = text[tail_from:]
    if _GAVE_STEPS.search(tail) or len(_STEP_FOR_THE_PERSON.findall(tail)) >= 2:
        return True
    fences = list(_FENCE.finditer(text))
    for opening, closing in zip(fences[::2], [*fences[1::2], None], strict=False):
        ends = len(text) if closing is None else closing.end()
        if ends > tail_from and opening.group(1).lower() in _SHELL_BLOCKS:
            return True
    return False


#: A numbered item of a list ("1. ", "2) ", "**3. "), at the start of a line.
_NUMBERED_ITEM = re.compile(r"^[^\S\n]*(\*\*)?\d{1,2}[.)]\s", re.MULTILINE)
#: A numbered item that asks something ("2. **Scope** — Should the map ship in this PR?").
_NUMBERED_QUESTION = re.compile(r"^[^\S\n]*(\*\*)?\d{1,2}[.)][^\n]*\?", re.MULTILINE)
#: A reply that opens with its first point and goes on to a second ("1. driver … 2. w…").
_POINT_BY_POINT = re.compile(r"^\W{0,3}1[.)]\s[\s\S]*?(^|\s)2[.)]\s", re.MULTILINE)


def answers_point_by_point(region: str, agent_text: str) -> bool:
    """The reply takes the agent's numbered questions point by point: the agent's last
    words list numbered items, one of them a question, and the reply opens with its
    "1." and goes on to a "2."."""
    if not _POINT_BY_POINT.match(region[:3000]):
        return False
    tail = last_words(agent_text, 1500)
    return len(_NUMBERED_ITEM.findall(tail)) >= 2 and bool(_NUMBERED_QUESTION.search(tail))


def agent_awaits_verdict(agent_text: str) -> bool:
    """The agent's last words hand its result over for the person's verdict."""
    return bool(_AWAITS_VERDICT.search(last_words(agent_text, 300)))


def agent_proposes(agent_text: str) -> bool:
    """The agent's last words are a plan or a suggestion waiting for the go-ahead."""
    return bool(_PROPOSAL.search(last_words(agent_text, 600)))


def agent_offers_options(agent_text: str) -> bool:
    """The agent's last words lay out lettered options to choose from, and do not end by
    asking whether to go ahead with all it laid out ("Ready to: 1. Commit … 4. Create
    GitHub release. Proceed?") or by offering one act of its own ("Option 1 … Option 2 …
    Would you like me to update install-appimage.sh to set up autostart too?"): a "yes"
    then answers that last question, not the options."""
    tail = last_words(agent_text, 1500)
    return (
        bool(_LETTERED_OPTIONS.search(tail))
        and not _ASKS_TO_GO_AHEAD.search(tail[-200:])
        and not _OFFERS_ONE_ACT.search(tail[-300:])
        # (nor by one such offer followed by a sentence of its detail: "Want me to implement
        # this? The token stats would be added to `metadata.json` …")
        and not _offered_with_detail(agent_text)
    )


#: An "or" after the offer that names no other act ("…, or pick a different one", "… or
#: something else", "… or not").
_NO_REAL_OPTION = re.compile(
    r",?\s+or\s+((pick|choose|prefer|want|use)\s+(a different|another|other|something else)\b"
    r"[^?]*|something else|not)\s*$",
    re.IGNORECASE,
)


def _offered_with_detail(agent_text: str) -> bool:
    """The agent's last words offer one act, then say a sentence or two of it."""
    found = _offer(agent_text)
    return found is not None and bool(found[1])


#: The agent's last question asks only whether to go ahead ("Proceed?", "Shall I
#: proceed?", "Ready to start?"), a code fence's end allowed after it.
_ASKS_TO_GO_AHEAD = re.compile(
    r"(^|[.!:\n]\s*)\W*((shall|should|can|may) i |(do you )?want me to |ready to |ok to |okay to )?"
    r"(proceed|go ahead|continue|start|begin|implement (it|this|them)|apply (it|this|them))"
    r"( with (it|this|that|these|them|all|the plan))?\s*[?？]\s*(```)?\s*$",
    re.IGNORECASE,
)


#: The agent's last question offers one act of its own, to be answered yes or no ("Would
#: you like me to commit with this message?"), with no alternative in it ("… A or B?",
#: "which option …").
_OFFERS_ONE_ACT = re.compile(
    r"(^|[.!:\n]\s*)\W*((would|do) you (like|want) me to|want me to|shall i|should i) "
    r"(?![^?？\n]*\b(or|which|either|option)\b)[^?？\n]{3,200}[?？]\s*(```)?\s*$",
    re.IGNORECASE,
)


#: A refusal as a model opens its answer with it ("I can't help with this request. There
#: are several issues: …", then reasons and an alternative offered at length).
_AGENT_REFUSES = re.compile(
    r"^\W*((i'?m|i am) sorry,?\s*(but\s*)?|sorry,?\s*(but\s*)?)?i (can'?t|cannot|won'?t|will not|"
    r"am unable to|am not able to) (help|assist) (you )?with (that|this)\b",
    re.IGNORECASE,
)


def agent_gave_up(agent_text: str) -> bool:
    """The agent's last words say it could not do the task, or its answer opens by refusing
    it (curly apostrophes, as models write them, read as straight ones)."""
    return bool(
        _AGENT_GAVE_UP.search(last_words(agent_text, 1500))
        or _AGENT_REFUSES.search(_first_words(agent_text, 300))
    )


#: The agent's last sentence offers to do one thing ("Want me to clarify this nuance in the
#: README?"): the offer is the words after the asking phrase, up to the question mark.
_OFFERS = (
    re.compile(
        r"\b(want me to|shall i|should i|would you like me to|do you want me to|may i)\s+"
        r"(?P<act>[^?]{3,200})\?\s*$",
        re.IGNORECASE,
    ),
    # the act put up for approval ("Plan: … Approve this focused fix?")
    re.compile(r"(^|[.!:\n]\s*)\W*approve (this|the|that) (?P<act>[^?\n]{3,200})\?\s*$", re.I),
    re.compile(
        r"\b(if you(?:'d)? (?:want|like)(?: me to)?,? i can(?: also)?|let me know if you(?:'d)? "
        r"(?:want|like) me to|i can also)\s+(?P<act>(?:[^?.!\n]|\.(?=\S)){3,200})[.!]?\s*$",
        re.IGNORECASE,
    ),
    # readiness to do it, then asking for the word ("Ready to commit (`fix(terminal):`
    # scope) — go ahead?")
    re.compile(
        r"\bready to\s+(?P<act>[^?\n]{3,200}?)(\s+[—–-]+\s*|[.:]\s+)"
        r"(go ahead|proceed|shall i(?: go ahead| proceed)?|ok|okay|sound good)\s*\?\s*$",
        re.IGNORECASE,
    ),
    # readiness to do it, waiting on the person's word ("Ready to implement on your go.",
    # "Happy to open the PR once you confirm.")
    re.compile(
        r"\b(ready to|happy to)\s+(?P<act>(?:[^?.!\n]|\.(?=\S)){3,200}?)\s+"
        r"(on your go|on your word|when(?:ever)? you(?:'re| are) ready|"
        r"once you (?:confirm|approve|give the word|say so))"
        r"[.!]?\s*$",
        re.IGNORECASE,
    ),
    # the same offers as agents write them in the person's language ("Wenn du willst, mache
    # ich als Nächstes das Gleiche für …", "Soll ich …?", "Si tu veux, je peux …", "Si
    # quieres, puedo …", "需要我…吗？")
    re.compile(
        r"\b((wenn|falls) du (willst|möchtest|magst),? (mache|kann|könnte|würde) ich|soll ich|"
        r"si (tu veux|vous voulez),? je (peux|pourrais)|(veux-tu|voulez-vous) que je|"
        r"si quieres,? (puedo|podría)|¿?quieres que)\s+"
        r"(?P<act>(?:[^?.!\n]|\.(?=\S)){3,200})[?.!]?\s*$",
        re.IGNORECASE,
    ),
    re.compile(r"(需要|要不要|是否需要)我(?P<act>[^？?。\n]{2,100})(吗)?[？?]\s*$"),
    # Japanese asks whether to go on with a named step ("SoW 更新完了。実装に進めますか？",
    # "テストを追加しましょうか？")
    re.compile(
        r"(^|[。\n])\s*(?P<act>[^。？?\n]{2,60}?)(に進めますか|に進みますか|しましょうか|しますか|"
        r"いたしましょうか)[？?]\s*$"
    ),
)


#: A code block that ends the agent's words, right after a question that refers to it.
_SHOWN_BELOW = re.compile(r"(?<=[?？])\s*```[^\n]*\n(?:(?!```).)*```$", re.DOTALL)


#: An abbreviation written with spaces ("z. B.", "e. g."): its dots end no sentence.
_SPACED_ABBREVIATION = re.compile(r"\b([a-zA-Z])\.\s([a-zA-Z])\.")


def offered_act(agent_text: str) -> str | None:
    """What the agent's last words offer to do next, as it wrote it; None without an offer."""
    found = _offer(agent_text)
    return found[0] if found else None


def _offer(agent_text: str) -> tuple[str, str] | None:
    """The agent's offer and what it says of it after the question ("Want me to address
    these? The comments on #1 and #2 are doc fixes."), or None without an offer."""
    # (the offer may show what it means below it: "Would you like me to commit with this
    # message?" and the message in a code block)
    asked = agent_text.rstrip()
    if asked.endswith("```"):
        asked = _SHOWN_BELOW.sub("", asked)
    tail = _SPACED_ABBREVIATION.sub(r"\1.\2", last_words(asked, 600))
    found = _offer_ending(tail[-400:])
    if found:
        return found, ""
    # the question may come before a sentence or two that say what the act would take,
    # asking nothing more and naming no other way ("… Or I can …" is a choice)
    head, mark, detail = tail.rpartition("?")
    if (
        not mark
        or len(detail) > MAX_OFFER_DETAIL
        or _OFFERS_ANOTHER_WAY.search(detail)
        or len(SENTENCE_END.findall(detail.strip())) > 2
    ):
        return None
    found = _offer_ending((head + mark)[-400:])
    return (found, detail.strip()) if found else None


def _offer_ending(tail: str) -> str | None:
    """The act offered by a question or offer that ends `tail`."""
    for offer in _OFFERS:
        found = offer.search(tail)
        if found:
            return found.group("act")
    return None


#: Characters of detail after the offer's question that still leave it the last word.
MAX_OFFER_DETAIL = 300

#: Words after an offer that set another way beside it: the reply picks one.
_OFFERS_ANOTHER_WAY = re.compile(
    r"\b(or|alternatively|otherwise|either|instead|oder|sinon|ou)\b", re.IGNORECASE
)


def restates_offer(region: str, agent_text: str) -> bool:
    """ "Yes please add a clarification to the README" to "Want me to clarify this nuance
    in the README?": takes the offer as made, every content word of it from the offer."""
    found = _offer(agent_text)
    offered_text, detail = found if found else (None, "")
    if offered_text is not None:
        # ("Want me to apply that, or pick a different one?": one act, the rest no option)
        offered_text = _NO_REAL_OPTION.sub("", offered_text)
    region = without_own_next_step(region)
    # (an "or" inside brackets lists examples of one act: "die Ursache eingrenzen (z.B.
    # --logLevel verbose, oder DocFX-Version prüfen)")
    if offered_text is None or re.search(
        r"\b(or|oder|ou|o)\b|还是", re.sub(r"\([^)]*\)", "", offered_text)
    ):
        return False  # "… or is this enough?" is a choice: the reply picks an option
    if CJK.search(offered_text):
        # "実装してください" to "実装に進めますか？": the act named, asked for politely
        asked = _POLITE_ASK.sub("", region.strip()).strip(" 、。！!")
        return 2 <= len(asked) <= 20 and asked in offered_text
    offer_words = WORD.findall(offered_text.lower())
    if ACCEPT_HEAD.search(region):
        rest = ACCEPT_HEAD.sub("", region, count=1)
    else:
        # or the offered act itself in a few words, with no "yes" ("kill it" to "Would you
        # like me to kill it so your server can start?")
        # (a bare closing step, "commit it" to "Want me to commit?", stays the task's step)
        rest = region
        said = WORD.findall(rest.lower())
        few_words = (
            2 <= len(said) <= 4
            and bool(offer_words)
            and (
                rest.lower().startswith(offer_words[0])
                # or a word of the offer and a pronoun ("fix it" to "May I apply the
                # formatting fix, run lint, commit, and push it?")
                or (len(said) == 2 and said[0] in offer_words)
            )
            and not is_closing_step(rest)
        )
        if not few_words and not _copies_back(rest, offered_text):
            return False
    # (a reply may copy a long offer back whole: "ja, bitte als Nächstes das Gleiche für …";
    # and may take up what the agent said the act would take: "yes, add instrumentation" to
    # "… proceed to Phase 2? I would add timing instrumentation …")
    offered_text = f"{offered_text} {detail}"
    if len(WORD.findall(rest)) > max(12, len(WORD.findall(offered_text)) + 3):
        return False
    words = {w for w in CONTENT_WORD.findall(rest.lower()) if w not in STOP_WORDS}
    if not words:
        # the offer's own verb and a pronoun, short words all ("Yes, please add it." to
        # "Want me to add it (trivial task, would do directly)?")
        said = WORD.findall(rest.lower())
        return (
            1 <= len(said) <= 3
            and bool(offer_words)
            and (said[0] == offer_words[0] or (len(said) == 2 and said[0] in offer_words))
        )
    offered = _stems_and_parts(offered_text)
    return all(
        stem(w) in offered or all(stem(part) in offered for part in w.split("-") if part)
        for w in words
    )


def _stems_and_parts(text: str) -> set[str]:
    """The stems of a text's content words, and of every word in it however short, so
    each part of a hyphenated word is there too: "yes force push" takes up "Want me to
    force-push to sync origin/main?" as offered, and "yes, re-run them" an offer to "re
    run the tests"."""
    stems = {stem(word) for word in re.findall(r"[a-z][a-z0-9_]+", text.lower())}
    stems.update(stem(word) for word in CONTENT_WORD.findall(text.lower()))
    return stems


#: How much of the offer a reply with no "yes" must hold to be the offer copied back.
COPIED_SHARE = 0.6


def _copies_back(rest: str, offered_text: str) -> bool:
    """The reply is the offer copied back, most of its words in their order ("als nächsten
    Schritt die Ursache eingrenzen (z. B. …)" to "Wenn du möchtest, kann ich als nächsten
    Schritt die Ursache eingrenzen (z. B. …)"): it opens with the offer's first words."""
    said = [w.lower() for w in WORD.findall(rest)]
    offered = [w.lower() for w in WORD.findall(offered_text)]
    if len(offered) < 4 or said[:3] != offered[:3]:
        return False
    return len(set(said) & set(offered)) >= COPIED_SHARE * len(set(offered))


#: A polite request's ending in Japanese and Chinese ("してください", "お願いします", "吧").
_POLITE_ASK = re.compile(
    r"(をお願いします|お願いします|してください|して下さい|して|ください|吧|请)\W*$"
)


#: Characters from which a line the turn shares with the agent's words is no chance match.
MIN_ECHOED_LINE = 20


#: A request to fix things of a kind ("fix the critical issues", "fix all the high
#: severity bugs"): the kind is group 1.
_FIX_THE_KIND = re.compile(
    r"\b(?:fix|address|resolve|solve|tackle|handle)\b[^.?!\n]{0,60}?\b(issues?|problems?|bugs?|"
    r"findings?|vulnerabilit(?:y|ies)|warnings?|concerns?|gaps?|risks?)\b",
    re.IGNORECASE,
)


#: Words that say the findings are still there or were not fixed: a verdict, not a request.
_SAYS_IT_FAILED = re.compile(
    r"\b(did|do|does|is|are|was|were|have|has|had|wo|ca|could|should|would)n'?t\b"
    r"|\b(not|cannot|never|still|wrong|broken|again|anymore|same)\b",
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
    tail = last_words(agent_text, 2500).lower()
    return bool(re.search(rf"\b(found|review|audit|identified|\d+)\b[^\n]{{0,80}}\b{kind}", tail))
