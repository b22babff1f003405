"""Shell-init noise: the lines a machine prints in every shell output (a broken
`.bashrc`, a version-manager banner), found per session, per remote machine and across
the store, and stripped before signatures and examples.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sleepd.mining.episodes import EventView
from sleepd.mining.errors.failed import is_failed_result
from sleepd.mining.errors.shell import REMOTE_HINT, remote_of
from sleepd.mining.signatures import is_shell_tool
from sleepd.mining.tasks import command_of

EXIT_LINE = re.compile(r"^\s*(Exit code:? \d+|Process exited with code \d+)\s*$", re.I)


#: Noise: a line in at least this share of a set of shell outputs …
NOISE_SHARE = 0.6


#: … of at least this many outputs, and in at least two outputs that succeeded.
NOISE_MIN_OUTPUTS = 3


@dataclass
class NoiseFilter:
    """Lines a machine prints in every shell output; removed before signatures."""

    lines: frozenset[str] = frozenset()

    def strip(self, text: str) -> str:
        """`text` without its noise lines, every other line as it was, ending and all:
        the same text whether or not a pass knew any noise, so a failure's example does
        not hang on which outputs a pass had read."""
        if not self.lines:
            return text
        kept = text.splitlines(keepends=True)
        return "".join(ln for ln in kept if ln.strip() not in self.lines)

    def merged(self, other: Iterable[str]) -> NoiseFilter:
        return NoiseFilter(self.lines | frozenset(other))


def noise_lines(outputs: Sequence[tuple[str, bool]]) -> frozenset[str]:
    """Lines in at least NOISE_SHARE of `outputs` ((text, failed) pairs), at least
    NOISE_MIN_OUTPUTS of them, and in at least two successful ones: a line that shows
    in successes and failures alike says nothing about a failure."""
    if len(outputs) < NOISE_MIN_OUTPUTS:
        return frozenset()
    seen: Counter[str] = Counter()
    in_success: Counter[str] = Counter()
    for text, failed in outputs:
        lines = {ln.strip() for ln in _edge_lines(text) if len(ln.strip()) >= 4}
        lines = {ln for ln in lines if not EXIT_LINE.match(ln)}
        seen.update(lines)
        if not failed:
            in_success.update(lines)
    need = max(NOISE_MIN_OUTPUTS, int(NOISE_SHARE * len(outputs) + 0.999))
    return frozenset(ln for ln, n in seen.items() if n >= need and in_success[ln] >= 2)


def _edge_lines(text: str) -> list[str]:
    """Shell-init noise comes first (or last); the middle of a long output is work."""
    lines = text[:2000].splitlines()[:8]
    tail = text[-1000:].splitlines()[-4:] if len(text) > 2000 else []
    return lines + tail


def shell_outputs_by_machine(events: Sequence[EventView]) -> dict[str, list[tuple[str, bool]]]:
    """Shell results ((text, failed) pairs) by the machine their command ran on ("" for
    this one, `ssh root@host` for another): a remote machine's login banner is its
    shell-init noise, however few of the session's commands ran there."""
    calls = {e.call_id: e for e in events if e.kind == "tool_call" and e.call_id}
    out: dict[str, list[tuple[str, bool]]] = {}
    for event in events:
        if event.kind != "tool_result":
            continue
        call = calls.get(event.call_id or "")
        if call is not None and is_shell_tool(call.tool_name):
            remote = REMOTE_HINT.search(call.text)  # most calls: no command to decode
            machine = remote_of(command_of(call.text)) if remote else ""
            out.setdefault(machine, []).append((event.text, is_failed_result(event, call)))
    return out


def session_noise(events: Sequence[EventView]) -> frozenset[str]:
    """Noise lines of a session: of all its shell outputs, and of each remote machine's."""
    groups = shell_outputs_by_machine(events)
    lines = noise_lines([output for group in groups.values() for output in group])
    for machine, group in groups.items():
        if machine:
            lines |= noise_lines(group)
    return lines
