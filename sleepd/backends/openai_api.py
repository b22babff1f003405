"""OpenAI-compatible chat completions through the official SDK, plus the Batch API.

A configurable `base_url` makes Ollama, vLLM and llama.cpp servers work (the key
is then optional). The skill document goes first in the system message so the
provider's automatic prefix caching can reuse it across rollouts.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any, Literal

import orjson

from sleepd.backends.base import (
    UNREADABLE_ANSWER,
    BackendError,
    BatchStatus,
    Estimate,
    FailureKind,
    ModelRequest,
    ModelResponse,
    custom_ids,
    json_output_problem,
    unreadable_answer,
)
from sleepd.backends.pricing import (
    PriceTable,
    Usage,
    input_token_bound,
    report_fields,
    reported_count,
    reported_model,
)
from sleepd.backends.sdk_errors import classify_sdk_error, failed_call

DEFAULT_MODEL = "gpt-5-mini"
CHAT_ENDPOINT: Literal["/v1/chat/completions"] = "/v1/chat/completions"
#: The SDK insists on a key; local servers ignore whatever is sent.
PLACEHOLDER_KEY = "sk-local-no-key"

_BATCH_STATES: dict[str, Literal["in_progress", "ended", "failed", "cancelled", "expired"]] = {
    "validating": "in_progress",
    "in_progress": "in_progress",
    "finalizing": "in_progress",
    "cancelling": "in_progress",
    "completed": "ended",
    "failed": "failed",
    "expired": "expired",
    "cancelled": "cancelled",
}


class OpenAIBackend:
    name = "openai"
    simulated = False
    #: the provider stops at `max_tokens`: a narrowed call's reservation is its bound
    bounds_output = True

    def __init__(
        self,
        *,
        api_key: str | None,
        base_url: str | None = None,
        model: str = DEFAULT_MODEL,
        timeout_s: float = 120.0,
        max_retries: int = 2,
        prices: PriceTable | None = None,
        max_tokens_param: Literal["max_tokens", "max_completion_tokens"] | None = None,
    ) -> None:
        import openai

        self._sdk = openai
        if not api_key and base_url is None:
            raise BackendError(FailureKind.AUTH, "OPENAI_API_KEY is not set and no base_url given")
        self.client = openai.OpenAI(
            api_key=api_key or PLACEHOLDER_KEY,
            base_url=base_url,
            timeout=timeout_s,
            max_retries=max_retries,
        )
        self.default_model = model
        self.prices = prices or PriceTable()
        # OpenAI's newer models want max_completion_tokens; local servers know max_tokens.
        self.max_tokens_param = max_tokens_param or (
            "max_tokens" if base_url else "max_completion_tokens"
        )

    def _model(self, request: ModelRequest) -> str:
        return request.model or self.default_model

    def body(self, request: ModelRequest) -> dict[str, Any]:
        """The chat-completions body (also each line's `body` in a batch input file)."""
        messages: list[dict[str, str]] = []
        if system := request.system_text():
            messages.append({"role": "system", "content": system})
        messages.extend({"role": m.role, "content": m.content} for m in request.messages)
        body: dict[str, Any] = {
            "model": self._model(request),
            "messages": messages,
            self.max_tokens_param: request.max_tokens,
        }
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.json_schema is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": _schema_name(request.json_schema),
                    "schema": dict(request.json_schema),
                    "strict": True,
                },
            }
        return body

    def complete(self, request: ModelRequest) -> ModelResponse:
        body = self.body(request)
        started = time.monotonic()
        try:
            completion = self.client.chat.completions.create(**body)
        except self._sdk.OpenAIError as exc:
            return failed_call(
                exc, self._sdk, self.client, backend=self.name, model=body["model"], started=started
            )
        except UNREADABLE_ANSWER as exc:  # a body the SDK could not decode
            return unreadable_answer(exc, backend=self.name, model=body["model"])
        latency = time.monotonic() - started
        try:
            answer = completion.model_dump(warnings=False)  # odd fields are read below
            return self._response(answer, request, latency_s=latency, batch=False)
        except UNREADABLE_ANSWER as exc:  # no completion (an HTML page sent as 200, …)
            return unreadable_answer(exc, backend=self.name, model=body["model"])

    def _response(
        self, completion: dict[str, Any], request: ModelRequest, *, latency_s: float, batch: bool
    ) -> ModelResponse:
        """Build from the completion as a plain dict (the shape batch output files carry);
        raises one of UNREADABLE_ANSWER when it is no completion (no choices, or a message
        of another shape)."""
        model = reported_model(completion.get("model")) or self._model(request)
        choices = completion.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise TypeError("no choices in the completion")
        choice = choices[0]
        text = _answer_text(choice.get("message"))
        message = report_fields(choice.get("message"))
        usage_raw = report_fields(completion.get("usage"))
        details = report_fields(usage_raw.get("prompt_tokens_details"))
        cached = reported_count(details.get("cached_tokens"))
        usage = Usage(
            input_tokens=max(0, reported_count(usage_raw.get("prompt_tokens")) - cached),
            output_tokens=reported_count(usage_raw.get("completion_tokens")),
            cache_read_tokens=cached,
        )
        failure: FailureKind | None = None
        detail = ""
        if message.get("refusal") or choice.get("finish_reason") == "content_filter":
            failure = FailureKind.REFUSAL
            detail = str(message.get("refusal") or "content filter")
        elif (problem := json_output_problem(text, request.json_schema)) is not None:
            failure, detail = FailureKind.BAD_OUTPUT, problem
        return ModelResponse.measured(
            usage,
            text=text,
            backend=self.name,
            model=model,
            cost_usd=self.prices.cost(model, usage, batch=batch),
            latency_s=latency_s,
            failure=failure,
            failure_detail=detail,
            raw_id=completion["id"] if isinstance(completion.get("id"), str) else None,
        )

    def estimate(self, request: ModelRequest) -> Estimate:
        model = self._model(request)
        return self.prices.estimate(model, input_token_bound(request), request.max_tokens)

    # -- batches -----------------------------------------------------------------------------

    def submit_batch(self, requests: Sequence[ModelRequest]) -> str:
        """Upload a JSONL input file and create a 24h batch on chat completions."""
        lines = [
            orjson.dumps(
                {"custom_id": cid, "method": "POST", "url": CHAT_ENDPOINT, "body": self.body(req)}
            )
            for cid, req in zip(custom_ids(requests), requests, strict=True)
        ]
        payload = b"\n".join(lines) + b"\n"
        try:
            uploaded = self.client.files.create(
                file=("sleepd-batch.jsonl", payload, "application/jsonl"), purpose="batch"
            )
            batch = self.client.batches.create(
                completion_window="24h", endpoint=CHAT_ENDPOINT, input_file_id=uploaded.id
            )
        except self._sdk.OpenAIError as exc:
            raise BackendError(*classify_sdk_error(exc, self._sdk)) from exc
        return str(batch.id)

    def poll_batch(self, batch_id: str) -> BatchStatus:
        try:
            batch = self.client.batches.retrieve(batch_id)
        except self._sdk.OpenAIError as exc:
            raise BackendError(*classify_sdk_error(exc, self._sdk)) from exc
        counts = batch.request_counts
        return BatchStatus(
            batch_id=batch_id,
            state=_BATCH_STATES.get(batch.status, "in_progress"),
            total=counts.total if counts else 0,
            succeeded=counts.completed if counts else 0,
            failed=counts.failed if counts else 0,
            detail=str(batch.status),
        )

    def collect_batch(self, batch_id: str) -> dict[str, ModelResponse]:
        """Download output (and error) files; needs only the id, so it survives restarts."""
        try:
            batch = self.client.batches.retrieve(batch_id)
            files = [f for f in (batch.output_file_id, batch.error_file_id) if f]
            texts = [self.client.files.content(f).text for f in files]
        except self._sdk.OpenAIError as exc:
            raise BackendError(*classify_sdk_error(exc, self._sdk)) from exc
        out: dict[str, ModelResponse] = {}
        for text in texts:
            for raw in text.splitlines():
                if not raw.strip():
                    continue
                try:
                    line = orjson.loads(raw)
                    custom_id = line["custom_id"]
                except (*UNREADABLE_ANSWER, orjson.JSONDecodeError):
                    continue  # no request is named: it stays uncollected
                if not isinstance(custom_id, str):
                    continue
                try:
                    out[custom_id] = self._batch_line(line)
                except UNREADABLE_ANSWER as exc:
                    out[custom_id] = unreadable_answer(exc, backend=self.name, model="")
        return out

    def _batch_line(self, line: dict[str, Any]) -> ModelResponse:
        response = line.get("response") or {}
        status = int(response.get("status_code") or 0)
        if line.get("error") or status != 200:
            error = line.get("error") or (response.get("body") or {}).get("error") or {}
            detail = f"HTTP {status}: {error.get('message', error)}"
            kind = {401: FailureKind.AUTH, 403: FailureKind.AUTH, 429: FailureKind.RATE_LIMIT}.get(
                status, FailureKind.SERVER_ERROR
            )
            return ModelResponse.failed(kind, detail, backend=self.name, model="")
        return self._response(
            response.get("body") or {}, ModelRequest(messages=()), latency_s=0.0, batch=True
        )


def _answer_text(message: Any) -> str:
    """A completion message's text: its content, or the text parts of a content list
    (as some OpenAI-compatible servers send it); none when it holds no content (a
    refusal). A message or content of any other shape raises TypeError: an answer that
    could not be read, not an empty one that would be judged as the model's."""
    if not isinstance(message, dict):
        raise TypeError(f"the message is {type(message).__name__}, not an object")
    content = message.get("content")
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, list):
        return "".join(
            part["text"]
            for part in content
            if isinstance(part, dict)
            and part.get("type", "text") in ("text", "output_text")
            and isinstance(part.get("text"), str)
        )
    raise TypeError(f"the message's content is {type(content).__name__}, not text")


def _schema_name(schema: Any) -> str:
    title = str(schema.get("title") or "response")
    return re.sub(r"[^a-zA-Z0-9_-]", "_", title)[:64]
