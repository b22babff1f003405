"""Which tasks a night replays with tools, with which agents, and which it may gate.

`plan_modes` resolves `replay.mode` per task: tools where the repository, the commit
and a test command are known (mined, or the per-project override) and an agent that
reads the target document is installed; text otherwise (in `auto`), or not at all
(in `tools`, counted). A document read by more than one agent becomes one unit per
consumer. `screen_fidelity` replays the validation units under the document the
original session had and keeps only those that reproduce the original outcome often
enough. `consumer_regressions` names the consumers a candidate made worse.
"""

from __future__ import annotations

import shlex
import shutil
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session as OrmSession

from sleepd.config import Config
from sleepd.dream.replay import Replayer, ReplayTask, RolloutResult
from sleepd.dream.targets import PreparedTarget
from sleepd.dream.tool_replay import ReplaySite, ToolReplayer, ToolSettings
from sleepd.mining.replay_site import TestCommand, git
from sleepd.store.models import Episode, Session, Task, TaskReplaySite, utcnow

#: Original outcome → what a faithful replay of the first attempt does. "mixed" means
#: the agent failed first and was put right: the replay reproduces the first attempt.
EXPECTED_SUCCESS = {"success": True, "failure": False, "mixed": False}
CONSUMERS_BY_KIND = {"skill": ("claude",), "claude": ("claude",), "agents": ("codex",)}


@dataclass
class ModePlan:
    mode: str
    tasks: dict[str, list[ReplayTask]]
    tools_tasks: int = 0
    text_tasks: int = 0
    excluded: dict[str, int] = field(default_factory=dict)
    consumers: list[str] = field(default_factory=list)
    fidelity: dict[str, Any] = field(default_factory=dict)

    @property
    def used(self) -> str:
        if self.tools_tasks and self.text_tasks:
            return "mixed"
        return "tools" if self.tools_tasks else "text"

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "used": self.used,
            "tools_tasks": self.tools_tasks,
            "text_tasks": self.text_tasks,
            "excluded": dict(self.excluded),
            "consumers": self.consumers,
            "fidelity": self.fidelity,
        }


def document_relpath(spec_path: Path, kind: str, repo_root: str) -> str:
    """Where the agent reads the document inside a checkout of `repo_root`."""
    try:
        return str(Path(spec_path).resolve().relative_to(Path(repo_root).resolve()))
    except ValueError:
        pass
    if kind == "skill":
        name = Path(spec_path).parent.name or "sleepd"
        return f".claude/skills/{name}/SKILL.md"
    return "AGENTS.md" if kind == "agents" else "CLAUDE.md"


def consumers_for(kind: str, repo_root: str, commit: str, cfg: Config) -> list[str]:
    """The installed agents that read this kind of document (an imported AGENTS.md too)."""
    readers = list(CONSUMERS_BY_KIND.get(kind, ()))
    if kind == "agents":
        claude_md = git(["show", f"{commit}:CLAUDE.md"], repo_root) or ""
        if "@AGENTS.md" in claude_md:
            readers.append("claude")
    executables = {"claude": cfg.backends.claude_executable, "codex": cfg.backends.codex_executable}
    return [r for r in readers if r in cfg.replay.agents and shutil.which(executables[r])]


def _override_command(text: str) -> TestCommand | None:
    try:
        argv = shlex.split(text)
    except ValueError:
        return None
    return TestCommand(tuple(argv)) if argv else None


def site_for(
    row: TaskReplaySite | None, cfg: Config, project: str
) -> tuple[str, str, TestCommand] | str:
    """(repo root, commit, test command), or the reason the task cannot act."""
    override = cfg.replay.projects.get(project)
    if row is None:
        return "not mined for tools yet"
    root = (override.repository if override and override.repository else None) or row.repo_root
    command = None
    if override and override.test_command:
        command = _override_command(override.test_command)
    if command is None:
        commands = [TestCommand.from_dict(c) for c in row.test_commands or []]
        command = next((c for c in commands if c is not None), None)
    if not root:
        return row.problem or "no repository"
    if not row.commit:
        return row.problem or "no commit"
    if command is None:
        return "no test command (set replay.projects test_command)"
    return root, row.commit, command


