"""Mining's memory stays bounded without changing what it finds (issue #22: peak RSS
≤ 250 MB and flat from 500 MB to 1 GB of history; bench/speed.py measures it).

Each bound cuts work into pieces; these tests hold the pieces to the whole: the
same vectors, the same nearest centroids, the same clusters, the same events.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from scipy import sparse
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.mining import clusters, loading, vectors
from sleepd.mining.clusters import _agglomerate, _nearest, plan_clusters
from sleepd.mining.loading import SessionWork, load_events
from sleepd.mining.vectors import IntentVectorizer
from sleepd.store.engine import read_session

from .builders import SessionBuilder

WORDS = [
    "fix",
    "the",
    "failing",
    "login",
    "test",
    "add",
    "dark",
    "mode",
    "toggle",
    "to",
    "settings",
    "page",
    "deploy",
]


def texts(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words = rng.choices(WORDS, k=rng.randint(1, 30))
        out.append(" ".join(words) + rng.choice(["", " ```code block```", " 42", " ü ß 日本"]))
    return out


def test_vectors_computed_in_pieces_equal_the_whole() -> None:
    vectorizer = IntentVectorizer()
    sample = texts(vectors.RAW_ROWS * 3 + 17)
    pieces = vectorizer.raw(sample)
    whole = vectorizer._raw(sample)
    assert pieces.shape == whole.shape
    assert (pieces != whole).nnz == 0


def test_the_nearest_centroid_a_few_rows_at_a_time_is_the_dense_argmax(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(clusters, "NEAREST_ROWS", 7)
    rng = np.random.default_rng(3)
    block = sparse.random(40, 300, density=0.1, format="csr", random_state=rng)
    known = sparse.random(9, 300, density=0.1, format="csr", random_state=rng)
    known = sparse.vstack([known, known[2]], format="csr")  # a tie: the first one wins
    best, best_sim = _nearest(block, known)
    dense = (block @ known.T).toarray()
    assert (best == dense.argmax(axis=1)).all()
    assert np.array_equal(best_sim, dense[np.arange(40), dense.argmax(axis=1)])


def _agglomerate_as_before(vectors_: sparse.csr_matrix, threshold: float) -> list[list[int]]:
    """The clustering as it was written before its distances were made in place."""
    from sklearn.cluster import AgglomerativeClustering

    similarity = (vectors_ @ vectors_.T).toarray()
    distance = np.clip(1.0 - similarity, 0.0, 2.0)
    np.fill_diagonal(distance, 0.0)
    labels = AgglomerativeClustering(
        n_clusters=None, metric="precomputed", linkage="average", distance_threshold=1 - threshold
    ).fit_predict(distance)
    groups: dict[int, list[int]] = {}
    for row, label in enumerate(labels):
        groups.setdefault(int(label), []).append(row)
    return sorted(groups.values(), key=lambda g: g[0])


@pytest.mark.parametrize("threshold", [0.1, 0.2, 0.5])
def test_clusters_are_the_same_as_before(threshold: float) -> None:
    vectorizer = IntentVectorizer()
    matrix = vectorizer.transform(texts(120, seed=11))
    assert _agglomerate(matrix, threshold) == _agglomerate_as_before(matrix, threshold)


def test_clusters_of_the_labelled_intents_are_the_same_as_before() -> None:
    import json

    path = Path(__file__).resolve().parents[1] / "data" / "intents.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    vectorizer = IntentVectorizer()
    sample = [r["text"] for r in rows]
    vectorizer.fit_idf(sample)
    matrix = vectorizer.transform(sample)
    for threshold in (0.15, 0.2, 0.3):
        assert _agglomerate(matrix, threshold) == _agglomerate_as_before(matrix, threshold)


def test_a_plan_in_chunks_joins_what_the_earlier_chunks_formed() -> None:
    vectorizer = IntentVectorizer()
    matrix = vectorizer.transform(texts(60, seed=5) * 2)  # the second half repeats the first
    plan = plan_clusters(matrix, None, 0.2, chunk_size=60)
    assert plan.joins == {}
    members = sorted(r for group in plan.groups for r in group)
    assert members == list(range(120))
    assert all(any(r >= 60 for r in g) for g in plan.groups)  # each repeat joined its group


def test_events_streamed_in_small_pieces_are_the_same_events(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = []
    for n in range(3):
        b = SessionBuilder().prompt(f"task {n}").bash("ls", "x" * 20_000).say("done")
        ids.append(b.save(engine))
    work = [
        SessionWork(
            id=i,
            kind="main",
            project_path="/work/app",
            parent_session_id=None,
            mined_through_seq=0,
            max_seq=5,
            last_ts=None,
        )
        for i in ids
    ]
    with read_session(engine) as db:
        whole = load_events(db, work)
    monkeypatch.setattr(loading, "LOAD_ROWS", 2)
    with read_session(engine) as db:
        pieces = load_events(db, work)
    assert pieces == whole
    assert [len(v) for v in pieces.values()] == [len(v) for v in whole.values()]


def _tasks(engine: Engine) -> list[tuple[int | None, str, str]]:
    from sqlalchemy import select

    from sleepd.store.models import Task

    with read_session(engine) as db:
        return [
            (t.episode_id, t.intent, t.split) for t in db.scalars(select(Task).order_by(Task.id))
        ]


def test_tasks_mined_a_few_episodes_at_a_time_are_the_same_tasks(
    tmp_path: Path, cfg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sleepd.mining import task_mining
    from sleepd.mining.mine import mine
    from sleepd.store.engine import make_engine
    from sleepd.store.migrate import upgrade

    from .builders import LATER

    found = []
    for batch in (task_mining.BATCH, 2):
        monkeypatch.setattr(task_mining, "BATCH", batch)
        eng = make_engine(f"sqlite:///{tmp_path / f'b{batch}.db'}")
        upgrade(eng)
        for n in range(5):
            b = SessionBuilder(external_id=f"s{n}").prompt("Set up the project dependencies")
            b.bash("npm install").prompt("no, use pnpm not npm").save(eng)
        mine(eng, cfg, now=LATER)
        found.append(_tasks(eng))
        eng.dispose()
    assert found[0] == found[1] and len(found[0]) == 5
