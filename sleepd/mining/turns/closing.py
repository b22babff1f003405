"""Closing steps: commit, push, merge, tag, or document the work just done. A turn that
asks only for a closing step continues the running task; it is no new subject.
"""

from __future__ import annotations

import re

from sleepd.mining.turns.text import SENTENCE_END

#: A branch made for the work just done, as the first of its closing steps.
_BRANCH = r"(create|make|cut|open|check out|checkout) (a |the )?(new |feature )?branch"

#: The closing steps people ask for on work just done ("commit", "commit and push").
_CLOSING_STEP = re.compile(
    r"^\W*((ok|okay|yes|sure|great|good|now),?\s+)?(let'?s\s+|please\s+|"
    r"(can|could|would|will) (you|u)\s+(please\s+)?|(you can|go ahead and|feel free to)\s+)?"
    # ("then commit, push": the step after a yes)
    r"(then\s+)?"
    r"(commit|(force[- ])?push|merge|"
    # a merge or a rebase under way ("continue merge, then push", "complete the merge")
    r"(continue|complete|finish) (the )?(merge|rebase)|"
    r"deploy|release|publish|ship|stage|tag|rebase|squash|lint|format|build|test|pr|"
    r"(open|create|raise|make) (a |the )?(draft )?(pr|pull request)|"
    r"(make|do|create) (a |the )?commit|" + _BRANCH + r")"
    # (what it acts on, before the next step: "commit this, then push + a draft PR", "commit
    # the changes and open a pr")
    r"(\s*,?\s+(it|this|that|them|everything|please|(the|these|those|your|all)\s+changes)"
    r"(?=\s*(,|and\b|&|\+|then\b)))?"
    # the steps after it, a comma or a word between ("create a branch, commit and open a PR")
    r"((\s*,\s*(and\s+|then\s+)?|\s+(and|&|\+|then)\s+)(commit|(force[- ])?push|"
    r"merge|deploy|release|publish|ship|tag|((open|create|raise) )?(a |the )?(draft )?"
    r"(pr|pull request)|" + _BRANCH + r"|"
    # the changelog's entry for it ("commit and update @CHANGELOG.md")
    r"(update|add to) (the )?@?(changelog(\.md)?|release notes)"
    r")){0,3}"
    r"(\s+(it|this|that|them|please|now|then|all|everything|(all\s+)?(your|the|these|those)\s+"
    r"((recent|latest|last)\s+)?(changes|edits|work|fix(es)?))){0,2}"
    # what it is for, when that is the fix just found ("make a pr to fix")
    r"(\s+to fix(\s+(it|this|that|them))?)?"
    # where it goes ("push to github", "make a commit to github", "merge into main")
    r"(\s+(to|on|into|in|against|for)\s+(the\s+)?((relevant|right|correct|appropriate|same|"
    r"upstream)\s+)?(github|gitlab|main|master|origin|remote|upstream|repo|repository|"
    r"[\w./-]+ branch|(it|this|that)(?=\W*$)))?"
    # and the word back to where the work came from ("make a pr, reply to discussion",
    # "make a pr and reply to the thread": a Codex history outside the repository)
    r"((\s*,\s*|\s+(and|&|then)\s+)(reply|respond|comment)\s+(to|on|in)\s+(the\s+)?"
    r"(discussion|thread|issue|comment|pr|pull request|review|user|them|him|her))?\W*$",
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


DOCUMENTS_WORK = re.compile(
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
    r"mit (der )?(commit-)?nachricht|-m)\b.*$"
    # ("commit it now — use a conventional message", "commit, use conventional commits")
    r"|\s*[—–:;,-]\s*(use|using|with|follow)\s+(an? |the )?((\w+[ -]){0,2}(commit )?(message|"
    r"title)s?|conventional commits?)\b.*$",
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


def is_closing_step(region: str) -> bool:
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
    sentences = [s for s in SENTENCE_END.split(region.strip()) if s.strip()]
    return (
        len(sentences) >= 2
        and is_closing_step(sentences[-1])
        and all(_OWN_DOING.match(s) for s in sentences[:-1])
    )
