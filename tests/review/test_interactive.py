"""`sleepd review` driven through a pseudo-terminal, checking the database after each key."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy.engine import Engine

from sleepd.store.engine import read_session
from sleepd.store.models import Proposal

from .conftest import DRIVER, SKILL_V1, StageFn

PROMPT = "Accept this edit [y,n,s,e,v,q,?]? "
EDITOR = Path(__file__).with_name("fake_editor.py")


class Terminal:
    """A child process on a pty; `expect` reads until text appears."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, str(DRIVER), *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.seen = ""
        self.pos = 0

    def expect(self, text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.seen[self.pos :]:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"timed out waiting for {text!r}; got:\n{self.seen[self.pos :]}"
            ready, _, _ = select.select([self.master], [], [], remaining)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    chunk = b""
                assert chunk, f"child exited before {text!r}; got:\n{self.seen[self.pos :]}"
                self.seen += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
        end = self.seen.index(text, self.pos) + len(text)
        block, self.pos = self.seen[self.pos : end], end
        return block

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def finish(self, timeout: float = 30) -> int:
        code = self.proc.wait(timeout)
        os.close(self.master)
        return code


def _status(engine: Engine, proposal_id: int) -> tuple[str, str | None, bool]:
    with read_session(engine) as db:
        p = db.get(Proposal, proposal_id)
        assert p is not None
        return p.status, p.decision_reason, p.edited_by_reviewer


def test_review_session_accept_reject_skip_edit_evidence_quit(
    engine: Engine, stage: StageFn, project: Path, skill_path: Path, tmp_path: Path
) -> None:
    agents, claude = project / "AGENTS.md", project / "CLAUDE.md"
    agents.write_text("# Agents\n\nBe brief.\n")
    claude.write_text("# Claude\n\nUse uv.\n")
    review_skill = project / ".claude" / "skills" / "review" / "SKILL.md"
    review_skill.parent.mkdir(parents=True)
    review_skill.write_text(SKILL_V1.replace("name: deploy", "name: review"))
    accepted = stage(skill_path, SKILL_V1 + "\nTag the release.\n", simulated=True)
    rejected = stage(agents, "# Agents\n\nBe brief. Be kind.\n", kind="agents")
    skipped = stage(claude, "# Claude\n\nUse uv, never pip.\n", kind="claude")
    edited = stage(review_skill, review_skill.read_text() + "\nCheck twice.\n")
    left = stage(claude, "# Claude\n\nUse uv sync.\n", kind="claude")
    env = {
        **os.environ,
        "TERM": "dumb",
        "NO_COLOR": "1",
        "COLUMNS": "120",
        "EDITOR": f"{sys.executable} {EDITOR}",
        "FAKE_EDITOR_STATE": str(tmp_path / "editor-calls"),
    }
    env.pop("VISUAL", None)
    term = Terminal(["review"], env)

    header = term.expect(PROMPT)
    assert "SIMULATED" in header and "+Tag the release." in header and "0.004" in header
    term.send("?")
    assert "e - edit the proposed document" in term.expect(PROMPT)
    term.send("y")
    assert "Adopted proposal" in term.expect(PROMPT)
    assert _status(engine, accepted.proposal_id)[0] == "accepted"
    assert skill_path.read_text().endswith("Tag the release.\n")

    term.send("n")
    term.expect("Reason (optional, Enter to skip): ")
    term.send("not our style")
    term.expect(PROMPT)
    assert _status(engine, rejected.proposal_id)[:2] == ("rejected", "not our style")
    assert agents.read_text() == "# Agents\n\nBe brief.\n"

    term.send("s")
    term.expect(PROMPT)
    assert _status(engine, skipped.proposal_id)[0] == "pending"

    term.send("e")  # the first edit breaks the frontmatter: refused, back to the prompt
    assert "Edit not adopted" in term.expect(PROMPT)
    assert _status(engine, edited.proposal_id)[0] == "pending"
    term.send("e")
    term.expect(PROMPT)
    assert _status(engine, edited.proposal_id) == ("accepted", None, True)
    assert review_skill.read_text().endswith("Check twice, reviewed by a person.\n")

    term.send("v")
    assert "No per-task scores" in term.expect(PROMPT)
    term.send("q")
    assert "accepted 2, rejected 1, skipped 1" in term.expect("skipped 1")
    assert term.finish() == 0
    assert _status(engine, left.proposal_id)[0] == "pending"
    assert _status(engine, skipped.proposal_id)[0] == "pending"


def test_review_shows_a_merge_and_writes_only_on_yes(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    staged = stage(skill_path, SKILL_V1.replace("Run the tests first.", "Run `make test`."))
    hand = SKILL_V1.replace("Never push on Fridays.", "Never push on Fridays or holidays.")
    skill_path.write_text(hand)
    term = Terminal(["review"], {**os.environ, "TERM": "dumb", "NO_COLOR": "1"})
    term.expect(PROMPT)
    term.send("y")
    merge = term.expect("Write the merged document [y,n]? ")
    assert "+Run `make test`." in merge
    term.send("n")
    term.expect("skipped 1")
    assert term.finish() == 0
    assert skill_path.read_text() == hand
    assert _status(engine, staged.proposal_id)[0] == "pending"
    term = Terminal(["review"], {**os.environ, "TERM": "dumb", "NO_COLOR": "1"})
    term.expect(PROMPT)
    term.send("y")
    term.expect("Write the merged document [y,n]? ")
    term.send("y")
    assert "(merged)" in term.expect("accepted 1")
    assert term.finish() == 0
    assert "Run `make test`." in skill_path.read_text() and "holidays" in skill_path.read_text()


def test_review_at_80_columns_keeps_every_diff_line_whole(
    engine: Engine, stage: StageFn, skill_path: Path
) -> None:
    """On an 80-column terminal no diff line is cut or wrapped by sleepd (the terminal may
    fold it on screen, but the line is written whole), and nothing prints a repr."""
    import fcntl
    import struct
    import termios

    long_line = (
        "description: Lessons sleepd learned from replaying this project's recurring tasks, "
        "with the exact command lines people kept asking for."
    )
    new = SKILL_V1.replace("description: How to deploy this project.", long_line)
    new += "\nUse `make deploy ENV=staging REGION=eu-west-1 CONFIRM=yes` for staging, never prod.\n"
    staged = stage(skill_path, new)
    env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"}
    term = Terminal(["review"], env)
    fcntl.ioctl(term.master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    screen = term.expect(PROMPT)
    plain = _strip_ansi(screen)
    for line in (f"+{long_line}", "-description: How to deploy this project."):
        assert line in plain.splitlines(), f"diff line cut or wrapped: {line}"
    assert "{'" not in plain and "[{'" not in plain
    assert "Proposal #" in plain and "validation lift" in plain
    term.send("q")
    term.expect("skipped 0")
    assert term.finish() == 0
    assert _status(engine, staged.proposal_id)[0] == "pending"


def _strip_ansi(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07", "", text)
