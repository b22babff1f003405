"""What is not a correction, however close its words come to one (issue #14: recall
≥ 0.90 at precision ≥ 0.85).

Each false reading below was seen on the labelled set; the rules are general (an
opinion about a feature, a clause that mentions what happened, a retry instruction,
the lexicon alone), so the cases are written fresh, with hostile variations, beside
the real lines. The true corrections next to them must stay corrections.
"""

from __future__ import annotations

import pytest

from sleepd.mining.turns import TurnKind

from .builders import kind_of

ASKS = "Both steps are ready: merge locally, or close the PR. Which one would you like?"


@pytest.mark.parametrize(
    "text",
    [
        # claude-code-log 37f83ec9 line 12
        "oh, I didn't find those cross-session navigation links helpful, can you please "
        "replace them with a single link to the combined transcript?",
        "I never really found the sidebar useful; let's drop it and show the tree instead",
        "We don't find the compact view intuitive, please make the rows taller",
    ],
)
def test_an_opinion_about_a_feature_is_not_a_failure_report(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # melagiri 25/a0928becb5 line 492 (the agent asked which step to take)
        "yes, perform both steps and close PR#112 with a comment on what happened",
        "ok, write a short note in the changelog about what happened with the migration",
    ],
)
def test_what_happened_inside_a_request_is_not_a_question_about_a_failure(text: str) -> None:
    assert kind_of(text, agent_text=ASKS) is not TurnKind.CORRECTION


def test_what_happened_as_a_question_still_reports_a_failure() -> None:
    assert kind_of("The build is red on main. What happened?") is TurnKind.CORRECTION
    assert kind_of("what happened to the session list??") is TurnKind.CORRECTION


def test_a_retry_instruction_after_an_interrupt_steers() -> None:
    # kfischer b3edadab line 58, typed after the person interrupted the agent
    assert kind_of("Ok ultrathink and try again", after_interrupt=True) is not (TurnKind.CORRECTION)


@pytest.mark.parametrize(
    "text",
    [
        # claude-code-log a7da6a22 line 229: about code the agent never touched
        "I saw in passing that in case of BadZipFile we don't do anything (pass); wouldn't "
        "be a way to at least log it?",
        "no worries",
    ],
)
def test_the_lexicon_alone_never_makes_a_correction(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


def test_no_answers_the_question_it_follows() -> None:
    # after a question, "no, …" picks an answer; after a done-claim it rejects the result
    assert kind_of("nope, lets keep both", agent_text=ASKS) is not TurnKind.CORRECTION
    assert kind_of("no, use the other one", agent_text=ASKS) is not TurnKind.CORRECTION
    assert kind_of("no, use the other one") is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "revert that please",
        "undo the last commit",
        "Roll back",
        # the same in the other languages, as a person opens the turn with it
        "desfaz isso",
        "rückgängig machen bitte",
        "annulla quello",
        "annuler les changements",
        "annulez la dernière modification",
    ],
)
def test_asking_to_undo_the_work_is_a_correction(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "ajoute un bouton annuler",
        "add an undo button to the editor",
        "add a toggle to switch it back to the default theme",
    ],
)
def test_an_undo_feature_to_build_is_no_correction(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


#: The person takes back what the agent just did, in words the undo rule had not read: an
#: undo opened by "actually", the commit just made, a value set back.
@pytest.mark.parametrize(
    "text",
    [
        "actually revert the commit, just open an issue for it instead",
        "not sure why the author is a bot account, please change it back to my name in those "
        "commits",
        "ok, set it back to 30s",
    ],
)
def test_taking_back_what_was_just_done_is_a_correction(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


def test_what_the_agent_did_faulted_past_an_address_is_a_correction() -> None:
    """A dot inside an address is no sentence's end: the fault after it still faults what
    the agent did."""
    said = (
        "also, you closed https://github.com/o/r/issues/12 as a duplicate but that's actually "
        "a separate feature we still want"
    )
    assert kind_of(said) is TurnKind.CORRECTION
    # a "but" that goes on to ask for more faults nothing
    more = "you added https://example.com/docs to the readme, but can you also link the api?"
    assert kind_of(more) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "that's wrong, use version 2",
        "c'est faux, utilise la version 2",
        "está mal, usa la versión 2",
        "isso está errado, use a versão 2",
        "das ist falsch, nimm Version 2",
        "è sbagliato, usa la versione 2",
    ],
)
def test_the_result_called_wrong_is_a_correction_in_every_language(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "thanks! now add dark mode to the settings page",
        "great. next: write the release notes for 2.3",
        "Merci, ça marche ! Maintenant ajoute un bouton export",
        "Gracias, funciona. Ahora agrega un botón de exportar",
        "Obrigado, funcionou! Agora adicione um botão de exportar",
        "Danke, klappt! Jetzt füge einen Export-Button hinzu",
        "Grazie, funziona! Ora aggiungi un pulsante di esportazione",
    ],
)
def test_a_verdict_then_new_work_is_a_new_task_in_every_language(text: str) -> None:
    assert kind_of(text) is TurnKind.NEW_TASK


