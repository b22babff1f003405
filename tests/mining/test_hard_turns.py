"""The miner model decides the user turns the rules find hard (issue #14, "What to build"
1: validated JSON, budgeted, counted; the rule-based path stands on its own).

The model is reached through the real anthropic SDK against a loopback server, behind
the same budget guard `sleepd mine` puts in front of it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from sleepd.backends.anthropic_api import AnthropicBackend
from sleepd.backends.budget import BudgetCaps, BudgetGuard, GuardedBackend, MemoryLedger
from sleepd.config import Config
from sleepd.mining.hard_turns import SYSTEM, TurnJudge
from sleepd.mining.lexicon import lexicon_for
from sleepd.mining.mine import mine
from sleepd.mining.turns import TurnDecision, TurnInput, TurnKind, classify_turn
from sleepd.store.engine import read_session
from sleepd.store.models import Episode, Task
from tests.backends.fake_providers import FakeAnthropic, Reply, anthropic_message
from tests.bench_scripts import load_bench

from .builders import LATER, T0, SessionBuilder
from .test_mine import UNSURE_REQUEST, unsure_one_off

#: built at run time so that no secret scanner flags this file
TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
#: The agent is still at it and asked nothing: the rules call the next turn a hard
#: follow-up (it could as well be a new request).
HARD_TURN = f"The toggle goes in the header next to the avatar; deploy key {TOKEN}"


@pytest.fixture
def server() -> Iterator[FakeAnthropic]:
    fake = FakeAnthropic().start()
    yield fake
    fake.stop()


def guarded(server: FakeAnthropic, max_usd: float = 1.0) -> GuardedBackend:
    inner = AnthropicBackend(api_key="test-key", base_url=server.url, max_retries=0, timeout_s=5)
    return GuardedBackend(inner, BudgetGuard(BudgetCaps(max_usd=max_usd), MemoryLedger()))


def seed(engine: Engine, sessions: int = 1) -> None:
    for _ in range(sessions):
        session_on(engine, 0, HARD_TURN)


def session_on(engine: Engine, day: int, turn: str) -> None:
    """A session of the history, `day` days after the first, its last turn a hard one."""
    b = SessionBuilder(start=T0 + timedelta(days=day))
    b.prompt("Add a dark mode toggle to the settings page")
    b.say("Let me look at the settings component first.")
    b.call("Read", json.dumps({"file_path": "src/Settings.tsx"}), "r1")
    b.result("r1", "export function Settings() {}")
    b.prompt(turn).save(engine)


def turn_requests(server: FakeAnthropic) -> list[dict[str, object]]:
    """The requests about user turns (a recurring task also gets a judge-spec request)."""
    bodies = [seen.json() for seen in server.seen("/v1/messages")]
    return [b for b in bodies if "You read one message" in json.dumps(b.get("system"))]


def episodes(engine: Engine) -> int:
    with read_session(engine) as db:
        return int(db.scalar(select(func.count(Episode.id))) or 0)


def test_the_rules_mark_the_turn_hard() -> None:
    turn = TurnInput(
        text=HARD_TURN,
        has_episode=True,
        agent_text="Let me look at the settings component first.",
        agent_worked=True,
        agent_acted=False,
    )
    decision = classify_turn(turn, lexicon_for())
    assert decision.hard and decision.kind is TurnKind.FOLLOW_UP


def test_a_defect_set_out_with_its_own_numbered_plan_is_read_by_what_came_before() -> None:
    # nisargpatel28/artifact-hub 5b983582 line 684 (set 17): one author's pasted, numbered
    # prompts describe a defect and prescribe the fix; its labeller read them as new tasks,
    # each "a different failure than the turn before", and as corrections the two that took
    # up the failure the request before had worked on
    spec = (
        'The seed script fails with "File upload failed" when uploading to POST /api/artifacts.'
        "\n\n1. First, show me the full error handling in scripts/seed.ts around the upload "
        "call and print the response body when the status is not 2xx.\n2. Then check the "
        "multipart field names the API route expects against the ones the script sends.\n3. "
        "Fix whichever side is wrong and run pnpm seed again."
    )
    agent = "Done. `pnpm seed` now passes `--tsconfig scripts/tsconfig.json` to tsx explicitly."
    # after a request on another failure, it is the next task, written as its spec
    other = "Fix the seed script TypeScript errors: it can't find process and console."
    turn = TurnInput(
        text=spec, has_episode=True, agent_text=agent, agent_worked=True, previous_text=other
    )
    decision = classify_turn(turn, lexicon_for())
    assert decision.kind is TurnKind.NEW_TASK and decision.hard
    # after a request on this same failure, it says that work failed: a correction, unsure
    same = 'Fix the seed script: uploading to POST /api/artifacts fails with "File upload failed".'
    turn = TurnInput(
        text=spec, has_episode=True, agent_text=agent, agent_worked=True, previous_text=same
    )
    decision = classify_turn(turn, lexicon_for())
    assert decision.kind is TurnKind.CORRECTION and decision.hard
    # the same defect in a line, with no plan of its own, is a correction, still left to the
    # model: on the blind sets a correction read by its cues was right on about half
    short = TurnInput(
        text='The seed script fails with "File upload failed".',
        has_episode=True,
        agent_text=agent,
        agent_worked=True,
    )
    decision = classify_turn(short, lexicon_for())
    assert decision.kind is TurnKind.CORRECTION and decision.hard


def test_the_same_failure_named_by_its_code_is_the_failure_worked_on() -> None:
    # nisargpatel28/artifact-hub 5b983582 line 902: the 404 the request before had worked
    # on, in other words ("keeps flipping between working and 404"), with a plan of its own
    spec = (
        "Something is wrong with the Next.js app directory setup. \nThe page keeps flipping "
        "between working and 404.\n\n1. Show me the EXACT file structure:\n   Get-ChildItem "
        "apps/web/src -Recurse -Name\n\n2. Show me the full contents of these files:\n   - "
        "apps/web/src/app/page.tsx\n\n3. Delete .next cache and rebuild."
    )
    before = (
        "The home page at localhost:3000 shows 404 and the navbar is broken.\nShow me these "
        "files so I can fix them all:\n\n1. Run: Get-ChildItem apps/web/src/app -Recurse -Name"
    )
    agent = "Deleted and rebuilt clean. The concatenation was the not-found page without CSS."
    turn = TurnInput(
        text=spec, has_episode=True, agent_text=agent, agent_worked=True, previous_text=before
    )
    assert classify_turn(turn, lexicon_for()).kind is TurnKind.CORRECTION
    # another failure's code, or none, leaves it the next task
    for other in (
        "The upload page shows 500 when the file is over 10 MB. Show me the handler.",
        "Add a gallery page that lists the artifacts. Show me the layout first.",
    ):
        turn = TurnInput(
            text=spec, has_episode=True, agent_text=agent, agent_worked=True, previous_text=other
        )
        assert classify_turn(turn, lexicon_for()).kind is TurnKind.NEW_TASK, other


def test_a_word_in_capitals_both_requests_share_names_no_failure() -> None:
    spec = (
        "The EXPORT button on the gallery page fails and nothing downloads when I click it."
        "\n\n1. First, show me the click handler in apps/web/src/app/gallery/page.tsx and "
        "print what the request returns.\n2. Then check the route that builds the zip file "
        "against what the page sends.\n3. Fix whichever side is wrong and run the tests."
    )
    before = "Rename the EXPORT step in the CI config to PACKAGE."
    agent = "Renamed the step to PACKAGE in .github/workflows/ci.yml; the CI run passes."
    turn = TurnInput(
        text=spec, has_episode=True, agent_text=agent, agent_worked=True, previous_text=before
    )
    assert classify_turn(turn, lexicon_for()).kind is TurnKind.NEW_TASK


def test_each_stored_turn_says_whether_the_rules_found_it_hard(engine: Engine, cfg: Config) -> None:
    # Without a model the rules' reading stands, and the store says which readings a
    # model would have been asked about (what bench/mining_real.py's ceiling counts).
    seed(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        [episode] = db.scalars(select(Episode)).all()
        turns = list(episode.turns or [])
    assert [(t["kind"], t["hard"]) for t in turns] == [("new_task", False), ("follow_up", True)]


def test_the_models_valid_answer_decides_the_hard_turn(
    engine: Engine, cfg: Config, server: FakeAnthropic
) -> None:
    cfg.mining.model_assisted = True
    seed(engine)
    server.script("/v1/messages", Reply(200, anthropic_message('{"kind": "new_task"}')))
    report = mine(engine, cfg, now=LATER, backend=guarded(server))
    assert report.hard_turns == {
        "found": 1, "asked": 1, "decided": 1, "changed": 1, "fallbacks": 0, "skipped": 0
    }  # fmt: skip
    assert episodes(engine) == 2  # the model read a new request: it opened an episode
    body = turn_requests(server)[0]
    sent = json.dumps(body)
    assert TOKEN not in sent and "REDACTED" in sent  # the outbound chokepoint scrubbed it
    schema = body["output_config"]["format"]["schema"]  # type: ignore[index]
    assert schema["properties"]["kind"]["enum"][0] == "new_task"
    payload = json.loads(body["messages"][0]["content"])  # type: ignore[index]
    assert payload["running_request"].startswith("Add a dark mode toggle")
    assert payload["where_it_sits"]["agent_said_it_was_done"] is False
    # the model is told the labels' conventions where a reader could go either way
    system = json.dumps(body["system"])
    for convention in ("closing step", "I mean", "When done with this", "can't you just"):
        assert convention in system, convention


def sent_about(
    engine: Engine, cfg: Config, server: FakeAnthropic, between: Callable[[SessionBuilder], Any]
) -> tuple[dict[str, Any], str]:
    """What the model is told of a hard turn typed after the agent's work and `between`:
    where it sits, and the instructions."""
    cfg.mining.model_assisted = True
    b = SessionBuilder().prompt("Add a dark mode toggle to the settings page")
    b.call("shell", '{"command":["make","test"]}', "c1").result("c1", "ok")
    between(b)
    b.prompt("put it in the header instead, next to the avatar").save(engine)
    server.script("/v1/messages", Reply(200, anthropic_message('{"kind": "follow_up"}')))
    mine(engine, cfg, now=LATER, backend=guarded(server))
    [body] = turn_requests(server)
    payload = json.loads(body["messages"][0]["content"])  # type: ignore[index]
    return payload["where_it_sits"], json.dumps(body["system"])


DONE_SAID = "Done: the toggle is in the settings page and the tests pass."


def test_the_model_is_shown_the_request_and_the_latest_exchange_of_a_long_episode(
    engine: Engine, cfg: Config, server: FakeAnthropic
) -> None:
    # a person judging the message reads the request and what was said just before it;
    # the episode's whole text, cut to size, had shown its oldest part instead
    cfg.mining.model_assisted = True
    request = "Build the release pipeline for the desktop app: sign it, then notarize it"
    b = SessionBuilder().prompt(request)
    for n in range(6):
        b.call("shell", '{"command":["make","dist"]}', f"c{n}").result(f"c{n}", "ok")
        b.say(f"Done: step {n} of the pipeline works.")
        b.prompt(f"ok, and also log how long step {n} took")
    b.call("shell", '{"command":["make","upload"]}', "c9").result("c9", "ok")
    b.say("Done: the artifact is on mirror 6.")
    b.prompt("put it in the header instead, next to the avatar").save(engine)
    server.script("/v1/messages", Reply(200, anthropic_message('{"kind": "follow_up"}')))
    mine(engine, cfg, now=LATER, backend=guarded(server))

    sent = [json.loads(body["messages"][0]["content"]) for body in turn_requests(server)]  # type: ignore[index]
    last = next(p for p in sent if p["message"].startswith("put it in the header"))
    assert last["running_request"] == request  # not the refinements, not the agent's words
    assert last["previous_message"] == "ok, and also log how long step 5 took"
    assert last["agent_last_words"] == "Done: the artifact is on mirror 6."


def test_the_model_is_told_the_message_replaces_a_request_rolled_back(
    engine: Engine, cfg: Config, server: FakeAnthropic
) -> None:
    # Codex's rollback took the request and the agent's answer out of the conversation;
    # the rules read the message typed in its place knowing that, and so must the model
    def rolled_back(b: SessionBuilder) -> None:
        b.say(DONE_SAID).record("event_msg:thread_rolled_back", '{"num_turns":1}')

    where, system = sent_about(engine, cfg, server, rolled_back)
    assert where["typed_in_place_of_the_running_request_rolled_back"] is True
    assert where["agent_did_anything_since_the_previous_message"] is True
    assert where["right_after_the_person_undid_the_agents_changes"] is False
    assert "rolled the thread back" in system


def test_the_model_is_told_the_person_undid_the_work_before_the_message(
    engine: Engine, cfg: Config, server: FakeAnthropic
) -> None:
    # Codex's /undo threw the agent's changes away; the conversation still holds its
    # done claim, so without this the model reads the message as said after a success
    undo = '{"success":true,"message":"Undo restored snapshot 3f2a9c1."}'
    where, _ = sent_about(
        engine, cfg, server, lambda b: b.say(DONE_SAID).record("event_msg:undo_completed", undo)
    )
    assert where["right_after_the_person_undid_the_agents_changes"] is True
    assert where["typed_in_place_of_the_running_request_rolled_back"] is False


def test_the_model_is_told_the_agents_service_failed_before_the_message(
    engine: Engine, cfg: Config, server: FakeAnthropic
) -> None:
    where, _ = sent_about(
        engine, cfg, server, lambda b: b.service_error("API Error: 529 Overloaded")
    )
    assert where["right_after_the_agents_service_failed"] is True
    assert where["agent_last_act_was_a_tool_call_not_words"] is True
    assert where["typed_in_place_of_the_running_request_rolled_back"] is False


@pytest.mark.parametrize(
    "answer",
    [
        "I think this is a follow-up.",  # not JSON
        '{"kind": "praise"}',  # not one of the six kinds
        '{"kind": "new_task", "confidence": "very"}',  # a key the schema forbids
        "[]",
    ],
)
def test_an_invalid_answer_leaves_the_rules_reading_and_is_counted(
    engine: Engine, cfg: Config, server: FakeAnthropic, answer: str
) -> None:
    cfg.mining.model_assisted = True
    seed(engine)
    server.script("/v1/messages", Reply(200, anthropic_message(answer)))
    report = mine(engine, cfg, now=LATER, backend=guarded(server))
    assert report.hard_turns["fallbacks"] == 1 and report.hard_turns["decided"] == 0
    assert episodes(engine) == 1  # the rule's follow-up stands


def test_a_server_error_leaves_the_rules_reading(
    engine: Engine, cfg: Config, server: FakeAnthropic
) -> None:
    cfg.mining.model_assisted = True
    seed(engine)
    error = {"type": "error", "error": {"type": "api_error", "message": "boom"}}
    server.script("/v1/messages", Reply(500, error))
    report = mine(engine, cfg, now=LATER, backend=guarded(server))
    assert report.hard_turns["fallbacks"] == 1 and episodes(engine) == 1


def test_no_call_past_the_budget(engine: Engine, cfg: Config, server: FakeAnthropic) -> None:
    cfg.mining.model_assisted = True
    seed(engine)
    report = mine(engine, cfg, now=LATER, backend=guarded(server, max_usd=0.0))
    assert turn_requests(server) == []
    assert report.hard_turns["fallbacks"] == 1 and episodes(engine) == 1


def test_at_most_the_cap_of_turns_is_asked_per_pass(
    engine: Engine, cfg: Config, server: FakeAnthropic
) -> None:
    cfg.mining.model_assisted = True
    cfg.mining.model_max_turns = 2
    seed(engine, sessions=3)
    answer = Reply(200, anthropic_message('{"kind": "follow_up"}'))
    server.script("/v1/messages", answer, answer, answer)
    report = mine(engine, cfg, now=LATER, backend=guarded(server))
    assert len(turn_requests(server)) == 2
    assert report.hard_turns["asked"] == 2 and report.hard_turns["skipped"] == 1
    assert report.hard_turns["changed"] == 0  # it agreed with the rules


def test_the_turns_past_the_cap_are_asked_on_the_next_passes_and_none_twice(
    engine: Engine, cfg: Config, server: FakeAnthropic
) -> None:
    """A pass asks at most the cap; the sessions whose hard turns it left to the rules are
    read again by the next passes, which keep the verdicts they have and ask the rest,
    until every hard turn was asked once; then the passes ask nothing."""
    cfg.mining.model_assisted = True
    cfg.mining.model_max_turns = 1
    seed(engine, sessions=3)
    answer = Reply(200, anthropic_message('{"kind": "correction"}'))
    server.script("/v1/messages", *[answer] * 10)
    asked = []
    for _ in range(4):
        report = mine(engine, cfg, now=LATER, backend=guarded(server))
        asked.append(report.hard_turns.get("asked", 0))
    assert asked == [1, 1, 1, 0]
    assert len(turn_requests(server)) == 3
    with read_session(engine) as db:
        hard = [t for e in db.scalars(select(Episode)) for t in e.turns or [] if t["hard"]]
    assert len(hard) == 3 and all(t["by_model"] and t["kind"] == "correction" for t in hard)


def test_the_cap_goes_to_the_newest_sessions_and_tonights_comes_before_the_backlog(
    engine: Engine, cfg: Config, server: FakeAnthropic
) -> None:
    """A first pass over a long history leaves hard turns to later passes. The person's
    newest sessions are read first, and a session harvested since is asked about on the
    next pass, not after the backlog (stored earlier, it would come first in store order)."""
    cfg.mining.model_assisted = True
    cfg.mining.model_max_turns = 1
    for day in (0, 2, 1):  # harvested out of time order, as files are found
        session_on(engine, day, f"The toggle goes in the header, day {day}")
    answer = Reply(200, anthropic_message('{"kind": "follow_up"}'))
    server.script("/v1/messages", *[answer] * 10)

    def asked_about() -> list[str]:
        return [json.loads(b["messages"][0]["content"])["message"] for b in turn_requests(server)]  # type: ignore[index]

    mine(engine, cfg, now=LATER, backend=guarded(server))
    assert asked_about() == ["The toggle goes in the header, day 2"]
    session_on(engine, 9, "The toggle goes in the footer, tonight")
    mine(engine, cfg, now=LATER, backend=guarded(server))
    assert asked_about()[1:] == ["The toggle goes in the footer, tonight"]
    for _ in range(3):
        mine(engine, cfg, now=LATER, backend=guarded(server))
    assert asked_about()[2:] == [
        "The toggle goes in the header, day 1",
        "The toggle goes in the header, day 0",
    ]


def test_a_model_that_answers_nothing_is_not_asked_the_same_turns_each_pass(
    engine: Engine, cfg: Config, server: FakeAnthropic
) -> None:
    cfg.mining.model_assisted = True
    cfg.mining.model_max_turns = 1
    seed(engine, sessions=2)
    broken = Reply(200, anthropic_message("not json at all"))
    server.script("/v1/messages", *[broken] * 10)
    first = mine(engine, cfg, now=LATER, backend=guarded(server))
    assert (first.hard_turns["asked"], first.hard_turns["fallbacks"]) == (1, 1)
    again = mine(engine, cfg, now=LATER, backend=guarded(server))
    assert again.sessions_read_again == 0 and len(turn_requests(server)) == 1


def test_without_model_assistance_nothing_is_asked(
    engine: Engine, cfg: Config, server: FakeAnthropic
) -> None:
    seed(engine)
    report = mine(engine, cfg, now=LATER, backend=guarded(server))
    assert server.seen("/v1/messages") == []
    assert report.hard_turns == {"found": 1}  # read by the rules alone, and counted
    assert episodes(engine) == 1


def test_a_firm_reading_is_never_sent() -> None:
    class Raising:
        def complete(self, request: object) -> object:
            raise AssertionError("a firm decision must not reach the model")

    judge = TurnJudge(Raising(), max_calls=5)
    turn = TurnInput(text="/clear", has_episode=True)
    decision = classify_turn(TurnInput(text="perfect, thanks!", has_episode=True), lexicon_for())
    assert not decision.hard
    assert judge(turn, decision) is decision and judge.stats.asked == 0


def test_a_backend_that_raises_leaves_the_rules_reading() -> None:
    class Broken:
        def complete(self, request: object) -> object:
            raise RuntimeError("socket closed")

    judge = TurnJudge(Broken(), max_calls=5)
    turn = TurnInput(text=HARD_TURN, has_episode=True, agent_worked=True, agent_acted=False)
    decision = classify_turn(turn, lexicon_for())
    assert judge(turn, decision) is decision and judge.stats.fallbacks == 1


def test_the_real_session_bench_lets_the_model_read_the_hard_turns(
    server: FakeAnthropic, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`bench/mining_real.py --model-assisted`: the miner model reads every hard turn of
    the labelled sessions (no per-pass cap), and the figures are its readings."""
    bench = _load_bench()
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "SLEEPD_HOME"):
        monkeypatch.setenv(name, str(tmp_path / "unused"))  # predict() points them at its own
    fixtures = tmp_path / "fixtures"
    (fixtures / "claude").mkdir(parents=True)
    shutil.copyfile(REAL_SESSIONS / "claude" / BENCH_SESSION, fixtures / "claude" / BENCH_SESSION)
    answer = Reply(200, anthropic_message('{"kind": "steering"}'))
    server.script("/v1/messages", *[answer] * 50)  # one per request
    rules = bench.predict(fixtures)
    pred = bench.predict(fixtures, backend=guarded(server, max_usd=5.0))
    stats = pred.hard_turn_stats
    assert stats["asked"] >= 2 and stats["decided"] == stats["asked"] and stats["skipped"] == 0
    assert pred.hard == rules.hard  # the same turns were hard; the model read them
    steering = [key for key in pred.hard if pred.turns[key] == "steering"]
    assert len(steering) >= stats["decided"]
    assert all(rules.turns[k] == pred.turns[k] for k in rules.turns if k not in rules.hard)


