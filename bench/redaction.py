"""Redaction throughput: prints MB/s, asserts nothing.

Run: .venv/bin/python bench/redaction.py [--mb 50] [--batch-size 2000]

Each data set is redacted two ways; figures are CPU time, best of three runs
(the machine is shared, so wall time is noisy):
* per string: ``Redactor.redact`` one string at a time;
* batch: ``Redactor.redact_many`` on --batch-size strings at a time, as the
  harvest ingest does (a batch of ~2000 lines).

Data sets:
* corpus: every decoded string value of tests/fixtures/real_sessions, replicated to --mb megabytes;
* raw lines: every line of those transcripts as the harvest stores it (JSON text, where a
  line break is an escape the rules read as a break), replicated the same way;
* corpus w/o image: the same without the one 0.5 MB base64 image;
* corpus, 64 KB chunks: the same text joined into large strings (scan cost only);
* secret-dense: the planted-secrets test corpus (one secret per ~100 chars);
* secret-dense, 256 KB: the same joined into strings of 256 KB, thousands of secrets each.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from redaction.corpus_text import corpus_strings  # noqa: E402
from redaction.planted import planted_corpus  # noqa: E402

from sleepd.redaction import Redactor  # noqa: E402

_RUNS = 3


def _replicate(strings: list[str], megabytes: float) -> list[str]:
    size = sum(map(len, strings))
    copies = max(1, int(megabytes * 1e6 / size) + 1)
    return strings * copies


def _best_seconds(run: Callable[[], int]) -> tuple[float, int]:
    best, redactions = float("inf"), 0
    for _ in range(_RUNS):
        start = time.process_time()
        redactions = run()
        best = min(best, time.process_time() - start)
    return best, redactions


def _measure(label: str, redactor: Redactor, strings: list[str], batch_size: int) -> None:
    size = sum(len(s.encode("utf-8", "surrogatepass")) for s in strings)

    def per_string() -> int:
        return sum(len(redactor.redact(text)[1]) for text in strings)

    def batched() -> int:
        return sum(
            len(ids)
            for i in range(0, len(strings), batch_size)
            for _, ids in redactor.redact_many(strings[i : i + batch_size])
        )

    single, found = _best_seconds(per_string)
    batch, found_batch = _best_seconds(batched)
    agree = "" if found == found_batch else f" (batch found {found_batch}!)"
    print(
        f"{label:20s} {size / 1e6:6.1f} MB {len(strings):8d} strings  "
        f"per string {size / 1e6 / single:6.1f} MB/s  batch {size / 1e6 / batch:6.1f} MB/s  "
        f"{found} redactions{agree}"
    )


def _chunks(strings: list[str], chunk: int = 65536) -> list[str]:
    out: list[str] = []
    buffer: list[str] = []
    length = 0
    for text in strings:
        buffer.append(text)
        length += len(text)
        if length >= chunk:
            out.append("\n".join(buffer))
            buffer, length = [], 0
    if buffer:
        out.append("\n".join(buffer))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=50.0, help="corpus text to redact")
    parser.add_argument("--batch-size", type=int, default=2000, help="strings per redact_many call")
    args = parser.parse_args()
    redactor = Redactor(salt=b"bench")
    corpus = corpus_strings()
    no_images = [s for s in corpus if len(s) < 100_000]
    size = args.batch_size
    _measure("corpus", redactor, _replicate(corpus, args.mb), size)
    _measure("corpus w/o image", redactor, _replicate(no_images, args.mb), size)
    _measure("corpus, 64 KB chunks", redactor, _chunks(_replicate(corpus, args.mb)), size)
    raw = [
        line
        for path in sorted((ROOT / "tests" / "fixtures" / "real_sessions").glob("*/*.jsonl"))
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if len(line) < 100_000
    ]
    _measure("raw lines", redactor, _replicate(raw, args.mb), size)
    dense = [case.text for case in planted_corpus()]
    _measure("secret-dense", redactor, _replicate(dense, args.mb / 10), size)
    # thousands of secrets in one string (a dump of an environment): each found secret is
    # checked against the others by a lookup, so this stays near the line above
    joined = _chunks(_replicate(dense, args.mb / 10), 256 * 1024)
    _measure("secret-dense, 256 KB", redactor, joined, size)


if __name__ == "__main__":
    main()
