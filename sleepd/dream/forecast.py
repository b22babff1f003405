"""What a night will cost and what it can detect, before it runs (`sleepd run --dry-run`).

Cost: the calls each role will make at most (the sequential plan's every round, every
candidate, retests not counted) times what the role's backend estimates for one call,
with the output cut to the sizes measured in the ledger (see `backends.budget`).
Detectable lift: the smallest lift on every validation task the gate's first look finds
with 80 % power at this project's task count (a normal approximation, conservative).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sleepd.backends.base import Backend, ChatMessage, ModelRequest
from sleepd.backends.budget import OutputForecast, forecast_estimate
from sleepd.config import Config
from sleepd.dream.gate import GatePolicy, candidate_alpha
from sleepd.dream.prompts import OPTIMIZER_SYSTEM, TARGET_SYSTEM
from sleepd.dream.stats import detectable_lift

#: Prompt size of one optimizer call beyond the document (trajectories, instructions).
OPTIMIZER_PROMPT_CHARS = 12_000
#: A typical replayed task's text.
TASK_PROMPT_CHARS = 600


@dataclass(frozen=True)
class CallPlan:
    """The most calls each role makes tonight for one project."""

    train_rollouts: int
    val_rollouts_max: int
    test_rollouts: int
    optimizer_calls: int

    @property
    def target_calls(self) -> int:
        return self.train_rollouts + self.val_rollouts_max + self.test_rollouts

    def to_dict(self) -> dict[str, int]:
        return {
            "train_rollouts": self.train_rollouts,
            "optimizer_calls": self.optimizer_calls,
            "val_rollouts_max": self.val_rollouts_max,
            "test_rollouts": self.test_rollouts,
        }


def call_plan(cfg: Config, counts: Mapping[str, int]) -> CallPlan:
    dream, gate = cfg.dream, cfg.gate
    k = dream.rollouts_per_task
    return CallPlan(
        train_rollouts=counts.get("train", 0) * k,
        val_rollouts_max=counts.get("val", 0)
        * gate.sequential_rounds
        * (dream.candidates_per_night + 1),
        test_rollouts=counts.get("test", 0) * k * 2,
        optimizer_calls=dream.candidates_per_night,
    )


def forecast_cost(
    plan: CallPlan,
    document: str,
    backends: Mapping[str, Backend],
    output: OutputForecast | None,
    cfg: Config,
) -> dict[str, float] | None:
    """Dollars per role (and "total"); None when no backend is usable."""
    if not backends:
        return None
    task = "x" * TASK_PROMPT_CHARS
    requests = {
        "target": (
            plan.target_calls,
            ModelRequest(
                messages=[ChatMessage("user", task)],
                system=TARGET_SYSTEM,
                cache_prefix=document,
                model=cfg.role("target").model or None,
                role="target",
            ),
        ),
        "judge": (
            plan.target_calls,
            ModelRequest(
                messages=[ChatMessage("user", task * 3)],
                model=cfg.role("judge").model or None,
                max_tokens=200,
                role="judge",
            ),
        ),
        "optimizer": (
            plan.optimizer_calls,
            ModelRequest(
                messages=[ChatMessage("user", document + "x" * OPTIMIZER_PROMPT_CHARS)],
                system=OPTIMIZER_SYSTEM,
                model=cfg.role("optimizer").model or None,
                role="optimizer",
            ),
        ),
    }
    costs: dict[str, float] = {}
    for role, (calls, request) in requests.items():
        backend = backends.get(role)
        if backend is None:
            continue
        estimate = forecast_estimate(backend.estimate(request), request, output)
        costs[role] = round(calls * estimate.cost_usd, 4)
    costs["total"] = round(sum(costs.values()), 4)
    return costs


def detectable(cfg: Config, policy: GatePolicy, val_tasks: int) -> dict[str, Any]:
    """The smallest lift the first look can detect, with the sentence the CLI prints."""
    rounds = cfg.gate.sequential_rounds
    alpha = candidate_alpha(policy)
    lift = detectable_lift(val_tasks, rounds, alpha)
    if lift is None:
        sentence = "no validation tasks yet: the gate cannot detect any lift"
    else:
        sentence = (
            f"with {val_tasks} validation tasks x {rounds} rollouts you can detect lifts >= "
            f"{lift:.2f} on every task (80 % power at alpha {alpha:.3g}, the first look)"
        )
    return {
        "detectable_lift": None if lift is None else round(lift, 3),
        "alpha": alpha,
        "sentence": sentence,
    }
