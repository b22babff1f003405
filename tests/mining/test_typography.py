"""A person's typography never changes what mining reads (issue #14).

Keyboards, input methods, editors and pastes write the same words in other characters:
curled quotes, no-break spaces, full-width question marks, letters spelt decomposed,
Windows line ends. The rules are written with the plain forms, and read every text
through `as_typed`. The lines are real (file and line given, under
tests/fixtures/real_sessions) unless marked otherwise; each is read as it was typed and
as each retyping writes it. What is sent with the words (a screenshot) is not the words
either, and the rules a retyping had hidden (a verdict, then a flaw in the result; a
command split on any space) are tested here with their near misses.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from sleepd.mining.commands import SlashCommand, parse_command
from sleepd.mining.episodes import EventView, segment
from sleepd.mining.errors import judge_errors
from sleepd.mining.lexicon import lexicon_for
from sleepd.mining.signals import derive_outcome, detect_signals
from sleepd.mining.turns import TurnKind
from sleepd.mining.turns.text import as_typed
from sleepd.mining.vectors import prepare

from .builders import SessionBuilder, kind_of, views


def _curly_quotes(text: str) -> str:
    out, double_open, single_open = [], True, True
    for i, char in enumerate(text):
        before = text[i - 1] if i else " "
        if char == '"':
            out.append("\u201c" if double_open else "\u201d")
            double_open = not double_open
        elif char == "'" and before.isalnum():
            out.append("\u2019")  # an apostrophe, or a closing quote
        elif char == "'":
            out.append("\u2018" if single_open else "\u2019")
            single_open = not single_open
        else:
            out.append(char)
    return "".join(out)


#: What the harvest writes before a message's words for a screenshot sent with them.
_SCREENSHOT = "[image: image/png, 101000 bytes]\n"


RETYPINGS: dict[str, Callable[[str], str]] = {
    "curled quotes": _curly_quotes,
    "no-break spaces": lambda text: text.replace(" ", "\u00a0"),
    "full-width marks": lambda text: text.replace("?", "\uff1f").replace("!", "\uff01"),
    "decomposed letters": lambda text: unicodedata.normalize("NFD", text),
    "Windows line ends": lambda text: text.replace("\n", "\r\n"),
    "zero-width spaces": lambda text: text.replace(" ", "\u200b "),
}
#: The ways a person's message may come, the retypings and a screenshot sent with it.
SENT: dict[str, Callable[[str], str]] = {
    **RETYPINGS,
    "a screenshot sent with it": lambda text: _SCREENSHOT + text,
}


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        # (its apostrophe straight, then the contraction written out: test_contractions.py)
        ("that\u2019s not what I asked", "that is not what I asked"),
        ("\u201cfix\u201d it \u2018now\u2019", "\"fix\" it 'now'"),
        ("why\u00a0does it fail\u202f?", "why does it fail ?"),
        (
            "\u4e3a\u4ec0\u4e48\u5931\u8d25\u4e86\uff1f\u3000\u518d\u8bd5\u4e00\u6b21\uff01",
            "为什么失败了? 再试一次!",
        ),
        ("cafe\u0301 ne\u0301", "café né"),
        ("line one\r\nline two\rthree", "line one\nline two\nthree"),
        ("wait\u2026 no", "wait... no"),
        ("\ufeffzero\u200bwidth", "zerowidth"),
        ("pre\u00adfer it\u200e", "prefer it"),  # a soft hyphen, a direction mark
        ("\u202bwhy\u202c \u2066this\u2069\u061c", "why this"),  # direction controls
        ("e\u200b\u0301", "é"),  # a mark between a letter and its accent: they compose
    ],
)
def test_typography_that_says_nothing_is_read_in_its_plain_form(typed: str, read: str) -> None:
    assert as_typed(typed) == read
    assert as_typed(read) == read  # read once is read for good


@pytest.mark.parametrize(
    "text",
    [
        "plain ASCII, as most turns are: left alone",
        "じゃあそうしよう。次は、テストを追加して",  # ideographic stops and commas stay
        "it works \U0001f44d\U0001f3fd \U0001f468\u200d\U0001f4bb",  # emoji, joiner kept
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian's non-joiner kept
        "Übersetzung für café",  # composed letters stay composed
    ],
)
def test_words_and_scripts_are_left_as_they_are(text: str) -> None:
    assert as_typed(text) == text


#: The agent's words before a turn, shortened from the sessions they are quoted from.
_DONE = "I've updated the component and the tests pass. The change is in place."

_REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions" / "codex"
_OCODEX = "JaydenXsoe__ocodex__.codex_main_codex.back_sessions_2025_08_25_rollout-2025-08-25T12-40-14-d7a9e0da-90d6-4fd8-bb06-4f3ccabcdf8a.jsonl"  # noqa: E501
_OCODEX_EARLIER = "JaydenXsoe__ocodex__.codex_main_codex.back_sessions_2025_08_25_rollout-2025-08-25T08-13-30-fce98fd7-e6b5-4f01-ade5-271721b00f9c.jsonl"  # noqa: E501


def _typed_at(name: str, line: int) -> str:
    """The text a person typed at `line` of a real Codex transcript (its old layout: one
    message record a line)."""
    record = json.loads((_REAL / name).read_text(encoding="utf-8").split("\n")[line - 1])
    return str(record["content"][0]["text"])


@pytest.mark.parametrize(
    ("text", "agent_text", "kind"),
    [
        # melagiri/code-insights 82_b981cea660 line 117: an API error pasted back
        (
            'API 422: {"success":false,"error":"The operation was aborted due to timeout"}',
            _DONE,
            TurnKind.CORRECTION,
        ),
        # JaydenXsoe/ocodex 2025-08-25T12-40 line 122: a run's output pasted back
        (_typed_at(_OCODEX, 122), _DONE, TurnKind.CORRECTION),
        # the same person's paste at 2025-08-25T08-13 line 183, its quotes curled in part
        (_typed_at(_OCODEX_EARLIER, 183), _DONE, TurnKind.CORRECTION),
        # definitelyreal/speakfree lines 111 and 132, alexinslc/rekap a5_cd02194895 line 634,
        # FSM1/cipher-box 04_6f4c1b3b1e line 175: failures reported in words
        (
            "Wait it's a different program. What's the program that si running at my system "
            "start that doess this",
            _DONE,
            TurnKind.CORRECTION,
        ),
        (
            "I don't think that's it. It's something else, I hold down function and it records",
            _DONE,
            TurnKind.CORRECTION,
        ),
        ("still getting that error? ", _DONE, TurnKind.CORRECTION),
        (
            "so unless I am misunderstanding the recovery process, but the recovery tool would "
            "have to traverse the tree in any case to obtain file and folder metadata, so this "
            "jsutification really does not make a lot of sense to me.",
            _DONE,
            TurnKind.CORRECTION,
        ),
        # ClusterCockpit/cc-backend b9_54 line 23: a new request after the work
        (
            "Analyse which directories should be added to the exclusion paths. Also do not "
            "apply linting for the tests",
            _DONE,
            TurnKind.NEW_TASK,
        ),
        # theogbrand/napoli-matcha 0c_c3173e5050 line 24: a prohibition of what was done
        (
            "Edit plan to NOT mention Instructor in the CLAUDE.md file. Use Instructor as a "
            "model example, that's all.",
            "I've updated CLAUDE.md to describe the Instructor-based extraction.",
            TurnKind.CORRECTION,
        ),
        # tslateman/duet 8d_8e47a114e5 line 23: a question of its own after the work
        ("is AI a tool for the team, or is the team a tool for AI?", _DONE, TurnKind.NEW_TASK),
        # handgemacht-ai/claude-code-log a7da6a22 line 229: a stance, then a request
        (
            "I saw in passing that in case of BadZipFile we don't do anything (pass); "
            "wouldn't be a way to report that in the manifest? Propose.",
            _DONE,
            TurnKind.NEW_TASK,
        ),
        # nakamura-shuta/tij 3c_79e00521d line 683, yutakobayashidev/repiq 21_80385 line
        # 147: a yes to the offer, in Japanese (its voiced kana decompose)
        ("実装してください", "この方針で実装しますか？", TurnKind.APPROVAL),
        ("じゃあそうしよう", "この方針で進めますか？", TurnKind.APPROVAL),
        # ujuc/agent-stuff 35_5fa75ae8fb line 83: a closing step in Korean (Hangul
        # syllables decompose into their letters); the rules read it as a new request
        # however it is typed (a person reads a follow-up: a misreading of its own)
        ("문서에 대해서 작업한 내용들을 커밋해줘.", _DONE, TurnKind.NEW_TASK),
        # Smartagent-so/Personal_AI_Infrastructure 351b5d6c line 5: a greeting by name
        ("Hello Jarvis.", "", TurnKind.HOUSEKEEPING),
    ],
)
@pytest.mark.parametrize("retyping", list(SENT))
def test_a_turn_reads_the_same_in_any_typography(
    text: str, agent_text: str, kind: TurnKind, retyping: str
) -> None:
    assert kind_of(text, agent_text) is kind
    assert kind_of(SENT[retyping](text), agent_text) is kind


def test_a_saved_prompt_with_windows_line_ends_is_still_a_saved_prompt() -> None:
    """Kocoro-lab/Shannon rollout-2026-01-10 line 145: Spec Kit's prompt as Codex writes it
    into the message; from a prompt file saved on Windows, its lines end in CR LF."""
    prompt = (
        "\n## User Input\n\n```text\n\n```\n\nYou **MUST** consider the user input before "
        "proceeding (if not empty).\n\n## Outline\n\n1. **Setup**: Run "
        "`.specify/scripts/bash/setup-plan.sh --json` from repo root"
    )
    working = "Let me look at the tests."  # the agent had not ended its work
    assert kind_of(prompt, working) is TurnKind.NEW_TASK
    assert kind_of(prompt.replace("\n", "\r\n"), working) is TurnKind.NEW_TASK


def test_a_console_message_typed_without_its_capital_is_still_a_pasted_error() -> None:
    """procrypto/Personal_AI_Infrastructure cef0d477 line 368, after "Server is up and
    responding. Try https://localhost:3000/ in your browser.": the browser's message, typed
    with its capital and without."""
    served = "Server is up and responding. Try https://localhost:3000/ in your browser."
    for text in (
        "Warning: timeSinceFirst is not defined",
        "warning: timeSinceFirst is not defined",
    ):
        assert kind_of(text, served) is TurnKind.CORRECTION


@pytest.mark.parametrize("space", [" ", "\u00a0", "\u202f", "\u3000", "\t"])
def test_a_command_and_its_arguments_are_split_on_any_space(space: str) -> None:
    """punt-labs/langlearn-tts c4_c60eee7180 line 636, "/voice charlie" (queued while the
    agent worked): the CLIs split a command line on any whitespace, a no-break space too."""
    assert parse_command(f"/voice{space}charlie") == SlashCommand(name="voice", args="charlie")
    assert parse_command(f"ok /release{space}patch") == SlashCommand(name="release", args="patch")


@pytest.mark.parametrize("text", ["test it", "test login", "ping redis", "hey commit", "hi push"])
def test_a_request_after_a_greeting_word_is_no_greeting(text: str) -> None:
    """Only a name written as one ("Hello Jarvis.") is an addressee after a greeting word: a
    word after "test", "ping" or "hey" asks for something (found by the review)."""
    assert kind_of(text, _DONE) is not TurnKind.HOUSEKEEPING
    assert kind_of("Hello Jarvis.", "") is TurnKind.HOUSEKEEPING


def test_a_line_s_end_after_a_command_is_no_space_between_it_and_its_arguments() -> None:
    """A message that opens with a command's name on a line of its own reads the same with
    LF and with CR LF line ends, and with the other line separators."""
    for end in ("\n", "\r\n", "\u2028"):
        text = f"/review{end}look at the auth module too"
        assert kind_of(text, _DONE) is kind_of("/review\nlook at the auth module too", _DONE)
    assert parse_command("/etc\r\n/usr/local/bin is missing") is None


def _event(i: int, kind: str, text: str, role: str = "user") -> EventView:
    return EventView(i, i, kind, role, text)


@pytest.mark.parametrize("retyping", ["as typed", *SENT])
def test_a_question_answered_ends_the_same_in_any_typography(retyping: str) -> None:
    """maxnoobineating/UbuntuDevcontainer_Dotfiles cc1b59bf line 49: a question about what
    the person added, answered: a success, however its question mark is typed."""
    retype = SENT.get(retyping, lambda text: text)
    request = retype(
        "I added these for esp project, but are any of these going to affect any other use "
        'cases?\n    "clangd.arguments": [\n      "--background-index"\n    ]\n\nexplain them'
    )
    b = SessionBuilder().prompt(request)
    b.say("None of these affect your other projects: clangd reads them for this workspace.")
    (episode,) = segment(views(b), lexicon_for())
    signals = detect_signals(episode, lexicon_for(), session_over=True, is_last=True)
    assert "question_answered" in {signal.kind for signal in signals}
    assert derive_outcome(signals).outcome == "success"


@pytest.mark.parametrize("retyping", ["as typed", *RETYPINGS])
def test_a_failure_the_agent_announced_is_expected_in_any_typography(retyping: str) -> None:
    """Denubis/claude-code-research-transcript-hook a0688338 lines 41-66: the agent's words
    after a result decide whether the failure was the one it meant to see, whatever
    quotes its model writes them with."""
    retype = RETYPINGS.get(retyping, lambda text: text)
    call = EventView(1, 1, "tool_call", "assistant", '{"command": "tool --title T"}', "Bash", "c1")
    result = EventView(
        2, 2, "tool_result", "user", "Exit code 1\nError: Empty stdin.", "Bash", "c1", True, 1
    )
    said = retype("Now that's the correct error message. Let me test the manual path.")
    events = [call, result, _event(3, "assistant_text", said, "assistant")]
    assert judge_errors(events).verdicts[2].kind == "benign"


@pytest.mark.parametrize(
    ("text", "agent_text", "kind"),
    [
        # JanDeDobbeleer/oh-my-posh 09_11216ed051 line 76: a yes to the offer
        ("yes", "Want me to post this to the PR now?", TurnKind.APPROVAL),
        # FSM1/cipher-box 04_6f4c1b3b1e line 212: a new request after the work
        (
            "ok lets get back to main",
            "Done. Todo added and PR created: https://github.com/FSM1/cipher-box/pull/180",
            TurnKind.NEW_TASK,
        ),
        # Denubis/claude-code-research-transcript-hook a0688338 line 111: a dislike
        (
            "that error is not a good error",
            "The transcript was archived successfully.",
            TurnKind.CORRECTION,
        ),
        # JanDeDobbeleer/oh-my-posh 5f_7d1158f007 line 66: the complaint insisted on
        (
            "but I'm on main here, I added it nromally.",
            "The change in release.yml is uncommitted on `next`.",
            TurnKind.CORRECTION,
        ),
        # a history outside the repository (its screenshot was sent with it): the work
        # holds in part, and the rest says where it fails
        (
            "Seems to work fine. One issue. is that the server does not seems to read the data "
            "from the live devices table. ?",
            "Deployed: the assistant now answers from the device tables.",
            TurnKind.CORRECTION,
        ),
    ],
)
def test_a_screenshot_sent_with_words_reads_as_the_words(
    text: str, agent_text: str, kind: TurnKind
) -> None:
    """A screenshot backs the words up; the words say what the turn is (with an image
    first, "yes" had read as going on with the task, a new request as its subject)."""
    previous = TurnKind.CORRECTION if text.startswith("but I'm on main") else None
    assert kind_of(text, agent_text, agent_acted=True, previous=previous) is kind
    assert kind_of(_SCREENSHOT + text, agent_text, agent_acted=True, previous=previous) is kind
    assert kind_of(f"{text} [Image #1]", agent_text, agent_acted=True, previous=previous) is kind


@pytest.mark.parametrize(
    "text",
    [
        "Perfect. If the migration fails later, we can roll back.",  # a condition
        "ok good. when it crashes I'll send you logs.",
        "Looks good. The old tests were failing before too, ignore them.",  # an old failure
        "Great, works! Separate thing: the docs site build fails on Netlify",  # elsewhere
        "Perfect. But if it fails later we can roll back",
        "Thanks! A problem for later: the docs build fails on Netlify, separate thing",
        "Great. One problem I can think of: what if the upload fails?",
        "Perfect, but what happens when it fails?",
        "Great. Still, can you add a test that it fails on bad input",
        "Perfect. One thing: add a retry in case the request fails",
        "Great. One issue: it might break on Windows",
    ],
)
def test_a_verdict_then_a_failure_that_is_not_the_result_s_is_no_correction(text: str) -> None:
    """ "Works in part, then a failure" needs the words after the verdict to turn to a flaw in
    the same result ("One issue.", "but", "the only problem"); these turn to none (modelled
    on the review's cases)."""
    deployed = "Deployed: the assistant now answers from the device tables."
    assert kind_of(text, deployed, agent_acted=True) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "Nice. One problem: the export button does nothing",
        "Nice. Only problem: the export button does nothing",
        "Good. Problem is the export still crashes",
        "Good. Issue: the page crashes on reload",
        "Great. Two issues: the export crashes and the list is empty",
        "Looks good. A couple of issues: the export crashes",
        "Great. Unfortunately the export still crashes",
        "Nice. Small problem: the export button does nothing",
        "Nice. One problem: it would not load on mobile",
    ],
)
def test_a_verdict_then_a_flaw_in_the_result_is_a_correction(text: str) -> None:
    """The ways a flaw in the same result is named after a verdict (modelled on the real
    line above and on the second review's cases)."""
    deployed = "Deployed: the assistant now answers from the device tables."
    assert kind_of(text, deployed, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("still[Image #1]broken", TurnKind.CORRECTION),
        ("nope[Image #1]same error", TurnKind.CORRECTION),
        ("perfect[Image #1]merged", TurnKind.APPROVAL),
    ],
)
def test_a_paste_s_mark_between_words_keeps_them_apart(text: str, kind: TurnKind) -> None:
    """ "still[Image #1]broken" reads as "still broken", not "stillbroken" (found by the
    review)."""
    done = "Done! The header now sticks to the top."
    assert kind_of(text, done, agent_acted=True) is kind


def test_a_screenshot_alone_after_the_work_is_still_read_as_the_screen_it_shows() -> None:
    """With no words, the screenshot is the message: after a done claim, what the person
    sees instead of what was claimed."""
    done = "Done! The refresh now reloads the list. Let me know if it fixes it."
    assert kind_of(_SCREENSHOT.strip(), done, agent_acted=True) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "request_text",
    [
        # ujuc/agent-stuff 35_5fa75ae8fb line 61, tslateman/duet 8d_8e47a114e5 line 23
        "metadata에서 내부 필드는 필수가 아니라 예제인데 들어간거같아. 해당 부분은 제거해줘.",
        "is AI a tool for the team, or is the team a tool for AI?",
        "I saw in passing that in case of BadZipFile we don't do anything (pass); "
        "wouldn't be a way to report that in the manifest? Propose.",
    ],
)
@pytest.mark.parametrize("retyping", list(RETYPINGS))
def test_the_same_request_in_other_characters_clusters_as_one(
    request_text: str, retyping: str
) -> None:
    """Recurrence reads a request's words as the turn reader does: retyped, a request makes
    the same features, so it joins the same cluster."""
    assert prepare(RETYPINGS[retyping](request_text)) == prepare(request_text)
