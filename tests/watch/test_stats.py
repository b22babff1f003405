"""The exact test the watch uses agrees with scipy's Fisher test, and the verdict needs
the minimum sample before it says anything."""

from __future__ import annotations

import pytest

from sleepd.watch.stats import fisher_one_sided, verdict_for

TABLES = [(2, 8, 8, 8), (8, 8, 1, 8), (4, 8, 4, 8), (0, 0, 3, 5), (13, 40, 25, 37), (5, 5, 0, 1)]


@pytest.mark.parametrize("table", TABLES)
def test_both_tails_match_scipy(table: tuple[int, int, int, int]) -> None:
    stats = pytest.importorskip("scipy.stats")
    bs, bn, as_, an = table
    ours = fisher_one_sided(bs, bn, as_, an)
    contingency = [[as_, an - as_], [bs, bn - bs]]
    assert ours.p_better == pytest.approx(
        stats.fisher_exact(contingency, alternative="greater").pvalue, abs=1e-12
    )
    assert ours.p_worse == pytest.approx(
        stats.fisher_exact(contingency, alternative="less").pvalue, abs=1e-12
    )


def test_verdicts() -> None:
    worse = fisher_one_sided(8, 8, 1, 8)
    assert verdict_for(worse, alpha=0.05, min_episodes=8) == "looks worse"
    assert verdict_for(worse, alpha=0.05, min_episodes=9) == "no evidence yet"
    assert verdict_for(fisher_one_sided(2, 8, 8, 8), alpha=0.05, min_episodes=8) == "helping"
    assert verdict_for(fisher_one_sided(6, 8, 3, 8), alpha=0.05, min_episodes=8) == (
        "no evidence yet"
    )
    with pytest.raises(ValueError):
        fisher_one_sided(3, 2, 0, 0)
