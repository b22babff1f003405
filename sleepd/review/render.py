"""How a proposal looks on a terminal: header, diff, evidence."""

from __future__ import annotations

from rich.console import Console
from rich.syntax import Syntax
from rich.table import Table

from sleepd.review.evidence import Evidence
from sleepd.review.queue import ProposalView


def _num(value: float | None, fmt: str = "+.3f") -> str:
    return "n/a" if value is None else format(value, fmt)


def render_header(console: Console, view: ProposalView, *, position: str = "") -> None:
    console.rule(f"[bold]Proposal #{view.id}[/bold] {position}".rstrip())
    if view.simulated:
        console.print(
            "[bold reverse red] SIMULATED [/] evidence comes from the simulator backend, "
            "not from a real model"
        )
    console.print(f"[bold]project[/]   {view.project}")
    console.print(f"[bold]document[/]  {view.document_path} ({view.document_kind})")
    night = f"#{view.night_id}" if view.night_id is not None else "n/a"
    console.print(f"[bold]night[/]     {night}, staged {view.created_at:%Y-%m-%d %H:%M}")
    alpha = f" (α={view.alpha:.4g})" if view.alpha is not None else ""
    if view.look is not None and view.max_looks is not None:
        alpha += f", look {view.look} of {view.max_looks}"
    console.print(
        f"[bold]gate[/]      {view.gate_outcome}, p={_num(view.p_value, '.4g')}{alpha}; "
        f"validation lift {_num(view.val_lift)}, test lift {_num(view.test_lift)}; "
        f"cost ${view.cost_usd:.4f}"
    )
    if view.safety_flags:
        flags = ", ".join(str(f) for f in view.safety_flags)
        console.print(f"[bold yellow]safety flags[/] {flags}")


def render_gate(console: Console, evidence: Evidence) -> None:
    """The level, looks, rounds and retests the gate used, as a table."""
    g = evidence.gate
    if g.outcome is None:
        return
    table = Table(title="How the gate decided")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("outcome", g.outcome)
    table.add_row("p-value", _num(g.p_value, ".4g"))
    table.add_row("α used for this decision", _num(g.alpha_used, ".4g"))
    table.add_row("α overall (all looks)", _num(g.alpha, ".4g"))
    looks = f"{g.look} of {g.max_looks}" if g.max_looks is not None else str(g.look or "n/a")
    table.add_row("look (night)", looks)
    table.add_row("rounds", str(g.rounds) if g.rounds is not None else "n/a")
    table.add_row("retest rollouts (suspect tasks)", str(g.retest_rollouts))
    console.print(table)


def render_diff(console: Console, diff: str) -> None:
    if not diff.strip():
        console.print("[dim](no textual change)[/dim]")
        return
    console.print(Syntax(diff, "diff", theme="ansi_dark", background_color="default"))


def render_evidence(console: Console, evidence: Evidence) -> None:
    if evidence.tasks:
        table = Table(title="Per-task scores before and after (mean over rollouts)")
        for column in ("task", "split", "intent"):
            table.add_column(column)
        for column in ("before", "after", "change", "rollouts before", "rollouts after"):
            table.add_column(column, justify="right")
        for t in evidence.tasks:
            change = None if t.before is None or t.after is None else t.after - t.before
            table.add_row(
                str(t.task_id),
                t.split,
                t.intent,
                _num(t.before, ".2f"),
                _num(t.after, ".2f"),
                _num(change, "+.2f"),
                str(t.before_n),
                str(t.after_n),
            )
        console.print(table)
    else:
        console.print("[dim]no per-task scores stored for this proposal[/dim]")
    render_gate(console, evidence)
    if evidence.ablation:
        table = Table(title="Each edit left out in turn (leave-one-out, fresh rollouts)")
        table.add_column("edit")
        for column in ("contribution", "p (better without it)", "rollouts", "verdict"):
            table.add_column(column, justify="right")
        for a in evidence.ablation:
            table.add_row(
                a.text, _num(a.contribution), _num(a.p_harm, ".3g"), str(a.rollouts), a.verdict
            )
        console.print(table)
    if evidence.tests:
        table = Table(
            title="Project tests in tools-mode replay (before: current document; after: this edit)"
        )
        for column in (
            "task", "agent", "tests at the commit", "the task's tests", "before", "after",
            "passed", "fidelity",
        ):  # fmt: skip
            table.add_column(column)
        for row in evidence.tests:
            table.add_row(
                str(row.task_id),
                row.consumer,
                f"{row.command}: {row.at_commit}",
                "\n".join(row.targets) or "-",
                row.before,
                row.after,
                f"{row.before_pass}/{row.before_n} → {row.after_pass}/{row.after_n}",
                "-" if row.fidelity is None else f"{row.fidelity:.0%}",
            )
        console.print(table)
    if evidence.gate_reason:
        console.print(f"[bold]gate[/] {evidence.gate_reason}")
    examples = (("failing, before", evidence.failing), ("passing, after", evidence.passing))
    for label, example in examples:
        if example is not None:
            score = _num(example.score, ".2f")
            console.rule(f"example trajectory ({label}): task {example.task_id}, score {score}")
            console.print(example.output, markup=False, highlight=False)
    if evidence.sessions:
        console.rule("source sessions")
        for s in evidence.sessions:
            console.print(
                " ".join(f"{k}={v}" for k, v in s.items() if v is not None),
                markup=False,
                highlight=False,
            )
    for key in ("episodes", "tasks", "trajectories", "edits", "verdict"):
        if key in evidence.provenance:
            console.print(f"{key}: {evidence.provenance[key]}", markup=False, highlight=False)
