"""The anthropic backend through the real SDK against a loopback server."""

from __future__ import annotations

import pytest

from sleepd.backends.anthropic_api import AnthropicBackend
from sleepd.backends.base import BackendError, ChatMessage, FailureKind, ModelRequest
from sleepd.backends.edit_schema import EDIT_SCHEMA

from .fake_providers import FakeAnthropic, Reply, anthropic_error, anthropic_message

SKILL = "# Skill\n- Run the test suite with `pytest -q` before declaring a task done.\n"


def backend(server: FakeAnthropic, *, retries: int = 0, timeout: float = 5.0) -> AnthropicBackend:
    return AnthropicBackend(
        api_key="test-key", base_url=server.url, max_retries=retries, timeout_s=timeout
    )


def request(**kw: object) -> ModelRequest:
    base: dict[str, object] = {"messages": [ChatMessage("user", "fix the failing test")]}
    base.update(kw)
    return ModelRequest(**base)  # type: ignore[arg-type]


def test_complete_sends_cached_skill_block_and_reads_usage(fake_anthropic: FakeAnthropic) -> None:
    response = backend(fake_anthropic).complete(
        request(system="Be brief.", cache_prefix=SKILL, model="claude-sonnet-4-6", max_tokens=64)
    )
    assert response.ok and response.text == "hello from fake"
    assert (response.input_tokens, response.output_tokens, response.cache_write_tokens) == (
        10,
        5,
        100,
    )
    # sonnet: $3/Mtok in, $15 out, 5-minute cache write 1.25x input
    assert response.cost_usd == pytest.approx((10 * 3 + 5 * 15 + 100 * 3.75) / 1e6)
    sent = fake_anthropic.seen("/v1/messages")[0]
    body = sent.json()
    assert "test-key" in (sent.headers.get("x-api-key") or sent.headers["authorization"])
    assert body["system"][0] == {
        "type": "text", "text": SKILL, "cache_control": {"type": "ephemeral"}
    }  # fmt: skip
    assert body["system"][1]["text"] == "Be brief."
    assert body["max_tokens"] == 64 and body["messages"][0]["content"] == "fix the failing test"


