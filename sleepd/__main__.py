"""`python -m sleepd` is the `sleepd` command (useful when the script is not on PATH)."""

from sleepd.cli.app import main

main()
