"""The gate on hand-made score tables."""

from __future__ import annotations

import pytest

from sleepd.dream.gate import (
    GateInputError,
    GatePolicy,
    RetestScores,
    decide,
    decide_many,
    false_accept_rate,
    look_alpha,
    report_lift,
)

ONE_LOOK = GatePolicy(max_looks=1)


def table(rows: dict[str, list[float | None]]) -> dict[str, list[float | None]]:
    return rows


def uniform(n: int, scores: list[float | None]) -> dict[str, list[float | None]]:
    return {f"t{i}": list(scores) for i in range(n)}


def test_clear_win_is_accepted() -> None:
    d = decide(uniform(10, [0, 0, 1]), uniform(10, [1, 1, 1]), ONE_LOOK)
    assert d.outcome == "accept"
    assert d.p_value <= 0.05 and d.p_value_harm > 0.5
    assert d.n_tasks == 10 and d.n_informative == 10
    assert d.mean_delta == pytest.approx(2 / 3)
    assert d.to_dict()["per_task"]["t0"]["delta"] == pytest.approx(2 / 3)


def test_clear_loss_is_rejected() -> None:
    d = decide(uniform(10, [1, 1, 0]), uniform(10, [0, 1, 0]), ONE_LOOK)
    assert d.outcome == "reject"
    assert d.p_value_harm <= 0.05


def test_pure_noise_is_not_accepted_before_the_last_look() -> None:
    base = {f"t{i}": [1, 0, 1] if i % 2 else [0, 1, 0] for i in range(10)}
    cand = {f"t{i}": [0, 1, 0] if i % 2 else [1, 0, 1] for i in range(10)}
    d = decide(base, cand, GatePolicy(look=1, max_looks=3))
    assert d.outcome == "inconclusive"
    assert "retest" in d.reason
    last = decide(base, cand, GatePolicy(look=3, max_looks=3))
    assert last.outcome == "reject" and "never arrived" in last.reason


def test_one_task_regressing_under_overall_gain_is_rejected_by_name() -> None:
    base = uniform(10, [0, 0, 0, 0, 0, 1])
    cand = uniform(10, [1, 1, 1, 1, 1, 1])
    base["deploy-docs"] = [1, 1, 1, 1, 1, 1]
    cand["deploy-docs"] = [0, 0, 0, 0, 0, 0]
    d = decide(base, cand, ONE_LOOK)
    assert d.p_value <= 0.05  # the overall lift alone would pass
    assert d.outcome == "reject"
    assert "deploy-docs" in d.reason
    assert d.per_task["deploy-docs"].regressed
    without_rule = decide(base, cand, GatePolicy(max_looks=1, no_regression=False))
    assert without_rule.outcome == "accept"


def test_a_large_unconfirmed_drop_asks_for_a_retest_and_retests_clear_it() -> None:
    base = uniform(10, [0, 0, 1])
    cand = uniform(10, [1, 1, 1])
    base["noisy"] = [1, 0, 1]
    cand["noisy"] = [0, 0, 1]  # -1/3: large, but 3 rollouts cannot tell it from noise
    d = decide(base, cand, ONE_LOOK)
    assert not d.per_task["noisy"].regressed and d.per_task["noisy"].suspect
    assert d.outcome == "inconclusive" and d.retest_tasks == ("noisy",)
    cleared = decide(
        base,
        cand,
        ONE_LOOK,
        retests=RetestScores({"noisy": [1, 0, 0]}, {"noisy": [1, 1, 0]}),
    )
    assert cleared.outcome == "accept" and cleared.retest_rollouts == 6
    assert cleared.per_task["noisy"].n_baseline == 6


def test_missing_rollouts_are_missing_not_zero() -> None:
    base = uniform(10, [0, 0, 1, 1])
    cand = uniform(10, [1, 1, None, None])
    d = decide(base, cand, ONE_LOOK)
    assert d.missing_fraction == pytest.approx(0.25)
    assert d.outcome == "inconclusive"  # never reject because infrastructure failed
    assert "failed" in d.reason
    few = uniform(10, [1, 1, 1, None])
    ok = decide(base, few, ONE_LOOK)  # 12.5 % missing: decided on the rest
    assert ok.missing_fraction == pytest.approx(0.125)
    assert ok.per_task["t0"].delta == pytest.approx(0.5)