def plan_modes(
    db: OrmSession,
    cfg: Config,
    project: str,
    target: PreparedTarget,
    tasks: dict[str, list[ReplayTask]],
) -> ModePlan:
    mode = cfg.replay.mode
    plan = ModePlan(mode=mode, tasks={split: [] for split in tasks})
    ids = [int(t.id) for split in tasks.values() for t in split]
    rows = {
        r.task_id: r
        for r in db.scalars(select(TaskReplaySite).where(TaskReplaySite.task_id.in_(ids or [-1])))
    }
    outcomes = unassisted_outcomes(db, ids)
    branches: dict[int, str | None] = {
        task_id: branch
        for task_id, branch in db.execute(
            select(Task.id, Session.git_branch)
            .join(Episode, Episode.id == Task.episode_id)
            .join(Session, Session.id == Episode.session_id)
            .where(Task.id.in_(ids or [-1]))
        )
    }
    consumers_seen: set[str] = set()
    for split, split_tasks in tasks.items():
        for task in split_tasks:
            if mode == "text":
                plan.tasks[split].append(task)
                plan.text_tasks += 1
                continue
            found = site_for(rows.get(int(task.id)), cfg, project)
            consumers: list[str] = []
            if not isinstance(found, str):
                root, commit, command = found
                consumers = consumers_for(target.spec.kind, root, commit, cfg)
                if not consumers:
                    found = "no installed agent reads this document"
            if isinstance(found, str):
                if mode == "tools":
                    plan.excluded[found] = plan.excluded.get(found, 0) + 1
                else:
                    plan.tasks[split].append(task)
                    plan.text_tasks += 1
                continue
            root, commit, command = found
            row = rows[int(task.id)]
            site = ReplaySite(
                repo_root=root,
                commit=commit,
                test_command=command,
                document_path=document_relpath(target.spec.path, target.spec.kind, root),
                project_name=Path(root).name,
                failing_tests=tuple(str(n) for n in row.failing_tests or []),
                original_outcome=str(outcomes.get(int(task.id), "unknown")),
                # (the branch the work tree had moved to by the request, else the session's)
                branch=row.branch or branches.get(int(task.id)),
            )
            for consumer in consumers:
                plan.tasks[split].append(replace(task, site=site, consumer=consumer))
                consumers_seen.add(consumer)
            plan.tools_tasks += 1
    plan.consumers = sorted(consumers_seen)
    return plan


def unassisted_outcomes(db: OrmSession, task_ids: list[int]) -> dict[int, str]:
    """Each task's outcome as the agent reached it on its own, under the original document.

    Fidelity replays the opening request under the original document with no user in
    the loop, so a session that succeeded only after the user corrected the agent
    (`*_after_correction`) is "mixed": its unassisted attempt failed.
    """
    rows = db.execute(
        select(Task.id, Task.outcome, Episode.outcome_rule)
        .join(Episode, Episode.id == Task.episode_id, isouter=True)
        .where(Task.id.in_(task_ids or [-1]))
    ).all()
    return {
        int(task_id): "mixed"
        if outcome == "success" and str(rule or "").endswith("_after_correction")
        else str(outcome)
        for task_id, outcome, rule in rows
    }


def original_document(site: ReplaySite, fallback: str) -> str:
    """The document as the session had it: the file at the commit, else today's base."""
    at_commit = git(["show", f"{site.commit}:{site.document_path}"], site.repo_root)
    return at_commit if at_commit is not None else fallback


def screen_fidelity(
    db_write: Any,
    replayer: Replayer,
    units: Sequence[ReplayTask],
    fallback_document: str,
    *,
    k: int,
    index_offset: int,
    min_fidelity: float,
    night_id: int,
) -> tuple[list[ReplayTask], dict[str, Any]]:
    """Replay tool units under the original document; keep those faithful enough.

    Text units and units whose original outcome is unknown pass through unmeasured.
    `db_write` is a context-manager factory for a write session (the night's).
    """
    measurable = [
        u for u in units if u.site is not None and u.site.original_outcome in EXPECTED_SUCCESS
    ]
    by_doc: dict[str, list[ReplayTask]] = defaultdict(list)
    for unit in measurable:
        by_doc[original_document(unit.site, fallback_document)].append(unit)
    results: list[RolloutResult] = []
    for document, group in by_doc.items():
        results += replayer.run(group, document, "fidelity", range(index_offset, index_offset + k))
    matched: dict[str, list[bool]] = defaultdict(list)
    for result in results:
        if result.judgement.success is None:
            continue
        expected = EXPECTED_SUCCESS[result.task.site.original_outcome]
        matched[result.task.unit].append(result.judgement.success == expected)
    kept: list[ReplayTask] = []
    excluded = 0
    shares: list[float] = []
    per_task: dict[int, list[bool]] = defaultdict(list)
    for unit in units:
        if unit not in measurable:
            kept.append(unit)
            continue
        outcomes = matched.get(unit.unit, [])
        per_task[int(unit.id)].extend(outcomes)
        share = sum(outcomes) / len(outcomes) if outcomes else None
        if share is None or share < min_fidelity:
            excluded += 1
            continue
        shares.append(share)
        kept.append(unit)
    with db_write() as db:
        for task_id, outcomes in per_task.items():
            row = db.scalar(select(TaskReplaySite).where(TaskReplaySite.task_id == task_id))
            if row is None:
                continue
            row.fidelity_rollouts = len(outcomes)
            row.fidelity_matched = sum(outcomes)
            row.fidelity = round(sum(outcomes) / len(outcomes), 4) if outcomes else None
            row.fidelity_night_id = night_id
            row.created_at = row.created_at or utcnow()
    report = {
        "measured_units": len(measurable),
        "excluded_low_fidelity": excluded,
        "min_fidelity": min_fidelity,
        "mean": round(statistics.fmean(shares), 4) if shares else None,
        "rollouts": len(results),
    }
    return kept, report


