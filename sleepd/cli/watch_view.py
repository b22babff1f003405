"""The words `status`, `history` and `review show` use for an adoption's live verdict."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

VERDICT_STYLE = {"helping": "green", "no evidence yet": "yellow", "looks worse": "bold red"}


def rates(arm: dict[str, Any]) -> str:
    """`3/10 → 9/10 (+60 points)` for one comparison; `—` with no episode at all."""
    if not arm["before_total"] and not arm["after_total"]:
        return "no episodes"
    change = arm.get("change")
    points = "" if change is None else f" ({change * 100:+.0f} points)"
    return (
        f"{arm['before_success']}/{arm['before_total']} before → "
        f"{arm['after_success']}/{arm['after_total']} after{points}"
    )


def verdict_text(watch: dict[str, Any]) -> Text:
    """The verdict in colour, then its figures in plain words."""
    simulated = " (adopted from a SIMULATED night)" if watch.get("simulated") else ""
    text = Text.assemble(
        (watch["verdict"], VERDICT_STYLE.get(watch["verdict"], "")),
        f"{simulated}: {watch['reason']}. ",
    )
    text.append(
        f"Clusters it was meant to help: {rates(watch['target'])}; "
        f"other recurring clusters: {rates(watch['others'])}. "
        f"{watch['sessions_read_after']} of {watch['sessions_after']} sessions since "
        "the adoption read the document."
    )
    if watch["verdict"] == "looks worse" and watch.get("rollback_command"):
        text.append(" To undo it, run the command below.")
    return text


def print_command(console: Console, watch: dict[str, Any]) -> None:
    """The rollback command of an adoption that looks worse, on one line, never cut or
    wrapped whatever the terminal's width (a person copies it whole)."""
    if watch["verdict"] != "looks worse" or not watch.get("rollback_command"):
        return
    console.print(
        Text(f"  {watch['rollback_command']}", style="bold"),
        soft_wrap=True,
        crop=False,
        no_wrap=True,
        overflow="ignore",
    )
