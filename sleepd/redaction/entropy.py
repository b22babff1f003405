"""Shannon entropy, the test gitleaks uses to tell random keys from words."""

from __future__ import annotations

import math
from collections import Counter


def shannon_entropy(text: str) -> float:
    """Bits per character of ``text`` (0.0 for the empty string)."""
    if not text:
        return 0.0
    length = len(text)
    return -sum(c / length * math.log2(c / length) for c in Counter(text).values())
