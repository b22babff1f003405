"""Run a round of model calls: in parallel now, or as a provider batch that can wait.

Batches cost half on the providers that offer them; their ids are handed to
`on_batch_submitted` (the night stores them) so a restart can still collect and
account for a batch that was already paid for.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sleepd.backends.base import (
    Backend,
    BackendError,
    FailureKind,
    ModelRequest,
    ModelResponse,
    custom_ids,
    supports_batch,
)
from sleepd.backends.budget import BudgetExceeded, BudgetGuard, Reservation
from sleepd.backends.parallel import ParallelRunner


@dataclass
class CallExecutor:
    backend: Backend
    guard: BudgetGuard | None
    stop: threading.Event
    concurrency: int = 4
    use_batch: bool = False
    batch_poll_s: float = 30.0
    on_batch_submitted: Callable[[str, str, Sequence[str]], None] | None = None
    on_batch_finished: Callable[[str, str], None] | None = None
    calls: int = 0
    stopped_by: BudgetExceeded | None = field(default=None)

    def run(self, requests: Sequence[ModelRequest]) -> list[ModelResponse]:
        if not requests:
            return []
        self.calls += len(requests)
        if self.use_batch and supports_batch(self.backend) and len(requests) > 1:
            return self._run_batch(requests)
        runner = ParallelRunner(
            self.backend, concurrency=self.concurrency, guard=self.guard, cancel=self.stop
        )
        responses = runner.run(requests)
        if runner.stopped_by is not None:
            self.stopped_by = self.stopped_by or runner.stopped_by
        return responses

    def _run_batch(self, requests: Sequence[ModelRequest]) -> list[ModelResponse]:
        """Submit the round as provider batches whose worst case fits the budget.

        Each batch reserves the worst case of every request in it before it is submitted
        and settles them when it is collected. When the whole round does not fit, the
        part that does goes first and the rest waits for its settlement; a request that
        cannot fit even alone ends the round with `budget` failures.
        """
        responses: list[ModelResponse] = []
        rest = list(requests)
        while rest:
            reserved = self._reserve_prefix(rest)
            if reserved is None:
                assert self.stopped_by is not None
                detail = str(self.stopped_by)
                responses += [self._failed(r, FailureKind.BUDGET, detail) for r in rest]
                break
            size = len(reserved) if self.guard is not None else len(rest)
            # the requests as reserved: near a cap some may carry a narrowed max_tokens
            chunk = [req for req, _ in reserved] if self.guard is not None else rest[:size]
            rest = rest[size:]
            responses += self._one_batch(chunk, [res for _, res in reserved])
            if self.stop.is_set():
                responses += [self._failed(r, FailureKind.CANCELLED, "cancelled") for r in rest]
                break
        return responses

    def _reserve_prefix(
        self, requests: Sequence[ModelRequest]
    ) -> list[tuple[ModelRequest, Reservation]] | None:
        """(request to send, reservation) for the longest prefix whose worst case fits
        (`BudgetGuard.reserve`, which may narrow a request near a cap); None when none does."""
        reserved: list[tuple[ModelRequest, Reservation]] = []
        if self.guard is None:
            return reserved
        for request in requests:
            try:
                reserved.append(self.guard.reserve(self.backend, request))
            except BudgetExceeded as exc:
                if not reserved:
                    self.stopped_by = self.stopped_by or exc
                    return None
                break
        return reserved

    def _one_batch(
        self, requests: Sequence[ModelRequest], reservations: Sequence[Reservation]
    ) -> list[ModelResponse]:
        if len(requests) == 1:
            return self._one_call(requests[0], reservations[0] if reservations else None)
        ids = custom_ids(requests)
        try:
            batch_id = self.backend.submit_batch(requests)  # type: ignore[attr-defined]
        except BackendError as exc:
            self._release(reservations)
            return [self._failed(r, exc.kind, exc.detail) for r in requests]
        if self.on_batch_submitted is not None:
            self.on_batch_submitted(self.backend.name, batch_id, ids)
        results = self._wait_and_collect(batch_id)
        responses = []
        for index, (cid, request) in enumerate(zip(ids, requests, strict=True)):
            response = results.get(cid) or self._failed(
                request, FailureKind.CANCELLED, "batch did not return this request"
            )
            if self.guard is not None:
                reservation = reservations[index] if reservations else None
                if cid not in results and reservation is not None:
                    # Not collected, so perhaps still running and billed later: its worst
                    # case stays charged tonight (a restart collects and records it).
                    self.guard.keep(
                        reservation, response, request.role, self.backend.name, response.model
                    )
                else:
                    self.guard.record(
                        response, request.role, self.backend.name, response.model, reservation
                    )
            responses.append(response)
        if self.on_batch_finished is not None:
            self.on_batch_finished(batch_id, "collected" if results else "abandoned")
        return responses

    def _one_call(
        self, request: ModelRequest, reservation: Reservation | None
    ) -> list[ModelResponse]:
        """A batch of one is an ordinary call (no batch to wait a day for)."""
        try:
            response = self.backend.complete(request)
        except Exception:
            self._release([reservation] if reservation is not None else [])
            raise
        if self.guard is not None:
            self.guard.record(
                response, request.role, self.backend.name, response.model, reservation
            )
        return [response]

    def _wait_and_collect(self, batch_id: str) -> dict[str, ModelResponse]:
        while True:
            try:
                status = self.backend.poll_batch(batch_id)  # type: ignore[attr-defined]
            except BackendError:
                status = None
            if status is not None and status.done:
                try:
                    collected: dict[str, ModelResponse] = self.backend.collect_batch(batch_id)  # type: ignore[attr-defined]
                except BackendError:
                    return {}
                return collected
            if self.stop.wait(self.batch_poll_s):
                return {}

    def _release(self, reservations: Sequence[Reservation]) -> None:
        if self.guard is not None:
            for reservation in reservations:
                self.guard.release(reservation)

    def _failed(self, request: ModelRequest, kind: FailureKind, detail: str) -> ModelResponse:
        return ModelResponse.failed(
            kind,
            detail,
            backend=self.backend.name,
            model=request.model or "",
            simulated=self.backend.simulated,
        )