REAL_SESSIONS = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions"
BENCH_SESSION = "ClusterCockpit__cc-backend__entire-checkpoints__52_552d244fc5_0_full.jsonl"


def _load_bench() -> Any:
    return load_bench("mining_real")


def test_a_first_turn_goes_to_the_model_only_after_the_agents_work() -> None:
    """A session's first request with nothing before it has nothing to weigh; one that
    answers the work a session opened with (a continued conversation) is read like any
    turn in an episode, and a hard reading of it is the model's to decide."""

    class Counting:
        calls = 0

        def complete(self, request: object) -> object:
            Counting.calls += 1
            raise RuntimeError("no answer here")

    judge = TurnJudge(Counting(), max_calls=5)
    hard = TurnDecision(TurnKind.FOLLOW_UP, 0.6, ("answers the agent",), hard=True)
    first = TurnInput(text="save the file to drive", has_episode=False)
    assert judge(first, hard) is hard and judge.stats.asked == 0
    continued = TurnInput(
        text="ok we are in rclone, save the file to drive",
        has_episode=False,
        agent_text="Tell me once you are in rclone.",
        agent_worked=True,
    )
    assert judge(continued, hard) is hard and judge.stats.asked == 1


def test_a_one_off_failure_becomes_a_task_once_the_model_read_its_request(
    engine: Engine, cfg: Config, server: FakeAnthropic
) -> None:
    """The rules alone leave a one-off failure they were unsure was a request of its own
    without a task (test_mine); the miner model's reading of that turn, here agreeing
    with the rules, is what lets it become one, and the store says the model read it."""
    cfg.mining.model_assisted = True
    unsure_one_off(engine)
    agree = Reply(200, anthropic_message('{"kind": "new_task"}'))
    # the session's last turn ("no, that's wrong, the tests still fail"), a correction the
    # rules also leave to the model, is read as one
    correction = Reply(200, anthropic_message('{"kind": "correction"}'))
    server.script("/v1/messages", agree, correction, *[agree] * 5)
    report = mine(engine, cfg, now=LATER, backend=guarded(server))
    assert report.hard_turns["decided"] >= 1
    with read_session(engine) as db:
        opened = {e.intent_text[:30]: e for e in db.scalars(select(Episode))}
        episode = opened[UNSURE_REQUEST[:30]]
        (opening,) = [t for t in episode.turns or [] if t["event_id"] == episode.intent_event_id]
        assert opening["hard"] and opening["by_model"] and opening["kind"] == "new_task"
        intents = [t.intent for t in db.scalars(select(Task))]
    assert [i for i in intents if "focus area" in i]


