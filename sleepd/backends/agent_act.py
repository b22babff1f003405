"""An agent CLI acting with tools in a directory: the request, the result, the process.

A tools-mode replay runs `claude -p` or `codex exec` inside a scratch checkout (never
the user's tree), at a lowered priority, in its own process group, under a wall-time
cap that kills the whole group, with no session persistence. CPU time is read from
the process's own rusage (`wait4`), so concurrent rollouts do not blur each other's
figures.

Network: an agent needs the network to reach its own model API, so the agent process is
never cut off; its *tools* are. Claude Code runs every Bash tool command (and hook, and
stdio MCP server) through `CLAUDE_CODE_SHELL_PREFIX`, which `tool_network_env` points at a
wrapper that runs the command under `offline_prefix` (bubblewrap or a network namespace on
Linux, sandbox-exec on macOS); its in-process web tools are disallowed. Codex runs its
commands in its own workspace-write sandbox with network access off. Where the platform
has no way to cut the network, `isolation_missing` says so in one line and
`replay.require_isolation` decides whether the agent runs anyway.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from sleepd.backends.base import FailureKind, ModelResponse

TERM_GRACE_S = 2.0
#: Output kept per stream: enough for any summary line; bounded for a runaway agent.
MAX_OUTPUT_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class ActRequest:
    """One agent run: a prompt, the checkout it acts in, and its bounds."""

    prompt: str
    workdir: Path
    model: str | None = None
    max_turns: int = 30
    wall_s: float = 900.0
    allowed_tools: Sequence[str] = ()
    disallowed_tools: Sequence[str] = ()
    network: bool = False
    nice: int = 10
    #: Refuse to run when the tools' network cannot be cut here (replay.require_isolation).
    require_isolation: bool = False
    #: The dollars reserved for this run; an agent that can cap itself stops there.
    max_usd: float | None = None

    def __post_init__(self) -> None:
        """The outbound chokepoint, as for every `ModelRequest`: the task is redacted."""
        from sleepd.backends.outbound import scrub_text

        object.__setattr__(self, "prompt", scrub_text(self.prompt))


@dataclass
class ActDetail:
    """What the agent did, beyond the model response (text, tokens, cost, latency)."""

    tool_calls: int = 0
    tools: dict[str, int] = field(default_factory=dict)
    turns: int = 0
    cpu_s: float = 0.0
    timed_out: bool = False
    returncode: int | None = None
    stopped_by_turn_cap: bool = False
    isolation: str = ""


@dataclass(frozen=True)
class ProcOutcome:
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    wall_s: float
    cpu_s: float


@cache
def bwrap_available() -> bool:
    """bubblewrap that can actually create a sandbox here (user namespaces allowed)."""
    exe = shutil.which("bwrap")
    if exe is None:
        return False
    try:
        done = subprocess.run(
            [exe, "--ro-bind", "/", "/", "--unshare-net", "true"],
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


@cache
def unshare_available() -> bool:
    exe = shutil.which("unshare")
    if exe is None:
        return False
    try:
        done = subprocess.run(
            [exe, "--net", "--map-root-user", "true"], capture_output=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


#: sandbox-exec profile: everything allowed but network traffic to an IP address
#: (local Unix sockets keep working).
MACOS_OFFLINE_PROFILE = "(version 1)(allow default)(deny network-outbound (remote ip))"


@cache
def sandbox_exec_available() -> bool:
    exe = shutil.which("sandbox-exec")
    if exe is None:
        return False
    try:
        done = subprocess.run(
            [exe, "-p", MACOS_OFFLINE_PROFILE, "true"], capture_output=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


NO_ISOLATION = "none (no bubblewrap, network namespaces or sandbox-exec on this platform)"


def offline_prefix(workdir: Path, chdir: str | None = None) -> tuple[list[str], str]:
    """A command prefix that cuts the network (and, with bubblewrap, makes / read-only).

    Returns (prefix, label); an empty prefix with a label starting "none" where the
    platform has neither bubblewrap, unprivileged network namespaces nor sandbox-exec.
    `chdir` is where bubblewrap starts the command (default `workdir`).
    """
    if bwrap_available():
        tmp = os.environ.get("TMPDIR", "/tmp")
        prefix = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        prefix += ["--bind", tmp, tmp, "--bind", str(workdir), str(workdir)]
        prefix += ["--unshare-net", "--die-with-parent", "--chdir", chdir or str(workdir), "--"]
        return prefix, "bubblewrap (network off, read-only root, writable checkout)"
    if unshare_available():
        return ["unshare", "--net", "--map-root-user", "--"], "network namespace (network off)"
    if sandbox_exec_available():
        return ["sandbox-exec", "-p", MACOS_OFFLINE_PROFILE], "sandbox-exec (network off)"
    return [], NO_ISOLATION


def isolation_missing() -> bool:
    """True where nothing here can cut a command's network."""
    return not offline_prefix(Path("."))[0]


