"""A round sent as a provider batch waits for the provider, however long it runs.

The batch is polled, and while the provider says it is still running the night waits
`batch_poll_s` (the user's `[backends] batch_poll_seconds`) and asks again; once it has
ended, every request's answer is collected in order. A night stopped while it waits stops
waiting. The waits go through the night's stop event, which these tests replace with one
that records each wait and returns at once: no test here sleeps.
"""

from __future__ import annotations

import threading

from sleepd.backends.base import (
    BatchStatus,
    ChatMessage,
    Estimate,
    FailureKind,
    ModelRequest,
    ModelResponse,
    custom_ids,
)
from sleepd.dream.executor import CallExecutor


class RecordedWaits(threading.Event):
    """A stop event whose waits return at once (not stopped), each timeout recorded;
    `stop_after` waits it is set, as a night stopped while a batch runs."""

    def __init__(self, stop_after: int | None = None) -> None:
        super().__init__()
        self.waits: list[float | None] = []
        self.stop_after = stop_after

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout)
        if self.stop_after is not None and len(self.waits) >= self.stop_after:
            self.set()
        return self.is_set()


class SlowBatches:
    """A provider batch API whose batches end at poll number `ends_at_poll`."""

    name, simulated = "slow-batches", True

    def __init__(self, ends_at_poll: int) -> None:
        self.ends_at_poll = ends_at_poll
        self.polls = 0
        self.held: dict[str, list[ModelRequest]] = {}

    def estimate(self, request: ModelRequest) -> Estimate:
        return Estimate(input_tokens=1, output_tokens=1, cost_usd=0.0)

    def complete(self, request: ModelRequest) -> ModelResponse:
        raise AssertionError("a round of several requests goes as one batch")

    def submit_batch(self, requests: list[ModelRequest]) -> str:
        batch_id = f"batch-{len(self.held) + 1}"
        self.held[batch_id] = list(requests)
        return batch_id

    def poll_batch(self, batch_id: str) -> BatchStatus:
        self.polls += 1
        ended = self.polls >= self.ends_at_poll
        return BatchStatus(batch_id, "ended" if ended else "in_progress")

    def collect_batch(self, batch_id: str) -> dict[str, ModelResponse]:
        return {
            cid: ModelResponse(f"answer to {cid}", self.name, "m")
            for cid in custom_ids(self.held[batch_id])
        }

    def cancel_batch(self, batch_id: str) -> None:
        return None


def requests(n: int) -> list[ModelRequest]:
    return [
        ModelRequest(messages=[ChatMessage("user", f"task {i}")], metadata={"custom_id": f"r{i}"})
        for i in range(n)
    ]


def test_a_batch_still_running_is_polled_again_after_the_interval_and_collected() -> None:
    backend = SlowBatches(ends_at_poll=4)
    stop = RecordedWaits()
    executor = CallExecutor(backend, None, stop, use_batch=True, batch_poll_s=7.5)

    responses = executor.run(requests(3))

    assert backend.polls == 4
    assert stop.waits == [7.5, 7.5, 7.5]  # one wait between each two polls, none after
    assert [r.text for r in responses] == ["answer to r0", "answer to r1", "answer to r2"]
    assert all(r.ok for r in responses)


def test_a_batch_that_ends_at_its_first_poll_is_collected_without_waiting() -> None:
    backend = SlowBatches(ends_at_poll=1)
    stop = RecordedWaits()
    responses = CallExecutor(backend, None, stop, use_batch=True, batch_poll_s=30).run(requests(2))
    assert backend.polls == 1 and stop.waits == []
    assert [r.text for r in responses] == ["answer to r0", "answer to r1"]


def test_a_night_stopped_while_its_batch_runs_stops_waiting() -> None:
    backend = SlowBatches(ends_at_poll=1_000)
    stop = RecordedWaits(stop_after=2)
    responses = CallExecutor(backend, None, stop, use_batch=True, batch_poll_s=30).run(requests(2))
    assert backend.polls == 2 and len(stop.waits) == 2
    assert [r.failure for r in responses] == [FailureKind.CANCELLED, FailureKind.CANCELLED]
