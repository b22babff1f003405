"""The human view of `sleepd rules`: one table per managed region."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from sleepd.cli.view import number, table


def _age(days: float | None) -> str:
    if days is None:
        return "—"
    return "today" if days < 1 else f"{days:.0f} d"


def _evidence(rule: Any) -> str:
    if not rule.learned:
        return "written by hand or before sleepd tracked it (never proposed for deletion)"
    parts = [f"proposal #{rule.proposal_id}"]
    if rule.night_id is not None:
        parts.append(f"night #{rule.night_id}")
    parts.append(f"{rule.tasks} tasks")
    if rule.val_lift is not None:
        parts.append(f"validation lift {rule.val_lift:+.2f}")
    if rule.p_value is not None:
        parts.append(f"p {rule.p_value:.2g}")
    if rule.simulated:
        parts.append("SIMULATED")
    return ", ".join(parts)


def _contribution(rule: Any) -> str:
    if rule.last_contribution is None:
        return "not measured yet"
    when = f"{rule.last_measured_at:%Y-%m-%d}" if rule.last_measured_at else "—"
    return f"{number(rule.last_contribution, '+.3f')} ({when}, {rule.measurements}×)"


def render_regions(console: Console, regions: Sequence[Any]) -> None:
    for region in regions:
        over = " — OVER BUDGET" if region.over_budget else ""
        shown = table(
            ["rule", "age", "evidence", "last contribution"],
            title=f"{region.document}: {region.size:,} of {region.budget:,} characters{over}",
        )
        for rule in region.rules:
            shown.add_row(
                Text(rule.text), _age(rule.age_days), _evidence(rule), _contribution(rule)
            )
        if not region.rules:
            shown.add_row("(no rules yet)", "—", "—", "—")
        console.print(shown)