SHELL_PREFIX_NAME = "sleepd-offline-shell"


def tool_network_env(workdir: Path, script_dir: Path) -> tuple[dict[str, str], str]:
    """Environment that makes Claude Code run its tool commands with the network cut.

    Claude Code hands each shell command to `$CLAUDE_CODE_SHELL_PREFIX` as one
    shell-quoted string in `$1`; the wrapper written to `script_dir` (outside the
    checkout, so the agent's diff never shows it) re-runs it under `offline_prefix`.
    Returns ({}, label) where the platform offers no isolation.
    """
    import shlex

    prefix, label = offline_prefix(workdir, chdir="$PWD")
    if not prefix:
        return {}, label
    words = " ".join('"$PWD"' if w == "$PWD" else shlex.quote(w) for w in prefix)
    shell = shutil.which("bash") or "/bin/sh"
    script = script_dir / SHELL_PREFIX_NAME
    script.write_text(
        "#!/bin/sh\n"
        "# sleepd: one Claude Code tool command, run with its network cut.\n"
        f'if [ "$#" -eq 1 ]; then exec {words} {shlex.quote(shell)} -c "$1"; fi\n'
        f'exec {words} "$@"\n',
        encoding="utf-8",
    )
    script.chmod(0o700)
    return {"CLAUDE_CODE_SHELL_PREFIX": str(script)}, label


def not_started(
    backend: str, model: str, reason: str, isolation: str
) -> tuple[ModelResponse, ActDetail]:
    """The rollout's answer when the agent could not be started at all."""
    failed = ModelResponse.failed(FailureKind.NOT_AVAILABLE, reason, backend=backend, model=model)
    return failed, ActDetail(isolation=isolation)


def nice_prefix(level: int) -> list[str]:
    exe = shutil.which("nice")
    return [exe, "-n", str(level)] if exe and level > 0 else []


def run_in_dir(
    argv: Sequence[str],
    *,
    cwd: Path,
    stdin_text: str | None,
    timeout_s: float,
    env: Mapping[str, str] | None = None,
) -> ProcOutcome:
    """Run `argv` in `cwd` in a new process group; the deadline kills the whole group."""
    started = time.monotonic()
    proc = subprocess.Popen(
        list(argv),
        cwd=str(cwd),
        stdin=subprocess.DEVNULL if stdin_text is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env=dict(env) if env is not None else None,
    )
    chunks: dict[str, bytes] = {}

    def drain(name: str, stream: object) -> None:
        kept = bytearray()
        while True:
            block = stream.read(65536)  # type: ignore[attr-defined]
            if not block:
                break
            if len(kept) < MAX_OUTPUT_BYTES:
                kept += block[: MAX_OUTPUT_BYTES - len(kept)]
        chunks[name] = bytes(kept)

    readers = [
        threading.Thread(target=drain, args=("out", proc.stdout), daemon=True),
        threading.Thread(target=drain, args=("err", proc.stderr), daemon=True),
    ]
    for reader in readers:
        reader.start()
    if stdin_text is not None and proc.stdin is not None:

        def feed() -> None:
            with contextlib.suppress(OSError):
                proc.stdin.write(stdin_text.encode("utf-8"))  # type: ignore[union-attr]
                proc.stdin.close()  # type: ignore[union-attr]

        threading.Thread(target=feed, daemon=True).start()
    timed_out = threading.Event()

    def on_deadline() -> None:
        timed_out.set()
        _signal_group(proc.pid, signal.SIGTERM)
        killer = threading.Timer(TERM_GRACE_S, _signal_group, (proc.pid, signal.SIGKILL))
        killer.daemon = True
        killer.start()

    timer = threading.Timer(timeout_s, on_deadline)
    timer.daemon = True
    timer.start()
    try:
        _pid, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
        _signal_group(proc.pid, signal.SIGKILL)  # tool subprocesses left in the group
    proc.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join(timeout=5)
    return ProcOutcome(
        returncode=None if timed_out.is_set() else proc.returncode,
        stdout=chunks.get("out", b"").decode("utf-8", "replace"),
        stderr=chunks.get("err", b"").decode("utf-8", "replace"),
        timed_out=timed_out.is_set(),
        wall_s=time.monotonic() - started,
        cpu_s=usage.ru_utime + usage.ru_stime,
    )


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