def test_json_schema_goes_to_output_config(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.script(
        "/v1/messages", Reply(200, anthropic_message('{"edits": [], "rationale": "x"}'))
    )
    response = backend(fake_anthropic).complete(request(role="optimizer", json_schema=EDIT_SCHEMA))
    assert response.ok
    body = fake_anthropic.seen("/v1/messages")[0].json()
    assert body["output_config"]["format"]["type"] == "json_schema"
    assert body["output_config"]["format"]["schema"]["required"] == ["edits", "rationale"]


def test_non_json_answer_to_schema_request_is_bad_output(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.script("/v1/messages", Reply(200, anthropic_message("sure! here you go")))
    response = backend(fake_anthropic).complete(request(json_schema=EDIT_SCHEMA))
    assert response.failure is FailureKind.BAD_OUTPUT and not response.ok


def test_refusal_stop_reason_is_refusal(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.script("/v1/messages", Reply(200, anthropic_message("", stop="refusal")))
    assert backend(fake_anthropic).complete(request()).failure is FailureKind.REFUSAL


@pytest.mark.parametrize(
    ("status", "kind", "expected"),
    [
        (401, "authentication_error", FailureKind.AUTH),
        (500, "api_error", FailureKind.SERVER_ERROR),
        (529, "overloaded_error", FailureKind.RATE_LIMIT),
        (400, "invalid_request_error", FailureKind.SERVER_ERROR),
    ],
)
def test_http_errors_map_to_failure_kinds(
    fake_anthropic: FakeAnthropic, status: int, kind: str, expected: FailureKind
) -> None:
    fake_anthropic.script("/v1/messages", Reply(status, anthropic_error(kind, "nope")))
    response = backend(fake_anthropic).complete(request())
    assert response.failure is expected
    assert f"HTTP {status}" in response.failure_detail and "nope" in response.failure_detail
    assert response.text == "" and response.cost_usd == 0


def test_rate_limit_exposes_retry_after(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.script(
        "/v1/messages",
        Reply(429, anthropic_error("rate_limit_error", "slow down"), {"retry-after": "7"}),
    )
    response = backend(fake_anthropic).complete(request())
    assert response.failure is FailureKind.RATE_LIMIT and response.retry_after_s == 7.0


def test_sdk_retries_set_explicitly_recover_from_429(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.script(
        "/v1/messages",
        Reply(429, anthropic_error("rate_limit_error", "slow down"), {"retry-after": "0.01"}),
    )
    response = backend(fake_anthropic, retries=1).complete(request())
    assert response.ok and len(fake_anthropic.seen("/v1/messages")) == 2


def test_unreachable_server_is_not_available() -> None:
    dead = AnthropicBackend(api_key="k", base_url="http://127.0.0.1:9", max_retries=0, timeout_s=2)
    assert dead.complete(request()).failure is FailureKind.NOT_AVAILABLE


def test_estimate_uses_count_tokens_and_full_max_tokens(fake_anthropic: FakeAnthropic) -> None:
    estimate = backend(fake_anthropic).estimate(request(model="claude-sonnet-4-6", max_tokens=1000))
    assert estimate.input_tokens == 42 and estimate.output_tokens == 1000
    # worst case: every input token at the 1h cache-write rate ($6), output at $15
    assert estimate.cost_usd == pytest.approx((42 * 6 + 1000 * 15) / 1e6)


def test_estimate_falls_back_to_heuristic_when_count_tokens_fails(
    fake_anthropic: FakeAnthropic,
) -> None:
    fake_anthropic.script(
        "/v1/messages/count_tokens", Reply(500, anthropic_error("api_error", "down"))
    )
    long_request = request(messages=[ChatMessage("user", "x" * 3000)])
    estimate = backend(fake_anthropic).estimate(long_request)
    assert estimate.input_tokens >= 1000  # chars/3, not the 42 the server would say


def test_batch_submit_poll_collect_resumes_from_id_alone(fake_anthropic: FakeAnthropic) -> None:
    requests = [
        request(cache_prefix=SKILL, metadata={"custom_id": f"t{i}", "rollout": i}) for i in range(3)
    ]
    batch_id = backend(fake_anthropic).submit_batch(requests)
    sent = fake_anthropic.seen("/v1/messages/batches")[0].json()["requests"]
    assert [e["custom_id"] for e in sent] == ["t0", "t1", "t2"]
    assert sent[0]["params"]["system"][0]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}

    fake_anthropic.polls_until_ended = 2  # the SDK's results() retrieves the batch first
    fresh = backend(fake_anthropic)  # as after a restart: only the id survives
    first = fresh.poll_batch(batch_id)
    assert not first.done and first.state == "in_progress"
    with pytest.raises(BackendError):
        fresh.collect_batch(batch_id)  # results are not ready yet
    status = fresh.poll_batch(batch_id)
    assert status.done and (status.total, status.succeeded, status.failed) == (3, 2, 1)
    results = fresh.collect_batch(batch_id)
    assert set(results) == {"t0", "t1", "t2"}
    assert results["t0"].ok and results["t0"].text == "answer t0"
    assert results["t2"].failure is FailureKind.RATE_LIMIT  # overloaded
    # batch price: half of (10 in + 5 out + 100 one-hour cache writes at 2x)
    assert results["t1"].cost_usd == pytest.approx(0.5 * (10 * 3 + 5 * 15 + 100 * 6) / 1e6)


def test_poll_unknown_batch_raises_backend_error(fake_anthropic: FakeAnthropic) -> None:
    with pytest.raises(BackendError, match="HTTP 404"):
        backend(fake_anthropic).poll_batch("msgbatch_missing")


def test_count_tokens_is_asked_once_per_identical_body(fake_anthropic: FakeAnthropic) -> None:
    b = backend(fake_anthropic)
    for rollout in range(3):
        b.estimate(request(cache_prefix=SKILL, metadata={"rollout": rollout}))
    b.estimate(request(cache_prefix=SKILL + "changed"))
    assert len(fake_anthropic.seen("/v1/messages/count_tokens")) == 2


def _message(**fields: object) -> dict[str, object]:
    return {**anthropic_message("hi"), **fields}


@pytest.mark.parametrize(
    "reply",
    [
        Reply(200, b"<html>a proxy's page</html>", {"content-type": "text/html"}),
        Reply(200, b'{"id": "msg_1", "type": "mess', {"content-type": "application/json"}),
        Reply(200, [1, 2]),
        Reply(200, {}),
        Reply(200, _message(content=None)),
        Reply(200, {"type": "error", "error": {"type": "overloaded_error", "message": "x"}}),
    ],
    ids=["html", "truncated", "list", "empty", "no-content", "error-as-200"],
)
def test_an_answer_that_is_no_message_is_one_failure_not_an_exception(
    fake_anthropic: FakeAnthropic, reply: Reply
) -> None:
    """The SDK builds its objects without validating them: whatever a proxy or a broken
    server sends as 200 reaches the backend, which reads it as bad output."""
    fake_anthropic.script("/v1/messages", reply)
    response = backend(fake_anthropic).complete(request())
    assert response.failure is FailureKind.BAD_OUTPUT
    assert response.failure_detail.startswith("the provider's answer could not be read")


@pytest.mark.parametrize(
    "usage",
    [{"input_tokens": -5, "output_tokens": -7}, {"input_tokens": "x", "output_tokens": 1}, None],
)
def test_usage_figures_no_bill_can_hold_count_none(
    fake_anthropic: FakeAnthropic, usage: object
) -> None:
    fake_anthropic.script("/v1/messages", Reply(200, _message(usage=usage)))
    response = backend(fake_anthropic).complete(request())
    assert response.ok and response.text == "hi"
    assert min(response.input_tokens, response.output_tokens) >= 0 and response.cost_usd >= 0


def test_a_model_name_longer_than_the_store_keeps_gives_way_to_the_requested_one(
    fake_anthropic: FakeAnthropic,
) -> None:
    fake_anthropic.script("/v1/messages", Reply(200, _message(model="claude-" + "x" * 300)))
    response = backend(fake_anthropic).complete(request(model="claude-sonnet-4-6"))
    assert response.ok and response.model == "claude-sonnet-4-6"
