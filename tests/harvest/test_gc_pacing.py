"""A harvest runs the garbage collector at a slower pace, and puts the old pace back."""

from __future__ import annotations

import gc
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from sleepd.gc_pacing import HARVEST_GEN0_THRESHOLD, harvest_pace
from sleepd.harvest import harvest
from sleepd.harvest_feed import _init_worker


@pytest.fixture
def default_pace() -> Any:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield (700, 10, 10)
    gc.set_threshold(*before)


def test_the_pace_is_put_back_even_when_the_block_fails(default_pace: Any) -> None:
    with pytest.raises(RuntimeError), harvest_pace():
        assert gc.get_threshold() == (HARVEST_GEN0_THRESHOLD, 10, 10)
        raise RuntimeError("harvest stopped")
    assert gc.get_threshold() == default_pace


def test_a_pace_already_slower_is_kept(default_pace: Any) -> None:
    gc.set_threshold(HARVEST_GEN0_THRESHOLD * 2, 10, 10)
    with harvest_pace():
        assert gc.get_threshold()[0] == HARVEST_GEN0_THRESHOLD * 2


def test_a_harvest_runs_at_the_slower_pace(
    corpus_tree: Path, cfg: Any, store: Any, default_pace: Any
) -> None:
    seen: set[int] = set()
    harvest(store, cfg, progress=lambda source, done, total: seen.add(gc.get_threshold()[0]))
    assert seen == {HARVEST_GEN0_THRESHOLD}
    assert gc.get_threshold() == default_pace


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_harvest_workers_run_at_the_slower_pace(method: str, default_pace: Any) -> None:
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} here")
    with ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context(method),
        initializer=_init_worker,
        initargs=(os.getpid(),),
    ) as pool:
        assert pool.submit(gc.get_threshold).result(timeout=60)[0] == HARVEST_GEN0_THRESHOLD
