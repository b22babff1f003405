"""`python -m sleepd.daemon`: the `daemon` command without the rest of the CLI.

Handy when the console script is not on PATH; behaves exactly like `sleepd daemon`.
"""

from __future__ import annotations

import sys

import typer

from sleepd.cli import daemon_cmd


def main() -> None:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    daemon_cmd.register(app)

    @app.callback()
    def _root() -> None:
        """sleepd daemon"""

    from sleepd.cli.failure import guarded

    sys.exit(
        guarded(
            lambda: app(args=["daemon", *sys.argv[1:]], prog_name="sleepd", standalone_mode=False)
        )
    )


if __name__ == "__main__":
    main()
