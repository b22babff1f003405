"""sleepd: a nightly daemon that makes coding agents better at your work."""

__version__ = "0.1.0"
