"""Building blocks for night tests: hand-made tasks, a small config, captured backends.

Mining is bypassed: tasks are inserted as if mined, with intents that carry the
simulated world's family keywords, so each test controls exactly what the night
replays (and which texts must never reach the optimizer).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd.backends.base import Backend, Estimate, FailureKind, ModelRequest, ModelResponse
from sleepd.config import Config
from sleepd.store.engine import write_session
from sleepd.store.models import Candidate, Rollout, Task

#: The anchor every edit can use: the heading of a new managed skill's body.
ANCHOR = "# Learned lessons"
#: A harmless edit (no family's rule in it), for tests that need some candidate to gate.
HARMLESS_EDIT: dict[str, Any] = {
    "edits": [
        {
            "op": "add",
            "anchor": ANCHOR,
            "position": "after",
            "text": "- Mention any assumption you made.",
        }
    ],
    "rationale": "a harmless reminder",
}

#: Family keywords the simulated target recognises (see sleepd/backends/sim/world.py).
TRAIN_TOPICS = ("pytest", "alembic migration", "ruff lint", "readme")
VAL_TOPICS = ("pytest", "alembic migration", "ruff lint", "readme")


def small_config(**dream_gate: Any) -> Config:
    """A night small enough for a unit test: few rollouts, few rounds, no batching."""
    cfg = Config()
    cfg.backends.default = "sim"
    cfg.backends.use_batch = False
    cfg.backends.concurrency = 2
    cfg.dream.rollouts_per_task = 2
    cfg.dream.candidates_per_night = 2
    cfg.dream.min_tasks = 6
    cfg.gate.sequential_rounds = 3
    cfg.gate.min_tasks = 6
    cfg.gate.calibrate = False
    for key, value in dream_gate.items():
        section, name = key.split("__", 1)
        setattr(getattr(cfg, section), name, value)
    return cfg


@dataclass
class TaskSet:
    """The ids and texts of the tasks one test inserted, by split."""

    project: str
    ids: dict[str, list[int]] = field(default_factory=dict)
    intents: dict[str, list[str]] = field(default_factory=dict)
    secrets: list[str] = field(default_factory=list)
    corrections: dict[str, list[str]] = field(default_factory=dict)


def _episode_with_correction(db: Session, project: str, correction: str) -> int:
    """An original episode whose user corrected the agent (as the miner records it)."""
    from sleepd.store.models import Episode, Event, Signal
    from sleepd.store.models import Session as TranscriptSession

    session = TranscriptSession(
        source="claude", external_id=f"s-{project}-{correction[:24]}", project_path=project
    )
    db.add(session)
    db.flush()
    event = Event(
        session_id=session.id, seq=2, external_id="e2", role="user", kind="message",
        text=correction,
    )  # fmt: skip
    db.add(event)
    db.flush()
    episode = Episode(session_id=session.id, start_seq=1, end_seq=3, project_path=project)
    db.add(episode)
    db.flush()
    db.add(Signal(episode_id=episode.id, kind="user_correction", polarity=-1, event_ids=[event.id]))
    db.flush()
    return episode.id


def judge_spec(secret: str) -> dict[str, Any]:
    """A spec whose every value is unmistakable, so a leak of any part can be found."""
    return {
        "version": 1,
        "checks": [{"type": "must_contain", "value": secret, "weight": 1.0}],
        "rubric": f"RUBRIC-{secret}: the answer must name the exact verification step.",
    }


def add_tasks(
    engine: Engine,
    project: Path,
    *,
    train: int = 6,
    val: int = 8,
    test: int = 4,
    topics: Sequence[str] = TRAIN_TOPICS,
) -> TaskSet:
    """Insert active mined tasks; val/test intents carry VALTASK/TESTTASK markers."""
    project.mkdir(parents=True, exist_ok=True)
    tasks = TaskSet(str(project))
    with write_session(engine) as db:
        for split, count in (("train", train), ("val", val), ("test", test)):
            tasks.ids[split], tasks.intents[split] = [], []
            for i in range(count):
                topic = topics[i % len(topics)]
                marker = {"train": "", "val": f" VALTASK-{i}-QX", "test": f" TESTTASK-{i}-QX"}
                intent = f"Fix the {topic} problem in module {split}{i}{marker[split]}"
                secret = f"ZEBRA-{split.upper()}-{i}-123"
                episode_id = _episode_with_correction(
                    db, str(project), f"CORRECTION-{split.upper()}-{i}-QX: use the fixture"
                )
                tasks.corrections.setdefault(split, []).append(f"CORRECTION-{split.upper()}-{i}-QX")
                row = Task(
                    project_path=str(project),
                    episode_id=episode_id,
                    intent=intent,
                    split=split,
                    origin="mined",
                    judge_spec=judge_spec(secret),
                    # No tmp path in the context: the sim's noise is keyed by the prompt
                    # text, so a fixed prompt makes every night reproducible.
                    context={"git_branch": "main"},
                    active=True,
                )
                db.add(row)
                db.flush()
                tasks.ids[split].append(row.id)
                tasks.intents[split].append(intent)
                tasks.secrets.append(secret)
    return tasks


class BackendCapture:
    """Wraps `sleepd.dream.night.build_backends` and keeps what each night built."""

    def __init__(self, wrap: Any = None) -> None:
        self.built: list[dict[str, Backend]] = []
        self.wrap = wrap

    def __call__(self, cfg: Config, override: str | None) -> dict[str, Backend]:
        from sleepd.backends.registry import make_role_backends
        from sleepd.backends.settings import settings_from_config

        settings = settings_from_config(cfg)
        if override:
            for role in settings.roles.values():
                role.backend = override
        backends = make_role_backends(settings)
        if self.wrap is not None:
            backends = self.wrap(backends)
        self.built.append(backends)
        return backends

    @property
    def last(self) -> dict[str, Backend]:
        return self.built[-1]


def rollouts(db: Session, night_id: int | None = None) -> list[Rollout]:
    stmt = select(Rollout).order_by(Rollout.id)
    if night_id is not None:
        stmt = stmt.where(Rollout.night_id == night_id)
    return list(db.scalars(stmt))


def candidates(db: Session) -> list[Candidate]:
    return list(db.scalars(select(Candidate).order_by(Candidate.id)))


def integrity_ok(engine: Engine) -> bool:
    with engine.connect() as conn:
        return conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"


def assert_rollouts_complete(rows: Sequence[Rollout]) -> None:
    """Each stored rollout is whole: a score, or no score and the reason it is missing."""
    for row in rows:
        assert row.task_id and row.night_id and row.document_hash and row.arm and row.split
        assert row.rollout_index is not None
        if row.score is None:
            assert row.failure_kind or row.judge_detail.get("failure"), row.id
        else:
            assert 0.0 <= row.score <= 1.0
            assert row.failure_kind is None


def stable_share(key: str) -> float:
    """A uniform draw in [0, 1) fixed by `key`: which calls fail never depends on timing."""
    digest = hashlib.sha256(key.encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


class FlakyBackend:
    """A backend that times out on the calls `fails` picks and passes the rest through."""

    def __init__(self, inner: Backend, fails: Callable[[ModelRequest], bool]) -> None:
        self.inner = inner
        self.fails = fails
        self.name = inner.name
        self.simulated = inner.simulated
        self.failed: list[ModelRequest] = []
        self._lock = threading.Lock()

    def complete(self, request: ModelRequest) -> ModelResponse:
        if self.fails(request):
            with self._lock:
                self.failed.append(request)
            return ModelResponse.failed(
                FailureKind.TIMEOUT,
                "injected timeout",
                backend=self.name,
                model=request.model or "",
                simulated=self.simulated,
            )
        return self.inner.complete(request)

    def estimate(self, request: ModelRequest) -> Estimate:
        return self.inner.estimate(request)


def failing_target(fails: Callable[[ModelRequest], bool]) -> Callable[..., dict[str, Backend]]:
    """A `BackendCapture.wrap` that puts a `FlakyBackend` in the target role."""

    def wrap(backends: dict[str, Backend]) -> dict[str, Backend]:
        return {**backends, "target": FlakyBackend(backends["target"], fails)}

    return wrap


def custom_id(request: ModelRequest) -> str:
    return str(request.metadata.get("custom_id", ""))


def is_candidate_arm(request: ModelRequest) -> bool:
    """Candidate arms are keyed c1, c2, … (fresh) or carry<N> (carried); baselines are not."""
    return custom_id(request).startswith(("c", "carry"))


class ScriptedOptimizer:
    """An optimizer that replies with the edits a test scripted, one list per night.

    `script[night][i]` answers the i-th optimizer request of that night; every request
    is kept in `received`, so a test can also read what the optimizer was shown.
    """

    name = "scripted-optimizer"
    simulated = True

    def __init__(self, script: Sequence[Sequence[dict[str, Any]]]) -> None:
        self.script = script
        self.night = 0
        self.received: list[ModelRequest] = []

    def complete(self, request: ModelRequest) -> ModelResponse:
        self.received.append(request)
        replies = self.script[min(self.night, len(self.script) - 1)]
        slot = int(request.metadata.get("candidate", 0))
        payload = replies[min(slot, len(replies) - 1)]
        return ModelResponse(
            text=json.dumps(payload),
            backend=self.name,
            model="scripted",
            input_tokens=10,
            output_tokens=10,
            simulated=True,
        )

    def estimate(self, request: ModelRequest) -> Estimate:
        return Estimate(10, 10, 0.0)
