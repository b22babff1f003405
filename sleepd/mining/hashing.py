"""Hashed n-gram counts, the features scikit-learn's `HashingVectorizer` gives, without it.

Importing scikit-learn costs a mining pass about as much memory as all its other imports
together, for one function: hash each n-gram into a fixed number of columns. This module
makes the same n-grams (`word_ngrams`: lowercased `\\b\\w+\\b` tokens less the English stop
words, then their pairs; `char_wb_ngrams`: 3–5-character pieces of each space-padded
word) and the same columns (32-bit MurmurHash3 of the UTF-8 bytes, seed 0, its absolute
value modulo the column count), so a centroid stored by either lines up with the other's
vectors. The hash runs over a whole batch of n-grams at once in numpy.
tests/mining/test_hashing.py holds every matrix equal to scikit-learn's, entry for entry.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence

import numpy as np
from scipy import sparse

from sleepd.mining.stop_words import ENGLISH_STOP_WORDS

_TOKEN = re.compile(r"(?u)\b\w+\b")
_WHITE_SPACES = re.compile(r"\s\s+")

_C1 = np.uint32(0xCC9E2D51)
_C2 = np.uint32(0x1B873593)


def word_ngrams(text: str) -> list[str]:
    """Words and word pairs, stop words left out first (as `analyzer="word"` makes them)."""
    words = [w for w in _TOKEN.findall(text.lower()) if w not in ENGLISH_STOP_WORDS]
    return words + [f"{a} {b}" for a, b in itertools.pairwise(words)]


def char_wb_ngrams(text: str) -> list[str]:
    """3- to 5-character pieces of each word padded with a space on each side; a padded
    word shorter than n gives itself once (as `analyzer="char_wb"` makes them)."""
    out: list[str] = []
    append = out.append
    for word in _WHITE_SPACES.sub(" ", text.lower()).split():
        padded = f" {word} "
        length = len(padded)
        for n in range(3, 6):
            append(padded[:n])
            for offset in range(1, length - n + 1):
                append(padded[offset : offset + n])
            if length <= n:
                break
    return out


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint32(r)) | (x >> np.uint32(32 - r))


def murmurhash3_32(keys: Sequence[bytes]) -> np.ndarray:
    """MurmurHash3 (x86, 32-bit, seed 0) of each key, as signed 32-bit integers."""
    n = len(keys)
    if n == 0:
        return np.zeros(0, dtype=np.int32)
    lengths = np.fromiter((len(k) for k in keys), dtype=np.int64, count=n)
    # longest first, so the keys still hashing a 4-byte block are always a prefix
    order = np.argsort(-lengths, kind="stable")
    lengths = lengths[order]
    blob = np.frombuffer(b"".join([keys[i] for i in order] + [b"\0\0\0\0"]), dtype=np.uint8)
    starts = np.zeros(n, dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    blocks = lengths // 4
    h = np.zeros(n, dtype=np.uint32)
    with np.errstate(over="ignore"):
        for block in range(int(blocks[0]) if n else 0):
            m = int(np.searchsorted(-blocks, -block, side="left"))  # keys with > block blocks
            at = starts[:m] + 4 * block
            k = (
                blob[at].astype(np.uint32)
                | (blob[at + 1].astype(np.uint32) << np.uint32(8))
                | (blob[at + 2].astype(np.uint32) << np.uint32(16))
                | (blob[at + 3].astype(np.uint32) << np.uint32(24))
            )
            k = _rotl(k * _C1, 15) * _C2
            hm = _rotl(h[:m] ^ k, 13)
            h[:m] = hm * np.uint32(5) + np.uint32(0xE6546B64)
        tail = lengths & 3
        at = starts + 4 * blocks
        k = np.zeros(n, dtype=np.uint32)
        for byte in (2, 1, 0):
            has = tail > byte
            k[has] ^= blob[at[has] + byte].astype(np.uint32) << np.uint32(8 * byte)
        some = tail > 0
        k[some] = _rotl(k[some] * _C1, 15) * _C2
        h ^= k
        h ^= lengths.astype(np.uint32)
        h ^= h >> np.uint32(16)
        h *= np.uint32(0x85EBCA6B)
        h ^= h >> np.uint32(13)
        h *= np.uint32(0xC2B2AE35)
        h ^= h >> np.uint32(16)
    out = np.empty(n, dtype=np.int32)
    out[order] = h.view(np.int32)
    return out


def columns(hashes: np.ndarray, n_features: int) -> np.ndarray:
    """The column of each hash: |h| mod n_features (|-2^31| taken as 2^31)."""
    return (np.abs(hashes.astype(np.int64)) % n_features).astype(np.int32)


def hashed_counts(
    texts: Sequence[str], analyzer: Callable[[str], list[str]], n_features: int
) -> sparse.csr_matrix:
    """How often each hashed n-gram occurs in each text: float64 counts, one row per text,
    column indices sorted (the matrix `HashingVectorizer.transform` returns with
    `alternate_sign=False, norm=None`)."""
    grams: list[bytes] = []
    indptr = np.zeros(len(texts) + 1, dtype=np.int64)
    for row, text in enumerate(texts):
        pieces = analyzer(text)
        grams.extend(g.encode("utf-8", "surrogatepass") for g in pieces)
        indptr[row + 1] = len(grams)
    indices = columns(murmurhash3_32(grams), n_features)
    values = np.ones(len(grams), dtype=np.float64)
    matrix = sparse.csr_matrix(
        (values, indices, indptr.astype(np.int32)), shape=(len(texts), n_features)
    )
    matrix.sum_duplicates()
    return matrix


#: Rows whose squares are laid out at a time in `l2_normalize_rows` (rows × widest row).
NORM_ROWS = 64


def l2_normalize_rows(matrix: sparse.csr_matrix) -> sparse.csr_matrix:
    """Each row divided by its Euclidean length (an all-zero row stays zero), the squares
    summed in stored order as scikit-learn's `normalize` does, so the result is the same
    to the last bit. Returns a new matrix."""
    out = sparse.csr_matrix(matrix, dtype=np.float64, copy=True)
    counts = np.diff(out.indptr)
    norms = np.ones(out.shape[0])
    for first in range(0, out.shape[0], NORM_ROWS):
        part = counts[first : first + NORM_ROWS]
        widest = int(part.max()) if len(part) else 0
        if widest == 0:
            continue
        begin, end = out.indptr[first], out.indptr[first + len(part)]
        rows = np.repeat(np.arange(len(part)), part)
        within = np.arange(end - begin) - np.repeat(
            out.indptr[first : first + len(part)] - begin, part
        )
        squares = np.zeros((len(part), widest))
        data = out.data[begin:end]
        squares[rows, within] = data * data
        # a running sum along each row adds in stored order (trailing zeros change nothing)
        totals = np.cumsum(squares, axis=1)[:, -1]
        lengths = np.sqrt(totals)
        lengths[totals == 0.0] = 1.0
        norms[first : first + len(part)] = lengths
    out.data /= np.repeat(norms, counts)
    return out
