"""Anchored, bounded edits and their parser."""

from __future__ import annotations

from sleepd.documents.edits import Edit, EditBudget, ParseError, apply_edits, parse_edits
from sleepd.documents.targets import BEGIN_MARKER, END_MARKER

DOC = (
    "---\nname: demo\ndescription: A demo.\n---\n# Notes\n\n"
    "Run the tests with make test.\nUse ruff.\nUse ruff.\nKeep commits small.\n"
)
BIG = EditBudget(max_edits=10, max_chars=10_000)


def test_add_replace_delete_apply_in_order() -> None:
    edits = [
        Edit("add", "Run the tests with make test.\n", "Read the README first.\n", "before"),
        Edit("replace", "Keep commits small.", "Keep commits small and focused."),
        Edit("delete", "# Notes\n"),
    ]
    result = apply_edits(DOC, edits, editable="body", budget=BIG)
    assert result.rejected == []
    assert "Read the README first.\nRun the tests" in result.content
    assert "small and focused." in result.content and "# Notes" not in result.content
    assert result.content.startswith("---\nname: demo\n")


def test_missing_ambiguous_and_frontmatter_anchors_are_refused_with_reasons() -> None:
    edits = [
        Edit("add", "Use ruff.", " Always."),
        Edit("replace", "not in the doc", "x"),
        Edit("replace", "name: demo", "name: evil"),
    ]
    result = apply_edits(DOC, edits, editable="body", budget=BIG)
    reasons = [r for _, r in result.rejected]
    assert result.content == DOC and result.counts["rejected"] == 3
    assert "ambiguous (2 matches)" in reasons[0]
    assert reasons[1].startswith("anchor not found")
    assert reasons[2].startswith("anchor outside the editable region")


def test_budget_limits_edits_and_characters() -> None:
    edits = [Edit("add", "Keep commits small.", "!" * 30), Edit("add", "# Notes", "?" * 30)]
    one = apply_edits(DOC, edits, editable="body", budget=EditBudget(max_edits=1))
    assert one.counts["applied"] == 1 and "edit budget" in one.rejected[0][1]
    chars = apply_edits(DOC, edits, editable="body", budget=EditBudget(max_chars=40))
    assert chars.counts == {"applied": 1, "rejected": 1, "chars_changed": 30}


def test_whole_region_rewrite_is_refused() -> None:
    body = DOC[DOC.index("# Notes") :]
    whole = apply_edits(DOC, [Edit("replace", body, "new")], editable="body", budget=BIG)
    assert "whole-region" in whole.rejected[0][1]
    most = body[: int(len(body) * 0.6)]
    big = apply_edits(DOC, [Edit("delete", most)], editable="body", budget=BIG)
    assert "over 50%" in big.rejected[0][1]


def test_managed_section_confines_edits_and_empty_section_accepts_first_add() -> None:
    doc = f"# Mine\nUse ruff.\n{BEGIN_MARKER}\n{END_MARKER}\n"
    outside = apply_edits(
        doc, [Edit("add", "Use ruff.", "x")], editable="managed_section", budget=BIG
    )
    assert "outside the editable region" in outside.rejected[0][1]
    first = apply_edits(
        doc, [Edit("add", "", "- Run make lint.")], editable="managed_section", budget=BIG
    )
    assert first.content == f"# Mine\nUse ruff.\n{BEGIN_MARKER}\n- Run make lint.\n{END_MARKER}\n"
    none = apply_edits("# plain\n", [Edit("add", "", "x")], editable="managed_section", budget=BIG)
    assert "no sleepd managed section" in none.rejected[0][1]


def test_parse_edits_reads_fenced_json_and_reports_malformed() -> None:
    reply = 'Sure:\n```json\n{"edits": [{"op": "delete", "anchor": "a"}], "rationale": "r"}\n```'
    parsed = parse_edits(reply)
    assert parsed == [Edit("delete", "a")]
    bad = parse_edits('{"edits": [{"op": "explode", "anchor": "a"}, {"op": "add"}]}')
    assert isinstance(bad, ParseError) and bad.message.startswith("2 of 2 edit(s) malformed")
    assert isinstance(parse_edits("no json here"), ParseError)
    # a model's reply nested past the parser's reach is malformed, never a crash
    assert isinstance(parse_edits('{"edits": ' + "[" * 100_000 + "]" * 100_000 + "}"), ParseError)
