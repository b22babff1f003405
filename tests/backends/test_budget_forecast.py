"""Budget reservations from measured output sizes, still never past a cap."""

from __future__ import annotations

import pytest

from sleepd.backends.base import ChatMessage, Estimate, ModelRequest, ModelResponse
from sleepd.backends.budget import (
    MIN_FORECAST_SAMPLES,
    BudgetCaps,
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
    """A round of 72 batched calls whose real output is a fifth of max_tokens: the
    round's joint worst case is over $2, so it goes as batches that fit (never refused
    outright, as a whole-round reservation once was), and the spend ends near the cap."""
    import threading

    from sleepd.backends.base import BatchStatus, custom_ids
    from sleepd.dream.executor import CallExecutor

    price_in, price_out = 3.75e-6, 15e-6
    worst = Estimate(
        input_tokens=2000, output_tokens=1500, cost_usd=2000 * price_in + 1500 * price_out
    )
    actual = ModelResponse(
        "ok", "b", "m1", input_tokens=2000, output_tokens=300,
        cost_usd=2000 * price_in + 300 * price_out,
    )  # fmt: skip

    class Batches:
        name, simulated = "b", True

        def __init__(self) -> None:
            self.held: dict[str, list[ModelRequest]] = {}

        def estimate(self, request: ModelRequest) -> Estimate:
            return worst

        def complete(self, request: ModelRequest) -> ModelResponse:
            return actual

        def submit_batch(self, requests: list[ModelRequest]) -> str:
            self.held[str(len(self.held))] = requests
            return str(len(self.held) - 1)

        def poll_batch(self, batch_id: str) -> BatchStatus:
            return BatchStatus(batch_id, "ended")

        def collect_batch(self, batch_id: str) -> dict[str, ModelResponse]:
            return dict.fromkeys(custom_ids(self.held[batch_id]), actual)

        def cancel_batch(self, batch_id: str) -> None:
            return None

    guard = BudgetGuard(BudgetCaps(max_usd=2.0), MemoryLedger())
    executor = CallExecutor(Batches(), guard, threading.Event(), use_batch=True, batch_poll_s=0)
    spent = 0.0
    while executor.stopped_by is None:
        round_ = [
            ModelRequest(
                messages=[ChatMessage("user", "x")], max_tokens=1500, metadata={"custom_id": str(i)}
            )
            for i in range(72)
        ]
        executor.run(round_)
        assert guard.spent_usd >= spent
        spent = guard.spent_usd
    assert 2.0 - worst.cost_usd < spent <= 2.0
