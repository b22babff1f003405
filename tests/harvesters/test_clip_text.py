"""`clip_text`: cut to a byte budget on a character boundary, and report the true size."""

from __future__ import annotations

import pytest

from harvesters.base import clip_text


@pytest.mark.parametrize(
    ("text", "limit", "kept", "size"),
    [
        ("abcdef", 6, "abcdef", 6),  # ASCII at the limit: kept whole
        ("abcdefg", 6, "abcdef", 7),  # ASCII over it: cut
        ("", 4, "", 0),
        ("héllo", 6, "héllo", 6),  # é is two bytes
        ("héllo", 5, "héll", 6),
        ("日本語", 7, "日本", 9),  # never half a character
        ("a\udcffb", 16, "a\udcffb", 5),  # a lone surrogate counts its three bytes
    ],
)
def test_clip_text_keeps_whole_characters_and_the_original_size(
    text: str, limit: int, kept: str, size: int
) -> None:
    clipped, original = clip_text(text, limit)
    assert original == size
    if kept == text:
        assert clipped == text
    else:
        assert clipped == f"{kept}\n…[truncated: {size} bytes in all]"