@pytest.mark.parametrize(
    "text",
    [
        # melagiri 82/b981cea660 line 235
        "are you running all sessions? i wanted only to test 1 or 2 to verify if things are fine",
        "That's not what I asked - keep the old endpoint",
        "I said use pnpm, not npm",
        # the issue's own examples stay corrections
        "Nothing happens when I press new game",
        "The script didn't write the file",
        "(this looks correct). But the X field in the form doesn't look right. Try to fix",
    ],
)
def test_unmet_requests_and_failure_reports_stay_corrections(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "x" * 50_000 + " doesn't work",
        "didn't find " * 5_000 + "helpful",
        "\x00\u202e what happened \ufeff?" * 200,
        "",
    ],
)
def test_hostile_text_is_classified_without_raising(text: str) -> None:
    assert kind_of(text) in TurnKind


@pytest.mark.parametrize(
    "text",
    [
        "the build is red on CI",
        "getting a 404 when I open /about",
        "the button does nothing",
        "the layout is messed up",
        "it's slower than before",
        "lint fails",
        "typecheck fails with 3 errors",
        "white screen",
        "blank page when I open /settings",
    ],
)
def test_a_result_in_everyday_words_is_a_failure_report(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "add a blank page at the end",
        "make it return a 404 for unknown routes",
        "make the CI go red when coverage drops",
        "the cancel button should do nothing if the form is empty",
    ],
)
def test_the_same_words_in_a_request_are_no_failure_report(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text", ["everything works except the login", "not everything works", "👎", "👎👎"]
)
def test_less_than_all_of_it_working_is_a_failure_report(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text", ["👍", "🎉", "confirmed working", "verified, it works on prod", "everything works"]
)
def test_a_checked_result_or_a_thumbs_up_alone_is_approval(text: str) -> None:
    assert kind_of(text) is TurnKind.APPROVAL


def test_it_works_then_a_request_is_no_failure_report() -> None:
    assert kind_of("it works, but can you also add a footer?") is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        "van loi",
        "không chạy được",
        "werkt niet",
        "nie działa",
        "tidak berfungsi",
        "לא עובד",
        "لا يعمل",
        "abhi bhi error aa raha hai",
    ],
)
def test_does_not_work_is_a_failure_report_in_more_languages(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


def test_a_verdict_then_a_question_asking_for_more_is_no_bare_approval() -> None:
    # its closing "?" had been taken for the clause after the verdict, and it read as an
    # approval with the request lost
    assert kind_of("great, can you also add a footer?") is TurnKind.FOLLOW_UP


@pytest.mark.parametrize(
    "text",
    [
        "好了，现在加一个导出按钮",
        "ありがとう、次はエクスポートボタンを追加して",
        "고마워요, 이제 내보내기 버튼 추가해줘",
    ],
)
def test_a_verdict_then_new_work_after_a_comma_is_a_new_task_in_cjk(text: str) -> None:
    assert kind_of(text) is TurnKind.NEW_TASK


def test_a_verdict_then_a_change_after_a_comma_is_a_follow_up_in_chinese() -> None:
    assert kind_of("好了，再把按钮改成蓝色") is TurnKind.FOLLOW_UP
    assert kind_of("可以了，谢谢") is TurnKind.APPROVAL
