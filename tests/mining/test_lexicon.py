"""The feedback lexicon: negation-aware, multilingual, extensible."""

from __future__ import annotations

import pytest

from sleepd.mining.lexicon import Feedback, Lexicon, is_undo_command, lexicon_for

CORRECTIONS = [
    "incorrect",
    "that's wrong",
    "not working",
    "it's still failing",
    "no, use pnpm not npm",
    "this doesn't work",
    "thanks, but it still fails",
    "that is not correct",
    "why did you delete the tests?",
    # what the agent should have done instead (wild sample 41, not in the repository)
    "i am sorry, you should be updating index.html",
    "you should have run the tests first",
    # German, French, Spanish, Portuguese, Chinese, Japanese
    "nein, das ist falsch",
    "funktioniert immer noch nicht",
    "non, ça ne marche pas",
    "c'est faux",
    "no funciona",
    "está mal, sigue fallando",
    "não funciona",
    "está errado",
    "不对，应该用 pnpm",
    "还是不行",
    "違います",
    "まだエラーが出ます",
    # Italian
    "non funziona ancora",
    "è sbagliato",
    # "wrong" agrees with what it qualifies ("the URL is wrong", "wrong information")
    "la URL è sbagliata",
    "ti ho dato una informazione errata",
    # a few phrases each of Vietnamese (with and without accents), Dutch, Polish,
    # Indonesian, Hebrew, Arabic and Hindi
    "vẫn lỗi",
    "khong chay duoc",
    "het werkt nog steeds niet",
    "dalej nie działa",
    "masih error",
    "עדיין לא עובד",
    "لا يعمل",
    "kaam nahi kar raha",
]
APPROVALS = [
    "thanks, perfect",
    "lgtm",
    "works now",
    "that is correct",
    "looks good to me",
    # wild sample 41 (not in the repository): a verdict in a hedge's words
    "It does seem to be working",
    "everything appears to work now",
    "danke, perfekt",
    "merci, ça marche",
    "gracias, perfecto",
    "obrigado, funcionou",
    "谢谢，完美",
    "ありがとう、動いた",
    "perfetto, grazie",
    "ora funziona",
    "Valeu!",
    "cảm ơn, chạy rồi",
    "dank je, werkt nu",
    "dzięki, działa już",
    "makasih, sudah jalan",
    "תודה, עובד עכשיו",
    "شكرا، يعمل الآن",
    "dhanyavaad",
    # the person's own check of the result, and approving emoji alone
    "confirmed working",
    "tested it, works",
    "verified, it works on prod",
    "everything works",
    "👍",
    "🎉🎉!",
    "👌🏽",
]
NEUTRAL = [
    "no problem",
    "No worries",
    "Add a dark mode toggle to the settings page",
    "kein Problem",
    "nessun problema",
    "Refactor the parser into smaller functions",
    # "you should …" that names no other way the agent should have gone (samples 28, 41)
    "you should have access to ai-trackdown-pytools",
    "you should be able to use the sample transcripts",
]


@pytest.mark.parametrize("text", CORRECTIONS)
def test_corrections(text: str) -> None:
    assert lexicon_for().classify(text) is Feedback.CORRECTION


@pytest.mark.parametrize("text", APPROVALS)
def test_approvals(text: str) -> None:
    assert lexicon_for().classify(text) is Feedback.APPROVAL


@pytest.mark.parametrize("text", NEUTRAL)
def test_neither_correction_nor_approval(text: str) -> None:
    assert lexicon_for().classify(text) is Feedback.NONE


def test_no_problem_thanks_is_approval_not_correction() -> None:
    assert lexicon_for().classify("no problem, thanks!") is Feedback.APPROVAL


def test_configured_patterns_extend_the_set() -> None:
    plain = Lexicon()
    extended = Lexicon(extra_corrections=(r"\bnee\b",), extra_approvals=(r"\btop\b",))
    assert plain.classify("nee") is Feedback.NONE
    assert extended.classify("nee") is Feedback.CORRECTION
    assert extended.classify("top") is Feedback.APPROVAL


def test_undo_requests_and_commands() -> None:
    lex = lexicon_for()
    assert lex.is_undo_request("undo that please")
    assert lex.is_undo_request("bitte rückgängig machen")
    assert not lex.is_undo_request("add an undo button to the editor")
    assert is_undo_command("git revert HEAD")
    assert is_undo_command("git checkout -- src/app.py")
    assert not is_undo_command("git checkout -b feature")
