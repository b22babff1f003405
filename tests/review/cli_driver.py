"""Run the sleepd CLI with the review command groups registered (as the lead will)."""

import importlib

from sleepd.cli import app as entry
from sleepd.cli import root

OWN_MODULES = (
    "sleepd.cli.review_cmd",
    "sleepd.cli.rollback_cmd",
    "sleepd.cli.nights_cmd",
    "sleepd.cli.verify_cmd",
)

for name in OWN_MODULES:
    if name not in root.COMMAND_MODULES:
        importlib.import_module(name).register(root.app)

if __name__ == "__main__":
    entry.main()
