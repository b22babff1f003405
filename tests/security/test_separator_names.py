"""Secrets in names people choose (branches, titles, paths, URLs) are found when they sit
against a separator, at harvest as on the way out.

The harvest searches a record's short fields joined by NUL; many provider rules want
whitespace or a quote after a key, so `fix/<key>` followed by the next field was stored
as it was. Every self-evident kind of the planted kit, in every separator form.
"""

from __future__ import annotations

import pytest

from sleepd.harvest.read import BatchRedactor
from sleepd.redaction import Redactor
from sleepd.redaction.separators import redact_at_separators

from .secrets_kit import make_secrets

FORMS = (
    "fix/{}",
    "{}.txt",
    "({})",
    "a={}&b=1",
    "feat\\{}",
    "x@{}",
)

SECRETS = [s for s in make_secrets(seed=20261201) if s.self_evident]


@pytest.mark.parametrize("secret", SECRETS, ids=lambda s: s.kind)
def test_a_named_field_joined_with_its_neighbours_is_redacted(secret: object) -> None:
    redactor = BatchRedactor(salt=b"test salt")
    for form in FORMS:
        field = form.format(secret.value)  # type: ignore[attr-defined]
        probe = "\x00".join(("session-id", field, "2.1.40"))
        [(text, rules)] = redactor.scan([probe], names=True)
        for needle in secret.needles():  # type: ignore[attr-defined]
            assert needle not in text, (form, text)
        assert rules, form


def test_plain_words_beside_separators_are_left_alone() -> None:
    engine = Redactor(salt=b"test salt")
    for text in ("fix/login-redirect", "docs/README.md", "a=1&b=2", "feature/(wip)", "x\x00y"):
        assert redact_at_separators(engine, text) == (text, [])
