"""A verdict in the words people use for it (issue #14).

The labelled real sessions hold few ways of saying "that works" or "that is broken"; a new
person's history holds many more. These lines are made here, written the way people type
to coding agents ("nailed it", "ran it locally, all good", "it flickers on load", "clicking
Cancel deletes it anyway"), with their look-alikes that are no verdict: questions,
requests, conditions, and a state the person wants. `bench/phrasebook.py` reads four
books of such lines written blind to the rules; the labelled real sessions stay the
measure (`bench/mining_real.py`).
"""

from __future__ import annotations

import pytest

from sleepd.mining.lexicon import Feedback, lexicon_for
from sleepd.mining.turns import TurnKind
from sleepd.mining.turns.agent import agent_claims_done

from .builders import kind_of


@pytest.mark.parametrize(
    "text",
    [
        # praise in the words people use for it
        "nailed it",
        "you're a genius",
        "that did the trick",
        "spot on",
        "chef's kiss",
        "appreciate it",
        "much better now",
        "that's what I needed",
        "problem solved",
        "that'll do",
        "legend",
        "wow. impressive",
        "finally!!",
        "all green now",
        "sick, love it",
        # what the person did with the work, and nothing more
        "deployed it on the backup host",
        "merged.",
        "approved",
        "pushed it, pipeline green",
        # the person's own check, the verdict last
        "ran it locally, all good",
        "tested on my phone, works 👍",
        "diffed the figures, identical. great",
        "valgrind clean here as well. excellent",
        "applied to the cluster, cert issued ✅",
        "no more crash on my ipad. nice",
        # the same closed by thanks alone
        "checked page 2, the ids are there now and match. thanks",
        "Uploaded a 6 MB photo and it went through. Thank you!",
    ],
)
def test_a_verdict_in_everyday_words_approves(text: str) -> None:
    assert kind_of(text) is TurnKind.APPROVAL


@pytest.mark.parametrize(
    "text",
    [
        # asked, not given
        "much better?",
        "is it all green?",
        "are the tests green now?",
        "is it much better now?",
        "is tasks pretty good already?",
        "very good question, what do you think?",
        # a request or a wish that holds the word
        "would love it if you added a legend",
        "add a legend to the chart",
        "make the build green",
        "it is really good practice to add tests",
        # what the person is doing now, or did with a failure after it
        "deploying to prod now, wait",
        "deployed to staging and the page is blank",
        # praise denied, wished or supposed, and words that praise in one sense only
        "not impressive",
        "not much better",
        "it would be much appreciated if you added docs",
        "if that fixed it, close the issue",
        "you are the best judge of that",
        "die Klasse Foo hat einen Fehler",
        "der Test läuft noch",
        "すごい遅い",
        "최고 속도가 너무 낮아요",
    ],
)
def test_the_same_words_asked_or_requested_approve_nothing(text: str) -> None:
    assert kind_of(text) is not TurnKind.APPROVAL


@pytest.mark.parametrize(
    "text",
    [
        # thanks close a report of a failure as readily as a verdict
        "the legend overlaps the bars now, thanks",
        "tried it, nothing happens, thx",
        "ran it, the page is blank. thanks",
        # a word of praise inside the complaint
        "its exactly as slow as before, 4s per query",
        # praise, then what is still wrong
        "much better, but the header still overlaps",
        "I like that you split it, but the names are wrong",
    ],
)
def test_thanks_or_praise_around_a_failure_do_not_hide_it(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # a symptom, in the words of the thing that misbehaves
        "it flickers on load",
        "on mobile the legend overlaps the bars",
        "typing lags like crazy now, every keystroke stutters",
        "hmm now the last letter i type gets ignored",
        "numbers come out doubled now",
        "the export comes out empty",
        "the chart renders twice",
        "the header row appears 12 times in the output",
        "space scrolls the page instead of pausing",
        "clicking Cancel deletes it anyway",
        "for f(x)=x^3-x on [-2, 2] it loops forever",
        "the next link on the last page points to an empty page",
        "every email says 'Hi undefined'",
        "the average now comes out as #DIV/0! on the march sheet",
        # worse, or too much of something
        "it's worse now",
        "contrast is terrible now",
        "way too cheesy, nobody talks like that",
        # still, whatever the verb
        "rebuild still runs twice on save",
        "umlauts still come out as Ã¼ in the db",
        "cron still fires at midnight",
        # what a try gave
        "clicked it, 404",
        "it printed nothing. i know at least two buckets are public",
        "ran it 20 times in a loop, failed 4 of them",
        "i ran the tests and 3 fail, test_multiline_field among them",
        "ran with --dry-run and it actually deleted the files!!!",
        "faster yes but now test_db randomly fails",
        # what went missing
        "the source table has 15k rows, where did the rest go?",
        # the shell's word for a process the kernel ended
        "Killed\n$ dmesg | tail -1\n[81234.11] Out of memory: Killed process 4412 (python3)",
        # in the other languages people write to agents in
        "die Datei ist leer, nur die Kopfzeile ist drin",
        "进度条还是卡在0%",
        "안 읽은 메일을 클릭해도 필터에서 사라지지 않아요",
    ],
)
def test_a_symptom_of_the_result_reports_a_failure(text: str) -> None:
    assert kind_of(text) is TurnKind.CORRECTION


