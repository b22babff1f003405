"""`sleepd rules`: the learned rules of each managed region, their age, evidence and last
measured contribution, and the region's size against its budget."""

from __future__ import annotations

import typer

from sleepd.cli.common import emit_json, info


def rules(
    target: str = typer.Option(None, "--target", help="Only this document."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Learned rules with age, evidence and last measured leave-one-out contribution."""
    from sleepd.config import load_config
    from sleepd.store.open import database_exists, open_store
    from sleepd.watch.rules import list_rules

    cfg = load_config()
    regions = (
        []
        if not database_exists(cfg)
        else list_rules(open_store(cfg), budget=cfg.watch.region_budget_chars, target=target)
    )
    if json_out:
        emit_json([r.to_dict() for r in regions])
        return
    if not regions:
        info("no managed document yet: nothing has been adopted")
        return
    from sleepd.cli.common import stdout_console
    from sleepd.cli.rules_view import render_regions

    render_regions(stdout_console(), regions)


def register(app: typer.Typer) -> None:
    app.command("rules")(rules)
