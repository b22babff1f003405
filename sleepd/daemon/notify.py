"""sd_notify without libsystemd: one datagram per message on $NOTIFY_SOCKET.

Outside systemd (no NOTIFY_SOCKET) every call is a no-op, so the daemon calls it
unconditionally. Abstract-namespace sockets are written `@name` in the variable.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)


class Notifier:
    """Send READY / STATUS / WATCHDOG / STOPPING to the service manager, if any."""

    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        self.address = address or None
        self.watchdog_usec = watchdog_usec
        self._sock: socket.socket | None = None

    @classmethod
    def from_env(cls, *, unset: bool = False) -> Notifier:
        """Read NOTIFY_SOCKET and WATCHDOG_USEC; `unset` hides them from child processes."""
        address = os.environ.get("NOTIFY_SOCKET", "").strip() or None
        watchdog_usec: int | None = None
        raw_usec = os.environ.get("WATCHDOG_USEC", "").strip()
        raw_pid = os.environ.get("WATCHDOG_PID", "").strip()
        ours = not raw_pid or (raw_pid.isdigit() and int(raw_pid) == os.getpid())
        if raw_usec.isdigit() and int(raw_usec) > 0 and ours:
            watchdog_usec = int(raw_usec)
        if unset:
            for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
                os.environ.pop(name, None)
        return cls(address, watchdog_usec)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def watchdog_interval_s(self) -> float | None:
        """Ping at half the watchdog timeout, as sd_watchdog_enabled(3) advises."""
        if not self.watchdog_usec:
            return None
        return self.watchdog_usec / 1_000_000 / 2

    def send(self, *fields: str) -> bool:
        """Send `KEY=VALUE` lines as one datagram; False (never raises) when it fails."""
        if self.address is None:
            return False
        target = self.address
        if target.startswith("@"):
            target = "\0" + target[1:]
        payload = "\n".join(fields).encode("utf-8", errors="replace")
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(payload, target)
        except OSError as exc:
            log.debug("sd_notify to %s failed: %s", self.address, exc)
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        fields = ["READY=1", f"MAINPID={os.getpid()}"]
        if status:
            fields.append(f"STATUS={_one_line(status)}")
        return self.send(*fields)

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={_one_line(text)}")

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        fields = ["STOPPING=1"]
        if status:
            fields.append(f"STATUS={_one_line(status)}")
        return self.send(*fields)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def _one_line(text: str) -> str:
    return " ".join(text.split())
