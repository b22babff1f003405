"""Every command's human output at 80 and 200 columns: no Python data-structure repr,
no cut diff line, no header cut short, no traceback.

One simulated demo home (`sleepd demo --home` in its own process at 80 columns, the
simulator: no network) gives every command something to show; the demo's own story is
checked as printed at 80 columns, the narrower and so the stricter width for cut lines
and headers (a repr or a traceback shows at any width). Each command then runs at each
width through the CLI's own entry point (`run`, what the `sleepd` script calls: the same
error handling, exit status and one-line failures) with COLUMNS set, in this process: a
fresh interpreter per command would only add its start-up, which
tests/cli/test_startup.py covers. New commands and new output must pass this too.

The end-to-end check of the demo itself (a staged proposal, nothing touched outside its
home) lives here too, so that xdist's per-file scheduling runs the demo once.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from cli_here import Ran, sleepd_here

pytestmark = pytest.mark.slow  # one `sleepd demo` run: a few whole simulated nights

WIDTHS = (80, 200)
#: The width `sleepd demo` itself runs at.
DEMO_WIDTH = 80
#: What a Python repr of a dict or list of strings/dicts looks like on screen.
REPR_MARKS = ("{'", "[{'", "['", "': ", "',)")

#: argv after `sleepd`, and the exit statuses that are a success for it here.
COMMANDS: tuple[tuple[str, ...], ...] = (
    ("status",),
    ("search", "pytest"),
    ("search", "最新"),
    ("patterns",),
    ("tasks", "list", "--limit", "30"),
    ("tasks", "show", "1"),
    ("nights",),
    ("review", "list"),
    ("review", "show", "1", "--no-pager"),
    ("history",),
    ("rules",),
    ("verify",),
    ("config", "show"),
    ("db", "current"),
    ("backends",),
    ("explain", "alpha"),
    ("help", "gate"),
    ("mine",),
    ("harvest",),
    ("run", "--dry-run", "--backend", "sim"),
    ("run", "--backend", "sim"),
)


def _env(home: Path, width: int) -> dict[str, str | None]:
    return {
        "SLEEPD_HOME": str(home / "state"),
        "SLEEPD_CONFIG": str(home / "config.toml"),
        "CLAUDE_CONFIG_DIR": str(home / "claude"),
        "CODEX_HOME": str(home / "codex"),
        "COLUMNS": str(width),
        "LINES": "50",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "SLEEPD_DATABASE_URL": None,
    }


def sleepd(home: Path, width: int, *args: str) -> Ran:
    """`sleepd ARGS` with the home's environment, through the console script's entry point."""
    return sleepd_here(*args, env=_env(home, width))


@pytest.fixture(scope="module")
def demo_home(demo_run: Callable[[int], Any]) -> Any:
    """The demo's run (a `DemoRun`), with a proposal staged in its home if it staged none."""
    shared = demo_run(DEMO_WIDTH)
    staged = shared.proc.returncode == 0
    assert staged or shared.proc.returncode == 1, shared.proc.stderr[-2000:]  # 1: none staged
    if not staged:
        _stage_a_proposal(shared.home)  # the views are under test here, not the simulated gate
    return shared


@pytest.fixture(scope="module", params=WIDTHS, ids=[f"{w}cols" for w in WIDTHS])
def demo(request: pytest.FixtureRequest, demo_home: Any) -> tuple:
    """(home, width, the demo's process): the demo's home seen at each width."""
    return demo_home.home, int(request.param), demo_home.proc


