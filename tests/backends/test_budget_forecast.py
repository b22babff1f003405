"""Budget reservations from measured output sizes, still never past a cap."""

from __future__ import annotations

import pytest

from sleepd.backends.base import ChatMessage, Estimate, ModelRequest, ModelResponse
from sleepd.backends.budget import (
    MIN_FORECAST_SAMPLES,
    BudgetCaps,
    BudgetExceeded,
    BudgetGuard,
    MemoryLedger,
    forecast_estimate,
    forecast_output,
)


def request(role: str = "target", model: str | None = "m1") -> ModelRequest:
    return ModelRequest(
        messages=[ChatMessage("user", "x")], model=model, max_tokens=1500, role=role
    )


def test_forecast_is_a_high_quantile_with_a_margin_and_needs_history() -> None:
    sizes = list(range(1, 101))  # 1..100 output tokens
    forecast = forecast_output({("target", "m1"): sizes, ("judge", "m1"): [50] * 5})
    assert forecast.tokens("target", "m1") == 119  # 95th value (95) x 1.25, rounded up
    assert forecast.tokens("target", "other-model") == 119  # the role's pooled figure
    assert forecast.tokens("judge", "m1") is None  # too few calls measured
    assert forecast.tokens("optimizer", None) is None
    assert MIN_FORECAST_SAMPLES > 5


def test_a_forecast_cuts_the_reservation_but_never_raises_it() -> None:
    forecast = forecast_output({("target", "m1"): [200] * 50})
    worst = Estimate(input_tokens=1000, output_tokens=1500, cost_usd=0.05)
    cut = forecast_estimate(worst, request(), forecast)
    assert cut.output_tokens == 250 and cut.cost_usd == pytest.approx(0.05 * 1250 / 2500)
    small = Estimate(input_tokens=10, output_tokens=100, cost_usd=0.001)
    assert forecast_estimate(small, request(), forecast) == small
    assert forecast_estimate(worst, request(role="judge"), forecast) == worst


def test_a_two_dollar_cap_is_not_stopped_early_and_never_exceeded() -> None:
    """A round of 72 calls reserved at once, whose real output is the measured size: the
    full max_tokens reservation refuses the round outright; the forecast runs it."""
    price_out = 15 / 1_000_000
    worst = Estimate(input_tokens=2000, output_tokens=1500, cost_usd=2000 * 3e-6 + 1500 * price_out)
    actual = ModelResponse(
        "ok",
        "b",
        "m1",
        input_tokens=2000,
        output_tokens=300,
        cost_usd=2000 * 3e-6 + 300 * price_out,
    )

    def spend(guard: BudgetGuard, batch: int) -> float:
        while True:
            held = []
            try:
                for _ in range(batch):  # a batch reserves all its calls up front
                    held.append(guard.check(worst, request()))
            except BudgetExceeded:
                for r in held:
                    guard.release(r)
                return guard.spent_usd
            for r in held:
                guard.record(actual, "target", "b", "m1", r)

    blind = spend(BudgetGuard(BudgetCaps(max_usd=2.0), MemoryLedger()), batch=72)
    history = forecast_output({("target", "m1"): [300] * 100})
    guard = BudgetGuard(BudgetCaps(max_usd=2.0), MemoryLedger(), output_forecast=history)
    informed = spend(guard, batch=72)
    assert blind == 0.0
    assert 0.7 < informed <= 2.0
