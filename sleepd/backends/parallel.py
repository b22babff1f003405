"""Run many requests at once, within the budget, backing off on rate limits.

Each attempt reserves its worst case with the budget guard before it is sent and
settles to the actual usage when it returns; a `BudgetExceeded` or a set cancel
event stops new work cleanly and the requests never started come back as
`budget` / `cancelled` failures (missing data, not zero scores).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from sleepd.backends.base import Backend, FailureKind, ModelRequest, ModelResponse
from sleepd.backends.budget import BudgetExceeded, BudgetGuard


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    max_attempts: int = 5
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0
    retry_on: Collection[FailureKind] = field(default_factory=lambda: {FailureKind.RATE_LIMIT})

    def delay(self, attempt: int, retry_after_s: float | None, rng: random.Random) -> float:
        """Exponential backoff with full jitter; the provider's retry-after wins if longer."""
        backoff = min(self.max_delay_s, self.base_delay_s * (2**attempt))
        jittered = rng.uniform(0, backoff)
        if retry_after_s is not None:
            return min(self.max_delay_s, max(retry_after_s, jittered))
        return jittered


@dataclass
class ParallelRunner:
    """Calls `backend.complete` for many requests on a thread pool."""

    backend: Backend
    concurrency: int = 4
    guard: BudgetGuard | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    #: None waits on the cancel event (wakes early on cancel); tests pass a fake.
    sleep: Callable[[float], None] | None = None
    seed: int = 0
    stopped_by: BudgetExceeded | None = None

    def run(self, requests: Sequence[ModelRequest]) -> list[ModelResponse]:
        """Responses in request order; unstarted ones carry `budget` or `cancelled`."""
        self.stopped_by = None
        self._rng_lock = threading.Lock()
        self._rng = random.Random(self.seed)
        if not requests:
            return []
        workers = max(1, min(self.concurrency, len(requests)))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sleepd-call") as pool:
            return list(pool.map(self._one, requests))

    def _stopped_response(self, request: ModelRequest) -> ModelResponse | None:
        model = request.model or ""
        if self.stopped_by is not None:
            return ModelResponse.failed(
                FailureKind.BUDGET, str(self.stopped_by), backend=self.backend.name, model=model
            )
        if self.cancel.is_set():
            return ModelResponse.failed(
                FailureKind.CANCELLED, "cancelled", backend=self.backend.name, model=model
            )
        return None

    def _one(self, request: ModelRequest) -> ModelResponse:
        response: ModelResponse | None = None
        for attempt in range(self.retry.max_attempts):
            stopped = self._stopped_response(request)
            if stopped is not None:
                return stopped
            response = self._attempt(request)
            if response.failure not in self.retry.retry_on:
                return response
            if attempt + 1 < self.retry.max_attempts:
                with self._rng_lock:
                    delay = self.retry.delay(attempt, response.retry_after_s, self._rng)
                if self._wait(delay):
                    break
        assert response is not None
        return self._stopped_response(request) or response

    def _wait(self, delay: float) -> bool:
        """Sleep before a retry; True when cancelled meanwhile."""
        if self.sleep is None:
            return self.cancel.wait(delay)
        self.sleep(delay)
        return self.cancel.is_set()

    def _attempt(self, request: ModelRequest) -> ModelResponse:
        reservation = None
        if self.guard is not None:
            try:
                request, reservation = self.guard.reserve(self.backend, request)
            except BudgetExceeded as exc:
                self.stopped_by = self.stopped_by or exc
                return ModelResponse.failed(
                    FailureKind.BUDGET,
                    str(exc),
                    backend=self.backend.name,
                    model=request.model or "",
                )
        try:
            response = self.backend.complete(request)
        except Exception:
            if self.guard is not None:
                self.guard.release(reservation)
            raise
        if self.guard is not None:
            self.guard.record(
                response, request.role, self.backend.name, response.model, reservation
            )
        return response


def run_parallel(
    backend: Backend,
    requests: Sequence[ModelRequest],
    *,
    concurrency: int = 4,
    guard: BudgetGuard | None = None,
    cancel: threading.Event | None = None,
    retry: RetryPolicy | None = None,
) -> list[ModelResponse]:
    runner = ParallelRunner(
        backend,
        concurrency=concurrency,
        guard=guard,
        cancel=cancel or threading.Event(),
        retry=retry or RetryPolicy(),
    )
    return runner.run(requests)
