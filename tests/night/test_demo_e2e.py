"""`sleepd demo`: a whole simulated night on the bundled samples ends with a staged proposal."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from contextlib import closing
from typing import Any


def test_demo_stages_a_simulated_proposal_and_shows_it(demo_run: Callable[[int], Any]) -> None:
    # At 200 columns each diff line stays on one line of output. The run is shared with
    # the views tested in tests/cli/test_render.py; `demo.database` is as the demo left it.
    demo = demo_run(200)
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
