"""Hard per-night caps on tokens, dollars and wall time, enforced before each call.

The promise: spent plus everything in flight never crosses a cap. `check` reserves a
call's worst case before it is sent (its prompt's token bound plus the full `max_tokens`
of output, every input token at the dearest input rate: `Estimate` as the backends build
it) and refuses, naming the cap, when that reservation would cross it; `record` settles
the reservation to the actual usage (which frees the difference for the next call) and
hands the row to a `Ledger` (the database one writes a round's rows in one transaction).
Concurrent callers share one lock, so the sum of reservations in flight plus the spend so
far is never above a cap. A call that somehow costs more than its reservation (a backend
whose estimate was not a bound) is counted in `overruns` and charged in full. A call
whose bill nobody reported (`ModelResponse.unreported_requests`: it timed out, or its
answer could not be read, after the request went out) is charged its whole reservation
for each request that went out (the SDKs retry a timed-out request), and its ledger row
carries that charge: the provider may have billed each in full. Charged past its
reservation, it counts in `overruns`.

`OutputForecast` (measured output sizes per role and model, a high quantile with a
margin) plans the dry run's cost. It also lets a night near its cap keep going without
giving up the bound: `reserve` first tries the call's worst case; when that no longer
fits, a backend that enforces `max_tokens` (`bounds_output`) gets the call with its
`max_tokens` lowered to the measured forecast, so the smaller reservation is still the
call's worst case. A forecast alone never shrinks a reservation, since it is not a bound.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from sleepd.backends.base import Estimate, FailureKind, ModelRequest, ModelResponse
from sleepd.errors import ExitCode, SleepdError


class BudgetExceeded(SleepdError):
    """The next call would cross a cap; `cap_name` is tokens, usd or wall_s."""

    exit_code = ExitCode.BUDGET

    def __init__(self, cap_name: str, detail: str) -> None:
        super().__init__(f"budget cap {cap_name} reached: {detail}")
        self.cap_name = cap_name
        self.detail = detail


@dataclass(frozen=True, slots=True)
class BudgetCaps:
    """None means no cap on that axis."""

    max_tokens: int | None = None
    max_usd: float | None = None
    max_wall_s: float | None = None


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    role: str
    backend: str
    model: str
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    cost_usd: float
    latency_s: float
    simulated: bool
    failure: str | None


def entry_for(response: ModelResponse, role: str, backend: str, model: str) -> LedgerEntry:
    """The ledger row for one finished call (failures included: they may still cost)."""
    return LedgerEntry(
        role=role,
        backend=backend,
        model=model,
        input_tokens=response.input_tokens,
        output_tokens=response.output_tokens,
        cache_read_tokens=response.cache_read_tokens,
        cache_write_tokens=response.cache_write_tokens,
        cost_usd=response.cost_usd,
        latency_s=response.latency_s,
        simulated=response.simulated,
        failure=response.failure.value if response.failure else None,
    )


@dataclass(frozen=True)
class OutputForecast:
    """Conservative output sizes per (role, model) from measured calls."""

    sizes: Mapping[tuple[str, str], int] = field(default_factory=dict)

    def tokens(self, role: str, model: str | None) -> int | None:
        """The forecast for this role and model; any model of the role when unknown."""
        if model and (role, model) in self.sizes:
            return self.sizes[(role, model)]
        return self.sizes.get((role, "*"))


#: Fewer measured calls than this and the full max_tokens is reserved.
MIN_FORECAST_SAMPLES = 20
FORECAST_QUANTILE = 0.95
FORECAST_MARGIN = 1.25


def forecast_output(samples: Mapping[tuple[str, str], Sequence[int]]) -> OutputForecast:
    """A high quantile (with a margin) of measured output sizes per (role, model).

    The model "*" holds every model of a role together, for calls whose model the
    request leaves to the backend.
    """
    pooled: dict[tuple[str, str], list[int]] = {}
    for (role, model), values in samples.items():
        pooled.setdefault((role, model), []).extend(values)
        pooled.setdefault((role, "*"), []).extend(values)
    sizes = {}
    for key, values in pooled.items():
        if len(values) < MIN_FORECAST_SAMPLES:
            continue
        ordered = sorted(values)
        at = min(len(ordered) - 1, math.ceil(FORECAST_QUANTILE * len(ordered)) - 1)
        sizes[key] = max(1, math.ceil(ordered[at] * FORECAST_MARGIN))
    return OutputForecast(sizes)


def forecast_estimate(
    estimate: Estimate, request: ModelRequest, forecast: OutputForecast | None
) -> Estimate:
    """The expected usage: the estimate with its output cut to the forecast (never above
    the original). For forecasts and plans only; reservations keep the worst case.

    The cost shrinks by the share of tokens removed. Output tokens are priced at or above
    input tokens by every provider, so this share stays on the high side of the expected
    cost.
    """
    size = forecast.tokens(request.role, request.model) if forecast is not None else None
    if size is None or size >= estimate.output_tokens:
        return estimate
    total = estimate.input_tokens + estimate.output_tokens
    kept = (estimate.input_tokens + size) / total if total else 1.0
    return replace(estimate, output_tokens=size, cost_usd=estimate.cost_usd * kept)


class Ledger(Protocol):
    def record(self, entry: LedgerEntry) -> None: ...


class MemoryLedger:
    """An in-memory ledger for tests, benchmarks and dry runs."""

    def __init__(self) -> None:
        self.entries: list[LedgerEntry] = []
        self._lock = threading.Lock()

    def record(self, entry: LedgerEntry) -> None:
        with self._lock:
            self.entries.append(entry)

    @property
    def total_usd(self) -> float:
        return sum(e.cost_usd for e in self.entries)

    @property
    def total_tokens(self) -> int:
        return sum(
            e.input_tokens + e.output_tokens + e.cache_read_tokens + e.cache_write_tokens
            for e in self.entries
        )


@dataclass(frozen=True, slots=True)
class Reservation:
    id: int
    tokens: int
    usd: float


class BudgetGuard:
    """Thread-safe cap enforcement with worst-case reservations."""

    def __init__(
        self,
        caps: BudgetCaps,
        ledger: Ledger | None = None,
        clock: Callable[[], float] = time.monotonic,
        *,
        spent_tokens: int = 0,
        spent_usd: float = 0.0,
        forecast: OutputForecast | None = None,
    ) -> None:
        self.caps = caps
        self.ledger = ledger
        self.forecast = forecast  # measured output sizes: narrows calls near a cap
        self.overruns = 0  # calls that cost more than their reservation
        self._clock = clock
        self._started = clock()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._reserved: dict[int, Reservation] = {}
        self._pending = threading.local()  # this thread's reservations awaiting record()
        self.spent_tokens = spent_tokens
        self.spent_usd = spent_usd

    @property
    def elapsed_s(self) -> float:
        return self._clock() - self._started

    @property
    def reserved_usd(self) -> float:
        with self._lock:
            return sum(r.usd for r in self._reserved.values())

    @property
    def held(self) -> tuple[int, float]:
        """(tokens, dollars) spent plus reserved for calls in flight: never above a cap."""
        with self._lock:
            return (
                self.spent_tokens + sum(r.tokens for r in self._reserved.values()),
                self.spent_usd + sum(r.usd for r in self._reserved.values()),
            )

    def check(self, estimate: Estimate) -> Reservation:
        """Reserve the call's worst case, or raise `BudgetExceeded` naming the cap it
        would cross. `estimate` must be the bound (`backend.estimate`), not a forecast."""
        with self._lock:
            caps = self.caps
            if caps.max_wall_s is not None and self.elapsed_s >= caps.max_wall_s:
                raise BudgetExceeded(
                    "wall_s", f"{self.elapsed_s:.0f}s elapsed of {caps.max_wall_s:.0f}s"
                )
            held_tokens = self.spent_tokens + sum(r.tokens for r in self._reserved.values())
            held_usd = self.spent_usd + sum(r.usd for r in self._reserved.values())
            if (
                caps.max_tokens is not None
                and held_tokens + estimate.total_tokens > caps.max_tokens
            ):
                raise BudgetExceeded(
                    "tokens",
                    f"{held_tokens} used or reserved + {estimate.total_tokens} estimated"
                    f" > {caps.max_tokens}",
                )
            if caps.max_usd is not None and held_usd + estimate.cost_usd > caps.max_usd:
                raise BudgetExceeded(
                    "usd",
                    f"${held_usd:.4f} used or reserved + ${estimate.cost_usd:.4f} estimated"
                    f" > ${caps.max_usd:.2f}",
                )
            reservation = Reservation(next(self._ids), estimate.total_tokens, estimate.cost_usd)
            self._reserved[reservation.id] = reservation
        self._thread_pending().append(reservation)
        return reservation

    def reserve(self, backend: Any, request: ModelRequest) -> tuple[ModelRequest, Reservation]:
        """Reserve `request`'s worst case, or, when that would cross a cap, the worst case
        of the same request with `max_tokens` lowered to the measured output forecast for
        its role and model: only for a backend that enforces `max_tokens`, so the
        reservation stays a bound. Returns the request to send (the narrowed one, if so);
        raises `BudgetExceeded` when neither fits."""
        try:
            return request, self.check(backend.estimate(request))
        except BudgetExceeded:
            narrowed = self._narrowed(backend, request)
            if narrowed is None:
                raise
            return narrowed, self.check(backend.estimate(narrowed))

    def _narrowed(self, backend: Any, request: ModelRequest) -> ModelRequest | None:
        if self.forecast is None or not getattr(backend, "bounds_output", False):
            return None
        size = self.forecast.tokens(request.role, request.model)
        if size is None or size >= request.max_tokens:
            return None
        return replace(request, max_tokens=size)

    def _thread_pending(self) -> list[Reservation]:
        pending: list[Reservation] | None = getattr(self._pending, "items", None)
        if pending is None:
            pending = self._pending.items = []
        return pending

    def release(self, reservation: Reservation | None) -> None:
        """Give back a reservation for a call that was never made."""
        if reservation is not None:
            self._forget(reservation)
            with self._lock:
                self._reserved.pop(reservation.id, None)

    def keep(
        self, reservation: Reservation, response: ModelResponse, role: str, backend: str, model: str
    ) -> None:
        """Charge a reservation in full: a call that may still be billed although its
        answer never came back (an uncollected batch). Its ledger row is the failed
        `response`; the bill is recorded when the batch is collected later."""
        self._forget(reservation)
        with self._lock:
            if self._reserved.pop(reservation.id, None) is not None:
                self.spent_tokens += reservation.tokens
                self.spent_usd += reservation.usd
        if self.ledger is not None:
            self.ledger.record(entry_for(response, role, backend, model))

    def _forget(self, reservation: Reservation) -> None:
        pending = self._thread_pending()
        if reservation in pending:
            pending.remove(reservation)

    def record(
        self,
        response: ModelResponse,
        role: str,
        backend: str,
        model: str,
        reservation: Reservation | None = None,
    ) -> None:
        """Swap the reservation for actual usage and write it to the ledger.

        Without an explicit `reservation`, this thread's oldest pending one is
        settled, so the plain `check(); complete(); record()` sequence is exact.
        """
        pending = self._thread_pending()
        if reservation is None and pending:
            reservation = pending[0]
        if reservation is not None:
            self._forget(reservation)
        usd = response.cost_usd
        tokens = max(0, response.total_tokens)
        if not (math.isfinite(usd) and usd >= 0):
            # no bill is negative or endless: a figure that could lower what was counted,
            # or stop every later check from refusing, charges what was reserved instead
            usd = reservation.usd if reservation is not None else 0.0
        unreported = response.unreported_requests
        if unreported > 0 and reservation is not None:
            # billed or not, nobody said: the worst case it was allowed is what each of
            # its requests cost
            usd = max(usd, reservation.usd * unreported)
            tokens = max(tokens, reservation.tokens * unreported)
        with self._lock:
            if reservation is not None:
                self._reserved.pop(reservation.id, None)
                if tokens > reservation.tokens or usd > reservation.usd + 1e-12:
                    self.overruns += 1
            self.spent_tokens += tokens
            self.spent_usd += usd
        if self.ledger is not None:
            self.ledger.record(replace(entry_for(response, role, backend, model), cost_usd=usd))


class GuardedBackend:
    """A backend whose every call passes the budget guard first (for callers that
    call `complete` directly, such as the model-assisted miner)."""

    def __init__(self, backend: Any, guard: BudgetGuard) -> None:
        self.inner = backend
        self.guard = guard
        self.name = backend.name
        self.simulated = backend.simulated

    def estimate(self, request: ModelRequest) -> Estimate:
        estimate: Estimate = self.inner.estimate(request)
        return estimate

    def complete(self, request: ModelRequest) -> ModelResponse:
        try:
            request, reservation = self.guard.reserve(self.inner, request)
        except BudgetExceeded as exc:
            return ModelResponse.failed(
                FailureKind.BUDGET, str(exc), backend=self.name, model=request.model or ""
            )
        response: ModelResponse = self.inner.complete(request)
        self.guard.record(response, request.role, self.name, response.model, reservation)
        return response
