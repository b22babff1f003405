"""`sleepd config show|path`."""

from __future__ import annotations

import typer

from sleepd.cli.common import emit_json

config_app = typer.Typer(help="Inspect the configuration.", no_args_is_help=True)


@config_app.command("show")
def show(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The effective configuration and where each value came from."""
    from sleepd.config import effective_items, load_config
    from sleepd.paths import config_file

    cfg = load_config()
    rows = effective_items(cfg)
    if json_out:
        emit_json(
            {
                "config_file": str(config_file()),
                "config_file_exists": cfg.source_file is not None,
                "values": {
                    key: {"value": value, "origin": origin} for key, value, origin, _ in rows
                },
            }
        )
        return
    from rich.table import Table

    from sleepd.cli.common import stdout_console

    table = Table(title=f"sleepd config ({config_file()})", title_justify="left")
    table.add_column("key")
    table.add_column("value")
    table.add_column("from")
    for key, value, origin, _doc in rows:
        table.add_row(key, toml_value(value), origin)
    stdout_console().print(table)


def toml_value(value: object) -> str:
    """A value as it would be written in config.toml (never a Python repr)."""
    import json

    if isinstance(value, tuple | list | set | frozenset):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    try:
        return json.dumps(value, ensure_ascii=False)
    except TypeError:
        return json.dumps(str(value), ensure_ascii=False)


@config_app.command("path")
def path() -> None:
    """Print the config file's location."""
    from sleepd.paths import config_file

    typer.echo(str(config_file()))


def register(app: typer.Typer) -> None:
    app.add_typer(config_app, name="config")
