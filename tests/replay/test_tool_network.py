"""A replayed agent keeps its own network (its model API) while its tools lose theirs.

The fake `claude` below does what Claude Code does with a Bash tool call: it hands the
command, as one shell-quoted string, to `$CLAUDE_CODE_SHELL_PREFIX` when that is set. Its
"API call" and its tool command both try to reach a TCP listener the test opens on
loopback; the listener counts who got through.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from sleepd.backends.agent_act import ActRequest, isolation_missing
from sleepd.backends.claude_cli import ClaudeCliBackend

FAKE_CLAUDE = """#!{python}
import json, os, shlex, socket, subprocess, sys

port = int(os.environ["PROBE_PORT"])
sys.stdin.read()

def reach(tag):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(tag.encode())

reach("agent")  # the agent's own API call
tool = shlex.join([sys.executable, "-c",
    "import socket, sys; s = socket.create_connection(('127.0.0.1', %d), timeout=5);"
    " s.sendall(b'tool'); print('tool reached the network')" % port])
prefix = os.environ.get("CLAUDE_CODE_SHELL_PREFIX")
argv = [prefix, tool] if prefix else ["/bin/sh", "-c", tool]
done = subprocess.run(argv, capture_output=True, text=True)
with open(os.environ["PROBE_OUT"], "w") as out:
    json.dump({{"rc": done.returncode, "stdout": done.stdout, "stderr": done.stderr[-500:],
               "argv": sys.argv[1:]}}, out)
print(json.dumps({{"type": "assistant", "message": {{"content": [
    {{"type": "tool_use", "name": "Bash", "input": {{"command": tool}}}}]}}}}))
print(json.dumps({{"type": "result", "subtype": "success", "is_error": False,
                  "result": "[simulated agent] done", "total_cost_usd": 0.0,
                  "usage": {{"input_tokens": 5, "output_tokens": 3}}}}))
"""


@pytest.fixture
def listener() -> Iterator[tuple[int, list[str]]]:
    seen: list[str] = []
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(5)
                seen.append(conn.recv(16).decode())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], seen
    stop.set()
    thread.join(timeout=5)
    server.close()


@pytest.fixture
def fake_claude(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, listener: tuple[int, list[str]]
) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "claude"
    exe.write_text(FAKE_CLAUDE.format(python=sys.executable))
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("PROBE_PORT", str(listener[0]))
    out = tmp_path / "probe.json"
    monkeypatch.setenv("PROBE_OUT", str(out))
    return out


def act(workdir: Path, **kw: object) -> tuple[object, object]:
    request = ActRequest(
        prompt="fix the test",
        workdir=workdir,
        wall_s=60,
        allowed_tools=("Bash",),
        **kw,  # type: ignore[arg-type]
    )
    return ClaudeCliBackend().act(request)


def checkout_dir(tmp_path: Path) -> Path:
    holder = tmp_path / "holder"  # the checkout's parent holds the shell prefix
    work = holder / "project"
    work.mkdir(parents=True)
    return work


@pytest.mark.skipif(isolation_missing(), reason="no bubblewrap or network namespaces here")
def test_tools_lose_the_network_but_the_agent_keeps_it(
    tmp_path: Path, fake_claude: Path, listener: tuple[int, list[str]]
) -> None:
    _port, seen = listener
    work = checkout_dir(tmp_path)
    response, detail = act(work)
    probe = json.loads(fake_claude.read_text())
    assert response.ok  # type: ignore[attr-defined]
    assert probe["rc"] != 0 and "tool reached" not in probe["stdout"]
    assert seen == ["agent"]  # the API call got through; the tool command did not
    assert "--disallowedTools" in probe["argv"]
    assert "WebFetch,WebSearch" in probe["argv"][probe["argv"].index("--disallowedTools") + 1]
    assert "tool commands network off" in detail.isolation  # type: ignore[attr-defined]
    assert not any(p.name.startswith("sleepd-offline") for p in work.iterdir())


def test_with_the_network_on_the_same_tool_gets_through(
    tmp_path: Path, fake_claude: Path, listener: tuple[int, list[str]]
) -> None:
    """The control: the probe does reach the listener when nothing cuts it."""
    _port, seen = listener
    response, detail = act(checkout_dir(tmp_path), network=True)
    probe = json.loads(fake_claude.read_text())
    assert response.ok and probe["rc"] == 0  # type: ignore[attr-defined]
    assert sorted(seen) == ["agent", "tool"]
    assert "network on" in detail.isolation  # type: ignore[attr-defined]


def test_no_isolation_runs_with_a_notice_or_is_refused_by_config(
    tmp_path: Path, fake_claude: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sleepd.backends import agent_act

    monkeypatch.setattr(agent_act, "offline_prefix", lambda *a, **k: ([], agent_act.NO_ISOLATION))
    monkeypatch.setattr(
        "sleepd.backends.claude_cli.offline_prefix", lambda *a, **k: ([], agent_act.NO_ISOLATION)
    )
    response, detail = act(checkout_dir(tmp_path))
    assert response.ok  # type: ignore[attr-defined]
    assert "NETWORK NOT CUT" in detail.isolation  # type: ignore[attr-defined]
    assert "replay.require_isolation = true refuses" in detail.isolation  # type: ignore[attr-defined]
    fake_claude.unlink()
    refused, detail = act(checkout_dir(tmp_path / "again"), require_isolation=True)
    assert not refused.ok and "require_isolation" in refused.failure_detail  # type: ignore[attr-defined]
    assert not fake_claude.exists()  # the agent never started
