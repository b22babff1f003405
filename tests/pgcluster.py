"""A throwaway PostgreSQL cluster for the tests: initdb + pg_ctl, a Unix socket, no TCP.

The test suite (`tests/conftest.py`) starts one per session when `SLEEPD_TEST_PG_URL`
names no server, and `.ci/run` starts one for the whole CI run; both stop it at exit.
initdb refuses to run as root, so as root the cluster belongs to an unprivileged user
(`nobody`) and lives in a temp folder that user owns. Only loopback: `listen_addresses`
is empty, clients come through the socket in that folder with trust authentication.

As a script: `python tests/pgcluster.py start DIR` prints the URL of a cluster in DIR
(created), `python tests/pgcluster.py stop DIR` stops it.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: The cluster's superuser; tests connect as it through the socket.
SUPERUSER = "sleepd"
_SEARCH = ("/usr/local/bin", "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin")


def binary(name: str) -> str:
    """The PostgreSQL program `name` (PATH first, then the usual install folders)."""
    found = shutil.which(name)
    if found:
        return found
    for folder in _SEARCH:
        candidate = Path(folder) / name
        if candidate.exists():
            return str(candidate)
    raise FileNotFoundError(f"PostgreSQL's {name} is not installed")


def _as_owner(argv: list[str]) -> list[str]:
    """Run as `nobody` when we are root (initdb and postgres refuse root)."""
    if os.geteuid() != 0:
        return argv
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", *argv]


def _chown(path: Path) -> None:
    if os.geteuid() == 0:
        user = pwd.getpwnam("nobody")
        os.chown(path, user.pw_uid, user.pw_gid)


def url_for(base: Path, database: str = "postgres") -> str:
    return f"postgresql://{SUPERUSER}@/{database}?host={base / 'socket'}"


def start(base: Path | None = None) -> tuple[Path, str]:
    """A running cluster in `base` (a new temp folder if None) and its URL."""
    base = Path(tempfile.mkdtemp(prefix="sleepd-pg-")) if base is None else base
    base.mkdir(parents=True, exist_ok=True)
    base.chmod(0o755)
    _chown(base)
    data, socket_dir, log = base / "data", base / "socket", base / "server.log"
    if not (data / "PG_VERSION").exists():
        socket_dir.mkdir(exist_ok=True)
        _chown(socket_dir)
        subprocess.run(
            _as_owner(
                [
                    binary("initdb"),
                    "-D",
                    str(data),
                    "-U",
                    SUPERUSER,
                    "--auth=trust",
                    "--encoding=UTF8",
                    "--locale=C",
                    "--no-sync",
                ]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    options = (
        f"-c listen_addresses='' -c unix_socket_directories='{socket_dir}' "
        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
        "-c max_connections=200 -c shared_buffers=64MB"
    )
    subprocess.run(
        _as_owner(
            [binary("pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start"]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return base, url_for(base)


def stop(base: Path, *, remove: bool = True) -> None:
    data = base / "data"
    if (data / "postmaster.pid").exists():
        subprocess.run(
            _as_owner([binary("pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    if remove:
        shutil.rmtree(base, ignore_errors=True)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("start", "stop"):
        print("usage: pgcluster.py start|stop DIR", file=sys.stderr)
        return 2
    base = Path(argv[1])
    if argv[0] == "start":
        print(start(base)[1])
    else:
        stop(base)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
