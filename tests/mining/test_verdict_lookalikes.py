"""Look-alikes of the verdicts in everyday words (a review of 27a2d87, issue #14).

A helper reading the change wrote every case here; each read right, or at least not
wrong in the way named, at db1f05e and was misread at 27a2d87: praise denied, compared
with the old version, wished or waited on ("let me know when CI is green"); a symptom
said gone ("it no longer flickers", "0 of them failed") or as a check that holds ("the
numbers still match"); 🙏 as "please"; a try closed by thanks whose failure the rules
do not know; and the agent's words that claim nothing done ("It now segfaults on
startup.", "This works once the PR is merged.", "Result: 0 passed, 3 failed."). Kinds
per docs/mining.md and tests/fixtures/real_sessions/LABELS.md ("Turn kinds"); where the
parent's reading was not the ideal kind either, a case asserts only that the wrong kind
is not given.

Left out, as lexically the same as a failure closed by thanks: a symptom's words that
name the result asked for, with thanks alone after them ("the sort order is reversed
now, thanks", "it comes back as JSON now, thanks"). Only the request can tell them
apart; before praise or an approving emoji they read as approvals.
"""

from __future__ import annotations

import pytest

from sleepd.mining.turns import TurnKind
from sleepd.mining.turns.agent import agent_claims_done
from tests.mining.builders import kind_of

A, C, F = TurnKind.APPROVAL, TurnKind.CORRECTION, TurnKind.FOLLOW_UP


# ---------------------------------------------------------------------------------------
# False approvals: a negated, compared, conditional or requested "praise" phrase
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "want"),
    [
        # negation before the new praise words is not read
        ("I don't think you fixed it", None),
        ("not sure I like it", C),
        ("I don't love it.", C),
        ("I'm not loving it", None),
        ("not loving this", None),
        ("not impressive", None),
        ("not very good.", None),
        ("It's not really clean.", None),
        ("nothing works as expected", C),
        ("not all good", None),
        ("that's what I wanted to avoid", None),
        # praise of the old version, or of an alternative: a complaint or a suggestion
        ("the old version was way better.", None),
        ("honestly the old layout looked much better.", None),
        ("the old code was so clean.", None),
        ("A table would be much better.", F),
        ("Using a dict would be way better.", F),
        # "appreciated" / "appreciate it" in a request
        ("A quick summary of the changes would be appreciated.", F),
        ("I'd appreciate it if you kept the diff small.", F),
        ("I would appreciate it if you added tests for this", F),
        # a condition or a request around "all good" / "green"
        ("if all good, push it", F),
        ("let me know when CI is green", F),
        ("get CI green", F),
        ("ran it, all good except the dark mode", None),
    ],
)
def test_praise_words_in_negation_comparison_or_request_do_not_approve(
    text: str, want: TurnKind | None
) -> None:
    got = kind_of(text)
    if want is None:
        assert got is not A, text
    else:
        assert got is want, text


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # German: "Klasse" is the noun "class"; "passt nicht" / "läuft noch" are no praise
        ("das passt nicht", None),
        ("passt nicht ganz, die Abstände sind zu groß", None),
        ("Die Klasse ist zu groß", None),
        ("Die Klasse UserService wird nicht gefunden", None),
        ("In der Klasse fehlt noch die Methode save", None),
        ("der Build läuft noch", None),
        ("der Server läuft, aber die Seite bleibt leer", None),
        # Chinese/Japanese/Korean: 厉害 as a degree word ("lags badly"), negated praise,
        # 最高/최고 as "maximum"
        ("页面卡得厉害", None),
        ("动画闪得厉害", None),
        ("不是很好用", None),
        ("すごい遅い", None),
        ("最高値が表示されない", C),
        ("완벽하지 않아요", None),
        ("최고 점수가 0으로 나와요", None),
    ],
)
def test_other_language_praise_words_misread(text: str, want: TurnKind | None) -> None:
    got = kind_of(text)
    if want is None:
        assert got is not A, text
    else:
        assert got is want, text


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # 🙏 is "please" as often as "thanks": a trailing emoji is no verdict
        ("same for the settings page 🙏", F),
        ("also the footer 🙏", F),
        ("the other tabs too 🙏", F),
        ("need this by tomorrow 🙏", F),
        ("dark mode next 🙏", F),
        ("logs attached, same crash 🙏", None),
        ("prod is down 🔥", None),
        # a try closed by thanks, whose result the failure rules do not know
        ("clicked the link, 404. thanks", None),
        ("refreshed, same. thanks", None),
        ("clicked save, nothing. thanks", None),
        ("tested it, it's slower now. thanks", None),
        ("ran it, it logs me out. thanks", None),
        ("tested it, it asks me to log in again every time. thanks", None),
    ],
)
def test_closing_emoji_or_thanks_after_a_non_verdict(text: str, want: TurnKind | None) -> None:
    got = kind_of(text)
    if want is None:
        assert got is not A, text
    else:
        assert got is want, text


