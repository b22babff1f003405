"""Intent text → vectors in a feature space that stays the same from night to night.

Hashed n-gram counts (word 1–2-grams without English stop words, plus char_wb
3–5-grams; `sleepd.mining.hashing`, the columns scikit-learn's `HashingVectorizer`
gives) need no fitted vocabulary, so a centroid stored last month still
lines up with tonight's vectors. Inverse document frequencies are recomputed each
pass from the newest intents and applied on top; centroids are stored *before*
idf weighting (raw, row-normalised term frequencies), so they never go stale.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from scipy import sparse

from sleepd.mining.hashing import (
    char_wb_ngrams,
    hashed_counts,
    l2_normalize_rows,
    word_ngrams,
)
from sleepd.mining.turns.text import ATTACHMENT, in_plain_characters

WORD_FEATURES = 2**18
CHAR_FEATURES = 2**18
#: Share of the char n-gram block in the combined vector (word block gets the rest).
CHAR_WEIGHT = 0.5
#: Texts vectorised at a time inside `raw` (bounds the temporaries, not the result).
RAW_ROWS = 100
#: A stored centroid keeps its heaviest features only (JSON stays small).
CENTROID_TOP_K = 400

_NUMBER = re.compile(r"\b\d+\b")
_CODE_BLOCK = re.compile(r"```.*?```", re.DOTALL)
#: A link names one issue, run or page: its many path and id tokens outweighed the few
#: words of the request ("investigate why CI failed <actions URL>" and "should we close
#: <issue URL>" shared a repository's URL and nothing else).
_URL = re.compile(r"\b(?:https?|ssh|git)://\S+|\bwww\.\S+", re.IGNORECASE)
#: An absolute path's folders are where the person keeps the project, shared by every
#: path they type ("/home/kenth56/vsla/STATUS.md" and "/home/kenth56/vsla/docs/papers/…"
#: had joined a status note and a rewrite of commit authors): only its last part, the
#: file or folder it names, says what the request is about. A relative path's folders
#: ("src/components/…") do, and stay.
_ABSOLUTE_PATH = re.compile(r"(?<![\w/.])(?:~|[A-Za-z]:)?(?:[/\\][\w.@+-]+)+[/\\](?=[\w.@+-])")


def prepare(text: str) -> str:
    """What the vectorizer reads: short, lowercase, in plain characters
    (`in_plain_characters`: the same request in other characters makes the same features;
    its words as spelt, since written out "don't" would be two stop words and two requests
    that differ by it alike), code blocks, links, attachments, the folders of absolute
    paths and numbers folded."""
    text = _CODE_BLOCK.sub(" code ", in_plain_characters(text[:2000])[:2000])
    # an attachment says that something was pasted, not what was asked: its words and
    # sizes, shared by every request with a screenshot, had drawn unrelated requests of
    # three people into one cluster
    text = ATTACHMENT.sub(" ", text)
    text = _URL.sub(" ", text)
    text = _ABSOLUTE_PATH.sub(" ", text)
    text = _NUMBER.sub(" num ", text)
    return text.lower()


class IntentVectorizer:
    """Stable hashed features, idf weighting fitted per pass, l2-normalised rows."""

    def __init__(self) -> None:
        self.idf: np.ndarray = np.ones(WORD_FEATURES + CHAR_FEATURES)

    @property
    def n_features(self) -> int:
        return WORD_FEATURES + CHAR_FEATURES

    def raw(self, texts: Sequence[str]) -> sparse.csr_matrix:
        """Sublinear term frequencies, each block l2-normalised, before idf. Rows are
        computed RAW_ROWS at a time (the same rows; the temporaries stay small)."""
        if len(texts) <= RAW_ROWS:
            return self._raw(texts)
        parts = [self._raw(texts[i : i + RAW_ROWS]) for i in range(0, len(texts), RAW_ROWS)]
        return sparse.vstack(parts, format="csr")

    def _raw(self, texts: Sequence[str]) -> sparse.csr_matrix:
        prepared = [prepare(t) for t in texts]
        word = hashed_counts(prepared, word_ngrams, WORD_FEATURES)
        char = hashed_counts(prepared, char_wb_ngrams, CHAR_FEATURES)
        for block in (word, char):
            block.data = 1.0 + np.log(block.data)
        word = l2_normalize_rows(word) * np.sqrt(1.0 - CHAR_WEIGHT)
        char = l2_normalize_rows(char) * np.sqrt(CHAR_WEIGHT)
        return sparse.hstack([word, char], format="csr")

    def fit_idf(self, texts: Sequence[str]) -> None:
        """Smoothed idf from a corpus of intents (the newest ones of the store)."""
        if not texts:
            self.idf = np.ones(self.n_features)
            return
        present = self.raw(texts)
        present.data = np.ones_like(present.data)
        df = np.asarray(present.sum(axis=0)).ravel()
        n = len(texts)
        self.idf = np.log((1.0 + n) / (1.0 + df)) + 1.0

    def fit_idf_chunks(self, chunks: Iterable[Sequence[str]]) -> None:
        """`fit_idf` over texts given a chunk at a time (same result, bounded memory)."""
        df = np.zeros(self.n_features)
        n = 0
        for texts in chunks:
            if not texts:
                continue
            present = self.raw(texts)
            present.data = np.ones_like(present.data)
            df += np.asarray(present.sum(axis=0)).ravel()
            n += len(texts)
        self.idf = np.log((1.0 + n) / (1.0 + df)) + 1.0 if n else np.ones(self.n_features)

    def weigh(self, raw: sparse.csr_matrix) -> sparse.csr_matrix:
        """Apply idf and renormalise rows (cosine similarity is then a dot product)."""
        weighted = raw.multiply(self.idf.reshape(1, -1)).tocsr()
        return l2_normalize_rows(weighted)

    def transform(self, texts: Sequence[str]) -> sparse.csr_matrix:
        return self.weigh(self.raw(texts))


def encode_centroid(vector: sparse.csr_matrix, count: int, scope: str) -> dict[str, Any]:
    """A raw (pre-idf) centroid as JSON: its heaviest features, the member count, the scope."""
    row = vector.tocsr()
    data, indices = row.data, row.indices
    if len(data) > CENTROID_TOP_K:
        keep = np.argsort(-data)[:CENTROID_TOP_K]
        data, indices = data[keep], indices[keep]
    order = np.argsort(indices)
    return {
        "scope": scope,
        "n": int(count),
        "idx": [int(i) for i in indices[order]],
        "val": [round(float(v), 6) for v in data[order]],
    }


def decode_centroid(stored: dict[str, Any], n_features: int) -> sparse.csr_matrix:
    idx = stored.get("idx") or []
    val = stored.get("val") or []
    return sparse.csr_matrix(
        (np.asarray(val, dtype=np.float64), (np.zeros(len(idx), dtype=np.int64), idx)),
        shape=(1, n_features),
    )
