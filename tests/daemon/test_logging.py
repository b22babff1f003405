"""journald-friendly log lines."""

from __future__ import annotations

import io
import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from sleepd.daemon.logging_setup import (
    JournalFormatter,
    configure_logging,
    stderr_is_journal,
    syslog_priority,
)


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """configure_logging rewires process-wide loggers; put them back for other tests."""
    saved = {}
    for name in ("sleepd", "apscheduler", "watchdog"):
        lg = logging.getLogger(name)
        saved[name] = (lg.level, lg.propagate, list(lg.handlers))
    yield
    for name, (level, propagate, handlers) in saved.items():
        lg = logging.getLogger(name)
        for handler in lg.handlers:
            if handler not in handlers:
                handler.close()
        lg.setLevel(level)
        lg.propagate = propagate
        lg.handlers = handlers


def _record(level: int, msg: str) -> logging.LogRecord:
    return logging.LogRecord("sleepd.daemon", level, __file__, 1, msg, None, None)


def test_priority_prefix_and_no_timestamp() -> None:
    formatter = JournalFormatter()
    assert formatter.format(_record(logging.WARNING, "night postponed")) == (
        "<4>sleepd.daemon: night postponed"
    )
    assert formatter.format(_record(logging.ERROR, "x")).startswith("<3>")
    assert formatter.format(_record(logging.DEBUG, "x")).startswith("<7>")


def test_every_line_of_a_multiline_record_is_prefixed() -> None:
    lines = JournalFormatter().format(_record(logging.ERROR, "first\nsecond")).splitlines()
    assert lines == ["<3>sleepd.daemon: first", "<3>second"]


def test_syslog_priorities() -> None:
    assert [syslog_priority(v) for v in (50, 40, 30, 20, 10)] == [2, 3, 4, 6, 7]


def test_journal_detected_only_for_the_stream_it_names() -> None:
    with tempfile.TemporaryFile("w+") as stream:
        info = os.fstat(stream.fileno())
        assert stderr_is_journal(stream, {"JOURNAL_STREAM": f"{info.st_dev}:{info.st_ino}"})
        assert not stderr_is_journal(stream, {"JOURNAL_STREAM": f"{info.st_dev}:1"})
        assert not stderr_is_journal(stream, {})


def test_configure_uses_journal_format_and_writes_the_log_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with tempfile.TemporaryFile("w+") as stream:
        info = os.fstat(stream.fileno())
        monkeypatch.setenv("JOURNAL_STREAM", f"{info.st_dev}:{info.st_ino}")
        configure_logging(log_dir=tmp_path / "logs", stream=stream)
        logging.getLogger("sleepd.daemon").info("hello journal")
        stream.seek(0)
        assert stream.read() == "<6>sleepd.daemon: hello journal\n"
    file_text = (tmp_path / "logs" / "daemon.log").read_text()
    assert "INFO" in file_text and "hello journal" in file_text and file_text[:4].isdigit()


def test_terminal_format_has_timestamps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    stream = io.StringIO()
    configure_logging(stream=stream)
    logging.getLogger("sleepd.daemon").warning("careful")
    line = stream.getvalue().strip()
    assert line[:4].isdigit() and "WARNING" in line and line.endswith("sleepd.daemon: careful")
    assert not line.startswith("<")
