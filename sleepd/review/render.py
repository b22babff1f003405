"""How a proposal looks on a terminal: header, the story behind it, diff, evidence.

Every figure is labelled in plain words (see `sleepd.glossary`); stored values go
through `sleepd.cli.view.words`, so no Python repr reaches the screen; the diff is
written whole, never cut or wrapped (`sleepd.cli.view.print_diff`).
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from sleepd.cli.view import kv_panel, print_diff, table, words
from sleepd.review.evidence import Evidence
from sleepd.review.queue import ProposalView
from sleepd.review.story import EditSummary, Story, decision_sentence

SPLIT_NAMES = {"train": "train", "val": "validation", "test": "sealed test"}


def _num(value: float | None, fmt: str = "+.3f") -> str:
    return "—" if value is None else format(value, fmt)


def render_header(console: Console, view: ProposalView, *, position: str = "") -> None:
    if view.simulated:
        console.print(
            Text.assemble(
                (" SIMULATED ", "bold reverse red"),
                " evidence comes from the simulator backend (a test double), not a real model",
            )
        )
    night = f"#{view.night_id}" if view.night_id is not None else "—"
    rows = [
        ("status", view.status),
        ("project", view.project),
        ("document", f"{view.document_path} ({view.document_kind})"),
        ("night", f"{night}, staged {view.created_at:%Y-%m-%d %H:%M}"),
        ("gate decision", view.gate_outcome),
        (
            "validation lift",
            f"{_num(view.val_lift)}  (mean score with the edit minus without, validation tasks)",
        ),
        (
            "sealed test lift",
            f"{_num(view.test_lift)}  (the same on tasks nothing decided on)",
        ),
        (
            "p-value",
            f"{_num(view.p_value, '.2g')}  (chance of this lift from an edit that does nothing; "
            f"accepted only below the alpha used, {_num(view.alpha, '.2g')})",
        ),
        ("model cost", f"${view.cost_usd:.4f}"),
    ]
    if view.look is not None and view.max_looks is not None:
        rows.insert(
            -1, ("look", f"night {view.look} of the {view.max_looks} this edit may be tested on")
        )
    if view.safety_flags:
        rows.append(("safety flags", words(view.safety_flags)))
    if view.decided_by:
        rows.append(("decided by", f"{view.decided_by}: {words(view.decision_reason)}"))
    title = f"Proposal #{view.id} {position}".rstrip()
    console.print(kv_panel(title, rows))


def render_gate(console: Console, evidence: Evidence) -> None:
    """The level, the look, the rounds and the retests the gate used."""
    g = evidence.gate
    if g.outcome is None:
        return
    looks = f"{g.look} of {g.max_looks}" if g.max_looks is not None else words(g.look)
    rows = [
        ("decision", g.outcome),
        ("p-value", _num(g.p_value, ".4g")),
        ("alpha used for this decision", _num(g.alpha_used, ".4g")),
        ("alpha over all nights", _num(g.alpha, ".4g")),
        ("look (night)", looks),
        ("rounds of runs", words(g.rounds)),
        ("retest runs on tasks that dropped", str(g.retest_rollouts)),
    ]
    console.print(kv_panel("How the gate decided", rows))


def render_diff(console: Console, diff: str) -> None:
    print_diff(console, diff)


def render_story(console: Console, view: ProposalView, story: Story) -> None:
    """What the night found, what it changed, and what the gate concluded."""
    console.rule("what the night found", align="left")
    if story.tasks:
        tasks = table(
            ["recurring task (one request)", "asked", "sessions", "failed"],
            title="Recurring tasks whose failed replays the optimizer read",
        )
        for t in story.tasks:
            tasks.add_row(t.example, str(t.asked), str(t.sessions), str(t.failing_rollouts))
        console.print(tasks)
        if story.more_tasks:
            console.print(f"and {story.more_tasks} more recurring tasks")
    else:
        console.print("No recurring task is recorded behind this edit.", style="dim")
    if story.patterns:
        patterns = table(
            ["failure pattern (one example)", "here", "in all"],
            title="Failure patterns in those tasks' history (here: in these tasks)",
        )
        for p in story.patterns:
            example = p.example or p.signature
            patterns.add_row(
                f"{p.tool}: {example}" if p.tool else example, str(p.in_these_tasks), str(p.count)
            )
        console.print(patterns)
        if story.more_patterns:
            console.print(f"and {story.more_patterns} more failure patterns")
    if story.edits:
        console.rule("the edit", align="left")
        for edit in story.edits:
            console.print(_edit_line(edit))
        if story.rationale:
            console.print(Text(f"why (the optimizer's words): {story.rationale}"))
    console.rule("the decision", align="left")
    console.print(Text(decision_sentence(story, view.val_lift, view.test_lift)))


def _edit_line(edit: EditSummary) -> Text:
    """`adds after “# Lessons”: - Never commit…` (the whole text is in the diff)."""
    anchor = f"“{edit.anchor}”" if edit.anchor else "the document"
    verbs = {"add": f"adds after {anchor}", "replace": f"replaces {anchor} with"}
    verb = verbs.get(edit.op, f"removes {anchor}" if edit.op == "delete" else edit.op)
    lines = edit.text.strip().splitlines()
    more = f" (+{len(lines) - 1} more lines)" if len(lines) > 1 else ""
    return Text.assemble((verb, "bold"), f": {lines[0]}{more}" if lines else "")


def render_evidence(console: Console, evidence: Evidence) -> None:
    if evidence.tasks:
        scores = table(
            ["task", "split", "request", "before", "after", "change", "runs before", "runs after"],
            title="Score per task without and with the edit (mean over runs, 0–1)",
            compact=True,
        )
        for t in evidence.tasks:
            change = None if t.before is None or t.after is None else t.after - t.before
            scores.add_row(
                str(t.task_id),
                SPLIT_NAMES.get(t.split, t.split),
                t.intent,
                _num(t.before, ".2f"),
                _num(t.after, ".2f"),
                _num(change, "+.2f"),
                str(t.before_n),
                str(t.after_n),
            )
        console.print(scores)
    else:
        console.print("No per-task scores are stored for this proposal.", style="dim")
    render_gate(console, evidence)
    if evidence.ablation:
        parts = table(
            ["edit (or clause)", "contribution", "p, better without it", "runs", "verdict"],
            title="Each part of the edit left out in turn (fresh runs): a part that does not "
            "lift the score is cut",
        )
        for a in evidence.ablation:
            parts.add_row(
                a.text, _num(a.contribution), _num(a.p_harm, ".3g"), str(a.rollouts), a.verdict
            )
        console.print(parts)
    if evidence.tests:
        tests = table(
            ["task", "agent", "tests run", "before", "after", "passed", "fidelity"],
            title="Project tests in tools-mode replay (before: the current document; after: "
            "this edit)",
            compact=True,
        )
        for row in evidence.tests:
            targets = "\n".join(row.targets) or "—"
            tests.add_row(
                str(row.task_id),
                row.consumer,
                Text(f"{row.command} (at the commit: {row.at_commit})\ntask's tests: {targets}"),
                row.before,
                row.after,
                f"{row.before_pass}/{row.before_n} → {row.after_pass}/{row.after_n}",
                "—" if row.fidelity is None else f"{row.fidelity:.0%}",
            )
        console.print(tests)
    examples = (
        ("failing, before the edit", evidence.failing),
        ("passing, with it", evidence.passing),
    )
    for label, example in examples:
        if example is not None:
            score = _num(example.score, ".2f")
            console.rule(f"example replay ({label}): task {example.task_id}, score {score}")
            console.print(example.output, markup=False, highlight=False)
    if evidence.sessions:
        sessions = table(
            ["session", "source", "project", "started", "title"], title="Source sessions"
        )
        for s in evidence.sessions:
            sessions.add_row(
                words(s.get("external_id", s.get("id"))),
                words(s.get("source")),
                words(s.get("project")),
                words(s.get("started_at")),
                words(s.get("title")),
            )
        console.print(sessions)
    counts = _provenance_counts(evidence)
    if counts:
        console.print(Text("traced back to: " + counts))


def _provenance_counts(evidence: Evidence) -> str:
    """How many episodes, tasks and failing replays the edit was traced to."""
    names = (
        ("episodes", "episodes"),
        ("tasks", "tasks replayed"),
        ("trajectories", "failing train replays read by the optimizer"),
    )
    parts = []
    for key, name in names:
        value = evidence.provenance.get(key)
        if isinstance(value, list):
            parts.append(f"{len(value)} {name}")
    return ", ".join(parts)
