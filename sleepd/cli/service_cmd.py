"""`sleepd service install | uninstall | status`: run sleepd as a per-user service."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import typer

from sleepd.cli.common import emit_json, fail, info


class PlatformChoice(StrEnum):
    linux = "linux"
    macos = "macos"


service_app = typer.Typer(
    help="Install, remove or inspect the systemd user unit (Linux) / launchd agent (macOS).",
    no_args_is_help=True,
)

PRINT_OPT = typer.Option(False, "--print", help="Render and show; change nothing.")
JSON_OPT = typer.Option(False, "--json", help="Print JSON.")
PLATFORM_OPT = typer.Option(None, "--platform", hidden=True, help="Render for this platform.")
EXECUTABLE_OPT = typer.Option(None, "--executable", hidden=True, help="The sleepd to run.")


def _manager(platform: PlatformChoice | None) -> Any:
    from sleepd.daemon.service import manager_for

    return manager_for(platform.value if platform else None)


def _spec(executable: str | None, copy_api_keys: bool = False) -> Any:
    from sleepd.daemon.service import build_spec

    return build_spec(executable, copy_api_keys=copy_api_keys)


def _report(outcome: Any, json_out: bool, summary: str) -> None:
    if json_out:
        emit_json(outcome.to_dict())
    else:
        info(summary)
    for hint in outcome.hints:
        info(hint)


def _guard(func: Any, *args: Any) -> Any:
    from sleepd.errors import SleepdError

    try:
        return func(*args)
    except SleepdError as exc:
        fail(str(exc), exc.exit_code)
    except OSError as exc:
        fail(f"cannot write the service file: {exc}")


@service_app.command("install")
def install(
    print_only: bool = PRINT_OPT,
    json_out: bool = JSON_OPT,
    platform: PlatformChoice | None = PLATFORM_OPT,
    executable: str | None = EXECUTABLE_OPT,
    copy_api_keys: bool = typer.Option(
        False,
        "--copy-api-keys",
        help="Copy ANTHROPIC_API_KEY/OPENAI_API_KEY from this shell into the service's"
        " secrets file (0600).",
    ),
) -> None:
    """Write the service file, load it and start sleepd (harmless to repeat)."""
    manager = _manager(platform)
    spec = _guard(_spec, executable, copy_api_keys)
    if print_only:
        typer.echo(manager.render(spec), nl=False)
        return
    outcome = _guard(manager.install, spec)
    verb = "installed and started" if outcome.changed else "already installed and up to date"
    _report(outcome, json_out, f"{verb}: {outcome.path}")


@service_app.command("uninstall")
def uninstall(
    print_only: bool = PRINT_OPT,
    json_out: bool = JSON_OPT,
    platform: PlatformChoice | None = PLATFORM_OPT,
) -> None:
    """Stop and disable sleepd and remove the service file."""
    manager = _manager(platform)
    if print_only:
        path = manager.unit_path() if platform != PlatformChoice.macos else manager.plist_path()
        typer.echo(f"would stop sleepd and remove {path}")
        return
    outcome = _guard(manager.uninstall)
    _report(outcome, json_out, f"removed {outcome.path}" if outcome.changed else "not installed")


@service_app.command("status")
def status(
    print_only: bool = PRINT_OPT,
    json_out: bool = JSON_OPT,
    platform: PlatformChoice | None = PLATFORM_OPT,
    executable: str | None = EXECUTABLE_OPT,
) -> None:
    """Is the service installed, current, enabled and running?"""
    from sleepd.errors import SleepdError

    manager = _manager(platform)
    try:
        spec = _spec(executable)
    except SleepdError:
        spec = None  # still report what is installed
    if print_only:
        if spec is None:
            fail("cannot find the installed `sleepd` executable to render the service file")
        typer.echo(manager.render(spec), nl=False)
        return
    outcome = _guard(manager.status, spec)
    if json_out:
        emit_json(outcome.to_dict())
        return
    state = outcome.state
    typer.echo(f"service file: {outcome.path} ({'present' if state['installed'] else 'absent'})")
    for key, value in state.items():
        if key != "installed" and value is not None:
            typer.echo(f"{key}: {value}")
    for hint in outcome.hints:
        info(hint)


def register(app: typer.Typer) -> None:
    app.add_typer(service_app, name="service")
