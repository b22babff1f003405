"""Run an agent CLI isolated: empty replay directory, own process group, hard timeout.

The working directory carries `REPLAY_DIR_PREFIX`, so even if the CLI writes a
transcript the harvester skips it. The timeout kills the whole process group
(SIGTERM, then SIGKILL) so no tool subprocess outlives the call.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sleepd.backends.base import FailureKind
from sleepd.paths import REPLAY_DIR_PREFIX, private_mkdtemp

TERM_GRACE_S = 2.0


@dataclass(frozen=True, slots=True)
class ProcResult:
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    latency_s: float
    cwd: str


def run_isolated(
    argv: Sequence[str],
    *,
    stdin_text: str | None,
    timeout_s: float,
    env: Mapping[str, str] | None = None,
) -> ProcResult:
    """Run `argv` in a fresh empty temp dir; `stdin_text=None` closes stdin (DEVNULL).

    The dir is private (inside SLEEPD_HOME, 0700): whatever the CLI leaves there is
    removed after the call, or at the next start if this process is killed.
    """
    workdir = str(private_mkdtemp(REPLAY_DIR_PREFIX))
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(argv),
            cwd=workdir,
            stdin=subprocess.DEVNULL if stdin_text is None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            start_new_session=True,
            env=dict(env) if env is not None else None,
        )
        timed_out = False
        try:
            stdout, stderr = proc.communicate(stdin_text, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            stdout, stderr = _kill_group(proc)
        finally:
            _signal_group(proc.pid, signal.SIGKILL)  # stragglers left in the group
        return ProcResult(
            returncode=None if timed_out else proc.returncode,
            stdout=stdout or "",
            stderr=stderr or "",
            timed_out=timed_out,
            latency_s=time.monotonic() - started,
            cwd=workdir,
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _kill_group(proc: subprocess.Popen[str]) -> tuple[str, str]:
    _signal_group(proc.pid, signal.SIGTERM)
    try:
        return proc.communicate(timeout=TERM_GRACE_S)
    except subprocess.TimeoutExpired:
        _signal_group(proc.pid, signal.SIGKILL)
        return proc.communicate()


def classify_cli_text(text: str) -> FailureKind:
    """Best-effort reading of a CLI's error text."""
    lowered = text.lower()
    if any(s in lowered for s in ("rate limit", "rate_limit", "429", "usage limit", "overloaded")):
        return FailureKind.RATE_LIMIT
    if any(
        s in lowered
        for s in ("not logged in", "/login", "invalid api key", "unauthorized", "401", "auth")
    ):
        return FailureKind.AUTH
    if "refus" in lowered:
        return FailureKind.REFUSAL
    return FailureKind.SERVER_ERROR


def schema_instruction(schema: Mapping[str, object] | None) -> str:
    """CLIs have no structured-output switch we rely on: ask for JSON in words."""
    if schema is None:
        return ""
    import orjson

    return (
        "\n\nRespond with only one JSON object, no prose and no code fence, matching this"
        f" JSON schema:\n{orjson.dumps(schema).decode()}"
    )
