"""Reader + parser throughput over the sample corpus, replicated in a temp dir.

Prints MB/s and lines/s for the bare reader (split + orjson) and for each
harvester's full conversion to records. No store, no redaction: the whole
harvest must reach >= 50 MB/s, so this part should be far above that.

    .venv/bin/python bench/harvest_parse.py [--copies N]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from harvesters.claude_code import ClaudeCodeHarvester
from harvesters.codex import CodexHarvester
from harvesters.reader import read_jsonl

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "real_sessions"


def replicate(target: Path, copies: int) -> tuple[Path, Path]:
    claude = target / "claude" / "projects"
    codex = target / "codex" / "sessions" / "2025" / "11" / "17"
    for n in range(copies):
        project = claude / f"-bench-{n}"
        project.mkdir(parents=True)
        for sample in sorted((CORPUS / "claude").glob("*.jsonl")):
            shutil.copyfile(sample, project / f"{n}-{sample.name.split('__')[-1]}")
        codex.mkdir(parents=True, exist_ok=True)
        for sample in sorted((CORPUS / "codex").glob("*.jsonl")):
            shutil.copyfile(sample, codex / f"rollout-{n}-{sample.name.split('__')[-1]}")
    return claude, target / "codex" / "sessions"


def timed(label: str, paths: list[Path], work: Callable[[Path], int]) -> None:
    size = sum(p.stat().st_size for p in paths)
    best = float("inf")
    lines = 0
    for _ in range(3):
        start = time.perf_counter()
        lines = sum(work(p) for p in paths)
        best = min(best, time.perf_counter() - start)
    print(
        f"{label:<28} {size / best / 1e6:8.1f} MB/s {lines / best:11,.0f} lines/s "
        f"({size / 1e6:.1f} MB, {len(paths)} files, best of 3)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=20, help="corpus copies (default 20)")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        raise SystemExit(f"corpus not found at {CORPUS}")
    with tempfile.TemporaryDirectory(prefix="sleepd-bench-") as tmp:
        claude_root, codex_root = replicate(Path(tmp), args.copies)
        claude = ClaudeCodeHarvester([claude_root])
        codex = CodexHarvester([codex_root])
        claude_files = list(claude.discover())
        codex_files = list(codex.discover())
        every = [Path(f.path) for f in claude_files + codex_files]

        def bare(path: Path) -> int:
            return sum(b.lines_read for b in read_jsonl(str(path), None))

        def claude_full(path: Path) -> int:
            file = next(f for f in claude_files if f.path == str(path))
            return sum(b.lines_read for b in claude.read(file, None))

        def codex_full(path: Path) -> int:
            file = next(f for f in codex_files if f.path == str(path))
            return sum(b.lines_read for b in codex.read(file, None))

        timed("reader + orjson (all)", every, bare)
        timed("claude harvester", [Path(f.path) for f in claude_files], claude_full)
        timed("codex harvester", [Path(f.path) for f in codex_files], codex_full)


if __name__ == "__main__":
    main()