def test_too_few_informative_tasks_is_inconclusive() -> None:
    d = decide(uniform(4, [0, 0, 0]), uniform(4, [1, 1, 1]), GatePolicy())
    assert d.outcome == "inconclusive" and d.n_informative == 4


def test_bad_scores_raise_one_line_with_a_count() -> None:
    with pytest.raises(GateInputError, match=r"^2 candidate score\(s\)"):
        decide(uniform(6, [0, 1]), {"t0": [1.5, -1], "t1": [1]}, ONE_LOOK)


def test_holm_across_candidates_is_sharper_than_bonferroni() -> None:
    middle = {f"m{i}": [0, 1, 0] for i in range(11)}
    base = uniform(10, [0, 0, 0]) | middle
    strong = uniform(10, [1, 1, 1]) | middle
    medium = base | {f"m{i}": [1, 1, 0] for i in range(10)}
    noop = base
    cands = {"strong": strong, "medium": medium, "noop": noop}
    out = decide_many(base, cands, ONE_LOOK)
    assert out["strong"].outcome == "accept"
    assert out["noop"].outcome != "accept"
    alphas = sorted(d.alpha_used for d in out.values())
    assert alphas == pytest.approx([0.05 / 3, 0.05 / 2, 0.05])
    bonf = decide(base, medium, GatePolicy(max_looks=1, n_candidates=3))
    assert bonf.alpha_used == pytest.approx(0.05 / 3)
    # medium has p between alpha/3 and alpha/2: Holm accepts it, Bonferroni does not.
    assert 0.05 / 3 < out["medium"].p_value <= 0.05 / 2
    assert out["medium"].outcome == "accept" and bonf.outcome != "accept"


def test_look_schedule_spends_alpha_across_nights() -> None:
    equal = [look_alpha(GatePolicy(look=k, max_looks=3)) for k in (1, 2, 3)]
    assert equal == pytest.approx([0.05 / 3] * 3)
    obf = [look_alpha(GatePolicy(look=k, look_spending="obrien-fleming")) for k in (1, 2, 3)]
    assert sum(obf) == pytest.approx(0.05)
    assert obf[0] < obf[1] < obf[2]
    with pytest.raises(GateInputError):
        look_alpha(GatePolicy(look=4, max_looks=3))


def test_auto_adopt_needs_the_stricter_level() -> None:
    base, cand = uniform(10, [0, 0, 1]), uniform(10, [1, 1, 1])
    strong = decide(base, cand, ONE_LOOK)
    assert strong.outcome == "accept" and strong.auto_adopt_ok == (strong.p_value <= 0.01)
    base7 = {f"t{i}": [0, 1, 0] for i in range(8)}
    cand7 = {f"t{i}": [1, 1, 0] for i in range(8)}
    weak = decide(base7, cand7, ONE_LOOK)
    assert weak.outcome == "accept" and weak.p_value > 0.01 and not weak.auto_adopt_ok


def test_sign_test_alternative_is_exact_binomial() -> None:
    d = decide(uniform(8, [0, 0]), uniform(8, [1, 1]), GatePolicy(max_looks=1, test="sign"))
    assert d.p_value == pytest.approx(1 / 2**8)
    assert d.outcome == "accept"


def test_false_accept_rate_and_lift_report() -> None:
    base, cand = uniform(10, [0, 0, 1]), uniform(10, [1, 1, 1])
    decisions = [decide(base, cand, ONE_LOOK), decide(base, base, ONE_LOOK)]
    assert false_accept_rate(decisions) == 0.5
    report = report_lift({"a": [0, 1], "b": [None]}, {"a": [1, 1], "b": [1]})
    assert report.n_tasks == 1 and report.delta == pytest.approx(0.5)
    assert report.to_dict()["per_task"] == {"a": 0.5}