def consumer_regressions(
    baseline: dict[str, list[float | None]], candidate: dict[str, list[float | None]]
) -> list[str]:
    """Consumers whose mean paired score is lower under the candidate than the baseline."""
    deltas: dict[str, list[float]] = defaultdict(list)
    for unit, before in baseline.items():
        if "@" not in unit:
            continue
        consumer = unit.rsplit("@", 1)[1]
        after = candidate.get(unit, [])
        for b, a in zip(before, after, strict=False):
            if a is not None and b is not None:
                deltas[consumer].append(a - b)
    return sorted(c for c, d in deltas.items() if d and statistics.fmean(d) < 0)


def build_tool_replayer(
    cfg: Config, guard: Any, stop: Any, on_budget_stop: Any = None
) -> ToolReplayer:
    """The night's tool replayer: both agent CLIs, bounded by `[replay]`."""
    from sleepd.backends.claude_cli import ClaudeCliBackend
    from sleepd.backends.codex_cli import CodexCliBackend
    from sleepd.backends.pricing import PriceTable

    r = cfg.replay
    role = cfg.role("target")
    prices = PriceTable.with_overrides(cfg.prices)
    agents: dict[str, Any] = {
        "claude": ClaudeCliBackend(
            executable=cfg.backends.claude_executable,
            model=role.model or None if role.backend == "claude-cli" else None,
            prices=prices,
        ),
        "codex": CodexCliBackend(
            executable=cfg.backends.codex_executable,
            model=role.model or None if role.backend == "codex-cli" else None,
            prices=prices,
        ),
    }
    settings = ToolSettings(
        max_turns=r.max_turns,
        wall_s=r.rollout_wall_seconds,
        test_timeout_s=r.test_timeout_seconds,
        allowed_tools=tuple(r.allowed_tools),
        disallowed_tools=tuple(r.disallowed_tools),
        network=r.network == "on",
        nice=r.nice,
        concurrency=r.concurrency,
        require_isolation=r.require_isolation,
        max_usd_per_rollout=r.max_usd_per_rollout,
    )
    return ToolReplayer(agents, guard, stop, settings, on_budget_stop=on_budget_stop)


def task_mode(db: OrmSession, cfg: Config, task: Task) -> dict[str, Any]:
    """How `replay.mode` replays one task, and why (for `sleepd tasks show`)."""
    row = db.scalar(select(TaskReplaySite).where(TaskReplaySite.task_id == task.id))
    found = site_for(row, cfg, task.project_path or "")
    view: dict[str, Any] = {"configured": cfg.replay.mode}
    if cfg.replay.mode == "text":
        view.update(mode="text", reason="replay.mode = text")
    elif isinstance(found, str):
        view.update(mode="text" if cfg.replay.mode == "auto" else "excluded", reason=found)
    else:
        view.update(mode="tools", reason="repository, commit and test command known")
    if row is not None:
        commands = [TestCommand.from_dict(c) for c in row.test_commands or []]
        view.update(
            repository=row.repo_root,
            commit=row.commit,
            commit_source=row.commit_source or None,
            branch=row.branch,
            test_command=None if isinstance(found, str) else found[2].text,
            test_commands_seen=[c.text for c in commands if c is not None],
            failing_tests=list(row.failing_tests or []),
            agent=row.agent,
            fidelity=row.fidelity,
            fidelity_rollouts=row.fidelity_rollouts,
            fidelity_matched=row.fidelity_matched,
        )
    return view


def tools_isolation(cfg: Config) -> dict[str, Any]:
    """What isolation a tools-mode replay runs under here (for `sleepd backends`)."""
    from sleepd.backends.agent_act import ActRequest, offline_prefix

    r = cfg.replay
    probe = ActRequest(
        prompt="",
        workdir=Path("."),
        max_turns=r.max_turns,
        allowed_tools=tuple(r.allowed_tools),
        network=r.network == "on",
        require_isolation=r.require_isolation,
    )
    replayer = build_tool_replayer(cfg, None, None)
    agents = {}
    executables = {"claude": cfg.backends.claude_executable, "codex": cfg.backends.codex_executable}
    for name, agent in replayer.agents.items():
        installed = shutil.which(executables[name]) is not None
        agents[name] = {
            "enabled": name in r.agents,
            "installed": installed,
            "isolation": agent.isolation(probe),  # type: ignore[attr-defined]
        }
    tests = (
        "network on (replay.network = on)" if r.network == "on" else offline_prefix(Path("."))[1]
    )
    return {
        "mode": r.mode,
        "agents": agents,
        "tests": tests,
        "checkout": "scratch clone per rollout in SLEEPD_HOME (no refs, hooks or remotes)",
        "priority": f"nice {r.nice}",
        "wall_cap_s": r.rollout_wall_seconds,
    }
