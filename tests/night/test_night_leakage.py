"""The optimizer never sees judge internals, nor validation or test tasks."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Engine

from sleepd.backends.base import ModelRequest
from sleepd.dream.night import NightOptions, run_night

from .support import BackendCapture, add_tasks, small_config


def everything_sent(request: ModelRequest) -> str:
    parts = [request.system or "", request.cache_prefix or ""]
    parts += [m.content for m in request.messages]
    parts += [str(v) for v in request.metadata.values()]
    return "\n".join(parts)


def test_optimizer_sees_training_trajectories_but_no_judge_spec_or_held_out_task(
    engine: Engine, project: Path, capture: BackendCapture
) -> None:
    tasks = add_tasks(engine, project)
    cfg = small_config()
    # Two nights: the second one also shows the optimizer the edits rejected before.
    for _ in range(2):
        result = run_night(engine, cfg, NightOptions(skip_harvest=True, backend="sim"))
        assert result.status == "completed", result.stop_reason

    received = [r for backends in capture.built for r in backends["optimizer"].received]  # type: ignore[attr-defined]
    optimizer = [everything_sent(r) for r in received if r.role == "optimizer"]
    assert optimizer, "the optimizer was never asked"
    judged = [everything_sent(r) for r in received if r.role == "judge"]
    # The judge did see the rubric: the secrets below are really in play during the night.
    assert any("RUBRIC-ZEBRA-VAL-0-123" in text for text in judged)

    for text in optimizer:
        for secret in tasks.secrets:
            assert secret not in text
        assert "RUBRIC-" not in text and "must_contain" not in text
        for intent in tasks.intents["val"] + tasks.intents["test"]:
            assert intent not in text
        assert "VALTASK" not in text and "TESTTASK" not in text
        assert any(intent in text for intent in tasks.intents["train"])
        # The user's corrections of held-out episodes never reach it either.
        for marker in tasks.corrections["val"] + tasks.corrections["test"]:
            assert marker not in text
    # ... while those of training episodes do: the optimizer learns from the why.
    assert any(m in text for text in optimizer for m in tasks.corrections["train"])
