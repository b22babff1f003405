"""Recurrence: which new intents join existing clusters and which form new ones.

Method (thresholds in docs/mining.md): tonight's intent vectors (idf-weighted,
l2-normalised, so a dot product is the cosine similarity) first join the nearest
existing centroid when the similarity is at least `similarity_threshold`. The rest
are clustered among themselves by agglomerative clustering with average linkage on
cosine distance and a distance threshold of ``1 - similarity_threshold``. Large
nights are processed in chunks: each chunk's new clusters become centroids the
next chunk can join, so memory stays bounded (a chunk's distance matrix is dense).
Existing clusters are never merged, split or renumbered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from sleepd.mining.hashing import l2_normalize_rows

CHUNK_SIZE = 1500


@dataclass
class ClusterPlan:
    #: row index of a new intent → index of the existing centroid it joins
    joins: dict[int, int] = field(default_factory=dict)
    #: new clusters, each a list of row indices
    groups: list[list[int]] = field(default_factory=list)


def row_sum(rows: sparse.csr_matrix) -> sparse.csr_matrix:
    """The sum of the rows as a sparse 1×F row (a dense sum over 2^19 features is slow)."""
    ones = sparse.csr_matrix(np.ones((1, rows.shape[0])))
    return sparse.csr_matrix(ones @ rows)


#: Rows of the similarity matrix computed at a time for the condensed distances.
DISTANCE_ROWS = 100


def _condensed_distances(vectors: sparse.csr_matrix) -> np.ndarray:
    """Cosine distances of every pair i < j in SciPy's condensed order, DISTANCE_ROWS
    rows at a time (one n·(n-1)/2 array, never the n×n one), clipped to [0, 2]."""
    n = vectors.shape[0]
    out = np.empty(n * (n - 1) // 2)
    transposed = vectors.T.tocsc()
    offset = 0
    for start in range(0, n - 1, DISTANCE_ROWS):
        block = (vectors[start : start + DISTANCE_ROWS] @ transposed).toarray()
        np.subtract(1.0, block, out=block)
        np.clip(block, 0.0, 2.0, out=block)
        for local, row in enumerate(block):
            i = start + local
            tail = row[i + 1 :]
            out[offset : offset + len(tail)] = tail
            offset += len(tail)
    return out


def _agglomerate(vectors: sparse.csr_matrix, threshold: float) -> list[list[int]]:
    """Average-linkage clustering cut at distance `1 - threshold`: every merge closer
    than the cut is made (the partition scikit-learn's AgglomerativeClustering gives
    with `distance_threshold`, from the same SciPy linkage)."""
    from scipy.cluster.hierarchy import linkage

    n = vectors.shape[0]
    if n == 1:
        return [[0]]
    merges = linkage(_condensed_distances(vectors), method="average")
    cut = 1.0 - threshold
    parent = list(range(2 * n - 1))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    # the tree cut into one cluster per merge at or past the cut, plus one
    kept = n - 1 - int(np.count_nonzero(merges[:, 2] >= cut))
    for step, (left, right, _, _) in enumerate(merges[:kept]):
        parent[root(int(left))] = n + step
        parent[root(int(right))] = n + step
    groups: dict[int, list[int]] = {}
    for row in range(n):
        groups.setdefault(root(row), []).append(row)
    return sorted(groups.values(), key=lambda g: g[0])


class ClusterPlanner:
    """`plan_clusters` fed one chunk at a time, so only a chunk's vectors (and one
    centroid per cluster) are ever in memory; the plan is the same as for the whole
    matrix cut into the same chunks."""

    def __init__(self, centroids: sparse.csr_matrix | None, threshold: float) -> None:
        self.plan = ClusterPlan()
        self.threshold = threshold
        self.centroids = centroids
        self.n_existing = 0 if centroids is None else centroids.shape[0]
        self.formed: list[sparse.csr_matrix] = []
        self.rows_seen = 0

    def add(self, block: sparse.csr_matrix) -> None:
        """Plan the next chunk (rows numbered on from the previous chunks)."""
        start = self.rows_seen
        rows = list(range(start, start + block.shape[0]))
        self.rows_seen += block.shape[0]
        known = [m for m in ([self.centroids] if self.n_existing else []) + self.formed]
        unassigned = list(range(block.shape[0]))
        if known:
            best, best_sim = _nearest(block, sparse.vstack(known, format="csr"))
            unassigned = []
            for offset, row in enumerate(rows):
                if best_sim[offset] >= self.threshold:
                    target = int(best[offset])
                    if target < self.n_existing:
                        self.plan.joins[row] = target
                    else:
                        self.plan.groups[target - self.n_existing].append(row)
                else:
                    unassigned.append(offset)
        if not unassigned:
            return
        for local in _agglomerate(block[unassigned], self.threshold):
            members = [unassigned[i] for i in local]
            self.plan.groups.append([rows[i] for i in members])
            self.formed.append(l2_normalize_rows(row_sum(block[members])))


#: Rows compared with the known centroids at a time (a dense rows × centroids array).
NEAREST_ROWS = 250


def _nearest(block: sparse.csr_matrix, known: sparse.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """For each row of `block`: the most similar row of `known` and that similarity
    (the first on a tie, as `argmax` picks), a few rows at a time."""
    best = np.empty(block.shape[0], dtype=np.int64)
    best_sim = np.empty(block.shape[0])
    transposed = known.T.tocsc()
    for start in range(0, block.shape[0], NEAREST_ROWS):
        sims = (block[start : start + NEAREST_ROWS] @ transposed).toarray()
        rows = sims.argmax(axis=1)
        best[start : start + len(rows)] = rows
        best_sim[start : start + len(rows)] = sims[np.arange(len(rows)), rows]
    return best, best_sim


def plan_clusters(
    new: sparse.csr_matrix,
    centroids: sparse.csr_matrix | None,
    threshold: float,
    *,
    chunk_size: int = CHUNK_SIZE,
) -> ClusterPlan:
    """Assign rows of `new` to existing centroids (rows of `centroids`) or new groups.

    Both matrices are idf-weighted and row-normalised.
    """
    planner = ClusterPlanner(centroids, threshold)
    for start in range(0, new.shape[0], chunk_size):
        planner.add(new[start : start + chunk_size])
    return planner.plan


def medoid(vectors: sparse.csr_matrix) -> int:
    """Row index of the member most similar to all the others."""
    if vectors.shape[0] <= 2:
        return 0
    totals = np.asarray((vectors @ vectors.T).sum(axis=1)).ravel()
    return int(totals.argmax())