def _stage_a_proposal(home: Path) -> None:
    """A proposal as a night stages it, traced to the demo's failing train replays."""
    from sleepd.documents.versions import content_hash
    from sleepd.review.textfile import document_diff
    from sleepd.store.engine import make_engine, write_session
    from sleepd.store.models import DocumentVersion, Proposal, Rollout, TargetDocument

    skill = home / "projects" / "acme-api" / ".claude" / "skills" / "sleepd-learned" / "SKILL.md"
    new = (
        "---\nname: sleepd-learned\ndescription: Lessons sleepd learned from replaying this "
        "project's recurring tasks. Use when working in this project.\n---\n# Learned lessons\n"
        "- Never commit directly to `main`; create a feature branch first, then open a pull "
        "request and wait for the checks.\n"
    )
    engine = make_engine(f"sqlite:///{home / 'state' / 'sleepd.db'}")
    try:
        with write_session(engine) as db:
            failing = db.query(Rollout).filter(Rollout.split == "train").limit(20).all()
            document = db.query(TargetDocument).filter_by(path=str(skill)).one_or_none()
            if document is None:
                document = TargetDocument(
                    project_path=str(skill.parents[3]), path=str(skill), kind="skill"
                )
                db.add(document)
                db.flush()
            version = DocumentVersion(
                document_id=document.id,
                content_hash=content_hash(""),
                content="",
                origin="observed",
            )
            db.add(version)
            db.flush()
            db.add(
                Proposal(
                    night_id=failing[0].night_id if failing else None,
                    document_id=document.id,
                    base_version_id=version.id,
                    base_hash=version.content_hash,
                    new_content=new,
                    new_hash=content_hash(new),
                    diff=document_diff("", new, str(skill)),
                    p_value=0.0003,
                    val_lift=0.25,
                    test_lift=0.2,
                    cost_usd=0.0,
                    simulated=True,
                    gate={"outcome": "accept", "alpha_used": 0.0032, "n_informative": 20},
                    provenance={
                        "tasks": sorted({r.task_id for r in failing}),
                        "trajectories": [r.id for r in failing],
                        "edits": [{"op": "add", "anchor": "# Learned lessons", "text": new}],
                        "rationale": "[simulated] git-workflow failures",
                    },
                )
            )
    finally:
        engine.dispose()


_DIFFS: dict[tuple[Path, int], list[str]] = {}


def diff_lines(home: Path, width: int, proposal_id: int) -> list[str]:
    """The lines of a proposal's diff, as stored (read once per home and proposal)."""
    if (home, proposal_id) not in _DIFFS:
        shown = sleepd(home, width, "review", "show", str(proposal_id), "--json")
        assert shown.returncode == 0, shown.stderr
        diff = json.loads(shown.stdout)["diff"]
        _DIFFS[home, proposal_id] = [line for line in diff.splitlines() if line.strip()]
    return _DIFFS[home, proposal_id]


def check_output(text: str, width: int, home: Path) -> None:
    for mark in REPR_MARKS:
        assert mark not in text, f"a Python repr ({mark}) on screen:\n{text}"
    assert not re.search(r"Traceback \(most recent call last\):\n\s+File ", text)
    lines = text.splitlines()
    diff: list[str] = []
    for proposal_id in sorted({int(n) for n in re.findall(r"Proposal #(\d+)", text)}):
        diff += diff_lines(home, width, proposal_id)
    for line in diff:  # every line of each diff shown is there, whole
        assert line in lines, f"diff line cut or wrapped: {line!r}"
    for line in lines:
        if "┃" in line:  # a table's header row: never cut short with an ellipsis
            assert "…" not in line, f"a header cut short: {line}"
        if line not in diff and "SLEEPD_HOME=" not in line:  # a command to copy stays whole
            assert len(line) <= width, f"wider than {width} columns: {line!r}"


def test_the_demo_tells_the_story(demo_home: Any) -> None:
    home, width, proc = demo_home.home, demo_home.width, demo_home.proc
    text = proc.stdout + proc.stderr
    check_output(text, width, home)
    assert "SIMULATED" in text
    if proc.returncode == 0:  # the simulated gate staged a proposal: the story is told
        assert "Proposal #1" in text
        for words in ("Recurring tasks", "Failure patterns", "the decision"):
            assert words in text
    else:
        assert "No proposal was staged tonight." in text
    assert "Not enough mined tasks yet" in text  # the second sample project is short
    assert f"demo home: {home}" in text


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_command_renders_for_people(demo: tuple, args: tuple[str, ...]) -> None:
    home, width, _ = demo
    proc = sleepd(home, width, *args)
    assert proc.returncode == 0, proc.stderr[-2000:]
    check_output(proc.stdout + proc.stderr, width, home)


def test_dry_run_nights_are_marked(demo: tuple) -> None:
    home, width, _ = demo
    run = sleepd(home, width, "run", "--dry-run", "--backend", "sim")
    assert "DRY RUN" in run.stdout
    assert "plan: train replays" in run.stdout or "not enough" in run.stdout.lower()
    nights = sleepd(home, width, "nights")
    assert "DRY RUN" in nights.stdout and "SIMULATED" in nights.stdout


