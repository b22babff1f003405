"""`sleepd verify`: adopted documents still match what sleepd wrote (exit 8 if not)."""

from __future__ import annotations

import typer

from sleepd.cli.common import ExitCode, emit_json, info
from sleepd.cli.review_cmd import CommandError


def verify(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Report documents changed outside sleepd (hand edits, tampering) or missing."""
    from sleepd.config import load_config
    from sleepd.review.verify import verify_documents
    from sleepd.store.open import open_store

    checks = verify_documents(open_store(load_config(), write=True))
    bad = [c for c in checks if not c.ok]
    if json_out:
        emit_json([c.to_dict() for c in checks])
    else:
        if not checks:
            info("nothing adopted yet; nothing to verify")
        if checks:
            from rich.text import Text

            from sleepd.cli.common import stdout_console
            from sleepd.cli.view import table

            shown = table(["state", "document", "detail"], title="Adopted documents")
            for c in checks:
                extra = c.detail or ""
                if c.observed_version_id:
                    extra += f" (recorded as version #{c.observed_version_id})"
                shown.add_row(c.status, Text(str(c.path)), Text(extra.strip() or "—"))
            stdout_console().print(shown)
    if bad:
        raise CommandError(
            f"{len(bad)} of {len(checks)} adopted document(s) changed outside sleepd",
            ExitCode.CHECK_FAILED,
        )


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
