"""`sleepd backends [--json]`: which model backends can run here, and which `auto` picks."""

from __future__ import annotations

import typer

from sleepd.cli.common import emit_json


def backends(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List each backend, usable or not and why, and the one `auto` picks."""
    from sleepd.backends.registry import available_backends, pick_auto
    from sleepd.backends.settings import settings_from_config
    from sleepd.config import load_config
    from sleepd.dream.replay_modes import tools_isolation
    from sleepd.errors import NoBackendError

    cfg = load_config()
    settings = settings_from_config(cfg)
    replay = tools_isolation(cfg)
    statuses = available_backends(settings)
    try:
        auto: str | None = pick_auto(settings)
        auto_reason = f"auto picks {auto}"
    except NoBackendError as exc:
        auto, auto_reason = None, str(exc)
    if json_out:
        emit_json(
            {
                "backends": [
                    {
                        "name": s.name,
                        "usable": s.usable,
                        "reason": s.reason,
                        "test_double": s.test_double,
                    }
                    for s in statuses
                ],
                "auto": auto,
                "auto_reason": auto_reason,
                "replay": replay,
            }
        )
        return
    from rich.text import Text

    from sleepd.cli.common import stdout_console
    from sleepd.cli.view import table

    shown = table(["backend", "usable", "why"], title="Model backends")
    for s in statuses:
        label = " (a test double, not a real model)" if s.test_double else ""
        shown.add_row(s.name, "yes" if s.usable else "no", Text(f"{s.reason}{label}"))
    console = stdout_console()
    console.print(shown)
    console.print(Text(f"auto picks: {auto}" if auto else f"auto picks none: {auto_reason}"))
    agents = table(
        ["agent", "state", "isolation"],
        title=f"Tools-mode replay (replay.mode = {replay['mode']})",
    )
    for name, agent in replay["agents"].items():
        state = "installed" if agent["installed"] else "not installed"
        if not agent["enabled"]:
            state += ", not in replay.agents"
        agents.add_row(name, state, Text(str(agent["isolation"])))
    agents.add_row("tests", "—", Text(str(replay["tests"])))
    console.print(agents)
    console.print(
        Text(
            f"each replay: {replay['checkout']}; {replay['priority']}; "
            f"{replay['wall_cap_s']:.0f} s cap per rollout"
        )
    )


def register(app: typer.Typer) -> None:
    app.command("backends")(backends)
