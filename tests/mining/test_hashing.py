"""Mining's own hashed features are scikit-learn's, entry for entry.

Stored centroids are sums of these vectors; a night computed without scikit-learn must
line up with centroids stored before (and the clusters must not move). Each test builds
the reference the way `sleepd.mining.vectors` did with scikit-learn and asks for exact
equality: the same columns, the same counts, the same floats.

scikit-learn is imported inside the tests: every xdist worker imports every test module
at collection, and loading scikit-learn costs each of them more than a second.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from scipy import sparse

from sleepd.mining import hashing, vectors
from sleepd.mining.clusters import _agglomerate
from sleepd.mining.stop_words import ENGLISH_STOP_WORDS
from sleepd.mining.vectors import CHAR_WEIGHT, IntentVectorizer, prepare

TESTS = Path(__file__).resolve().parents[1]
HOSTILE = [
    "",
    "   ",
    "\n\t\n",
    "a",
    "I",
    "the and of",  # stop words only
    "x" * 5000,
    "日本語のテキストと English mixed 🙂 emoji 👩‍💻",
    "ﬁx the ﬂaky test İstanbul ǅ ß",  # characters whose lowercase changes length
    "```python\nprint(1)\n``` then 42 and 3.14",
    "tab\tand  double  spaces\u00a0nbsp\u2003em",
    "snake_case_words and CamelCase and a-b-c",
]


def real_intents() -> list[str]:
    """The labelled intents and every typed user prompt of the real-session fixtures."""
    labelled = [
        json.loads(line)["text"]
        for line in (TESTS / "data" / "intents.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    prompts = []
    for path in sorted((TESTS / "fixtures" / "real_sessions").rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            message = record.get("message") if isinstance(record, dict) else None
            content = message.get("content") if isinstance(message, dict) else None
            if record.get("type") == "user" and isinstance(content, str):
                prompts.append(content)
    assert len(labelled) > 100 and len(prompts) > 20
    return labelled + prompts + HOSTILE


def sklearn_raw(texts: list[str]) -> sparse.csr_matrix:
    """`IntentVectorizer.raw` as it was written with scikit-learn."""
    from sklearn.feature_extraction.text import HashingVectorizer
    from sklearn.preprocessing import normalize

    word = HashingVectorizer(
        n_features=vectors.WORD_FEATURES,
        analyzer="word",
        ngram_range=(1, 2),
        stop_words="english",
        token_pattern=r"(?u)\b\w+\b",
        alternate_sign=False,
        norm=None,
    )
    char = HashingVectorizer(
        n_features=vectors.CHAR_FEATURES,
        analyzer="char_wb",
        ngram_range=(3, 5),
        alternate_sign=False,
        norm=None,
    )
    prepared = [prepare(t) for t in texts]
    blocks = []
    for hasher, weight in ((word, 1.0 - CHAR_WEIGHT), (char, CHAR_WEIGHT)):
        block = hasher.transform(prepared).astype(np.float64)
        block.data = 1.0 + np.log(block.data)
        blocks.append(normalize(block) * np.sqrt(weight))
    return sparse.hstack(blocks, format="csr")


def same(a: sparse.csr_matrix, b: sparse.csr_matrix) -> bool:
    return (
        a.shape == b.shape
        and np.array_equal(a.indptr, b.indptr)
        and np.array_equal(a.indices, b.indices)
        and np.array_equal(a.data, b.data)
    )


def test_the_stop_words_are_scikit_learns() -> None:
    from sklearn.feature_extraction._stop_words import ENGLISH_STOP_WORDS as SKLEARN_STOP_WORDS

    assert ENGLISH_STOP_WORDS == SKLEARN_STOP_WORDS


def test_the_hash_is_scikit_learns_murmurhash() -> None:
    from sklearn.utils.murmurhash import murmurhash3_32 as sklearn_murmurhash

    rng = random.Random(22)
    alphabet = "ab z\n\tüß日本🙂" + "".join(chr(c) for c in range(32, 127))
    keys = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 70))) for _ in range(3000)]
    keys += ["", "a", "ab", "abc", "abcd", "abcde", "x" * 4001]
    encoded = [k.encode("utf-8") for k in keys]
    expected = np.array([sklearn_murmurhash(k, seed=0) for k in encoded], dtype=np.int32)
    assert np.array_equal(hashing.murmurhash3_32(encoded), expected)
    assert hashing.murmurhash3_32([]).shape == (0,)


def test_a_hash_of_minus_two_to_the_31_takes_scikit_learns_column() -> None:
    n_features = 2**18
    expected = (2147483647 - (n_features - 1)) % n_features
    assert hashing.columns(np.array([-(2**31)], dtype=np.int32), n_features)[0] == expected
    assert hashing.columns(np.array([-5, 5], dtype=np.int32), 3).tolist() == [2, 2]


def test_raw_vectors_of_real_intents_are_the_same_to_the_last_bit() -> None:
    texts = real_intents()
    assert same(IntentVectorizer().raw(texts), sklearn_raw(texts))


def test_weighted_vectors_and_clusters_are_the_same() -> None:
    from sklearn.preprocessing import normalize

    texts = real_intents()
    vectorizer = IntentVectorizer()
    vectorizer.fit_idf(texts)
    raw = vectorizer.raw(texts)
    weighted = vectorizer.weigh(raw)
    expected = normalize(raw.multiply(vectorizer.idf.reshape(1, -1)).tocsr())
    assert same(weighted, expected)
    # and so the partition, which only reads these vectors
    assert _agglomerate(weighted, 0.2) == _agglomerate(expected, 0.2)


@pytest.mark.parametrize("rows", [1, 63, 64, 65, 200])
def test_row_lengths_are_scikit_learns_whatever_the_piece_size(rows: int) -> None:
    from sklearn.preprocessing import normalize

    matrix = sparse.random(rows, 5000, density=0.05, format="csr", random_state=rows)
    matrix = sparse.vstack([matrix, sparse.csr_matrix((1, 5000))], format="csr")  # a zero row
    assert same(hashing.l2_normalize_rows(matrix), normalize(matrix))
