"""`sleepd harvest` and `sleepd search`."""

from __future__ import annotations

from enum import StrEnum

import typer


class Speaker(StrEnum):
    person = "person"
    agent = "agent"
    tools = "tools"


class SourceChoice(StrEnum):
    claude = "claude"
    codex = "codex"
    all = "all"


def harvest(
    source: SourceChoice = typer.Option(SourceChoice.all, "--source", help="Which transcripts."),
    jobs: int = typer.Option(
        None,
        "--jobs",
        "-j",
        min=0,
        help="Processes that parse a large harvest: 1 in this process, more start worker "
        "processes, 0 one per CPU (default: the config's harvest.workers).",
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Read new transcript lines into the database (incremental, redacted)."""
    from sleepd.cli.harvest_run import run_harvest

    run_harvest(source=source.value, jobs=jobs, json_out=json_out)


def search(
    query: str = typer.Argument(..., help="Words to find in harvested event text."),
    project: str = typer.Option(None, "--project", help="Only this project path."),
    source: str = typer.Option(None, "--source", help="claude or codex."),
    speaker: Speaker = typer.Option(
        None,
        "--from",
        help="Only what the person typed (person), what the agent wrote (agent), or what "
        "tools printed (tools).",
    ),
    limit: int = typer.Option(20, "--limit", min=1, max=1000, help="Hits per page."),
    page: int = typer.Option(1, "--page", min=1, help="Which page of hits (newest first)."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Full-text search over harvested events, newest first.

    Every word must appear (in any order, case and accents ignored); a word with
    punctuation in it, like exit-code or src/main.rs, must appear as typed. Words in
    Chinese, Japanese, Korean or Thai are found inside a sentence, from one character on.
    """
    from sleepd.cli.search_cmd import run_search

    run_search(
        query,
        project=project,
        source=source,
        speaker=speaker.value if speaker is not None else None,
        limit=limit,
        page=page,
        json_out=json_out,
    )


def register(app: typer.Typer) -> None:
    app.command("harvest")(harvest)
    app.command("search")(search)