def test_readiness_is_given_in_numbers(demo: tuple) -> None:
    home, width, _ = demo
    text = " ".join(sleepd(home, width, "status").stdout.split())
    text = re.sub(r"[│┃]", " ", text)
    assert re.search(r"not ready: \d+ mined tasks", " ".join(text.split()))
    # what is missing, against what a night needs
    assert re.search(r"of the \d+ tasks a night needs", " ".join(text.split()))


def test_patterns_read_whole_at_80_columns(demo: tuple) -> None:
    """At 80 columns six columns left each pattern a few words wide (wild sample 4): each
    pattern is a line of its figures, then its message on lines of its own."""
    home, width, _ = demo
    out = sleepd(home, width, "patterns", "--all").stdout
    if width < 110:
        heads = [ln for ln in out.splitlines() if re.match(r"^\d+ times · ", ln)]
        assert heads and all("in the last 7 days" in ln for ln in heads)
        assert not re.search(r"times\s+last 7 days", out)  # no table header
    else:
        assert re.search(r"times\s+last 7 days\s+7 days before\s+trend\s+tool", out)


def test_patterns_say_when_the_list_goes_on(demo: tuple) -> None:
    """Wild sample 6: 20 patterns under "an error seen at least twice" while status
    counted 41, and nothing said the list had been cut."""
    home, width, _ = demo
    everything = sleepd(home, width, "patterns", "--all", "--json").stdout
    assert len(json.loads(everything)) >= 2  # the simulated night leaves several
    cut = " ".join(sleepd(home, width, "patterns", "--all", "--limit", "1").stdout.split())
    assert "These are the 1 most frequent; `--limit N` shows more." in cut
    whole = " ".join(sleepd(home, width, "patterns", "--all", "--limit", "1000").stdout.split())
    assert "shows more" not in whole


def test_review_show_tells_the_story(demo: tuple) -> None:
    home, width, _ = demo
    shown = sleepd(home, width, "review", "show", "1", "--no-pager")
    text = " ".join(shown.stdout.split())
    for words in ("Recurring tasks", "Failure patterns", "the edit", "the decision", "p-value"):
        assert words in text
    # per-task scores when the night stored its rollouts; said so plainly when not
    assert "Score per task" in text or "No per-task scores are stored" in text


def test_demo_stages_a_simulated_proposal_and_shows_it(demo_run: Callable[[int], Any]) -> None:
    # Each diff line stays whole on the demo's screen (check_output in the story test);
    # `demo.database` is the database as the demo left it, before the views ran commands.
    demo = demo_run(DEMO_WIDTH)
    home, done = demo.home, demo.proc
    out = done.stdout
    assert "Traceback" not in done.stderr

    assert (home / "state" / "sleepd.db").exists(), "the demo must keep its state inside --home"
    assert not demo.outside.exists(), "the demo touched the homes outside --home"
    with closing(sqlite3.connect(demo.database)) as db:
        rows = db.execute(
            "SELECT id, status, diff, p_value, val_lift, test_lift, simulated FROM proposals"
        ).fetchall()
        # The tools-mode night (ledger: real git, real tests, simulated agents) stages too;
        # its sessions succeeded only after a correction, which replay fidelity must count
        # as an unassisted failure.
        tools_staged = db.execute(
            "SELECT count(*) FROM proposals p JOIN target_documents d ON d.id = p.document_id "
            "WHERE d.project_path LIKE '%ledger'"
        ).fetchone()
        decisions = db.execute("SELECT outcome, reason FROM gate_decisions").fetchall()
    assert rows, f"the demo staged no proposal; gate decisions: {decisions}"
    assert done.returncode == 0, done.stderr
    assert tools_staged == (1,), "the tools-mode night staged no proposal"
    _pid, status, diff, p_value, val_lift, test_lift, simulated = rows[0]
    assert status == "pending" and simulated == 1
    assert diff.startswith("---") and "\n+" in diff
    assert p_value is not None and 0 <= p_value <= 0.05
    assert val_lift is not None and val_lift > 0
    assert test_lift is not None

    added = [
        line[1:].strip()
        for line in diff.splitlines()
        if line.startswith("+") and not line.startswith("+++") and line[1:].strip()
    ]
    assert added and all(text in out for text in added), "the diff is shown"
    assert re.search(r"p-value +[0-9.e-]+", out) and "validation lift" in out
    assert "SIMULATED" in out
    assert "sleepd review" in out and str(home / "state") in out
