"""Harvest: transcripts → redacted records → the store, incrementally.

`plan` stats files against their stored cursors (and answers the unchanged-tree
shortcut), `read` turns harvester batches into redacted store records (serially, or
through one ordered pool map of worker processes), `write` stores them in group
transactions that carry their cursors, `report` holds the figures; `run` ties them
together under the harvest lock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sleepd.harvest.report import DiskFullError, HarvestReport, SourceReport

if TYPE_CHECKING:
    from sleepd.harvest.run import harvest as harvest
else:

    def harvest(*args: Any, **kwargs: Any) -> HarvestReport:
        """`sleepd.harvest.run.harvest`, imported when first called (it loads the store)."""
        from sleepd.harvest.run import harvest as run

        return run(*args, **kwargs)


__all__ = ["DiskFullError", "HarvestReport", "SourceReport", "harvest"]
