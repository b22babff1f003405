"""A custom slash command's name is its task's family."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.mining.commands import runs_instruction_file, runs_saved_prompt
from sleepd.mining.lexicon import lexicon_for
from sleepd.mining.mine import mine
from sleepd.mining.turns import TurnInput, TurnKind, classify_turn
from sleepd.store.engine import read_session
from sleepd.store.models import Episode

from .builders import DONE, LATER, T0, SessionBuilder


def command(name: str, args: str = "") -> str:
    """A custom command as Claude Code stores it (`<command-name>` and friends)."""
    return (
        f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>\n"
        f"<command-args>{args}</command-args>"
    )


def clusters_of(engine: Engine, cfg: Config, prompts: list[str]) -> list[int | None]:
    """Each prompt as a session of its own, a day apart, mined: their episodes' clusters."""
    for day, prompt in enumerate(prompts):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt(prompt).say(DONE).save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        return list(db.scalars(select(Episode.cluster_id).order_by(Episode.id)))


@pytest.mark.both_dbs
def test_runs_of_one_command_recur_and_two_commands_stay_apart(engine: Engine, cfg: Config) -> None:
    # the BMAD workflow commands of a real project (wild sample, ShamsiievDmytro/metrics)
    prompts = [
        command("bmad-dev-story"),
        command("bmad-create-story"),
        command("bmad-dev-story", "@_bmad-output/prd.md"),
        command("bmad-create-story"),
        command("release", "patch"),
        command("release", "minor"),
        "release a patch version of the cli",
    ]
    for day, prompt in enumerate(prompts):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt(prompt).say(DONE).save(engine)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        rows = db.execute(select(Episode.intent_text, Episode.cluster_id).order_by(Episode.id))
        cluster = {text: cid for text, cid in rows}
    assert cluster["/bmad-dev-story"] == cluster["/bmad-dev-story @_bmad-output/prd.md"]
    assert cluster["/bmad-create-story"] != cluster["/bmad-dev-story"]
    assert cluster["/release patch"] == cluster["/release minor"]
    assert cluster["release a patch version of the cli"] != cluster["/release patch"]


@pytest.mark.both_dbs
def test_a_request_made_in_a_mode_recurs_with_the_same_words_typed_plainly(
    engine: Engine, cfg: Config
) -> None:
    # `/goal` and `/plan` switch how the agent works, not what it is asked: their words
    # are the request, and no template of the command's makes them
    condition = "all tests in test/auth pass and the lint step is clean"
    prompts = [
        command("goal", condition),
        f"make sure {condition}",
        command("plan", "add a dark theme to the settings page"),
        "add a dark theme to the settings page",
        command("release", "patch"),
    ]
    goal, typed, plan, plain, release = clusters_of(engine, cfg, prompts)
    assert goal == typed
    assert plan == plain
    assert release not in {goal, plan}


#: spec-kit's frame (github/spec-kit, MIT): every template opens with the person's words
#: in a slot, then its own outline.
FRAME = (
    "## User Input\n\n```text\n{args}\n```\n\n"
    "You **MUST** consider the user input before proceeding (if not empty).\n\n## Outline\n\n"
)
PLAN_STEPS = [
    "1. **Setup**: Run `.specify/scripts/bash/setup-plan.sh --json` from repo root.",
    "2. **Load context**: Read FEATURE_SPEC and `.specify/memory/constitution.md`.",
    "3. **Execute plan workflow**: Follow the structure in IMPL_PLAN template to fill it.",
    "4. **Stop and report**: Command ends after Phase 2 planning. Report branch and paths.",
    "Phase 0: Outline & Research - extract unknowns from Technical Context above.",
    "Phase 1: Design & Contracts - extract entities from the feature spec to data-model.md.",
    "Generate API contracts from functional requirements for each user action.",
    "Agent context update: run the update-agent-context script for the agent in use.",
]
IMPLEMENT_STEPS = [
    "1. Run `.specify/scripts/bash/check-prerequisites.sh --json --require-tasks` first.",
    "2. Check checklists status (if FEATURE_DIR/checklists/ exists) before implementing.",
    "3. Load and analyze the implementation context: tasks.md, plan.md, data-model.md.",
    "4. Project Setup Verification: create or verify ignore files based on the setup.",
    "5. Parse tasks.md structure and extract task phases, dependencies and details.",
    "6. Execute implementation following the task plan, phase by phase, in order.",
    "7. Progress tracking and error handling: report progress after each task.",
    "8. Completion validation: verify all required tasks are completed and tests pass.",
]


def expanded(steps: list[str], args: str) -> str:
    return FRAME.format(args=args) + "\n".join(steps)


