"""`sleepd explain TERM` and `sleepd help TOPIC`: the glossary on the terminal."""

from __future__ import annotations

import typer

from sleepd.cli.common import ExitCode, fail


def _print_terms(terms: list[object]) -> None:
    from rich.text import Text

    from sleepd.cli.common import stdout_console
    from sleepd.glossary import Term

    console = stdout_console()
    for term in terms:
        assert isinstance(term, Term)
        console.print(Text.assemble((term.name, "bold"), ": ", term.meaning))
        console.print()


def explain(
    term: str = typer.Argument(..., help="A word sleepd's output uses, e.g. alpha."),
) -> None:
    """What a word in sleepd's output means (α, look, lift, A/A, sealed test, …)."""
    from sleepd.glossary import TERMS, lookup

    found = lookup(term)
    if found is None:
        known = ", ".join(t.name for t in TERMS)
        fail(f"no glossary entry for “{term}”; known terms: {known}", ExitCode.NOT_FOUND)
    _print_terms([found])


def help_topic(
    topic: str = typer.Argument("gate", help="gate, mining, review or night (or a term)."),
) -> None:
    """The words of one part of sleepd, explained (`sleepd help gate`)."""
    from sleepd.glossary import TOPICS, lookup, topic_terms

    if topic in TOPICS:
        _print_terms(list(topic_terms(topic)))
        return
    found = lookup(topic)
    if found is None:
        fail(f"no help topic “{topic}”; topics: {', '.join(TOPICS)}", ExitCode.NOT_FOUND)
    _print_terms([found])


def register(app: typer.Typer) -> None:
    app.command("explain")(explain)
    app.command("help")(help_topic)
