"""What a harvest reports: per source and in total (the `sleepd harvest --json` contract)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from sleepd.errors import SleepdError


@dataclass
class SourceReport:
    source: str
    files_scanned: int = 0
    files_changed: int = 0
    files_missing: int = 0
    files_reset: int = 0
    sessions_new: int = 0
    events_new: int = 0
    malformed_lines: int = 0
    truncated_lines: int = 0
    bytes_read: int = 0
    redactions: int = 0
    replay_sessions_skipped: int = 0
    #: events a source wrote again under new ids (a resumed session's history): stored once
    rewritten_copies: int = 0
    #: events a resumed session's new file copied from the session it resumed: kept as
    #: context, counted with that session
    resumed_history: int = 0
    #: files another harvest read, read again in place (`harvest.reread`), and the stored
    #: events whose reading changed
    files_read_again: int = 0
    events_read_again: int = 0
    errors: int = 0
    error_messages: list[str] = field(default_factory=list)
    #: where the truncated lines were (the first 20 files): "path (N lines)"
    truncated_files: list[str] = field(default_factory=list)
    workers: int = 0  # worker processes that parsed this source (0: in-process)
    worker_start: str = ""  # how they were started ("spawn"; "" in-process)


@dataclass
class HarvestReport:
    sources: dict[str, SourceReport]
    duration_s: float = 0.0
    notices: list[str] = field(default_factory=list)  # about the harvest, not one file

    def totals(self) -> dict[str, Any]:
        keys = (
            "files_scanned",
            "files_changed",
            "files_missing",
            "files_reset",
            "sessions_new",
            "events_new",
            "malformed_lines",
            "truncated_lines",
            "bytes_read",
            "redactions",
            "replay_sessions_skipped",
            "rewritten_copies",
            "resumed_history",
            "files_read_again",
            "events_read_again",
            "errors",
        )
        return {k: sum(getattr(r, k) for r in self.sources.values()) for k in keys}

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.totals(),
            "duration_s": round(self.duration_s, 3),
            "notices": list(self.notices),
            "per_source": {name: asdict(r) for name, r in self.sources.items()},
        }


class DiskFullError(SleepdError):
    """The database could not grow; what was stored before stays stored."""


#: Files named per source for the lines stored clipped; the count covers them all.
MAX_TRUNCATED_FILES = 20


def note_clipped(report: SourceReport, path: str, lines: int) -> None:
    """Name a file with lines too long to store whole (counted in `truncated_lines`)."""
    if len(report.truncated_files) < MAX_TRUNCATED_FILES:
        report.truncated_files.append(f"{path} ({lines} line{'s' if lines != 1 else ''})")


def note_error(report: SourceReport, message: str) -> None:
    """Count one file's error; keep its line (the first 50 of a harvest)."""
    report.errors += 1
    if len(report.error_messages) < 50:
        report.error_messages.append(message)
