"""One vocabulary: the glossary file is the glossary module, and every term the
issue names can be looked up."""

from __future__ import annotations

from pathlib import Path

import pytest

from sleepd.glossary import as_markdown, lookup

REPO = Path(__file__).resolve().parents[1]


def test_docs_glossary_is_generated_from_the_module() -> None:
    assert (REPO / "docs" / "glossary.md").read_text(encoding="utf-8") == as_markdown()


@pytest.mark.parametrize(
    "word",
    ["α", "alpha used", "looks", "lift", "informative task", "A/A", "sealed test", "p-value"],
)
def test_every_word_on_screen_has_an_entry(word: str) -> None:
    term = lookup(word)
    assert term is not None and len(term.meaning) > 40