@pytest.mark.both_dbs
def test_runs_of_one_prompt_template_recur_and_two_templates_stay_apart(
    engine: Engine, cfg: Config
) -> None:
    # wild sample 5 (Codex sessions of spec-kit users, not in the repository): the
    # templates arrive expanded, with no command name, and `plan`, `tasks` and
    # `implement` runs had fallen into one "recurring" cluster
    prompts = [
        expanded(PLAN_STEPS, ""),
        expanded(IMPLEMENT_STEPS, "do tasks T012 - T016"),
        expanded(PLAN_STEPS, "use the REST contracts from the spec"),
        expanded(IMPLEMENT_STEPS, "pls implement the tasks on T017 - T036"),
        expanded(IMPLEMENT_STEPS, ""),
        # a long request of its own, sharing the frame's words but none of its lines
        "## Context\n\nWe are planning the implementation of the user input form and the "
        "tasks that follow from it. You must consider the constitution before proceeding.\n"
        + "\n".join(
            f"- step {n}: implement the {n}th part of the feature as planned" for n in range(12)
        ),
    ]
    plan_a, implement_a, plan_b, implement_b, implement_c, own = clusters_of(engine, cfg, prompts)
    assert plan_a == plan_b
    assert implement_a == implement_b == implement_c
    assert plan_a != implement_a
    assert own not in {plan_a, implement_a}


@pytest.mark.both_dbs
def test_a_template_met_again_on_a_later_night_joins_its_family(
    engine: Engine, cfg: Config
) -> None:
    for day, args in enumerate(["T001 - T004", "T005 - T009"]):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt(expanded(IMPLEMENT_STEPS, args)).say(DONE).save(engine)
    mine(engine, cfg, now=LATER)
    b = SessionBuilder(start=T0 + timedelta(days=5))
    b.prompt(expanded(IMPLEMENT_STEPS, "the last phase, T040 - T052")).say(DONE).save(engine)
    b = SessionBuilder(start=T0 + timedelta(days=6))
    b.prompt(expanded(PLAN_STEPS, "")).say(DONE).save(engine)
    mine(engine, cfg, now=LATER + timedelta(days=7))
    with read_session(engine) as db:
        first, second, later, plan = list(
            db.scalars(select(Episode.cluster_id).order_by(Episode.id))
        )
    assert first == second == later
    assert plan != first


@pytest.mark.both_dbs
def test_a_template_task_is_listed_by_the_words_typed_into_it(engine: Engine, cfg: Config) -> None:
    from sleepd.mining.figures import task_rows

    slots = ["do tasks T012 - T016", "pls implement the tasks on T017 - T036", "T037-T056"]
    for day, slot in enumerate(slots):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt(expanded(IMPLEMENT_STEPS, slot)).say(DONE).save(engine)
    mine(engine, cfg, now=LATER)
    rows = task_rows(engine, min_recurrence=cfg.mining.min_recurrence)
    typed = {row["template"]["typed"] for row in rows if row["template"]}
    assert typed and typed <= set(slots)
    assert all(row["template"] for row in rows)


@pytest.mark.both_dbs
def test_runs_of_one_codex_skill_are_one_family(engine: Engine, cfg: Config) -> None:
    # wild sample 9 (not in the repository): Codex writes `$ba-pro` as a link to the skill
    def skill(name: str, args: str) -> str:
        return f"[${name}](/Users/kane/.codex/skills/{name}/SKILL.md) {args}"

    prompts = [
        skill("ba-pro", "viết BRD cho module đặt phòng"),
        skill("ba-pro", "viết user story cho thanh toán"),
        skill("skill-creator", "tạo skill cho dự án này"),
    ]
    first, second, other = clusters_of(engine, cfg, prompts)
    assert first == second
    assert other != first


@pytest.mark.both_dbs
def test_runs_of_a_saved_prompt_typed_as_its_path_are_one_family(
    engine: Engine, cfg: Config
) -> None:
    # wild sample 11 (not in the repository): "/prompts:plan" typed as the prompt's path
    prompts = [".codex/prompts/plan.md", ".codex/prompts/plan.md", ".codex/prompts/clarify.md"]
    first, second, other = clusters_of(engine, cfg, prompts)
    assert first == second
    assert other != first


