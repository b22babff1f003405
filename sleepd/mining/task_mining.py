"""The task step against the store: useful episodes without a task get one.

Useful = closed, a real intent, and either in a recurring cluster or failed with
a clear signal. The context comes from the intent and earlier events only; the
judge spec from the evidence after it (see `tasks`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, case, func, literal, or_, select, update
from sqlalchemy.orm import Session as DbSession

from sleepd.config import MiningConfig
from sleepd.mining.command_text import command_texts
from sleepd.mining.commands import (
    LOCAL_COMMAND_TAGS,
    SKILL_INVOKED,
    local_command_part,
    parse_command,
)
from sleepd.mining.model_miner import MinerStats, refine_spec
from sleepd.mining.recurrence import is_recurring
from sleepd.mining.replay_site import record_replay_sites
from sleepd.mining.session_commits import commits_before
from sleepd.mining.signals import replaced
from sleepd.mining.signatures import is_shell_tool
from sleepd.mining.splits import split_for_task
from sleepd.mining.tasks import (
    Evidence,
    LocalCommand,
    build_context,
    command_of,
    files_mentioned,
    heuristic_spec,
    local_commands_before,
    task_intent,
)
from sleepd.mining.turns import is_bare_answer, needs_context
from sleepd.mining.turns.asides import is_aside
from sleepd.mining.turns.changes import works_over_the_changes, works_the_branch_state
from sleepd.mining.turns.closing import is_closing_step
from sleepd.mining.turns.conversation import acts_on_the_conversation
from sleepd.mining.turns.outside import acts_only_outside, names_only_an_outside_item
from sleepd.mining.turns.text import request_region
from sleepd.mining.working_tree import left_uncommitted, names_a_file_made
from sleepd.store.models import Episode, Event, Session, Signal, Task, TaskCluster

#: Failures clear enough to replay even when the task has not recurred yet.
CLEAR_FAILURES = frozenset(
    {"user_correction", "test_failure", "undo", "abandoned", "tool_error", "tool_rejected"}
)
CLEAR_CONFIDENCE = 0.6
BATCH = 500


def refines_the_work(follow_up: str) -> bool:
    """Whether a follow-up says something of the work a replay is to make: not a bare
    answer or go-on ("3", "yes continue"), which means something only next to what it
    answered, nor a closing step ("commit this", "push", "open a PR"), what was done with
    the work once made (a replay makes the work offline, where a push has nowhere to go,
    and is judged on the work), nor an act in the tracker or the forge ("link the PR",
    "respond to the PR comments"), which a replay cannot do, nor an aside that says
    nothing of the work ("what's next?", "ok let's keep going": `turns.asides`)."""
    if is_bare_answer(follow_up):
        return False
    region = request_region(follow_up)
    return not (is_closing_step(region) or acts_only_outside(region) or is_aside(region))


#: Why a reading again retired a task (`Task.retired_because`), for the person who asks.
RETIRED_BECAUSE = {
    "made_otherwise": "today's rules make its episode's task otherwise (its request, "
    "refinements, context or judge spec changed); the new task is in the nights",
    "episode_gone": "today's rules read its request as part of another request, not one of its own",
    "plan_handed_on": "its episode only made a plan, which was taken as the next request "
    '("Implement the following plan: …"); that episode\'s task holds the request',
    "no_longer_a_task": "today's rules make no task of its episode (its request no longer "
    "recurs, or the episode holds no attempt to learn from)",
    "leans_on_exchange": "its request makes sense only after the exchange before it",
    "outside": "its only object or act is outside the repository (a pull request, a "
    "ticket, a tracker)",
    "uncommitted_changes": "it acts on changes the session had left uncommitted, which a "
    "replay's checkout does not hold",
    "branch_state": "it is a merge's conflicts or a rebase: the person's branches, not a checkout",
    "on_the_conversation": "its command acts on the conversation itself (archive, sum up, "
    "checkpoint), which a replay does not have",
    "file_made_uncommitted": "it names a file the session made and never committed",
}


@dataclass
class TaskResult:
    tasks_new: int = 0
    #: tasks set aside by a reading again that today's rules make again as they were
    taken_back: int = 0
    by_split: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    miner: MinerStats = field(default_factory=MinerStats)


def candidate_ids(db: DbSession) -> list[int]:
    """Ids of the closed intent episodes in a cluster that have no mined task in the
    nights: none yet, or one set aside when its session was read again (`persist`)."""
    has_task = select(Task.episode_id).where(
        Task.origin == "mined", Task.episode_id.is_not(None), Task.active.is_(True)
    )
    return list(
        db.scalars(
            select(Episode.id)
            .join(Session, Session.id == Episode.session_id)
            .where(
                Episode.is_closed.is_(True),
                Episode.cluster_id.is_not(None),
                Episode.parent_episode_id.is_(None),
                Session.kind != "subagent",
                Episode.id.not_in(has_task),
            )
            .order_by(Episode.id)
        )
    )


def mine_tasks(db: DbSession, cfg: MiningConfig, *, backend: Any = None) -> TaskResult:
    """Tasks for the candidate episodes, BATCH at a time: a batch's objects leave the
    session once written, so memory does not grow with the history."""
    result = TaskResult()
    ids = candidate_ids(db)
    for start in range(0, len(ids), BATCH):
        chunk = ids[start : start + BATCH]
        episodes = list(
            db.scalars(select(Episode).where(Episode.id.in_(chunk)).order_by(Episode.id))
        )
        _mine_batch(db, cfg, episodes, backend, result)
        db.flush()
        db.expunge_all()
    return result


def _mine_batch(
    db: DbSession,
    cfg: MiningConfig,
    episodes: Sequence[Episode],
    backend: Any,
    result: TaskResult,
) -> None:
    ids = [e.id for e in episodes]
    signals: dict[int, list[Signal]] = defaultdict(list)
    for signal in db.scalars(select(Signal).where(Signal.episode_id.in_(ids))):
        signals[signal.episode_id].append(signal)
    cluster_ids = {e.cluster_id for e in episodes}
    clusters = {
        c.id: c for c in db.scalars(select(TaskCluster).where(TaskCluster.id.in_(cluster_ids)))
    }
    session_ids = {e.session_id for e in episodes}
    sessions = {s.id: s for s in db.scalars(select(Session).where(Session.id.in_(session_ids)))}
    intents: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for session_id, start_seq, text in db.execute(
        select(Episode.session_id, Episode.start_seq, Episode.intent_text)
        .where(Episode.session_id.in_(session_ids), Episode.parent_episode_id.is_(None))
        .order_by(Episode.start_seq)
    ):
        intents[session_id].append((start_seq, text))
    events, commands = _load_events(db, [s for group in signals.values() for s in group])
    useful = [
        (episode, cluster)
        for episode in episodes
        if (cluster := clusters.get(episode.cluster_id or 0)) is not None
        and _useful(episode, cluster, signals[episode.id], cfg)
    ]
    began = _agent_began(db, [episode.id for episode, _ in useful])
    useful = [(episode, cluster) for episode, cluster in useful if episode.id in began]
    shown = _local_commands(db, [episode for episode, _ in useful])
    requests = {episode.id: request_region(episode.intent_text or "") for episode, _ in useful}
    over_the_changes = {e.id for e, _ in useful if works_over_the_changes(requests[e.id])}
    # what each session left uncommitted, read once for the requests over the changes at
    # hand and for those naming files
    left = left_uncommitted(
        db,
        [e for e, _ in useful if e.id in over_the_changes or files_mentioned(e.intent_text or "")],
    )
    # what each command asked of the agent, read from the text it expanded to
    commanded = command_texts(
        db,
        [
            e
            for e, _ in useful
            if parse_command(requests[e.id]) or SKILL_INVOKED.match(e.intent_text or "")
        ],
    )
    # what each session had committed before the request (its work, in the checkout)
    committed = commits_before(db, [e for e, _ in useful])
    aside: dict[int, Task] = {
        task.episode_id: task
        for task in db.scalars(
            select(Task).where(
                Task.episode_id.in_(ids), Task.origin == "mined", Task.active.is_(False)
            )
        )
        if task.episode_id is not None
    }
    taken_back: list[int] = []
    #: the episodes a rule below left without a task, and the rule
    passed_over: dict[int, str] = {}
    for episode, cluster in useful:
        local_commands = shown.get(episode.id, [])
        reason = _no_task_because(
            episode,
            requests[episode.id],
            shown=bool(local_commands),
            uncommitted=episode.id in over_the_changes and episode.id in left,
            on_the_conversation=acts_on_the_conversation(commanded.get(episode.id, "")),
            made=left.get(episode.id, frozenset()),
        )
        if reason:
            passed_over[episode.id] = reason
            continue
        session = sessions[episode.session_id]
        instructions = commanded.get(episode.id, "")
        evidence = _evidence(episode, signals[episode.id], events, commands, instructions)
        spec = heuristic_spec(evidence)
        task = Task(
            episode_id=episode.id,
            cluster_id=cluster.id,
            project_path=episode.project_path,
            intent=task_intent(
                episode.intent_text,
                [r for r in episode.refinements or [] if refines_the_work(r)],
            ),
            context=build_context(
                episode.intent_text,
                project_path=episode.project_path,
                git_branch=session.git_branch,
                prior_intent=_prior_intent(intents[episode.session_id], episode.start_seq),
                local_commands=local_commands,
                command_text=instructions,
                committed_before=committed.get(episode.id, ()),
            ),
            judge_spec=spec.to_dict(),
            split=split_for_task(cluster.split, "mined"),
            origin="mined",
            outcome=episode.outcome,
        )
        earlier = aside.pop(episode.id, None)
        if earlier is not None and _made_alike(earlier, task, model_spec=cfg.model_assisted):
            taken_back.append(earlier.id)
            continue
        if earlier is not None:
            earlier.episode_id = None  # retired for good: the episode's task is the new one
            earlier.retired_because = "made_otherwise"
            db.flush()
        if cfg.model_assisted and backend is not None:
            task.judge_spec = refine_spec(backend, evidence, spec, result.miner).to_dict()
        db.add(task)
        result.tasks_new += 1
        result.by_split[task.split] += 1
    for episode_id, earlier in aside.items():
        earlier.episode_id = None  # today's rules make no task of its episode: retired
        earlier.retired_because = passed_over.get(episode_id, "no_longer_a_task")
    _take_back(db, taken_back)
    result.taken_back += len(taken_back)
    db.flush()
    record_replay_sites(db, ids)  # where each new task can be replayed with tools


def _no_task_because(
    episode: Episode,
    request: str,
    *,
    shown: bool,
    uncommitted: bool,
    on_the_conversation: bool,
    made: frozenset[str],
) -> str:
    """Which rule leaves a useful episode without a replay task (a `RETIRED_BECAUSE`
    key), or "" when it makes one."""
    if needs_context(episode.intent_text or "", shown=shown):
        return "leans_on_exchange"  # "Did you commit?" opening a resumed session
    if names_only_an_outside_item(request) or acts_only_outside(request):
        return "outside"  # "review pr 227", "log a linear bug": not in the checkout
    if uncommitted:
        return "uncommitted_changes"  # "/simplify" over what the session left uncommitted
    if works_the_branch_state(request):
        return "branch_state"  # a merge's conflicts: in the person's working tree
    if on_the_conversation:
        return "on_the_conversation"  # "/transcript", "/checkpoint"
    if names_a_file_made(request, made):
        return "file_made_uncommitted"  # "implement docs/plan.md", never committed
    return ""


def _made_alike(earlier: Task, made: Task, *, model_spec: bool) -> bool:
    """A task set aside is what today's rules make of its episode: the same request,
    context, split and outcome, and the same judge spec (when the miner model may have
    written the one stored, the evidence it read is the same episode's, and it stands)."""
    return (
        earlier.intent == made.intent
        and earlier.context == made.context
        and earlier.split == made.split
        and earlier.cluster_id == made.cluster_id
        and earlier.project_path == made.project_path
        and earlier.outcome == made.outcome
        and (model_spec or earlier.judge_spec == made.judge_spec)
    )


def _take_back(db: DbSession, task_ids: Sequence[int]) -> None:
    """Back in the nights, with the variants made of them."""
    for start in range(0, len(task_ids), BATCH):
        chunk = task_ids[start : start + BATCH]
        db.execute(
            update(Task)
            .where(or_(Task.id.in_(chunk), Task.derived_from_task_id.in_(chunk)))
            .values(active=True)
            .execution_options(synchronize_session="fetch")
        )


def _useful(
    episode: Episode, cluster: TaskCluster, signals: Sequence[Signal], cfg: MiningConfig
) -> bool:
    if is_recurring(cluster, cfg):
        return True
    return (
        episode.outcome == "failure"
        and read_as_its_own_request(episode)
        and any(
            s.kind in CLEAR_FAILURES and s.polarity < 0 and s.confidence >= CLEAR_CONFIDENCE
            for s in signals
        )
    )


def _agent_began(db: DbSession, episode_ids: Sequence[int]) -> set[int]:
    """The episodes in which the agent took up the request. In the others its service
    answered for it ("Invalid API key · Please run /login", a usage limit) or nothing did
    (a message with no words: a proxy's stream stored as a record of single characters):
    there is no attempt to learn from, and a program that sent the request again and again
    (an orchestrator's retries of "Work on issue #2643 …") makes no task."""
    if not episode_ids:
        return set()
    said = and_(Event.kind == "assistant_text", func.length(func.trim(Event.text)) > 0)
    worked = (
        select(Event.id)
        .where(
            Event.session_id == Episode.session_id,
            Event.seq > Episode.start_seq,
            Event.seq <= Episode.end_seq,
            or_(Event.kind == "tool_call", said),
        )
        .exists()
    )
    return set(db.scalars(select(Episode.id).where(Episode.id.in_(episode_ids), worked)))


def read_as_its_own_request(episode: Episode) -> bool:
    """Whether the turn that opened the episode was read surely as a request of its own.

    A one-off failure has only its own episode to show that it was a request at all: when
    the rules found its opening turn hard to tell from a follow-up and no model read it,
    a task made of it may be a bare follow-up, which a replay cannot act on without the
    exchange before it. Such a request becomes a task once it recurs, or once the miner
    model has read it (model-assisted mining). Episodes stored before turns were recorded
    keep their earlier standing."""
    opening = next(
        (t for t in episode.turns or [] if t.get("event_id") == episode.intent_event_id), None
    )
    return opening is None or not opening.get("hard") or bool(opening.get("by_model"))


def _local_commands(db: DbSession, episodes: Sequence[Episode]) -> dict[int, list[LocalCommand]]:
    """Per episode: the commands the person ran themselves (and what they printed)
    after their previous typed turn and before the episode's request, in one query
    for the batch."""
    intents = {e.intent_event_id: e.id for e in episodes if e.intent_event_id}
    if not intents:
        return {}
    ran = or_(*(Event.text.startswith(tag) for tag in LOCAL_COMMAND_TAGS))
    rows = db.execute(
        # a typed turn's text is not needed, only where it falls
        select(Event.id, Event.session_id, case((ran, Event.text), else_=literal("")))
        .where(
            Event.session_id.in_({e.session_id for e in episodes}),
            Event.role == "user",
            or_(Event.kind == "user_prompt", ran),
        )
        .order_by(Event.session_id, Event.seq)
    )
    found: dict[int, list[LocalCommand]] = {}
    parts: list[tuple[str, str]] = []
    session = None
    for event_id, session_id, text in rows:
        if session_id != session:
            session, parts = session_id, []
        part = local_command_part(text or "")
        if event_id in intents:
            if parts:
                found[intents[event_id]] = local_commands_before(parts)
            parts = []
        elif part is not None:
            parts.append(part)
        else:
            parts = []  # a typed turn in between: what came before it was seen already
    return found


def _prior_intent(session_intents: Sequence[tuple[int, str]], start_seq: int) -> str | None:
    """The previous intent of the same session (it was typed before this one)."""
    earlier = [text for seq, text in session_intents if seq < start_seq]
    return earlier[-1] if earlier else None


def _load_events(
    db: DbSession, signals: Sequence[Signal]
) -> tuple[dict[int, Event], dict[int, str]]:
    """The events the signals cite, and the shell command behind each cited tool result
    (result event id → command), in two queries for the whole batch."""
    wanted = {i for s in signals for i in s.event_ids}
    events = {e.id: e for e in db.scalars(select(Event).where(Event.id.in_(wanted)))}
    results = [
        e
        for s in signals
        if s.kind == "tool_error_recovered"
        for e in (events.get(i) for i in s.event_ids)
        if e is not None and e.kind == "tool_result" and e.call_id
    ]
    commands: dict[int, str] = {}
    if not results:
        return events, commands
    keys = {(r.session_id, r.call_id) for r in results}
    calls: dict[tuple[int, str], Event] = {}
    for start in range(0, len(results), 400):
        chunk = results[start : start + 400]
        rows = db.scalars(
            select(Event).where(
                Event.kind == "tool_call",
                Event.session_id.in_({r.session_id for r in chunk}),
                Event.call_id.in_({r.call_id for r in chunk}),
            )
        )
        for call in rows:
            key = (call.session_id, call.call_id or "")
            if key in keys:
                calls.setdefault(key, call)
    for result in results:
        found = calls.get((result.session_id, result.call_id or ""))
        if found is not None and is_shell_tool(found.tool_name):
            commands[result.id] = command_of(found.text)
    return events, commands


def _evidence(
    episode: Episode,
    signals: Sequence[Signal],
    events: dict[int, Event],
    commands: dict[int, str],
    command_text: str = "",
) -> Evidence:
    evidence = Evidence(
        intent_text=episode.intent_text, outcome=episode.outcome, command_text=command_text
    )
    for signal in signals:
        if signal.kind == "user_correction":
            for event_id in signal.event_ids:
                if event_id in events:
                    evidence.corrections.append((event_id, events[event_id].text[:2000]))
        elif signal.kind == "approval" and signal.event_ids and signal.event_ids[0] in events:
            evidence.approval = events[signal.event_ids[0]].text[:300]
        elif signal.kind == "tool_error_recovered":
            results = [events[i] for i in signal.event_ids if i in events]
            results = [e for e in results if e.kind == "tool_result"]
            found = [commands.get(e.id, "") for e in results]
            if len(found) >= 2 and replaced(results[0].text, found[0], found[-1]):
                # a command that failed and then passed, or that something else merely
                # followed, was the right command: only one another stood in for was wrong
                evidence.recovered.append((list(signal.event_ids), found[0], found[-1]))
    return evidence
