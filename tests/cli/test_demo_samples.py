"""The bundled demo samples are exactly what their generator writes.

`sleepd/samples/` is committed so the demo needs no generation step; this keeps the
generator (`python -m sleepd.demo.samples`) the one truth behind those files.
"""

from __future__ import annotations

from pathlib import Path

import sleepd
from sleepd.demo.samples import API_TOPICS, WEB_TOPICS, write_samples
from sleepd.mining.errors import is_benign_exit
from sleepd.mining.signatures import signature_of

BUNDLED = Path(sleepd.__file__).parent / "samples"


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_generator_rewrites_the_bundled_samples_byte_for_byte(tmp_path: Path) -> None:
    written = write_samples(tmp_path)
    assert len(written) >= 2
    assert tree(tmp_path) == tree(BUNDLED)


def test_the_failures_the_samples_show_are_failures_by_sleepds_own_rules() -> None:
    """A sample's failing command is one the miner counts as a failure: no "no match"
    answer of grep, no exit 0 flagged as an error, a signature that says what failed (the
    demo's pattern list once opened with `grep: printed nothing`)."""
    for topic in (*API_TOPICS, *WEB_TOPICS):
        if topic.exit_code == 0:
            continue
        assert not is_benign_exit(topic.command, topic.exit_code, topic.failure), topic.command
        signature = signature_of(f"Exit code {topic.exit_code}\n{topic.failure}", "Bash")
        assert not signature.text.endswith("printed nothing"), topic.command
