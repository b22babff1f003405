"""`sleepd demo [--home DIR]`: a simulated night on bundled samples, then `status`."""

from __future__ import annotations

import contextlib
from pathlib import Path

import typer

DEMO_NIGHTS = 3


def demo(
    home: Path = typer.Option(
        None, "--home", help="Keep the demo's home in DIR (default: a new temporary directory)."
    ),
    tools: bool = typer.Option(
        True,
        "--tools/--no-tools",
        help="Also run a tools-mode night (simulated agents, real git, real tests).",
    ),
) -> None:
    """A whole night on bundled sample transcripts with the simulator: no key, no network."""
    from sleepd.cli.common import stdout_console
    from sleepd.demo.run import activate, prepare_home

    console = stdout_console()
    demo_home = prepare_home(home)
    activate(demo_home)
    console.rule("[bold yellow]sleepd demo — SIMULATED backend (a test double, not a real model)")
    console.print(f"demo home: {demo_home.root}")
    console.print("sample transcripts: synthetic Claude Code and Codex sessions (labelled samples)")

    from sleepd.cli.night_view import print_proposals, render_summary
    from sleepd.cli.run_cmd import execute_night
    from sleepd.config import load_config

    cfg = load_config()
    proposals: list[int] = []
    for night in range(1, DEMO_NIGHTS + 1):
        # A real install runs one night a day; the demo compresses a few, so an edit the
        # gate found inconclusive can be re-tested on fresh rollouts as it would be.
        console.rule(f"demo night {night} of at most {DEMO_NIGHTS}")
        result = execute_night(cfg, backend="sim", trigger="demo", console=console)
        render_summary(result, console, cfg=cfg)
        proposals = result.proposals
        if proposals:
            break
    print_proposals(proposals, console)
    if tools:
        from sleepd.demo.tools_night import prepare_tools_night

        console.rule(
            "[bold yellow]demo tools-mode night — SIMULATED agents (fake claude and codex), "
            "real git, real tests"
        )
        world, tools_cfg = prepare_tools_night(demo_home, cfg)
        console.print(
            f"project: {world.repo} (a real git repository; its tests fail at {world.commit[:12]})"
        )
        result = execute_night(
            tools_cfg, backend="sim", trigger="demo", project=str(world.repo), console=console
        )
        render_summary(result, console)
        print_proposals(result.proposals, console)
        proposals = proposals or result.proposals
    console.rule("sleepd status")
    from sleepd.cli.status_cmd import status

    with contextlib.suppress(typer.Exit):
        status(json_out=False, check=False)
    env = " ".join(f"{k}={v}" for k, v in demo_home.environment().items())
    command = _sleepd_command()
    console.print()
    console.print("[bold]Try the review queue on this demo's proposal:[/]")
    console.print(f"  {env} {command} review", soft_wrap=True)
    console.print(f"  (or: {env} {command} review list)", soft_wrap=True)
    console.print(
        f"The demo's home stays in {demo_home.root} (nothing outside it was touched); "
        f"remove it when you are done: rm -r {demo_home.root}",
        soft_wrap=False,
        markup=False,
        highlight=False,
    )
    if not proposals:
        raise typer.Exit(1)


def _sleepd_command() -> str:
    """The `sleepd` that is running, so the hint works even when it is not on PATH."""
    import shutil
    import sys

    running = Path(sys.argv[0])
    if running.name == "sleepd" and running.exists():
        found = str(running.resolve())
        return "sleepd" if shutil.which("sleepd") == found else found
    return "sleepd"


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
