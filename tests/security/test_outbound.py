"""Every backend sends only redacted text: the request each one puts on the wire (loopback
HTTP for the SDKs, argv and stdin seen by fake executables for the CLIs, the request the
simulator receives) is captured and searched for every planted secret, in every part a
request has (messages, system prompt, skill document, task context, batch ids).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from sleepd.backends.base import ChatMessage, ModelRequest
from sleepd.backends.registry import make_backend
from sleepd.backends.settings import BackendSettings
from sleepd.dream.prompts import target_user_message
from sleepd.paths import private_tmp_root
from tests.backends.fake_clis import CLAUDE, CODEX, install, prepend_path
from tests.backends.fake_providers import FakeAnthropic, FakeOpenAI

from .secrets_kit import Secret, found, json_escaped, make_secrets


def _requests(secrets: list[Secret]) -> list[ModelRequest]:
    """Requests built the way the pipeline builds them, a secret in every part."""
    block = "\n".join(s.assignment() for s in secrets)
    escaped = "\n".join(
        json.dumps({"cmd": f"echo {s.value}"}).replace(s.value, json_escaped(s.value))
        for s in secrets
        if s.self_evident
    )
    out = []
    for s in secrets:
        if not s.self_evident or len(out) >= 10:
            continue  # every kind is in `block`; ten requests carry branch and path forms
        context: dict[str, object] = {
            "git_branch": f"fix/{s.value}",
            "prior_intent": f"use {s.assignment()}",
            "files": [f"/home/u/{s.value}.txt", f"notes/({s.value})."],
            "project_path": "/home/u/proj",
        }
        out.append(
            ModelRequest(
                messages=[
                    ChatMessage(
                        "user", target_user_message("fix the login bug\n" + block, context)
                    ),
                    ChatMessage("assistant", "earlier answer:\n" + escaped),
                    ChatMessage("user", "and again: " + s.assignment()),
                ],
                system="You are careful. Deploy token: " + s.assignment(),
                cache_prefix="# Skill\n" + block,
                metadata={"custom_id": f"t-{len(out)}", "note": s.value},
            )
        )
    return out


@pytest.fixture
def secrets() -> list[Secret]:
    return make_secrets()


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


def _assert_clean(captured: bytes, secrets: list[Secret]) -> None:
    assert captured, "nothing was captured: the test would prove nothing"
    assert b"[REDACTED:" in captured, "the captured request holds no placeholder at all"
    leaked = found(captured, secrets)
    assert leaked == [], f"secrets sent to the model: {leaked}"


def test_anthropic_sdk_sends_no_secret(
    fake_anthropic: FakeAnthropic, secrets: list[Secret]
) -> None:
    settings = BackendSettings(anthropic_base_url=fake_anthropic.url, max_retries=0)
    backend = make_backend("anthropic", settings, {"ANTHROPIC_API_KEY": "test-key"})
    requests = _requests(secrets)
    for request in requests:
        assert backend.complete(request).ok
    batch_id = backend.submit_batch(requests)  # type: ignore[attr-defined]
    assert batch_id
    captured = b"\n".join(seen.body for seen in fake_anthropic.requests)
    assert len(fake_anthropic.requests) >= len(requests) + 1
    _assert_clean(captured, secrets)


def test_openai_sdk_sends_no_secret(fake_openai: FakeOpenAI, secrets: list[Secret]) -> None:
    settings = BackendSettings(openai_base_url=f"{fake_openai.url}/v1", max_retries=0)
    backend = make_backend("openai", settings, {"OPENAI_API_KEY": "test-key"})
    requests = _requests(secrets)
    for request in requests:
        assert backend.complete(request).ok
    assert backend.submit_batch(requests)  # type: ignore[attr-defined]
    captured = b"\n".join(seen.body for seen in fake_openai.requests)
    _assert_clean(captured, secrets)


@pytest.mark.parametrize(("name", "script"), [("claude-cli", CLAUDE), ("codex-cli", CODEX)])
def test_cli_argv_and_stdin_hold_no_secret(
    name: str,
    script: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    secrets: list[Secret],
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    install(bin_dir, name.removesuffix("-cli"), script)
    monkeypatch.setenv("PATH", prepend_path(bin_dir))
    backend = make_backend(name, BackendSettings())
    captured = b""
    for i, request in enumerate(_requests(secrets)):
        record = tmp_path / f"record-{i}.json"
        monkeypatch.setenv("FAKE_RECORD", str(record))
        assert backend.complete(request).ok
        captured += record.read_bytes()
        cwd = json.loads(record.read_text())["cwd"]
        assert Path(cwd).is_relative_to(private_tmp_root())  # private, never /tmp
        assert not Path(cwd).exists()  # removed after the call
    _assert_clean(captured, secrets)


def test_simulator_receives_no_secret(
    monkeypatch: pytest.MonkeyPatch, secrets: list[Secret]
) -> None:
    from sleepd.backends.sim import SimBackend

    seen: list[ModelRequest] = []
    original = SimBackend.complete

    def capture(self: SimBackend, request: ModelRequest) -> object:
        seen.append(request)
        return original(self, request)

    monkeypatch.setattr(SimBackend, "complete", capture)
    backend = make_backend("sim", BackendSettings())
    for request in _requests(secrets):
        backend.complete(request)
    captured = "\n".join(repr(r) for r in seen).encode()
    _assert_clean(captured, secrets)


def test_request_built_any_way_is_redacted(secrets: list[Secret]) -> None:
    """`dataclasses.replace` and positional construction pass the same chokepoint."""
    import dataclasses

    base = ModelRequest(messages=[ChatMessage("user", "hello")])
    replaced = dataclasses.replace(
        base, system=secrets[0].assignment(), cache_prefix=secrets[1].assignment()
    )
    _assert_clean(repr(replaced).encode(), secrets)
    with pytest.raises(TypeError):
        ModelRequest(messages=["raw string " + secrets[0].value])  # type: ignore[list-item]


@pytest.mark.parametrize(
    "form",
    [
        "Branch: fix/{v}",
        "Files mentioned: /home/u/{v}.txt, b",
        "see ({v}).",
        "https://api.example.com/v1?key={v}&y=2",
        "the key is {v}.",
        "{v}.pem",
        "[{v}]",
    ],
)
def test_secret_against_separators_is_redacted(form: str, secrets: list[Secret]) -> None:
    """Many provider rules need whitespace or a quote around a key; a path, URL, branch
    or sentence puts other characters there."""
    evident = [s for s in secrets if s.self_evident]
    request = ModelRequest(
        messages=[ChatMessage("user", "\n".join(form.format(v=s.value) for s in evident))]
    )
    leaked = found(request.messages[0].content.encode(), evident)
    assert leaked == [], f"not redacted in {form!r}: {leaked}"


def test_vault_token_with_a_letters_only_head_is_redacted() -> None:
    """Upstream's allowlist for legacy `s.` tokens matched inside `hvs.` tokens too."""
    token = (
        "hvs.PbTlKGFkrddYsLVxvnNPWxTODVrVGEhfnZgB-2-uMksDur4Zlf49yBVae2sKjh1Ri4bwvWLa4Sz8kP62"
        "tZkhQM1V9rMRdyC5ksV1"
    )
    request = ModelRequest(messages=[ChatMessage("user", f"the token is {token} ok")])
    assert token not in request.messages[0].content
