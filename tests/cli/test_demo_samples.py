"""The bundled demo samples are exactly what their generator writes.

`sleepd/samples/` is committed so the demo needs no generation step; this keeps the
generator (`python -m sleepd.demo.samples`) the one truth behind those files.
"""

from __future__ import annotations

from pathlib import Path

import sleepd
from sleepd.demo.samples import write_samples

BUNDLED = Path(sleepd.__file__).parent / "samples"


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_generator_rewrites_the_bundled_samples_byte_for_byte(tmp_path: Path) -> None:
    written = write_samples(tmp_path)
    assert len(written) >= 2
    assert tree(tmp_path) == tree(BUNDLED)
