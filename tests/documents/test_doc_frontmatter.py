"""Frontmatter round-trips byte-exact and validates against the Agent Skills rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from sleepd.documents.frontmatter import parse, validate_skill
from sleepd.documents.targets import (
    BEGIN_MARKER,
    TargetSpec,
    default_targets,
    editable_region,
    initial_content,
    user_target,
)
from sleepd.documents.versions import content_hash

ODD = (
    '---\r\nname: my-skill\r\ndescription: "Says: hi"  \r\n# a comment\r\n'
    "metadata:\r\n  author: me\r\nallowed-tools: Bash Read\r\n---\r\nBody\r\n"
)


def test_round_trip_is_byte_exact_and_unknown_keys_survive_a_change() -> None:
    doc = parse(ODD)
    assert doc.render() == ODD
    assert doc.frontmatter is not None and doc.frontmatter.get("description") == "Says: hi"
    doc.frontmatter.set("description", "New: text")
    out = doc.render()
    assert 'description: "New: text"\r\n' in out
    assert "# a comment\r\nmetadata:\r\n  author: me\r\nallowed-tools: Bash Read\r\n" in out


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("My-Skill", "lowercase"),
        ("-x", "lowercase"),
        ("a--b", "lowercase"),
        ("x" * 65, "max 64"),
        ("claude-helper", "'claude'"),
        ("anthropic-tools", "'anthropic'"),
    ],
)
def test_bad_skill_names_give_one_line_each(name: str, problem: str) -> None:
    errors = validate_skill(parse(f"---\nname: {name}\ndescription: ok\n---\n"))
    assert any(problem in e for e in errors) and all("\n" not in e for e in errors)


def test_description_rules_and_folder_match() -> None:
    assert validate_skill(parse("---\nname: ok\ndescription: fine\n---\n")) == []
    assert "missing or empty" in validate_skill(parse("---\nname: ok\ndescription:\n---\n"))[0]
    long = "d" * 1025
    assert "max 1024" in validate_skill(parse(f"---\nname: ok\ndescription: {long}\n---\n"))[0]
    assert validate_skill(parse("no frontmatter"))[0].startswith("SKILL.md has no")
    mismatch = validate_skill(parse("---\nname: ok\ndescription: x\n---\n"), directory_name="k")
    assert "does not match its folder" in mismatch[0]


def test_default_targets_and_initial_content_are_valid(tmp_path: Path) -> None:
    skill, agents = default_targets(tmp_path)
    assert skill.path == tmp_path / ".claude/skills/sleepd-learned/SKILL.md"
    assert (agents.kind, agents.editable) == ("agents", "managed_section")
    text = initial_content(skill)
    assert validate_skill(parse(text), directory_name="sleepd-learned") == []
    section = initial_content(agents)
    start, end = editable_region(section, "managed_section") or (0, 0)
    assert section[start:end] == "" and BEGIN_MARKER in section
    assert user_target(tmp_path / "CLAUDE.md", "# mine\n") == TargetSpec(
        tmp_path / "CLAUDE.md", "claude", "body"
    )
    assert user_target(tmp_path / "CLAUDE.md", "# mine\n", whole_body=False) is None


def test_content_hash_is_sha256_of_utf8() -> None:
    expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert content_hash("abc") == expected
    assert content_hash("é") != content_hash("e")