#: What the agent had said before each example the model's instructions quote.
FINISHED = "Done: the changelog is generated on every tag, and the tests pass."
OFFERED = "Done: the changelog is generated on every tag. Want me to set up releases too?"


@pytest.mark.parametrize(
    ("example", "agent_text", "kind"),
    [
        ("set up a release workflow that publishes to PyPI", OFFERED, TurnKind.NEW_TASK),
        ("looks too good to be true", FINISHED, TurnKind.CORRECTION),
        ("I am still skeptical, test it again", FINISHED, TurnKind.CORRECTION),
        ("continue", FINISHED, TurnKind.FOLLOW_UP),
        ("limits are reset, go on", FINISHED, TurnKind.FOLLOW_UP),
    ],
)
def test_the_models_instructions_never_quote_a_reading_the_rules_contradict(
    example: str, agent_text: str, kind: TurnKind
) -> None:
    """The model overrules the rules on the hard turns, so an example its instructions
    give for a kind must be one the rules read as that kind too (the instructions once
    listed "continue" under steering, where the rules and the labels read it as going on
    with the task)."""
    definition = SYSTEM.split(f"\n- {kind.value}: ")[1].split("\n- ")[0]
    assert f"'{example}'" in definition
    turn = TurnInput(
        text=example,
        has_episode=True,
        agent_worked=True,
        agent_acted=True,
        agent_text=agent_text,
        agent_ended=True,
        gap_s=60,
        request="Generate the changelog from the tags",
    )
    assert classify_turn(turn, lexicon_for()).kind is kind


def test_newest_first_keeps_subagents_last_and_sessions_without_a_time_after_dated_ones() -> None:
    from datetime import datetime

    from sleepd.mining.loading import SessionWork, newest_first

    def work(id_: int, kind: str, ts: datetime | None) -> SessionWork:
        return SessionWork(id_, kind, "/work/app", None, 0, 5, ts)

    naive = datetime(2026, 11, 3, 9, 0)  # SQLite hands times back without a zone
    items = [
        work(1, "main", T0),
        work(2, "subagent", T0 + timedelta(days=5)),
        work(3, "main", None),
        work(4, "main", naive),
        work(5, "main", T0 + timedelta(days=1)),
    ]
    assert [w.id for w in newest_first(items)] == [4, 5, 1, 3, 2]