# ---------------------------------------------------------------------------------------
# False corrections: the new symptom and "still" rules read good news as a failure
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "want"),
    [
        # the symptom negated ("no longer", "never", "0 failed", "nothing got worse")
        ("the legend no longer overlaps the bars", None),
        ("it no longer flickers", None),
        ("typing no longer lags", None),
        ("it no longer lags, thanks", A),
        ("the flaky test no longer randomly fails", None),
        ("make the retry logic so it never loops forever", F),
        ("212 passed, 0 failed", None),
        ("ran the suite: 212 passed, 0 failed", None),
        ("ran it 50 times, 0 of them failed", None),
        ("the 2 failing tests pass now, thanks", A),
        ("ran the benchmarks, nothing got worse. nice", None),
        ("none of the metrics got worse", None),
        ("much faster, not nearly as slow as before", None),
        ("the bundle is half as big as before", None),
        # a regression check that holds ("still" + a verb the exclusions lack)
        ("rebased, tests still green", None),
        ("the numbers still match", None),
        ("the output still matches the old script", None),
        ("the sidebar still renders fine on mobile", None),
        ("checked, everything still behaves the same. nice", None),
        ("the app still boots and the pages still render", None),
        # a state of a run in progress, not of the result
        ("tests still running, hold on", None),
        ("build still running", None),
        # the wanted behaviour, said in a symptom's words
        ("tried it 10 times, it loads every time now. thanks!", None),
        ("throughput is doubled now 🚀", None),
        ("it changes nothing for existing users, good", None),
        ("ran semgrep, it found nothing 👍", None),
        ("no one can read the secrets now, nice", None),
        ("too slow before, instant now. nice", None),
        ("every unknown url redirects to the 404 page now 👍", None),
        ("clicking back to top scrolls to the top now 👍", None),
        # German/French: the error gone ("ist weg") is good news
        ("der Fehler ist weg", None),
        ("die Warnung ist jetzt weg", None),
        ("les erreurs sont disparues", None),
        # plain questions and a turn of phrase
        ("where is the other config file?", F),
        ("where are the other settings defined?", F),
        ("Still, I have one more request: add a dark mode", F),
    ],
)
def test_good_news_or_questions_are_no_failure_report(text: str, want: TurnKind | None) -> None:
    got = kind_of(text)
    if want is None:
        assert got is not C, text
    else:
        assert got is want, text


# ---------------------------------------------------------------------------------------
# False done claims on the agent's side
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        # "X now <verb>" with any verb: findings, plans and regressions read as done
        "The problem is now clear: the cache key ignores the locale.",
        "The cause is now obvious.",
        "I now understand the problem.",
        "I now see the issue: the cache key ignores the locale.",
        "I now know why it fails.",
        "I'm now going to update the docs.",
        "It now segfaults on startup.",
        "The app now freezes when you open settings.",
        "The server now refuses connections after the change.",
        "Which approach do you prefer? Option A keeps things simple, option B now requires a "
        "migration.",
        "I've looked into it. The lock file now pins an old version of react, which causes the "
        "error.",
        # "works now" / "compiles now" inside a check still to make
        "Let me check whether it compiles now.",
        "Let me verify it works now:",
        "Could you check whether it works now?",
        # "0 passed" is a count, not a pass
        "Result: 0 passed, 3 failed.",
        # the terse report's shape in a question, or said of the person's own work
        "Want this fixed in the same PR, or separately?",
        "Want it removed as well?",
        "Anything else you'd like added to the docs?",
        "The helper you added in utils.py is unused.",
        "The test you added in test_api.py is skipped on CI.",
        "This was previously fixed in #123 but regressed in 2.0.",
        # _SUBJECT_SO_FAR takes a subject and its verb for "a thing named"
        "This works once the PR is merged.",
        "The docs update once the PR is merged.",
        "The deploy happens after the PR is merged.",
        "Your tests run once the migration is complete.",
    ],
)
def test_agent_words_that_claim_nothing_done(text: str) -> None:
    assert agent_claims_done(text) is False, text
