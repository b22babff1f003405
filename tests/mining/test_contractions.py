"""Contractions say nothing: a turn reads the same contracted, written out, or typed
fast without the apostrophe (issue #14).

The rules read every text with its contractions written out (`contractions.written_out`,
through `as_typed`). The lines are real (file and line given, under
tests/fixtures/real_sessions) unless marked as made here; each is read as it was typed
and in the three spellings. `bench/typography_real.py contracted expanded no_apostrophes
agent_contracted agent_expanded` does the same over every labelled session.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from sleepd.mining.contractions import written_out
from sleepd.mining.lexicon import Feedback, lexicon_for
from sleepd.mining.turns import TurnKind
from sleepd.mining.turns.agent import agent_claims_done
from sleepd.mining.turns.text import as_typed

from .builders import kind_of

_NOT = {
    "do not": "don't",
    "does not": "doesn't",
    "did not": "didn't",
    "is not": "isn't",
    "are not": "aren't",
    "was not": "wasn't",
    "cannot": "can't",
    "will not": "won't",
    "should not": "shouldn't",
}
_VERB = {
    "it is": "it's",
    "that is": "that's",
    "there is": "there's",
    "what is": "what's",
    "I am": "I'm",
    "you are": "you're",
    "they are": "they're",
}


def _swap(text: str, forms: dict[str, str], forward: bool) -> str:
    for full, short in forms.items():
        old, new = (full, short) if forward else (short, full)
        text = re.sub(rf"\b{re.escape(old)}\b", new, text)
    return text


#: The ways the same words are typed. A negation before its subject ("can't you …") is a
#: question's own form and is left contracted by all of them.
SPELLINGS: dict[str, Callable[[str], str]] = {
    "as typed": lambda text: text,
    "contracted": lambda text: _swap(_swap(text, _NOT, True), _VERB, True),
    "written out": lambda text: _swap(_swap(text, _NOT, False), _VERB, False),
    "without apostrophes": lambda text: re.sub(
        r"\b(\w+)n't\b|\b(that|what|there)'s\b|\b(you|they)'re\b",
        lambda m: m.group(0).replace("'", ""),
        _swap(_swap(text, _NOT, True), _VERB, True),
    ),
}


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("it's empty", "it is empty"),
        ("Don't touch it", "Do not touch it"),
        ("doesnt work", "does not work"),
        ("I can't find it", "I cannot find it"),
        ("i cant find it", "i cannot find it"),
        ("it won't start", "it will not start"),
        ("Won't start", "Will not start"),
        ("it's been broken since", "it has been broken since"),
        ("that's not what I asked", "that is not what I asked"),
        ("nope, theres still a gap", "nope, there is still a gap"),
        ("they're missing, youre right", "they are missing, you are right"),
        ("I'm sure I've seen it, you'll see", "I am sure I have seen it, you will see"),
        ("you should've used uv", "you should have used uv"),
    ],
)
def test_contractions_are_read_written_out(typed: str, read: str) -> None:
    assert written_out(typed) == read
    assert written_out(read) == read  # read once is read for good
    assert as_typed(typed) == read  # the chokepoint every rule reads through


@pytest.mark.parametrize(
    "text",
    [
        "can't you just pull from the entire transcript?",  # a question keeps its form
        "why isn't it wrapping?",
        "why won't you run it?",
        "DON'T touch the config, IT'S fine",  # capitals are emphasis
        "its tests, were they, well, lets see",  # each short form is another word
        "let's do it",  # a request's own form
        "Im Ordner liegt die Datei",  # German
        "I'd rather not",  # had or would
        "the file's name",  # a noun's possessive
        "parent donut cantilever",  # words that only hold the letters
        "plain words with nothing contracted",
    ],
)
def test_what_is_no_contraction_or_has_no_one_reading_is_left_as_typed(text: str) -> None:
    assert written_out(text) == text


#: The agent's words before a turn, shortened from the sessions they are quoted from.
_DONE = "I've updated the component and the tests pass. The change is in place."


@pytest.mark.parametrize(
    ("text", "agent_text", "kind"),
    [
        # isaacmorgado/claude-sovereign e9a997ea line 138: a setting the work names is not there
        ("there is no setting called plugins", _DONE, TurnKind.CORRECTION),
        # melagiri/code-insights 27_8e6d172470 line 34: the version the bump left alone
        (
            "see it is still 3.0.0",
            "Bumped the version to 3.1.0 in package.json.",
            TurnKind.CORRECTION,
        ),
        # melagiri/code-insights e9_ceca70a2e5 line 284: more places than the agent changed
        (
            "yes, look at the previous version bump PRs for files changed. it is not just 1 "
            "package.json, there are multiple places. verify",
            "Bumped the version in package.json to 4.2.0.",
            TurnKind.CORRECTION,
        ),
        # MQFacultyOfArts/PromptGrimoireTool ffc93f57 line 1478: the fix did not hold
        ("nope, there's still alignment problems.", _DONE, TurnKind.CORRECTION),
        # wfc (aperim) 41_c2b2f630a5 line 375, after the agent found nothing to address
        (
            "you didnt clear the conflicts",
            "PR #36 is clean. All review threads are resolved (or more precisely: none exist "
            "yet). Nothing to do here.",
            TurnKind.CORRECTION,
        ),
        # a console's message pasted back (procrypto/Personal_AI_Infrastructure cef0d477 line
        # 368), as a person retells it
        (
            "Warning: timeSinceFirst is not defined",
            "Server is up and responding. Try https://localhost:3000/ in your browser.",
            TurnKind.CORRECTION,
        ),
        # made here: the states the rules read of a result, each typed contracted
        ("hmm, it is empty", _DONE, TurnKind.CORRECTION),
        ("they are missing from the list", _DONE, TurnKind.CORRECTION),
        ("that is not what I asked for", _DONE, TurnKind.CORRECTION),
        ("you should not have deleted that", _DONE, TurnKind.CORRECTION),
        ("it still does not work", _DONE, TurnKind.CORRECTION),
    ],
)
@pytest.mark.parametrize("spelling", list(SPELLINGS))
def test_a_turn_reads_the_same_however_its_contractions_are_typed(
    text: str, agent_text: str, kind: TurnKind, spelling: str
) -> None:
    assert kind_of(SPELLINGS[spelling](text), agent_text) is kind


@pytest.mark.parametrize("spelling", list(SPELLINGS))
def test_what_the_person_did_is_no_stance_before_a_request(spelling: str) -> None:
    """entireio/cli 8c497bed line 120 (a follow-up): "I have had", "I've added" tell what the
    person did, not a stance that closes the exchange before a request of its own. Read
    written out, "I have …" had opened a new request ("a stance, then a request")."""
    text = (
        "Ok, I've had a different instance of you audit things, and add some tests. Let's see "
        "how this first e2e goes, please."
    )
    agent = (
        "We don't assert the exact order because that's CRDT-determined, but we verify both "
        "edits survive and both users see identical results."
    )
    assert kind_of(SPELLINGS[spelling](text), agent) is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    ("agent_text", "claims"),
    [
        # melagiri/code-insights 6e_7ca5ebf80f, the agent's words before line 44
        ("Until that's resolved, any equivalent should be a local export.", False),
        # handgemacht-ai/claude-code-log 03eb5929, the agent's words before line 32
        ("Active work items can linger at `work/` long after they're done.", False),
        # made here
        ("Once it's merged, we can cut the release.", False),
        ("If the branch is ready, I will push it.", False),
        ("The bug is fixed and the tests pass.", True),
        ("After I fixed the parser, the crash is gone and the bug is fixed.", True),
        ("I've added the migration.", True),
    ],
)
def test_a_state_under_a_condition_claims_nothing_done(agent_text: str, claims: bool) -> None:
    for spelling in SPELLINGS.values():
        assert agent_claims_done(spelling(agent_text)) is claims


@pytest.mark.parametrize(
    "text",
    [
        # made here: a condition on a state is what to build, not a state seen
        "Delete the target directory only if it is empty, and keep it otherwise",
        "accept an existing directory as long as it's empty",
    ],
)
def test_a_condition_on_a_state_reports_no_failure(text: str) -> None:
    assert kind_of(text, _DONE) is not TurnKind.CORRECTION


def test_a_person_s_own_patterns_read_every_spelling() -> None:
    """`mining.correction_patterns` with a contraction in it: the pattern is written out as
    the text is, so each spelling of the words matches (before, only the spelling typed
    in the pattern did)."""
    lexicon = lexicon_for(corrections=("doesn't spark joy",))
    for text in ("it doesn't spark joy", "it does not spark joy", "it doesnt spark joy"):
        assert lexicon_for().classify(text) is not Feedback.CORRECTION  # the person's own words
        assert lexicon.classify(text) is Feedback.CORRECTION
    assert lexicon.classify("it sparks joy") is not Feedback.CORRECTION
