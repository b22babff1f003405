"""The shared incremental JSONL reader: cursors, resets and damaged input."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harvesters.reader import LineBatch, read_jsonl, split_lines
from harvesters.records import FileCursor


def read_all(path: Path, cursor: FileCursor | None, **kwargs: int) -> list[LineBatch]:
    return list(read_jsonl(str(path), cursor, **kwargs))


def objects(batches: list[LineBatch]) -> list[dict]:
    return [line.obj for batch in batches for line in batch.lines]


def line(n: int) -> bytes:
    return orjson.dumps({"n": n}) + b"\n"


def test_second_pass_reads_only_appended_lines_and_waits_for_a_half_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(line(1) + line(2))
    first = read_all(path, None)
    assert objects(first) == [{"n": 1}, {"n": 2}]
    cursor = first[-1].cursor
    assert cursor.offset == path.stat().st_size and cursor.line_no == 2

    with path.open("ab") as fh:
        fh.write(line(3) + b'{"n": 4')  # a writer is halfway through line 4
    second = read_all(path, cursor)
    assert objects(second) == [{"n": 3}]
    assert not second[0].reset and second[0].skipped == []
    assert second[-1].cursor.offset == len(line(1) + line(2) + line(3))

    with path.open("ab") as fh:
        fh.write(b"}\n")
    third = read_all(path, second[-1].cursor)
    assert objects(third) == [{"n": 4}]
    assert third[-1].cursor.line_no == 4
    assert objects(read_all(path, third[-1].cursor)) == []


def test_a_last_record_without_its_newline_is_read_once(tmp_path: Path) -> None:
    """23 of 32 Codex rollouts in a public sample (wild sample 4, not in the repository)
    end with their `task_complete` record and no newline: it was never read, and the
    file looked changed to every later pass. A whole JSON object is a whole record."""
    path = tmp_path / "t.jsonl"
    path.write_bytes(line(1) + line(2).rstrip(b"\n"))
    first = read_all(path, None)
    assert objects(first) == [{"n": 1}, {"n": 2}]
    assert first[-1].cursor.offset == path.stat().st_size and first[-1].cursor.line_no == 2
    assert objects(read_all(path, first[-1].cursor)) == []  # nothing new: nothing read

    # the writer ends that line after all, then writes on: each record once, numbered on
    with path.open("ab") as fh:
        fh.write(b"\n" + line(3) + line(4).rstrip(b"\n"))
    second = read_all(path, first[-1].cursor)
    assert objects(second) == [{"n": 3}, {"n": 4}]
    assert [ln.line_no for b in second for ln in b.lines] == [3, 4]
    assert second[0].skipped == [] and not second[0].reset
    assert sum(b.bytes_read for b in first + second) == path.stat().st_size


def test_an_unfinished_last_line_that_is_no_whole_object_waits(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    for tail in (b'{"n": 2', b'{"n": 2} {"m"', b"[1, 2]", b'"text"', b"{}}", b"{ broken }"):
        path.write_bytes(line(1) + tail)
        batches = read_all(path, None)
        assert objects(batches) == [{"n": 1}], tail
        assert batches[-1].cursor.offset == len(line(1)), tail
        assert all(b.skipped == [] for b in batches), tail


def test_truncated_file_starts_over_with_reset(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(line(1) + line(2) + line(3))
    cursor = read_all(path, None)[-1].cursor
    with path.open("r+b") as fh:
        fh.truncate(len(line(1)))
    again = read_all(path, cursor)
    assert again[0].reset is True
    assert objects(again) == [{"n": 1}]


def test_replaced_file_with_new_inode_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(line(1))
    cursor = read_all(path, None)[-1].cursor
    replacement = tmp_path / "new.jsonl"
    replacement.write_bytes(line(1) + line(7) + line(8))
    os.replace(replacement, path)  # rotation: same name, new inode
    assert path.stat().st_ino != cursor.inode
    again = read_all(path, cursor)
    assert again[0].reset is True
    assert objects(again) == [{"n": 1}, {"n": 7}, {"n": 8}]


def test_rewritten_in_place_with_same_size_but_other_head_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(line(1) + line(2))
    cursor = read_all(path, None)[-1].cursor
    with path.open("r+b") as fh:  # same inode, same size, different bytes
        fh.write(line(5) + line(6))
    again = read_all(path, cursor)
    assert again[0].reset is True
    assert objects(again) == [{"n": 5}, {"n": 6}]


def test_state_is_carried_forward_and_cleared_on_reset(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(line(1))
    cursor = read_all(path, None)[-1].cursor
    cursor.state = {"sid": "abc"}
    path.write_bytes(line(1) + line(2))
    assert read_all(path, cursor)[-1].cursor.state == {"sid": "abc"}
    path.write_bytes(b"")
    assert read_all(path, cursor)[-1].cursor.state == {}


def test_batches_hold_at_most_n_lines_and_end_on_line_boundaries(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    data = b"".join(line(n) for n in range(25))
    path.write_bytes(data)
    batches = read_all(path, None, batch_lines=10, chunk_bytes=7)
    assert [b.lines_read for b in batches] == [10, 10, 5]
    assert [b.cursor.line_no for b in batches] == [10, 20, 25]
    for batch in batches:
        assert data[batch.cursor.offset - 1 : batch.cursor.offset] == b"\n"
    assert sum(b.bytes_read for b in batches) == len(data)
    assert objects(batches) == [{"n": n} for n in range(25)]


def test_damaged_lines_are_skipped_with_reason_and_position(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    lines = [
        b'{"ok": 1}',
        b'{"broken": ',  # malformed
        b"[1, 2]",  # JSON, not an object
        b'"text"',
        b"",  # blank lines are not damage
        b'{"ok": 2}',
    ]
    path.write_bytes(b"\n".join(lines) + b"\n")
    [batch] = read_all(path, None)
    assert objects([batch]) == [{"ok": 1}, {"ok": 2}]
    assert [(s.line_no, s.reason) for s in batch.skipped] == [
        (2, "malformed JSON"),
        (3, "JSON list, not an object"),
        (4, "JSON str, not an object"),
    ]
    assert batch.skipped[0].byte_offset == len(lines[0]) + 1
    assert batch.lines_read == 6


def test_lone_surrogates_and_invalid_utf8_become_valid_text(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"t": "cut emoji \\ud83d here"}\n{"t": "bad \xff byte"}\n')
    [batch] = read_all(path, None)
    texts = [obj["t"] for obj in objects([batch])]
    assert texts == ["cut emoji \ufffd here", "bad \ufffd byte"]
    for text in texts:
        text.encode("utf-8")  # would raise on a surviving surrogate


def test_bom_and_crlf_line_endings_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"n": 1}\r\n{"n": 2}\r\n')
    [batch] = read_all(path, None)
    assert objects([batch]) == [{"n": 1}, {"n": 2}]
    assert batch.skipped == []


def test_huge_line_is_parsed_and_flagged_but_an_oversized_one_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    big = orjson.dumps({"blob": "x" * 5000}) + b"\n"
    giant = orjson.dumps({"blob": "y" * 50_000}) + b"\n"
    path.write_bytes(line(1) + big + giant + line(2))
    batches = read_all(path, None, max_line_bytes=1000, max_parse_bytes=20_000, chunk_bytes=4096)
    parsed = [ln for b in batches for ln in b.lines]
    assert [ln.obj.get("n") for ln in parsed] == [1, None, 2]
    assert [ln.huge for ln in parsed] == [False, True, False]
    assert sum(b.huge_lines for b in batches) == 1
    skipped = [s for b in batches for s in b.skipped]
    assert [(s.line_no, s.byte_offset) for s in skipped] == [(3, len(line(1) + big))]
    assert "over 20000 bytes" in skipped[0].reason
    assert batches[-1].cursor.offset == path.stat().st_size


def test_empty_file_yields_one_empty_batch_with_a_cursor(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"")
    [batch] = read_all(path, None)
    assert batch.lines == [] and batch.skipped == []
    assert batch.cursor.offset == 0 and batch.cursor.inode == path.stat().st_ino


def test_vanished_file_is_a_skip_reason_not_an_exception(tmp_path: Path) -> None:
    path = tmp_path / "gone.jsonl"
    [batch] = read_all(path, None)
    assert [s.reason for s in batch.skipped] == ["file vanished"]
    assert batch.cursor.offset == 0


VALID = st.dictionaries(
    st.text(max_size=5), st.integers(-(2**62), 2**62) | st.text(max_size=10), max_size=3
)


def _is_garbage(data: bytes) -> bool:
    """A non-blank line that cannot be a JSON object: it does not open with "{"."""
    body = data.lstrip(b" \t\r")
    return b"\n" not in data and bool(data.strip()) and not body.startswith((b"{", b"\xef"))


GARBAGE = st.binary(min_size=1, max_size=40).filter(_is_garbage)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(st.booleans(), VALID, GARBAGE), min_size=1, max_size=30))
def test_garbage_lines_never_raise_and_are_counted_exactly(
    tmp_path: Path, rows: list[tuple[bool, dict, bytes]]
) -> None:
    path = tmp_path / "fuzz.jsonl"
    data = b"".join((orjson.dumps(ok) if good else bad) + b"\n" for good, ok, bad in rows)
    path.write_bytes(data)
    batches = read_all(path, None, batch_lines=7, chunk_bytes=16)
    garbage = sum(1 for good, _, _ in rows if not good)
    assert sum(len(b.skipped) for b in batches) == garbage
    assert objects(batches) == [ok for good, ok, _ in rows if good]
    assert batches[-1].cursor.offset == len(data)


@given(st.lists(st.sampled_from([b"\n", b"a", b"{}", b"\xff", b"\r", b"x" * 300]), max_size=60))
def test_split_lines_cuts_where_split_does(parts: list[bytes]) -> None:
    chunk = b"".join(parts)
    *lines, tail = chunk.split(b"\n")
    assert split_lines(chunk) == (lines, tail)


def test_a_last_record_with_trailing_blanks_is_ended_once(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(line(1) + b'{"n": 2}  ')  # blanks after the object, no newline
    first = read_all(path, None)
    assert objects(first) == [{"n": 1}, {"n": 2}]
    with path.open("ab") as fh:
        fh.write(b"\n" + line(3))
    second = read_all(path, first[-1].cursor)
    assert objects(second) == [{"n": 3}]
    assert [ln.line_no for b in second for ln in b.lines] == [3]


# entireio/git-sync (its maintainer's history, a Codex rollout, line 1837, byte for byte;
# MIT): the writer appended a record to a line it had not ended, so one line holds two.
GLUED = (
    b'{"timestamp":"2026-04-08T18:06:49.514Z","type":"event_msg","payload":{"type":"token_co'
    b'unt","info":{"total_token_usage":{"input_tokens":28054386,"cached_input_tokens":261788'
    b'16,"output_tokens":125916,"reasoning_output_tokens":35528,"total_tokens":28180302},"la'
    b'st_token_usage":{"input_tokens":164773,"cached_input_tokens":164608,"output_tokens":29'
    b'6,"reasoning_output_tokens":20,"total_tokens":165069},"model_context_window":258400},"'
    b'rate_limits":{"limit_id":"codex","limit_name":null,"primary":null,"secondary":null,"cr'
    b'edits":null,"plan_type":"team"}}}{"timestamp":"2026-04-08T19:41:09.765Z","type":"event'
    b'_msg","payload":{"type":"task_started","turn_id":"019d6e9c-e701-7293-af0e-0a6264b599aa'
    b'","model_context_window":258400,"collaboration_mode_kind":"default"}}'
)


def test_a_line_that_holds_two_whole_records_gives_both(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"ok": 1}\n' + GLUED + b"\n" + b'{"ok": 2}\n')
    [batch] = read_all(path, None)
    assert [o.get("ok") or o["payload"]["type"] for o in objects([batch])] == [
        1,
        "token_count",
        "task_started",
        2,
    ]
    assert batch.skipped == []
    first, second = batch.lines[1:3]
    assert first.line_no == second.line_no == 2
    assert second.offset == first.offset + len(first.raw)
    assert first.raw + second.raw == GLUED
    assert batch.cursor.offset == path.stat().st_size


def test_a_huge_record_glued_to_another_is_flagged_huge_alone(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    big = orjson.dumps({"text": "x" * 5000})
    path.write_bytes(big + b'{"ok": 1}\n')
    [batch] = read_all(path, None, max_line_bytes=1000)
    assert [(line.huge, len(line.raw)) for line in batch.lines] == [(True, len(big)), (False, 9)]


def test_a_line_glued_to_a_broken_record_or_to_garbage_stays_damaged(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    lines = [
        b'{"a": 1}{"b": ',  # the second record cut short
        b'{"a": 1}x{"b": 2}',  # something between the two
        b'{"a": "' + b'}{"' * 50 + b'"',  # candidates everywhere, no whole record
    ]
    path.write_bytes(b"\n".join(lines) + b"\n")
    [batch] = read_all(path, None)
    assert objects([batch]) == []
    assert [s.line_no for s in batch.skipped] == [1, 2, 3]


def test_only_the_batch_after_the_last_complete_line_keeps_the_files_mtime(
    tmp_path: Path,
) -> None:
    """A cursor taken before the last line keeps no mtime, so a harvest killed after
    committing it leaves a cursor no stat matches (the plan reads the file on); the last
    batch says it is the last, an unfinished line after it or not."""
    path = tmp_path / "t.jsonl"
    mtime = lambda: path.stat().st_mtime_ns  # noqa: E731
    for body, batch_lines, ends in (
        (line(1) + line(2) + line(3), 1, [False, False, True]),  # ends with its newline
        (line(1) + line(2) + line(3), 2, [False, True]),
        (line(1) + line(2) + b'{"n": 3', 1, [False, True]),  # a crash left half a line
        (line(1) + line(2) + b'{"n": 3}', 2, [False, True]),  # a whole last record, no newline
    ):
        path.write_bytes(body)
        batches = read_all(path, None, batch_lines=batch_lines)
        assert [b.at_end for b in batches] == ends, body
        assert [b.cursor.mtime_ns for b in batches] == [mtime() if e else 0 for e in ends]
