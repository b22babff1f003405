"""Prompt templates are known by the lines their expansions share."""

from __future__ import annotations

from sleepd.mining.templates import MIN_SHARED, group_by_lines, line_keys, templates_of

BODY = [
    f"Step {n}: a line of the saved prompt that says what to do, number {n}." for n in range(20)
]
OTHER = [
    f"Phase {n}: another saved prompt's own instruction, item {n} of its list." for n in range(20)
]


def expansion(body: list[str], slot: str) -> str:
    return f"## User Input\n\n{slot}\n\n" + "\n".join(body)


def test_expansions_of_one_template_group_whatever_fills_the_slot() -> None:
    requests = [
        (1, expansion(BODY, "")),
        (2, expansion(OTHER, "do it")),
        (
            3,
            expansion(
                BODY, "a long slot\n" + "\n".join(f"my own requirement {n} here" for n in range(15))
            ),
        ),
        (4, "a short request"),
        (5, "\n".join(f"a long request line of its own, number {n}" for n in range(10))),
    ]
    groups = group_by_lines(requests)
    assert groups[1] == groups[3] == 1
    assert groups[2] == 2
    assert 4 not in groups  # too few long lines to be a template
    assert templates_of(groups) == {1: 1, 3: 1}  # alone, 2 and 5 expand no template


def test_a_later_request_never_changes_the_earlier_groups() -> None:
    requests = [(n, expansion(BODY if n % 2 else OTHER, f"slot {n}")) for n in range(1, 9)]
    whole = group_by_lines(requests)
    for end in range(1, len(requests)):
        prefix = group_by_lines(requests[:end])
        assert prefix == {k: v for k, v in whole.items() if k <= end}


def test_hostile_text_gives_no_template() -> None:
    assert line_keys("") == frozenset()
    assert len(line_keys("x" * 10_000_000)) <= 1
    noise = "\n".join("\x00" * 30 for _ in range(MIN_SHARED * 3))
    assert templates_of(group_by_lines([(1, noise), (2, noise)])) == {}  # one line, repeated
