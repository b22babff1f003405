"""What the redaction tests share."""

from __future__ import annotations

import pytest

from sleepd.redaction import Redactor


@pytest.fixture(scope="session")
def redactor() -> Redactor:
    """The shipped rules under a fixed salt; a `Redactor` holds no per-call state, so one
    serves every test."""
    return Redactor(salt=b"test")
