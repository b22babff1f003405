"""Map exceptions of the anthropic and openai SDKs to `FailureKind`.

Both SDKs share the same exception shape (APIStatusError with `status_code`
and `response`, APITimeoutError, APIConnectionError), so one mapper serves both.
"""

from __future__ import annotations

import time
from typing import Any

from sleepd.backends.base import FailureKind, ModelResponse


def retry_after_seconds(exc: BaseException) -> float | None:
    """The server's `retry-after-ms` / `retry-after` header, when it sent one."""
    response: Any = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return float(millis) / 1000.0
        except ValueError:
            pass
    seconds = headers.get("retry-after")
    if seconds:
        try:
            return float(seconds)
        except ValueError:
            return None
    return None


def classify_sdk_error(exc: BaseException, sdk: Any) -> tuple[FailureKind, str]:
    """(kind, one-line detail) for an exception raised by `sdk` (the module)."""
    if isinstance(exc, sdk.APITimeoutError):
        return FailureKind.TIMEOUT, "request timed out"
    if isinstance(exc, sdk.APIConnectionError):
        return FailureKind.NOT_AVAILABLE, f"connection failed: {exc}"
    status = getattr(exc, "status_code", None)
    message = _api_message(exc)
    if isinstance(status, int):
        detail = f"HTTP {status}: {message}"
        if status in (401, 403):
            return FailureKind.AUTH, detail
        if status == 429 or status == 529:
            return FailureKind.RATE_LIMIT, detail
        if status == 408:
            return FailureKind.TIMEOUT, detail
        return FailureKind.SERVER_ERROR, detail
    return FailureKind.SERVER_ERROR, f"{type(exc).__name__}: {exc}"


def failed_call(
    exc: BaseException, sdk: Any, client: Any, *, backend: str, model: str, started: float
) -> ModelResponse:
    """The failed response for an exception `sdk`'s `client` raised on a call begun at
    `started` (`time.monotonic()`)."""
    kind, detail = classify_sdk_error(exc, sdk)
    return ModelResponse.failed(
        kind,
        detail,
        backend=backend,
        model=model,
        latency_s=time.monotonic() - started,
        retry_after_s=retry_after_seconds(exc),
        # a request that timed out may still have been answered, and billed, as may
        # each try the SDK made of it before giving up
        unreported_requests=1 + client.max_retries if kind is FailureKind.TIMEOUT else 0,
    )


def _api_message(exc: BaseException) -> str:
    body: Any = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])[:300]
    return str(exc)[:300]
