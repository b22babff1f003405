"""Atomic writes, diffs and three-way merges."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sleepd.documents import atomic
from sleepd.documents.atomic import UnsafePathError, atomic_write
from sleepd.documents.diff import unified_diff
from sleepd.documents.merge import three_way_merge


def test_write_keeps_mode_and_new_files_get_0644(tmp_path: Path) -> None:
    doc = tmp_path / "AGENTS.md"
    atomic_write(doc, b"one\n", allowed_roots=[tmp_path])
    assert doc.read_bytes() == b"one\n" and (doc.stat().st_mode & 0o777) == 0o644
    doc.chmod(0o600)
    atomic_write(doc, b"two\n", allowed_roots=[tmp_path])
    assert doc.read_bytes() == b"two\n" and (doc.stat().st_mode & 0o777) == 0o600


def test_crash_before_rename_leaves_old_document_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = tmp_path / "SKILL.md"
    doc.write_bytes(b"old\n")

    def crash(src: str, dst: str) -> None:
        raise OSError("power cut")

    monkeypatch.setattr(atomic.os, "replace", crash)
    with pytest.raises(OSError, match="power cut"):
        atomic_write(doc, b"new\n", allowed_roots=[tmp_path])
    assert doc.read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["SKILL.md"]


def test_escapes_are_refused(tmp_path: Path) -> None:
    root, outside = tmp_path / "project", tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    with pytest.raises(UnsafePathError, match="outside the allowed roots"):
        atomic_write(root / ".." / "elsewhere" / "x.md", b"x", allowed_roots=[root])
    (root / "link").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafePathError, match="refusing to write"):
        atomic_write(root / "link" / "CLAUDE.md", b"x", allowed_roots=[root])
    assert not (outside / "CLAUDE.md").exists()
    (root / "inner").mkdir()
    (root / "alias").symlink_to(root / "inner", target_is_directory=True)
    atomic_write(root / "alias" / "ok.md", b"fine", allowed_roots=[root])
    assert (root / "inner" / "ok.md").read_bytes() == b"fine"
    assert os.path.islink(root / "alias")


def test_unified_diff_has_labels_and_changes() -> None:
    out = unified_diff("a\nb\n", "a\nc\n", old_label="live", new_label="proposed")
    assert out.splitlines()[:2] == ["--- live", "+++ proposed"]
    assert "-b" in out.splitlines() and "+c" in out.splitlines()
    assert unified_diff("same\n", "same\n") == ""


def test_three_way_merge_combines_disjoint_changes_and_reports_overlap() -> None:
    base = "one\ntwo\nthree\nfour\n"
    ours = "ONE\ntwo\nthree\nfour\n"  # a person edited line 1 since staging
    theirs = "one\ntwo\nthree\nfour\nfive\n"  # the proposal appends
    assert three_way_merge(base, ours, theirs).text == "ONE\ntwo\nthree\nfour\nfive\n"
    clash = three_way_merge(base, "one\nTWO\nthree\nfour\n", "one\n2\nthree\nfour\n")
    assert not clash.ok and clash.text is None
    assert clash.conflicts[0].ours == ("TWO\n",) and clash.conflicts[0].theirs == ("2\n",)
    same = three_way_merge(base, "one\nX\nthree\nfour\n", "one\nX\nthree\nfour\n")
    assert same.text == "one\nX\nthree\nfour\n"


def test_merge_never_glues_a_last_line_without_newline() -> None:
    base = "# Skill\n- one\n- two\n"
    ours = "# Skill\n- one\n- two (edited)"  # the person dropped the trailing newline
    theirs = "# Skill\n- one\n- two\n- three\n"
    merged = three_way_merge(base, ours, theirs)
    assert merged.ok and merged.text is not None
    assert "- two (edited)\n- three" in merged.text
    assert merged.text.splitlines() == ["# Skill", "- one", "- two (edited)", "- three"]


def test_merge_keeps_crlf_and_missing_final_newline() -> None:
    base = "a\nb\nc\n"
    ours = "a\r\nb\r\nc"  # converted to CRLF, no final newline
    theirs = "a\nB2\nc\n"
    merged = three_way_merge(base, ours, theirs)
    assert merged.text == "a\r\nB2\r\nc"
    # a mixed file keeps each of its lines' own ending; a new line takes the usual one
    mixed = three_way_merge("x\ny\n", "x\r\ny\nz\n", "w\nx\ny\n")
    assert mixed.text == "w\nx\r\ny\nz\n"
