"""Budget caps hold under parallel calls; the runner backs off and stops cleanly."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import pytest

from sleepd.backends.anthropic_api import AnthropicBackend
from sleepd.backends.base import ChatMessage, Estimate, FailureKind, ModelRequest, ModelResponse
from sleepd.backends.budget import BudgetCaps, BudgetExceeded, BudgetGuard, MemoryLedger
from sleepd.backends.parallel import ParallelRunner, RetryPolicy, run_parallel

from .fake_providers import FakeAnthropic


@dataclass
class PricedBackend:
    """Each call costs `cost_usd` and uses `tokens`; the estimate is the upper bound."""

    cost_usd: float = 0.01
    tokens: int = 100
    name: str = "priced"
    simulated: bool = True
    calls: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    script: list[ModelResponse] = field(default_factory=list)

    def complete(self, request: ModelRequest) -> ModelResponse:
        with self.lock:
            self.calls += 1
            if self.script:
                return self.script.pop(0)
        return ModelResponse(
            text="ok", backend=self.name, model="m", input_tokens=self.tokens // 2,
            output_tokens=self.tokens // 2, cost_usd=self.cost_usd, simulated=True,
        )  # fmt: skip

    def estimate(self, request: ModelRequest) -> Estimate:
        return Estimate(self.tokens // 2, self.tokens // 2, self.cost_usd)


def requests(n: int) -> list[ModelRequest]:
    return [ModelRequest(messages=[ChatMessage("user", f"task {i}")]) for i in range(n)]


@pytest.mark.parametrize("concurrency", [1, 8])
def test_dollar_cap_is_never_exceeded(concurrency: int) -> None:
    ledger = MemoryLedger()
    guard = BudgetGuard(BudgetCaps(max_usd=0.105), ledger)
    backend = PricedBackend(cost_usd=0.01)
    responses = run_parallel(backend, requests(50), concurrency=concurrency, guard=guard)
    assert ledger.total_usd <= 0.105
    assert backend.calls == 10  # exactly what fits: 10 x $0.01
    assert sum(r.ok for r in responses) == 10
    budget_failures = [r for r in responses if r.failure is FailureKind.BUDGET]
    assert len(budget_failures) == 40 and "usd" in budget_failures[0].failure_detail


def test_token_cap_names_the_cap() -> None:
    guard = BudgetGuard(BudgetCaps(max_tokens=250), MemoryLedger())
    backend = PricedBackend(tokens=100)
    guard.record(
        backend.complete(requests(1)[0]),
        "target",
        "priced",
        "m",
        guard.check(backend.estimate(requests(1)[0])),
    )
    guard.check(Estimate(50, 50, 0.0))
    with pytest.raises(BudgetExceeded) as info:
        guard.check(Estimate(50, 50, 0.0))  # 100 spent + 100 reserved + 100 > 250
    assert info.value.cap_name == "tokens"


def test_wall_clock_cap_uses_injected_clock() -> None:
    now = [0.0]
    guard = BudgetGuard(BudgetCaps(max_wall_s=60), clock=lambda: now[0])
    guard.release(guard.check(Estimate(1, 1, 0.0)))
    now[0] = 61.0
    with pytest.raises(BudgetExceeded) as info:
        guard.check(Estimate(1, 1, 0.0))
    assert info.value.cap_name == "wall_s"


def test_release_returns_reserved_money() -> None:
    guard = BudgetGuard(BudgetCaps(max_usd=1.0))
    held = guard.check(Estimate(1, 1, 0.9))
    with pytest.raises(BudgetExceeded):
        guard.check(Estimate(1, 1, 0.2))
    guard.release(held)
    guard.check(Estimate(1, 1, 0.2))


def test_ledger_gets_actual_usage_not_the_estimate() -> None:
    ledger = MemoryLedger()
    guard = BudgetGuard(BudgetCaps(max_usd=10), ledger)
    run_parallel(PricedBackend(cost_usd=0.003), requests(3), guard=guard)
    assert [e.cost_usd for e in ledger.entries] == [0.003] * 3
    assert guard.reserved_usd == 0


def rate_limited() -> ModelResponse:
    return ModelResponse.failed(
        FailureKind.RATE_LIMIT, "429", backend="priced", model="m", retry_after_s=2.5
    )


def test_rate_limit_backs_off_honouring_retry_after() -> None:
    backend = PricedBackend(script=[rate_limited(), rate_limited()])
    slept: list[float] = []
    runner = ParallelRunner(
        backend, concurrency=1, sleep=slept.append, retry=RetryPolicy(base_delay_s=0.1)
    )
    [response] = runner.run(requests(1))
    assert response.ok and backend.calls == 3
    assert slept and all(d >= 2.5 for d in slept)


def test_gives_up_after_max_attempts_with_missing_data() -> None:
    backend = PricedBackend(script=[rate_limited() for _ in range(10)])
    runner = ParallelRunner(backend, sleep=lambda _s: None, retry=RetryPolicy(max_attempts=3))
    [response] = runner.run(requests(1))
    assert response.failure is FailureKind.RATE_LIMIT and backend.calls == 3


def test_backoff_is_exponential_with_jitter_and_capped() -> None:
    import random

    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=8.0)
    rng = random.Random(1)
    delays = [policy.delay(a, None, rng) for a in range(6) for _ in range(50)]
    assert max(delays) <= 8.0 and len(set(delays)) > 100
    assert max(policy.delay(0, None, rng) for _ in range(50)) <= 1.0


def test_cancel_event_stops_new_calls() -> None:
    cancel = threading.Event()
    cancel.set()
    backend = PricedBackend()
    responses = run_parallel(backend, requests(5), cancel=cancel)
    assert backend.calls == 0
    assert all(r.failure is FailureKind.CANCELLED for r in responses)


def test_cap_holds_for_parallel_calls_through_the_real_sdk(fake_anthropic: FakeAnthropic) -> None:
    backend = AnthropicBackend(api_key="k", base_url=fake_anthropic.url, max_retries=0)
    ledger = MemoryLedger()
    guard = BudgetGuard(BudgetCaps(max_usd=0.002), ledger)
    reqs = [
        ModelRequest(
            messages=[ChatMessage("user", f"t{i}")], model="claude-sonnet-4-6", max_tokens=16
        )
        for i in range(30)
    ]
    responses = run_parallel(backend, reqs, concurrency=8, guard=guard)
    assert 0 < sum(r.ok for r in responses) < 30
    assert ledger.total_usd <= 0.002
    assert any(r.failure is FailureKind.BUDGET for r in responses)


def test_plain_check_then_record_settles_this_threads_reservation() -> None:
    guard = BudgetGuard(BudgetCaps(max_usd=0.05))
    backend = PricedBackend(cost_usd=0.01)
    for _ in range(5):  # without settling, 5 reservations of $0.01 would block the 6th
        guard.check(backend.estimate(requests(1)[0]))
        guard.record(backend.complete(requests(1)[0]), "target", "priced", "m")
    assert guard.reserved_usd == 0 and guard.spent_usd == pytest.approx(0.05)
    with pytest.raises(BudgetExceeded):
        guard.check(Estimate(1, 1, 0.01))
