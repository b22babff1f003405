"""Train / val / test by cluster, stable across nights.

A whole cluster lands in one split, chosen by a hash of its stable key, so the
same recurring task never sits on both sides of the gate and a cluster never
moves. Only mined tasks may be validated or tested; synthetic variants are train.
"""

from __future__ import annotations

import hashlib

SPLITS = ("train", "val", "test")


def split_for_key(key: str, val_fraction: float, test_fraction: float) -> str:
    fraction = int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:12], 16) / float(16**12)
    if fraction < test_fraction:
        return "test"
    if fraction < test_fraction + val_fraction:
        return "val"
    return "train"


def split_for_task(cluster_split: str, origin: str) -> str:
    """A task's split: its cluster's, except that non-mined tasks only ever train."""
    return cluster_split if origin == "mined" else "train"
