"""The cap is a guarantee: worst-case reservations, settled on return, never crossed.

An adversarial provider writes the full `max_tokens` of every call, so each call costs
exactly its reservation; concurrent callers, provider batches and a process killed in the
middle of a round must all leave the spend (and the ledger) at or under the cap.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from sleepd.backends.anthropic_api import AnthropicBackend
from sleepd.backends.base import (
    BatchStatus,
    ChatMessage,
    Estimate,
    FailureKind,
    ModelRequest,
    ModelResponse,
    custom_ids,
)
from sleepd.backends.budget import (
    BudgetCaps,
    BudgetExceeded,
    BudgetGuard,
    GuardedBackend,
    MemoryLedger,
    OutputForecast,
)
from sleepd.backends.parallel import run_parallel
from sleepd.backends.pricing import PriceTable, input_token_bound
from sleepd.dream.executor import CallExecutor

from .fake_providers import FakeAnthropic, Reply, Seen, anthropic_error, anthropic_message

PRICES = PriceTable()
MODEL = "claude-sonnet-4-6"


def request(i: int, max_tokens: int = 800, text: str = "task") -> ModelRequest:
    return ModelRequest(
        messages=[ChatMessage("user", f"{text} {i}")],
        model=MODEL,
        max_tokens=max_tokens,
        metadata={"custom_id": f"r{i}"},
    )


@dataclass
class GreedyBackend:
    """Every call uses its whole worst case: the input bound and all of `max_tokens`.

    `peak` is the most ever held (spent + reserved) while a call was running; with
    `barrier`, the first calls wait until that many are in flight together.
    """

    guard: BudgetGuard
    barrier: threading.Barrier | None = None
    name: str = "greedy"
    simulated: bool = True
    peak: float = 0.0
    calls: int = 0
    in_flight_together: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    batches: dict[str, list[ModelRequest]] = field(default_factory=dict)

    def estimate(self, req: ModelRequest) -> Estimate:
        return PRICES.estimate(MODEL, input_token_bound(req), req.max_tokens)

    def complete(self, req: ModelRequest) -> ModelResponse:
        with self.lock:
            self.calls += 1
            self.peak = max(self.peak, self.guard.held[1])
        if self.barrier is not None and not self.in_flight_together:
            self.barrier.wait(timeout=30)  # the first wave, all reserved at once
            self.in_flight_together = True
        worst = self.estimate(req)
        return ModelResponse(
            "done", self.name, MODEL, input_tokens=worst.input_tokens,
            output_tokens=worst.output_tokens, cost_usd=worst.cost_usd, simulated=True,
        )  # fmt: skip

    # -- a provider batch API ------------------------------------------------------------
    def submit_batch(self, requests: list[ModelRequest]) -> str:
        batch_id = f"b{len(self.batches) + 1}"
        self.batches[batch_id] = list(requests)
        with self.lock:
            self.peak = max(self.peak, self.guard.held[1])
        return batch_id

    def poll_batch(self, batch_id: str) -> BatchStatus:
        return BatchStatus(batch_id, "ended", total=len(self.batches[batch_id]))

    def collect_batch(self, batch_id: str) -> dict[str, ModelResponse]:
        reqs = self.batches[batch_id]
        return {cid: self.complete(r) for cid, r in zip(custom_ids(reqs), reqs, strict=True)}

    def cancel_batch(self, batch_id: str) -> None:
        return None


def worst_usd(req: ModelRequest) -> float:
    return PRICES.estimate(MODEL, input_token_bound(req), req.max_tokens).cost_usd


@pytest.mark.parametrize("concurrency", [1, 4, 16])
def test_greedy_calls_in_flight_never_cross_the_cap(concurrency: int) -> None:
    one = worst_usd(request(0))
    cap = one * 10.5  # room for ten calls' worst case, not eleven
    ledger = MemoryLedger()
    guard = BudgetGuard(BudgetCaps(max_usd=cap), ledger)
    barrier = threading.Barrier(min(concurrency, 10)) if concurrency > 1 else None
    backend = GreedyBackend(guard, barrier)
    responses = run_parallel(
        backend, [request(i) for i in range(60)], concurrency=concurrency, guard=guard
    )
    assert ledger.total_usd <= cap and guard.spent_usd <= cap
    assert backend.peak <= cap  # spent + every reservation in flight, seen from inside a call
    assert guard.overruns == 0 and guard.reserved_usd == 0
    assert backend.calls == 10 == sum(r.ok for r in responses)
    assert barrier is None or backend.in_flight_together
    refused = [r for r in responses if r.failure is FailureKind.BUDGET]
    assert len(refused) == 50 and "budget cap usd reached" in refused[0].failure_detail


def test_a_token_cap_holds_against_full_max_tokens_too() -> None:
    guard = BudgetGuard(BudgetCaps(max_tokens=5_000), MemoryLedger())
    fit = 5_000 // GreedyBackend(guard).estimate(request(0, 900)).total_tokens
    backend = GreedyBackend(guard, threading.Barrier(fit))
    run_parallel(
        backend, [request(i, max_tokens=900) for i in range(40)], concurrency=8, guard=guard
    )
    assert backend.in_flight_together and backend.calls == fit
    assert 0 < guard.spent_tokens <= 5_000 and guard.overruns == 0
    assert guard.spent_tokens + backend.estimate(request(0, 900)).total_tokens > 5_000


def test_a_reservation_is_the_worst_case_not_a_forecast() -> None:
    """A call that writes its whole max_tokens was reserved for in full beforehand."""
    guard = BudgetGuard(BudgetCaps(max_usd=1.0))
    req = request(0, max_tokens=4000)
    held = guard.check(GreedyBackend(guard).estimate(req))
    assert held.usd == pytest.approx(worst_usd(req))
    assert held.tokens >= 4000 + len("task 0")


def test_a_round_of_batches_fits_the_cap_and_spends_up_to_it() -> None:
    """72 requests whose joint worst case is over the cap go as batches that each fit;
    the night is not refused outright and spends to the cap, never past it."""
    one = worst_usd(request(0))
    cap = one * 30.5
    ledger = MemoryLedger()
    guard = BudgetGuard(BudgetCaps(max_usd=cap), ledger)
    backend = GreedyBackend(guard)
    executor = CallExecutor(backend, guard, threading.Event(), use_batch=True, batch_poll_s=0)
    responses = executor.run([request(i) for i in range(72)])
    assert sum(r.ok for r in responses) == 30 and guard.spent_usd <= cap
    assert backend.peak <= cap and len(backend.batches) == 1  # 30 fit at once
    assert [r.failure for r in responses[30:]] == [FailureKind.BUDGET] * 42
    assert executor.stopped_by is not None and executor.stopped_by.cap_name == "usd"


def test_an_uncollected_batch_stays_charged_at_its_worst_case() -> None:
    stop = threading.Event()
    cap = worst_usd(request(0)) * 8.5

    class NeverEnds(GreedyBackend):
        def poll_batch(self, batch_id: str) -> BatchStatus:
            stop.set()  # the night is stopped while the batch runs
            return BatchStatus(batch_id, "in_progress")

    guard = BudgetGuard(BudgetCaps(max_usd=cap), MemoryLedger())
    executor = CallExecutor(NeverEnds(guard), guard, stop, use_batch=True, batch_poll_s=0)
    responses = executor.run([request(i) for i in range(5)])
    assert all(not r.ok for r in responses)
    assert guard.spent_usd == pytest.approx(5 * worst_usd(request(0)))  # it may still bill
    assert guard.reserved_usd == 0


class GreedyAnthropic(FakeAnthropic):
    """The real SDK's provider, answering every call with its whole max_tokens."""

    def route(self, seen: Seen) -> Reply:
        if seen.path == "/v1/messages":
            body = seen.json()
            usage = {"input_tokens": 42, "output_tokens": int(body["max_tokens"])}
            return Reply(200, anthropic_message("x" * 10, usage=usage))
        return super().route(seen)


