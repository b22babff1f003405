"""Benchmark the backend layer: per-call interface overhead and parallel throughput.

Model time is excluded: the simulator answers in-process and the loopback
servers (the test fakes, run in a separate process so they do not share our
GIL) answer instantly. Prints figures; asserts nothing.

    .venv/bin/python bench/backends.py [--calls 300]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sleepd.backends.base import Backend, ChatMessage, ModelRequest  # noqa: E402
from sleepd.backends.budget import BudgetCaps, BudgetGuard, MemoryLedger  # noqa: E402
from sleepd.backends.parallel import run_parallel  # noqa: E402

SKILL = "# Skill\n" + "- Run the test suite with `pytest -q` before declaring done.\n" * 40


def requests(n: int, model: str) -> list[ModelRequest]:
    return [
        ModelRequest(
            messages=[ChatMessage("user", f"Fix the failing pytest in module {i}")],
            cache_prefix=SKILL,
            model=model,
            max_tokens=64,
            metadata={"rollout": i % 3},
        )
        for i in range(n)
    ]


def per_call_us(backend: Backend, reqs: list[ModelRequest]) -> float:
    backend.complete(reqs[0])  # warm-up (imports, connection)
    started = time.perf_counter()
    for request in reqs:
        backend.complete(request)
    return (time.perf_counter() - started) / len(reqs) * 1e6


def throughput(backend: Backend, reqs: list[ModelRequest], concurrency: int) -> float:
    guard = BudgetGuard(BudgetCaps(max_usd=1e9), MemoryLedger())
    started = time.perf_counter()
    responses = run_parallel(backend, reqs, concurrency=concurrency, guard=guard)
    elapsed = time.perf_counter() - started
    failed = sum(not r.ok for r in responses)
    if failed:
        print(f"    ({failed} calls failed)")
    return len(reqs) / elapsed


def start_server(kind: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, __file__, "--serve", kind], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def serve(kind: str) -> None:
    from tests.backends.fake_providers import FakeAnthropic, FakeOpenAI

    server = (FakeAnthropic if kind == "anthropic" else FakeOpenAI)().start()
    print(server.url, flush=True)
    server.thread.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--serve", choices=["anthropic", "openai"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return

    from sleepd.backends.sim import SimBackend, SimWorld

    n = args.calls
    sim = SimBackend(SimWorld(seed=0))
    print(f"sim backend, target role: {per_call_us(sim, requests(n, 'sim-1')):.0f} µs/call")
    for c in (1, 4, 16):
        rate = throughput(SimBackend(SimWorld(seed=0)), requests(n, "sim-1"), c)
        print(f"sim via ParallelRunner+BudgetGuard, concurrency {c:>2}: {rate:,.0f} calls/s")

    from sleepd.backends.anthropic_api import AnthropicBackend
    from sleepd.backends.openai_api import OpenAIBackend

    for kind in ("anthropic", "openai"):
        proc, url = start_server(kind)
        try:
            backend: Backend
            if kind == "anthropic":
                backend = AnthropicBackend(api_key="bench", base_url=url, max_retries=0)
                model = "claude-sonnet-4-6"
            else:
                backend = OpenAIBackend(api_key="bench", base_url=f"{url}/v1", max_retries=0)
                model = "gpt-5-mini"
            us = per_call_us(backend, requests(min(n, 200), model))
            print(f"{kind} SDK over loopback, sequential: {us / 1000:.2f} ms/call")
            for c in (1, 4, 16):
                rate = throughput(backend, requests(n, model), c)
                print(f"{kind} over loopback, concurrency {c:>2}: {rate:,.0f} calls/s")
        finally:
            proc.terminate()
            proc.wait(timeout=5)


if __name__ == "__main__":
    main()
