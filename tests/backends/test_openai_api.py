"""The openai backend through the real SDK against a loopback server."""

from __future__ import annotations

import json

import pytest

from sleepd.backends.base import BackendError, ChatMessage, FailureKind, ModelRequest
from sleepd.backends.edit_schema import EDIT_SCHEMA
from sleepd.backends.openai_api import OpenAIBackend

from .fake_providers import FakeOpenAI, Reply, chat_completion, openai_error

SKILL = "# Skill\n- Pin new dependencies with an upper bound.\n"


def backend(server: FakeOpenAI, *, key: str | None = "sk-test", retries: int = 0) -> OpenAIBackend:
    return OpenAIBackend(api_key=key, base_url=f"{server.url}/v1", max_retries=retries, timeout_s=5)


def request(**kw: object) -> ModelRequest:
    base: dict[str, object] = {"messages": [ChatMessage("user", "upgrade the package version")]}
    base.update(kw)
    return ModelRequest(**base)  # type: ignore[arg-type]


def test_complete_puts_skill_first_in_system_and_reads_cached_usage(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script("/v1/chat/completions", Reply(200, chat_completion("done", cached=8)))
    response = backend(fake_openai).complete(
        request(system="Be brief.", cache_prefix=SKILL, model="gpt-4.1-mini", max_tokens=50)
    )
    assert response.ok and response.text == "done"
    assert (response.input_tokens, response.cache_read_tokens, response.output_tokens) == (12, 8, 7)
    assert response.cost_usd == pytest.approx((12 * 0.4 + 8 * 0.1 + 7 * 1.6) / 1e6)
    body = fake_openai.seen("/v1/chat/completions")[0].json()
    assert body["messages"][0] == {"role": "system", "content": SKILL + "\n\nBe brief."}
    assert body["messages"][1]["role"] == "user"
    assert body["max_tokens"] == 50  # base_url configured: local-server parameter name


def test_local_server_needs_no_key(fake_openai: FakeOpenAI) -> None:
    response = backend(fake_openai, key=None).complete(request())
    assert response.ok and response.text == "hello from fake openai"


def test_missing_key_without_base_url_is_refused() -> None:
    with pytest.raises(BackendError, match="OPENAI_API_KEY"):
        OpenAIBackend(api_key=None)


def test_json_schema_becomes_strict_response_format(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(
        "/v1/chat/completions", Reply(200, chat_completion('{"edits": [], "rationale": "r"}'))
    )
    response = backend(fake_openai).complete(request(json_schema=EDIT_SCHEMA))
    assert response.ok
    fmt = fake_openai.seen("/v1/chat/completions")[0].json()["response_format"]
    assert fmt["type"] == "json_schema"
    assert (
        fmt["json_schema"]["strict"] is True
        and fmt["json_schema"]["name"] == "skill_document_edits"
    )
    assert fmt["json_schema"]["schema"] == EDIT_SCHEMA


def test_refusal_and_bad_json(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(
        "/v1/chat/completions",
        Reply(200, chat_completion(None, refusal="I can't help with that")),
        Reply(200, chat_completion("not json at all")),
    )
    b = backend(fake_openai)
    assert b.complete(request()).failure is FailureKind.REFUSAL
    assert b.complete(request(json_schema=EDIT_SCHEMA)).failure is FailureKind.BAD_OUTPUT


@pytest.mark.parametrize(
    ("status", "expected"),
    [(401, FailureKind.AUTH), (500, FailureKind.SERVER_ERROR), (404, FailureKind.SERVER_ERROR)],
)
def test_http_errors_map_to_failure_kinds(
    fake_openai: FakeOpenAI, status: int, expected: FailureKind
) -> None:
    fake_openai.script("/v1/chat/completions", Reply(status, openai_error("bad things")))
    response = backend(fake_openai).complete(request())
    assert response.failure is expected and "bad things" in response.failure_detail


def test_rate_limit_retry_after_then_sdk_retry(fake_openai: FakeOpenAI) -> None:
    limited = Reply(429, openai_error("slow", "rate_limit_exceeded"), {"retry-after": "3"})
    fake_openai.script("/v1/chat/completions", limited)
    response = backend(fake_openai).complete(request())
    assert response.failure is FailureKind.RATE_LIMIT and response.retry_after_s == 3.0
    fake_openai.script(
        "/v1/chat/completions", Reply(429, openai_error("slow"), {"retry-after-ms": "10"})
    )
    assert backend(fake_openai, retries=1).complete(request()).ok


def test_batch_uploads_jsonl_and_collects_output_file(fake_openai: FakeOpenAI) -> None:
    requests = [request(metadata={"custom_id": f"c{i}"}, cache_prefix=SKILL) for i in range(3)]
    batch_id = backend(fake_openai).submit_batch(requests)
    upload = fake_openai.seen("/v1/files")[0]
    assert b'name="purpose"' in upload.body and b"batch" in upload.body
    assert fake_openai.seen("/v1/batches")[0].json()["endpoint"] == "/v1/chat/completions"

    fresh = backend(fake_openai)  # only the batch id survives a restart
    status = fresh.poll_batch(batch_id)
    assert status.done and status.state == "ended" and status.total == 3
    results = fresh.collect_batch(batch_id)
    assert set(results) == {"c0", "c1", "c2"}
    assert results["c1"].ok and results["c1"].text == "answer c1"
    assert (
        results["c2"].failure is FailureKind.SERVER_ERROR and "boom" in results["c2"].failure_detail
    )
    # batch price is half (the fake answers as gpt-4.1-mini: $0.4 in, $1.6 out per Mtok)
    assert results["c0"].cost_usd == pytest.approx(0.5 * (20 * 0.4 + 7 * 1.6) / 1e6)
    lines = fake_openai.files["file-1"].decode().splitlines()
    assert [json.loads(x)["custom_id"] for x in lines] == ["c0", "c1", "c2"]
    assert json.loads(lines[0])["body"]["messages"][0]["content"] == SKILL


def _with_content(content: object) -> dict[str, object]:
    answer = chat_completion("hi")
    return {
        **answer,
        "choices": [{**answer["choices"][0], "message": {"role": "assistant", "content": content}}],
    }


@pytest.mark.parametrize(
    "reply",
    [
        Reply(200, b"<html>a proxy's page</html>", {"content-type": "text/html"}),
        Reply(200, b'{"id": "c1", "choi', {"content-type": "application/json"}),
        Reply(200, [1, 2]),
        Reply(200, {}),
        Reply(200, {**chat_completion("hi"), "choices": "x"}),
        Reply(200, {**chat_completion("hi"), "choices": [{"index": 0, "message": "hi"}]}),
        Reply(200, {**chat_completion("hi"), "choices": [{"index": 0}]}),
        Reply(200, _with_content(7)),
        Reply(200, _with_content({"text": "hi"})),
    ],
    ids=[
        "html", "truncated", "list", "empty", "choices-text", "message-text", "no-message",
        "content-number", "content-object",
    ],
)  # fmt: skip
def test_an_answer_that_is_no_completion_is_one_failure_not_an_exception(
    fake_openai: FakeOpenAI, reply: Reply
) -> None:
    """Never an empty answer that a judge would score as the model's: bad output, whose
    bill nobody reported (the budget charges its worst case)."""
    fake_openai.script("/v1/chat/completions", reply)
    response = backend(fake_openai).complete(request())
    assert response.failure is FailureKind.BAD_OUTPUT and response.bill_unknown


def test_content_sent_as_text_parts_is_read_as_its_text(fake_openai: FakeOpenAI) -> None:
    """Some OpenAI-compatible servers send the content as a list of parts."""
    parts = [{"type": "text", "text": "hel"}, {"type": "image_url"}, {"type": "text", "text": "lo"}]
    fake_openai.script("/v1/chat/completions", Reply(200, _with_content(parts)))
    response = backend(fake_openai).complete(request())
    assert response.ok and response.text == "hello"


@pytest.mark.parametrize(
    "usage", [{"prompt_tokens": -5, "completion_tokens": -1}, {"prompt_tokens": "x"}, [1]]
)
def test_usage_figures_no_bill_can_hold_count_none(fake_openai: FakeOpenAI, usage: object) -> None:
    answer = {**chat_completion("hi"), "usage": usage}
    fake_openai.script("/v1/chat/completions", Reply(200, answer))
    response = backend(fake_openai).complete(request())
    assert response.ok and response.text == "hi"
    assert min(response.input_tokens, response.output_tokens) >= 0 and response.cost_usd >= 0
