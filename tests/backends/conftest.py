from __future__ import annotations

from collections.abc import Iterator

import pytest

from .fake_providers import FakeAnthropic, FakeOpenAI


@pytest.fixture
def fake_anthropic() -> Iterator[FakeAnthropic]:
    server = FakeAnthropic().start()
    yield server
    server.stop()


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI().start()
    yield server
    server.stop()