#: BMAD's Codex launchers as wild sample 24 held them (EdouardZemb/test-framework, not in
#: the repository): a workflow run, and the steps form that loads the task engine first.
BMAD_WORKFLOW = (
    "\nIT IS CRITICAL THAT YOU FOLLOW THIS COMMAND: LOAD the FULL @bmad/bmm/workflows/"
    "3-solutioning/{name}/workflow.md, READ its entire contents and follow its directions "
    "exactly!\n"
)
BMAD_STEPS = (
    "\nIT IS CRITICAL THAT YOU FOLLOW THESE STEPS - while staying in character as the current "
    'agent persona you may have loaded:\n\n<steps CRITICAL="TRUE">\n1. Always LOAD the FULL '
    "@bmad/core/tasks/workflow.xml\n2. READ its entire contents - this is the CORE OS for "
    "EXECUTING the specific workflow-config @bmad/bmm/workflows/4-implementation/{name}/"
    "workflow.yaml\n3. Follow workflow.xml instructions EXACTLY as written\n</steps>\n"
)


def test_an_order_to_load_and_follow_an_instruction_file_is_a_command_run() -> None:
    assert runs_instruction_file(BMAD_WORKFLOW.format(name="create-architecture")) == (
        "create-architecture"
    )
    assert runs_instruction_file(BMAD_STEPS.format(name="correct-course")) == "correct-course"
    typed = "please read .claude/commands/release.md and follow its steps for v2"
    assert runs_instruction_file(typed) == "release"
    assert runs_saved_prompt(typed)
    # loading a file without an order to follow it, following no file, a CI workflow
    assert runs_instruction_file("read docs/workflows/deploy.md and tell me what is wrong") is None
    assert runs_instruction_file("follow the steps exactly as the README says") is None
    ci = "read .github/workflows/ci.yml and follow the steps exactly to reproduce it locally"
    assert runs_instruction_file(ci) is None


def test_a_launcher_typed_mid_session_opens_a_task_and_runs_of_it_are_one_family(
    engine: Engine, cfg: Config
) -> None:
    decision = classify_turn(
        TurnInput(
            text=BMAD_WORKFLOW.format(name="check-implementation-readiness"),
            has_episode=True,
            agent_text="The architecture workflow is already complete.",
            agent_worked=True,
        ),
        lexicon_for(),
    )
    assert decision.kind is TurnKind.NEW_TASK
    prompts = [
        BMAD_WORKFLOW.format(name="create-architecture"),
        BMAD_WORKFLOW.format(name="create-architecture"),
        BMAD_STEPS.format(name="correct-course"),
    ]
    first, second, other = clusters_of(engine, cfg, prompts)
    assert first == second
    assert other != first


@pytest.mark.both_dbs
def test_a_saved_prompt_is_named_by_its_first_line_of_its_own(engine: Engine, cfg: Config) -> None:
    """spec-kit's plan and implement share their frame ("You **MUST** consider the user
    input …"); each is named by its first step, which the other does not share, and a
    run's folded refinements are no words typed into the prompt."""
    from sleepd.cli.mine_cmd import _request_shown
    from sleepd.mining.figures import task_rows

    for day in range(2):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt(expanded(IMPLEMENT_STEPS, f"T00{day}")).say(DONE).save(engine)
        b = SessionBuilder(start=T0 + timedelta(days=day, hours=1))
        b.prompt(expanded(PLAN_STEPS, ""))
        b.say("Which database should the plan assume?").prompt("keep it on SQLite for now")
        b.say(DONE).save(engine)
    mine(engine, cfg, now=LATER)
    shown = {_request_shown(row) for row in task_rows(engine, min_recurrence=2)}
    implement = {s for s in shown if "check-prerequisites.sh" in s}
    plan = {s for s in shown if "setup-plan.sh" in s}
    assert implement and plan and implement | plan == shown
    assert all("typed into it: T00" in s for s in implement)
    assert all(s.endswith("run with nothing typed (+1 refinement)") for s in plan)
    assert not any("MUST" in s or "Refinements" in s for s in shown)


def test_a_template_title_is_its_heading_or_first_line_with_words() -> None:
    from sleepd.mining.templates import template_titles

    def title(founder: str, *others: str) -> str:
        return template_titles({0: founder, **{n + 1: o for n, o in enumerate(others)}})[0]

    butler = "# /butler-exec — Execute a ButlerSpec\n\nPurpose: run a single ButlerSpec file."
    assert title(butler) == "/butler-exec — Execute a ButlerSpec"
    # shared by every other template: the first line of its own names it
    assert (
        title(
            "Read the repo first.\nThen write docs/plan.md for it.",
            "Read the repo first.\nThen run the tests.",
        )
        == "Then write docs/plan.md for it."
    )
    # markdown's marks go, an identifier's underscores stay
    assert title("## **Check** FEATURE_DIR and `setup_plan.sh`") == (
        "Check FEATURE_DIR and setup_plan.sh"
    )
    long = "x " * 100
    assert title(long).endswith("…") and len(title(long)) <= 62
