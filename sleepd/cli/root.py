"""The root typer app; each command group lives in its own module.

Modules are imported eagerly but keep their heavy imports (SDKs, SQLAlchemy,
scikit-learn) inside command functions, so `sleepd status` starts fast. The
process entry points (`main`, `run`) are in `sleepd.cli.app`.
"""

from __future__ import annotations

import importlib

import typer

from sleepd import __version__

#: One module per command group; each exposes `register(app)`.
COMMAND_MODULES: tuple[str, ...] = (
    "sleepd.cli.config_cmd",
    "sleepd.cli.db_cmd",
    "sleepd.cli.status_cmd",
    "sleepd.cli.harvest_cmd",
    "sleepd.cli.run_cmd",
    "sleepd.cli.demo_cmd",
    "sleepd.cli.daemon_cmd",
    "sleepd.cli.service_cmd",
    "sleepd.cli.backends_cmd",
    "sleepd.cli.mine_cmd",
    "sleepd.cli.patterns_cmd",
    "sleepd.cli.review_cmd",
    "sleepd.cli.rollback_cmd",
    "sleepd.cli.nights_cmd",
    "sleepd.cli.verify_cmd",
    "sleepd.cli.rules_cmd",
    "sleepd.cli.explain_cmd",
)

app = typer.Typer(
    name="sleepd",
    help="Nightly sleep for coding agents: harvest, mine, dream, gate, review.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"sleepd {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Print the version."
    ),
) -> None:
    """sleepd: your coding agent's nightly sleep."""


for _module in COMMAND_MODULES:
    importlib.import_module(_module).register(app)
