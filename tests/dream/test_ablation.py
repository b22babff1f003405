"""Every edit earns its place: a compound edit with a harmful tail is cut or rejected.

The simulated world (a test double) has families whose hidden requirement helps their
tasks and whose conflicting rule hurts them. A candidate that states one family's
requirement and, in the same edit, another family's harmful rule passes a whole-candidate
gate on some nights; leave-one-out ablation must cut the harmful clause.
"""

from __future__ import annotations

import threading

import pytest

from sleepd.backends.sim import SimBackend, SimWorld
from sleepd.documents.edits import Edit, EditBudget, apply_edits
from sleepd.documents.targets import TargetSpec, initial_content
from sleepd.dream.ablation import clauses, regate_pruned, remaining, run_ablation, units_of
from sleepd.dream.executor import CallExecutor
from sleepd.dream.gate import GatePolicy
from sleepd.dream.reflect import CandidateEdit, fingerprint
from sleepd.dream.replay import Replayer, ReplayTask

SPEC = TargetSpec(__import__("pathlib").Path("p/.claude/skills/x/SKILL.md"), "skill", "body")
POLICY = GatePolicy(max_looks=1)


def setup(seed: int) -> tuple[SimWorld, Replayer, list[ReplayTask], str, CandidateEdit]:
    world = SimWorld(seed, n_families=2, lift=0.4, penalty=0.5, base_rate=0.45)
    backend = SimBackend(world)
    stop = threading.Event()
    replayer = Replayer(
        CallExecutor(backend, None, stop, concurrency=1),
        CallExecutor(backend, None, stop, concurrency=1),
    )
    val = [ReplayTask(f"v{i}", t.intent, "val") for i, t in enumerate(world.make_tasks(12, 2))]
    helped, harmed = world.families
    document = initial_content(SPEC)
    edits = [
        Edit("append", "", f"- {helped.requirement} {harmed.harmful_rule}"),
    ]
    content = apply_edits(document, edits, editable="body", budget=EditBudget()).content
    candidate = CandidateEdit("c1", content, edits, "compound", fingerprint(edits))
    return world, replayer, val, document, candidate


@pytest.mark.parametrize("seed", range(5))
def test_the_harmful_tail_of_a_compound_edit_is_cut(seed: int) -> None:
    world, replayer, val, document, candidate = setup(seed)
    helped, harmed = world.families
    result = run_ablation(
        replayer,
        val,
        document,
        candidate,
        "body",
        POLICY,
        rollouts_per_task=3,
        index_offset=500,
        stop=threading.Event(),
    )
    verdicts = {u.text: u.verdict for u in result.units}
    assert verdicts == {f"- {helped.requirement}": "kept", harmed.harmful_rule: "cut"}
    cut = next(u for u in result.units if u.verdict == "cut")
    assert cut.contribution is not None and cut.contribution < 0
    assert cut.rollouts == 36
    assert result.pruned is not None
    assert helped.states_requirement(result.pruned.content)
    assert not harmed.states_harm(result.pruned.content)
    decision, used = regate_pruned(
        replayer, val, document, result.pruned, POLICY, rollouts_per_task=3, index_offset=600
    )
    assert used >= 72 and decision.outcome in ("accept", "inconclusive", "reject")


def test_a_candidate_of_one_unit_is_not_ablated() -> None:
    _world, replayer, val, document, candidate = setup(0)
    single = [Edit("append", "", "- Keep answers short.")]
    one = CandidateEdit("c2", candidate.content, single, "", fingerprint(single))
    result = run_ablation(
        replayer, val, document, one, "body", POLICY,
        rollouts_per_task=3, index_offset=500, stop=threading.Event(),
    )  # fmt: skip
    assert result.units == [] and result.rollouts == 0 and result.pruned is None


def test_units_are_clauses_and_whole_edits() -> None:
    text = "- Create a feature branch first. Leave formatting to the reviewer."
    assert clauses(text) == [
        "- Create a feature branch first.",
        "Leave formatting to the reviewer.",
    ]
    edits = [Edit("add", "# x", text), Edit("delete", "old line"), Edit("append", "", "- One.")]
    units = units_of(edits)
    assert [(u.edit, u.clause) for u in units] == [(0, 0), (0, 1), (1, None), (2, None)]
    kept = remaining(edits, [units[1], units[2]])
    assert kept == [Edit("add", "# x", "- Create a feature branch first."), edits[2]]
    assert remaining(edits, units[:2]) == edits[1:]
