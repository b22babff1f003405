"""The simulator behind the ordinary `Backend` interface: a TEST DOUBLE.

Every response has `simulated=True` and text carrying `[simulated]`; the
simulator is never chosen by `auto`. It records every request it receives
(`received`) and every optimizer proposal (`proposals`) so tests can inspect
exactly what each role saw and produced.
"""

from __future__ import annotations

import itertools
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from sleepd.backends.base import (
    BackendError,
    BatchStatus,
    Estimate,
    FailureKind,
    ModelRequest,
    ModelResponse,
    custom_ids,
    heuristic_input_tokens,
    heuristic_tokens,
)
from sleepd.backends.sim.judge import judge_answer
from sleepd.backends.sim.optimizer import OptimizerRates, Proposal, propose
from sleepd.backends.sim.target import target_answer
from sleepd.backends.sim.world import SIM_MARKER, SimWorld

SIM_MODEL = "sim-1"


class SimBackend:
    name = "sim"
    simulated = True

    def __init__(
        self,
        world: SimWorld | None = None,
        *,
        rates: OptimizerRates | None = None,
        seed: int | None = None,
        latency_s: float = 0.0,
    ) -> None:
        self.world = world or SimWorld()
        self.rates = rates or OptimizerRates()
        self.seed = self.world.seed if seed is None else seed
        self.latency_s = latency_s
        self.received: list[ModelRequest] = []
        self.proposals: list[Proposal] = []
        self._lock = threading.Lock()
        self._batches: dict[str, dict[str, ModelResponse]] = {}
        self._batch_ids = itertools.count(1)

    def complete(self, request: ModelRequest) -> ModelResponse:
        with self._lock:
            self.received.append(request)
        if self.latency_s:
            time.sleep(self.latency_s)
        text = self._answer(request)
        return ModelResponse(
            text=text,
            backend=self.name,
            model=request.model or SIM_MODEL,
            input_tokens=heuristic_input_tokens(request),
            output_tokens=heuristic_tokens(text),
            latency_s=self.latency_s,
            simulated=True,
            raw_id=f"sim-{len(self.received)}",
        )

    def _answer(self, request: ModelRequest) -> str:
        if request.role == "target":
            return target_answer(self.world, request)
        if request.role == "judge":
            return judge_answer(request)
        if request.role == "optimizer":
            proposal = propose(self.world, request, self.rates, self.seed)
            with self._lock:
                self.proposals.append(proposal)
            return proposal.to_json()
        return miner_answer(self.world, request)

    def estimate(self, request: ModelRequest) -> Estimate:
        return Estimate(heuristic_input_tokens(request), request.max_tokens, 0.0)

    # Batches are answered at once and kept in memory: unlike the real providers they do
    # not survive a restart (the simulator has no server to keep them).
    def submit_batch(self, requests: Sequence[ModelRequest]) -> str:
        results = {
            cid: self.complete(r) for cid, r in zip(custom_ids(requests), requests, strict=True)
        }
        # Unique across processes: a provider's batch ids never repeat, and the store keeps
        # them unique, so a second night in the same home must not reuse "simbatch-1".
        batch_id = f"simbatch-{uuid.uuid4().hex[:16]}-{next(self._batch_ids)}"
        self._batches[batch_id] = results
        return batch_id

    def poll_batch(self, batch_id: str) -> BatchStatus:
        results = self._get(batch_id)
        return BatchStatus(batch_id, "ended", total=len(results), succeeded=len(results))

    def collect_batch(self, batch_id: str) -> dict[str, ModelResponse]:
        return dict(self._get(batch_id))

    def _get(self, batch_id: str) -> dict[str, ModelResponse]:
        try:
            return self._batches[batch_id]
        except KeyError:
            raise BackendError(
                FailureKind.NOT_AVAILABLE, f"unknown simulated batch {batch_id}"
            ) from None


def miner_answer(world: SimWorld, request: ModelRequest) -> str:
    """A labelled guess of the task family; fills a JSON schema when one is given."""
    family = world.family_for_intent(request.last_user_text())
    label = family.name if family else "unknown"
    if request.json_schema is None:
        return f"{SIM_MARKER} family={label}"
    value = _fill(request.json_schema, label)
    return orjson.dumps(value).decode()


def _fill(schema: Mapping[str, Any], label: str, key: str = "") -> Any:
    """The smallest value of `schema`'s shape; strings say they are simulated."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if "anyOf" in schema:
        return _fill(schema["anyOf"][0], label, key)
    if kind == "object":
        props: Mapping[str, Any] = schema.get("properties", {})
        return {name: _fill(sub, label, name) for name, sub in props.items()}
    if kind == "array":
        return []
    if kind in ("number", "integer"):
        return 0
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    if key in ("label", "family", "name", "title", "category"):
        return f"{label} {SIM_MARKER}"
    return f"{SIM_MARKER} {label}"