def test_cap_holds_through_the_real_sdk_when_every_call_uses_max_tokens() -> None:
    server = GreedyAnthropic().start()
    try:
        backend = AnthropicBackend(api_key="k", base_url=server.url, max_retries=0)
        reqs = [request(i, max_tokens=500) for i in range(12)]
        one = backend.estimate(reqs[0]).cost_usd  # count_tokens says 42: the exact input
        cap = one * 5.5
        ledger = MemoryLedger()
        guard = BudgetGuard(BudgetCaps(max_usd=cap), ledger)
        responses = run_parallel(backend, reqs, concurrency=8, guard=guard)
    finally:
        server.stop()
    assert sum(r.ok for r in responses) == 5
    assert ledger.total_usd <= cap and guard.overruns == 0
    assert all(e.output_tokens == 500 for e in ledger.entries)


class SilentAnthropic(FakeAnthropic):
    """A provider that takes the call and never answers it in time."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def route(self, seen: Seen) -> Reply:
        if seen.path == "/v1/messages":
            self.release.wait(30)
            return Reply(200, anthropic_message("late"))
        return super().route(seen)


def test_a_call_whose_bill_nobody_reported_is_charged_its_worst_case() -> None:
    """A timeout, or an answer that could not be read, came after the request went out:
    the provider may have billed it in full, so the cap counts it so. A refusal the
    provider reported (an HTTP error) costs what it reported: nothing."""
    server = SilentAnthropic().start()
    ledger = MemoryLedger()
    guard = BudgetGuard(BudgetCaps(max_usd=1.0), ledger)
    try:
        backend = AnthropicBackend(api_key="k", base_url=server.url, max_retries=0, timeout_s=0.5)
        guarded = GuardedBackend(backend, guard)
        worst = backend.estimate(request(0)).cost_usd
        timed_out = guarded.complete(request(0))
        server.script("/v1/messages", Reply(200, "<html>a proxy's page</html>"))
        unreadable = guarded.complete(request(1))
        server.script("/v1/messages", Reply(500, anthropic_error("api_error", "boom")))
        refused = guarded.complete(request(2))
    finally:
        server.release.set()
        server.stop()
    assert timed_out.failure is FailureKind.TIMEOUT
    assert unreadable.failure is FailureKind.BAD_OUTPUT
    assert refused.failure is FailureKind.SERVER_ERROR
    assert guard.spent_usd == pytest.approx(2 * worst)
    assert [e.cost_usd for e in ledger.entries] == pytest.approx([worst, worst, 0.0])
    assert guard.reserved_usd == 0 and guard.overruns == 0


def test_a_timeout_the_sdk_retried_is_charged_for_every_try() -> None:
    """Each try the SDK made of a timed-out request may have been answered and billed:
    the spend counts all of them, past the one reservation if need be (an overrun), and
    the next call is refused when that took it to the cap."""
    server = SilentAnthropic().start()
    ledger = MemoryLedger()
    try:
        backend = AnthropicBackend(api_key="k", base_url=server.url, max_retries=2, timeout_s=0.3)
        worst = backend.estimate(request(0)).cost_usd
        guard = BudgetGuard(BudgetCaps(max_usd=worst * 3.5), ledger)
        guarded = GuardedBackend(backend, guard)
        timed_out = guarded.complete(request(0))
        tries = len(server.seen("/v1/messages"))
        refused = guarded.complete(request(1))
    finally:
        server.release.set()
        server.stop()
    assert timed_out.failure is FailureKind.TIMEOUT and tries == 3
    assert guard.spent_usd == pytest.approx(3 * worst) and guard.overruns == 1
    assert refused.failure is FailureKind.BUDGET
    assert len(ledger.entries) == 1


# -- a kill in the middle of a round ---------------------------------------------------

CHILD = textwrap.dedent(
    """
    import sys, time
    from sleepd.backends.base import Estimate, ModelResponse
    from sleepd.backends.budget import BudgetCaps, BudgetGuard
    from sleepd.store.engine import make_engine, write_session
    from sleepd.store.ledger import DbLedger

    engine = make_engine(sys.argv[1])
    ledger = DbLedger(engine, None)
    guard = BudgetGuard(BudgetCaps(max_usd=1.0), ledger)
    cost = ModelResponse("ok", "b", "m", input_tokens=10, output_tokens=5, cost_usd=0.01)
    for round_ in range(1000):
        for _ in range(6):  # one round of calls, settled as they return
            guard.record(cost, "target", "b", "m", guard.check(Estimate(10, 5, 0.01)))
        with write_session(engine) as db:
            ledger.flush(db)
            db.flush()
            if round_ == 2:  # the third round's rows are written but not committed
                print("in-round", flush=True)
                time.sleep(60)
        print(f"round {round_}", flush=True)
    """
)


def test_a_kill_mid_round_leaves_whole_rounds_in_the_ledger(db_engine: Any, tmp_path: Path) -> None:
    from sqlalchemy import func, select, text

    from sleepd.store.models import BudgetEntry

    url = str(db_engine.url)
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    child = subprocess.Popen(
        [sys.executable, str(script), url], stdout=subprocess.PIPE, text=True, env=os.environ
    )
    assert child.stdout is not None
    lines = []
    for line in child.stdout:  # blocks until the child is inside the third round
        lines.append(line.strip())
        if line.strip() == "in-round":
            break
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    assert lines == ["round 0", "round 1", "in-round"]
    with db_engine.connect() as conn:
        assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
        rows = conn.execute(select(func.count()).select_from(BudgetEntry)).scalar()
        spent = conn.execute(select(func.sum(BudgetEntry.cost_usd))).scalar()
    assert rows == 12  # two whole rounds of six; the killed round left nothing half-written
    assert spent == pytest.approx(0.12)


# -- near a cap: calls narrowed to the measured output forecast, still bounded ------------


@dataclass
class BoundedGreedy(GreedyBackend):
    """A provider that stops at `max_tokens` (as the SDK backends' providers do) and still
    writes all of it; `sent` is the `max_tokens` of every call it received."""

    bounds_output: bool = True
    sent: list[int] = field(default_factory=list)

    def complete(self, req: ModelRequest) -> ModelResponse:
        with self.lock:
            self.sent.append(req.max_tokens)
        return super().complete(req)


def forecast_for(size: int) -> OutputForecast:
    return OutputForecast({(request(0).role, MODEL): size})


@pytest.mark.parametrize("concurrency", [1, 4])
def test_near_the_cap_calls_run_narrowed_to_the_forecast_and_never_cross_it(
    concurrency: int,
) -> None:
    one = worst_usd(request(0))
    narrowed = worst_usd(request(0, max_tokens=100))
    cap = one * 3.5
    ledger = MemoryLedger()
    guard = BudgetGuard(BudgetCaps(max_usd=cap), ledger, forecast=forecast_for(100))
    backend = BoundedGreedy(guard)
    responses = run_parallel(
        backend, [request(i) for i in range(40)], concurrency=concurrency, guard=guard
    )
    ran = sum(r.ok for r in responses)
    assert ran > 3  # worst-case reservations alone would stop after three
    assert ran <= int(cap // narrowed)
    assert set(backend.sent) <= {800, 100} and 100 in backend.sent
    assert guard.spent_usd <= cap and ledger.total_usd <= cap and backend.peak <= cap
    assert guard.overruns == 0 and guard.reserved_usd == 0


def test_a_backend_that_cannot_bound_its_output_is_never_narrowed() -> None:
    """A CLI agent ignores max_tokens: a smaller reservation would not be its worst case."""
    cap = worst_usd(request(0)) * 3.5
    guard = BudgetGuard(BudgetCaps(max_usd=cap), MemoryLedger(), forecast=forecast_for(100))
    backend = GreedyBackend(guard)  # no bounds_output
    responses = run_parallel(backend, [request(i) for i in range(10)], guard=guard)
    assert sum(r.ok for r in responses) == 3 and guard.spent_usd <= cap


def test_a_round_near_the_cap_sends_its_narrowed_requests() -> None:
    """The night's round executor: the batch holds the requests as they were reserved."""
    one = worst_usd(request(0))
    cap = one * 2.5
    guard = BudgetGuard(BudgetCaps(max_usd=cap), MemoryLedger(), forecast=forecast_for(100))
    backend = BoundedGreedy(guard)
    executor = CallExecutor(backend, guard, threading.Event(), use_batch=True, batch_poll_s=0)
    responses = executor.run([request(i) for i in range(8)])
    sent = [r.max_tokens for reqs in backend.batches.values() for r in reqs]
    assert sum(r.ok for r in responses) == len(sent) > 2
    assert sent[:2] == [800, 800] and set(sent[2:]) == {100}
    assert guard.spent_usd <= cap and guard.overruns == 0


@pytest.mark.parametrize("cost", [-5.0, float("nan"), float("inf"), float("-inf")])
def test_a_cost_no_bill_can_be_charges_the_reservation_and_the_cap_still_holds(
    cost: float,
) -> None:
    """A backend (a plugin's, a garbled report) answering with a negative, endless or
    undefined cost cannot lower the spend nor stop the cap from refusing."""
    req = request(0)
    one = worst_usd(req)
    ledger = MemoryLedger()
    guard = BudgetGuard(BudgetCaps(max_usd=one * 2.5), ledger)

    for _ in range(2):
        held = guard.check(PRICES.estimate(MODEL, input_token_bound(req), req.max_tokens))
        answer = ModelResponse("done", "odd", MODEL, output_tokens=5, cost_usd=cost)
        guard.record(answer, "target", "odd", MODEL, held)
    assert guard.spent_usd == pytest.approx(2 * one)
    assert [entry.cost_usd for entry in ledger.entries] == pytest.approx([one, one])
    with pytest.raises(BudgetExceeded, match="budget cap usd reached"):
        guard.check(PRICES.estimate(MODEL, input_token_bound(req), req.max_tokens))
