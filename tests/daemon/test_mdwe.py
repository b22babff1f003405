"""Why the unit leaves out MemoryDenyWriteExecute: sleepd's own CPython runs under it, the
`claude` CLI (Node.js) does not. Checked with the kernel's PR_SET_MDWE (Linux 6.3+), the
same refusal systemd's setting applies, inherited by children as the unit's would be."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sleepd.paths import package_data_dir

PR_SET_MDWE = 65
PR_MDWE_REFUSE_EXEC_GAIN = 1
LAUNCHER = (
    "import ctypes, os, sys\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    f"if libc.prctl({PR_SET_MDWE}, {PR_MDWE_REFUSE_EXEC_GAIN}, 0, 0, 0) != 0:\n"
    "    sys.exit(77)\n"
    "os.execv(sys.argv[1], sys.argv[1:])\n"
)


def _mdwe_supported() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    done = subprocess.run([sys.executable, "-c", LAUNCHER, "/bin/true"], check=False)
    return done.returncode == 0


pytestmark = pytest.mark.skipif(not _mdwe_supported(), reason="kernel without PR_SET_MDWE")


def _under_mdwe(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", LAUNCHER, *argv],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=os.environ.copy(),
    )


def test_sleepd_harvest_and_mine_run_under_mdwe(isolated_home: Path) -> None:
    shutil.copytree(package_data_dir() / "samples" / "claude", isolated_home / "claude")
    for command in ("harvest", "mine"):
        done = _under_mdwe(sys.executable, "-m", "sleepd", command)
        assert done.returncode == 0, done.stderr
    callback = _under_mdwe(
        sys.executable, "-c", "import ctypes; print(ctypes.CFUNCTYPE(ctypes.c_int)(lambda: 7)())"
    )
    assert callback.stdout.strip() == "7"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_node_jit_dies_under_mdwe() -> None:
    node = shutil.which("node")
    assert node is not None
    done = _under_mdwe(node, "-e", "let s=0; for (let i=0;i<1e7;i++) s+=i; console.log(s)")
    assert done.returncode != 0
