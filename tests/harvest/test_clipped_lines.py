"""Lines too long to store whole are counted, and the report says where they were."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from e2e_support import claude_prompt, write_lines

from sleepd.cli.harvest_run import print_report
from sleepd.harvest import harvest

SID = "5e1d0c1e-0000-4000-8000-00000000c11b"


def test_the_report_names_the_file_of_a_line_stored_clipped(
    isolated_home: Path, cfg: Any, store: Any, capsys: Any
) -> None:
    """Wild sample 4: `"truncated_lines": 1` and nothing to say which file (a 1.09 MB
    line); a person checking what was clipped had nowhere to look."""
    claude = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects" / "-work-demo"
    big = write_lines(
        claude / f"{SID}.jsonl",
        [
            claude_prompt(SID, "aaaaaaaa-0000-4000-8000-000000000001", "x" * 1_200_000),
            claude_prompt(SID, "aaaaaaaa-0000-4000-8000-000000000002", "a short one"),
        ],
    )
    report = harvest(store, cfg).to_dict()
    assert report["truncated_lines"] == 1 and report["events_new"] >= 2
    assert report["per_source"]["claude"]["truncated_files"] == [f"{big} (1 line)"]
    print_report(report, json_out=False)
    out = capsys.readouterr().out
    assert "lines stored clipped" in " ".join(out.split())
    assert big.name in re.sub(r"[\s│]", "", out)  # the panel wraps the path
