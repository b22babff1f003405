"""Anthropic Messages API through the official SDK, with prompt caching and batches.

The skill document (`cache_prefix`) goes in its own system block marked
`cache_control: ephemeral`, so K rollouts of many tasks share one cached prefix;
batched calls use the 1-hour TTL because a batch can outlive 5 minutes.
Batches bill at half price (`PriceTable.batch_discount`).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from typing import Any

import orjson

from sleepd.backends.base import (
    UNREADABLE_ANSWER,
    BackendError,
    BatchState,
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
    reported_count,
    reported_model,
)
from sleepd.backends.sdk_errors import classify_sdk_error, failed_call

DEFAULT_MODEL = "claude-sonnet-4-6"
COUNT_CACHE_SIZE = 4096


class AnthropicBackend:
    name = "anthropic"
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
        use_count_tokens: bool = True,
    ) -> None:
        import anthropic

        self._sdk = anthropic
        self.client = anthropic.Anthropic(
            api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=max_retries
        )
        self.default_model = model
        self.prices = prices or PriceTable()
        self.use_count_tokens = use_count_tokens
        # K rollouts of one task send identical bodies: count each body once.
        self._counted: dict[str, int] = {}

    # -- request shaping -------------------------------------------------------------------

    def _model(self, request: ModelRequest) -> str:
        return request.model or self.default_model

    def _system(self, request: ModelRequest, *, batch: bool) -> str | list[dict[str, Any]] | None:
        if not request.cache_prefix:
            return request.system
        cache_control: dict[str, str] = {"type": "ephemeral"}
        if batch:
            cache_control["ttl"] = "1h"
        blocks: list[dict[str, Any]] = [
            {"type": "text", "text": request.cache_prefix, "cache_control": cache_control}
        ]
        if request.system:
            blocks.append({"type": "text", "text": request.system})
        return blocks

    def params(self, request: ModelRequest, *, batch: bool = False) -> dict[str, Any]:
        """The Messages API body for this request (also the `params` of a batch entry)."""
        params: dict[str, Any] = {
            "model": self._model(request),
            "max_tokens": request.max_tokens,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
        }
        system = self._system(request, batch=batch)
        if system:
            params["system"] = system
        if request.json_schema is not None:
            params["output_config"] = {
                "format": {"type": "json_schema", "schema": dict(request.json_schema)}
            }
        if request.temperature is not None:
            params["temperature"] = request.temperature
        return params

    # -- single calls ------------------------------------------------------------------------

    def complete(self, request: ModelRequest) -> ModelResponse:
        params = self.params(request)
        temperature = params.pop("temperature", None)
        extra = {"temperature": temperature} if temperature is not None else None
        started = time.monotonic()
        try:
            message = self.client.messages.create(**params, extra_body=extra)
        except self._sdk.AnthropicError as exc:
            return failed_call(
                exc,
                self._sdk,
                self.client,
                backend=self.name,
                model=params["model"],
                started=started,
            )
        except UNREADABLE_ANSWER as exc:  # a body the SDK could not decode
            return unreadable_answer(exc, backend=self.name, model=params["model"])
        latency = time.monotonic() - started
        try:
            return self._response(message, request, latency_s=latency, batch=False)
        except UNREADABLE_ANSWER as exc:
            return unreadable_answer(exc, backend=self.name, model=params["model"])

    def _response(
        self, message: Any, request: ModelRequest, *, latency_s: float, batch: bool
    ) -> ModelResponse:
        """The response a message makes; raises one of UNREADABLE_ANSWER when the answer
        is no message (the SDK hands over whatever came, HTML included)."""
        content = message.content
        if not isinstance(content, list):
            raise TypeError(f"content is {type(content).__name__}, not a list of blocks")
        text = "".join(
            b.text
            for b in content
            if getattr(b, "type", "") == "text" and isinstance(getattr(b, "text", None), str)
        )
        figures = message.usage
        usage = Usage(
            input_tokens=reported_count(getattr(figures, "input_tokens", None)),
            output_tokens=reported_count(getattr(figures, "output_tokens", None)),
            cache_read_tokens=reported_count(getattr(figures, "cache_read_input_tokens", None)),
            cache_write_tokens=reported_count(
                getattr(figures, "cache_creation_input_tokens", None)
            ),
        )
        model = reported_model(getattr(message, "model", None)) or self._model(request)
        failure: FailureKind | None = None
        detail = ""
        if getattr(message, "stop_reason", None) == "refusal":
            failure, detail = FailureKind.REFUSAL, "model refused (stop_reason=refusal)"
        elif (problem := json_output_problem(text, request.json_schema)) is not None:
            failure, detail = FailureKind.BAD_OUTPUT, problem
        message_id = getattr(message, "id", None)
        return ModelResponse.measured(
            usage,
            text=text,
            backend=self.name,
            model=model,
            cost_usd=self.prices.cost(model, usage, batch=batch, cache_ttl_1h=batch),
            latency_s=latency_s,
            failure=failure,
            failure_detail=detail,
            raw_id=message_id if isinstance(message_id, str) else None,
        )

    def estimate(self, request: ModelRequest) -> Estimate:
        """The worst case: exact input count via `messages.count_tokens` when it works,
        else a byte bound; full `max_tokens` of output."""
        model = self._model(request)
        input_tokens = self._count_tokens(request) if self.use_count_tokens else None
        if input_tokens is None:
            input_tokens = input_token_bound(request)
        return self.prices.estimate(model, input_tokens, request.max_tokens)

    def _count_tokens(self, request: ModelRequest) -> int | None:
        params = self.params(request)
        body = {
            k: params[k] for k in ("model", "messages", "system", "output_config") if k in params
        }
        key = hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()
        if (cached := self._counted.get(key)) is not None:
            return cached
        try:
            count = int(self.client.messages.count_tokens(**body).input_tokens)
        except self._sdk.AnthropicError:
            return None
        if len(self._counted) >= COUNT_CACHE_SIZE:
            self._counted.clear()
        self._counted[key] = count
        return count

    # -- batches -----------------------------------------------------------------------------

    def submit_batch(self, requests: Sequence[ModelRequest]) -> str:
        entries = [
            {"custom_id": cid, "params": self.params(req, batch=True)}
            for cid, req in zip(custom_ids(requests), requests, strict=True)
        ]
        try:
            batch = self.client.messages.batches.create(requests=entries)  # type: ignore[arg-type]
        except self._sdk.AnthropicError as exc:
            raise BackendError(*classify_sdk_error(exc, self._sdk)) from exc
        return str(batch.id)

    def poll_batch(self, batch_id: str) -> BatchStatus:
        try:
            batch = self.client.messages.batches.retrieve(batch_id)
        except self._sdk.AnthropicError as exc:
            raise BackendError(*classify_sdk_error(exc, self._sdk)) from exc
        counts = batch.request_counts
        total = (
            counts.processing + counts.succeeded + counts.errored + counts.canceled + counts.expired
        )
        state: BatchState = "ended" if batch.processing_status == "ended" else "in_progress"
        return BatchStatus(
            batch_id=batch_id,
            state=state,
            total=total,
            succeeded=counts.succeeded,
            failed=counts.errored + counts.canceled + counts.expired,
            detail=str(batch.processing_status),
        )

    def collect_batch(self, batch_id: str) -> dict[str, ModelResponse]:
        """Results by custom_id; needs only the id, so it works after a restart."""
        try:
            results = list(self.client.messages.batches.results(batch_id))
        except self._sdk.AnthropicError as exc:
            raise BackendError(*classify_sdk_error(exc, self._sdk)) from exc
        out: dict[str, ModelResponse] = {}
        for line in results:
            custom_id = getattr(line, "custom_id", None)
            if not isinstance(custom_id, str):
                continue  # a result no request asked for: its request stays uncollected
            try:
                out[custom_id] = self._batch_result(line.result)
            except UNREADABLE_ANSWER as exc:
                out[custom_id] = unreadable_answer(exc, backend=self.name, model="")
        return out

    def _batch_result(self, result: Any) -> ModelResponse:
        kind = result.type
        if kind == "succeeded":
            request = ModelRequest(messages=())  # no schema check: the caller validates
            return self._response(result.message, request, latency_s=0.0, batch=True)
        if kind == "errored":
            error = result.error.error
            error_type = str(getattr(error, "type", "api_error"))
            failure = {
                "rate_limit_error": FailureKind.RATE_LIMIT,
                "overloaded_error": FailureKind.RATE_LIMIT,
                "authentication_error": FailureKind.AUTH,
                "permission_error": FailureKind.AUTH,
                "timeout_error": FailureKind.TIMEOUT,
            }.get(error_type, FailureKind.SERVER_ERROR)
            detail = f"{error_type}: {getattr(error, 'message', '')}"
            return ModelResponse.failed(failure, detail, backend=self.name, model="")
        if kind == "expired":
            return ModelResponse.failed(
                FailureKind.TIMEOUT, "batch request expired", backend=self.name, model=""
            )
        return ModelResponse.failed(
            FailureKind.CANCELLED, f"batch request {kind}", backend=self.name, model=""
        )
