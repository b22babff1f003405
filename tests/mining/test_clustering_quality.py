"""Pairwise precision and recall of intent clustering on a labelled set."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from sleepd.mining.clusters import plan_clusters
from sleepd.mining.vectors import IntentVectorizer

from .builders import THRESHOLD

INTENTS = Path(__file__).resolve().parents[1] / "data" / "intents.jsonl"


def pairwise(gold: list[str], predicted: list[int]) -> tuple[float, float]:
    tp = fp = fn = 0
    for i, j in itertools.combinations(range(len(gold)), 2):
        same_pred, same_gold = predicted[i] == predicted[j], gold[i] == gold[j]
        tp += same_pred and same_gold
        fp += same_pred and not same_gold
        fn += same_gold and not same_pred
    return tp / (tp + fp), tp / (tp + fn)


def cluster_labels(texts: list[str], threshold: float, chunk_size: int = 1500) -> list[int]:
    vectorizer = IntentVectorizer()
    vectorizer.fit_idf(texts)
    plan = plan_clusters(vectorizer.transform(texts), None, threshold, chunk_size=chunk_size)
    labels = [-1] * len(texts)
    for label, group in enumerate(plan.groups):
        for row in group:
            labels[row] = label
    return labels


def load() -> tuple[list[str], list[str]]:
    rows = [json.loads(line) for line in INTENTS.read_text(encoding="utf-8").splitlines()]
    return [r["text"] for r in rows], [r["label"] for r in rows]


def test_labelled_set_is_big_and_varied() -> None:
    texts, gold = load()
    assert len(texts) >= 200
    assert len(set(gold)) >= 50 and sum(1 for g in gold if g.startswith("single-")) >= 20


def test_pairwise_precision_and_recall_at_least_0_8() -> None:
    texts, gold = load()
    precision, recall = pairwise(gold, cluster_labels(texts, THRESHOLD))
    assert precision >= 0.8 and recall >= 0.8, (precision, recall)


def test_chunked_clustering_still_groups_paraphrases() -> None:
    """Chunks join the clusters earlier chunks formed, so recall survives chunking."""
    texts, gold = load()
    precision, recall = pairwise(gold, cluster_labels(texts, THRESHOLD, chunk_size=60))
    assert precision >= 0.8 and recall >= 0.75, (precision, recall)
