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
        for c in checks:
            extra = f": {c.detail}" if c.detail else ""
            if c.observed_version_id:
                extra += f" (recorded as version #{c.observed_version_id})"
            typer.echo(f"{c.status:<10} {c.path}{extra}")
    if bad:
        raise CommandError(
            f"{len(bad)} of {len(checks)} adopted document(s) changed outside sleepd",
            ExitCode.CHECK_FAILED,
        )


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