@pytest.mark.parametrize(
    "text",
    [
        # a requirement, a wish or a condition around the symptom
        "make sure it doesn't flicker on load",
        "it should not overlap the footer",
        "prevent the overlap with the sidebar",
        "can you make it not lag on big files?",
        "if it comes out doubled, divide by two",
        "it might get ignored by older clients, add a warning",
        "it would be terrible if this leaked, add redaction",
        # asked, not seen
        "does it still run twice?",
        "is the build still running?",
        "is it true that the hook runs twice?",
        "where is my config file stored?",
        # the state named, then taken as meant
        "the timer resets on reload, which is what I want",
        "the old API still returns XML, keep that",
        # what still holds, and what is still wanted
        "the tests still pass after the rebase",
        "you can still use the old flag for now",
        "we still need a migration for this",
        "users still ask for dark mode, can we add it next?",
        # a request's plural is no verb
        "add tests instead of mocking",
        # why the person stops the agent's run is no verdict on the work
        "too many questions, just do it",
        # good news in the same words: none failed, the error gone, a state waited on
        "Tests: 42 passed, 0 failed",
        "Der Fehler ist weg",
        "tests still pending",
        # a request or a maybe with "still", and what is wanted of nobody
        "please still run the tests",
        "maybe still worth adding a test",
        "nobody can see it except admins",
        "the hook runs every time I commit, as designed",
    ],
)
def test_the_same_words_wished_asked_or_meant_report_nothing(text: str) -> None:
    assert kind_of(text) is not TurnKind.CORRECTION


@pytest.mark.parametrize(
    ("text", "feedback"),
    [
        # the old version preferred is a dislike of what was made ...
        ("the old version was way better", Feedback.CORRECTION),
        ("honestly the previous layout looked much cleaner", Feedback.CORRECTION),
        # ... unless the new one is set above it
        ("the old one was good but this is much better", Feedback.APPROVAL),
    ],
)
def test_the_old_version_preferred_is_a_dislike(text: str, feedback: Feedback) -> None:
    assert lexicon_for().classify(text) is feedback


@pytest.mark.parametrize(
    "agent_text",
    [
        # the terse report agents write when they are done
        "Export button added.",
        "Lint errors fixed; the lint job passes.",
        "Migration written and applied locally.",
        "24 tests added; all pass.",
        "Toasts now stack vertically.",
        "Dates now use the user's locale.",
        "Storybook builds again after pinning @storybook/react to 7.6.",
        "`go build ./...` succeeds now.",
        # a condition word inside the thing named, not a clause of time to come
        "The redirect after login is fixed.",
    ],
)
def test_a_terse_report_claims_the_work_done(agent_text: str) -> None:
    assert agent_claims_done(agent_text)


@pytest.mark.parametrize(
    "agent_text",
    [
        "Tests to be written.",
        "The fix needs to be applied on the server first.",
        "Until that is resolved, the build is broken.",
        "After the migration is done, restart the app.",
        "The tests now fail with a timeout in the parser.",
        "Right now with the current config, the queue drains in an hour.",
        "The first run took 12 s and the second 19 s; I'm profiling both runs now.",
        # what a thing needs or had already, a check or a condition ahead, what a reader may
        # now do: real agents' words in the labelled sessions that a looser rule claimed
        "Git needs your identity configured.",
        "You already have `staticcheck` enabled.",
        "Once it passes cleanly, I'll mark Phase 6 complete.",
        "Now let me verify the build compiles cleanly:",
        "I'm adding the test coverage now around the two fragile parts of the feature.",
        "The diagnostics now show that `repo` is declared but not used.",
        "Environment activated. You can now install dependencies with pip.",
        "Reload the plugin and try again. The debug output will now show the raw object.",
        # the redaction's own marker in stored text is no participle
        "## AWS Secret Keys\n\n```\nREDACTED\n```",
    ],
)
def test_what_is_still_to_do_or_failing_claims_nothing_done(agent_text: str) -> None:
    assert not agent_claims_done(agent_text)
