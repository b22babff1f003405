"""Shannon entropy, the test gitleaks uses to tell random keys from words."""

from __future__ import annotations

import itertools
import math
from collections import Counter


def shannon_entropy(text: str) -> float:
    """Bits per character of ``text`` (0.0 for the empty string)."""
    if not text:
        return 0.0
    length = len(text)
    return -sum(c / length * math.log2(c / length) for c in Counter(text).values())


#: A digitless value shorter than this is read as a word or a name, however its case runs.
RANDOM_LETTERS_MIN = 16
#: Random mixed case changes case at about every other letter; a name in camelCase
#: changes it twice a word.
RANDOM_CASE_SWITCHES = 0.35
#: Two capitals side by side: a quarter of a random value's neighbours, rare in a name.
RANDOM_PAIRS = 0.1


def looks_random(text: str) -> bool:
    """A value with no digit that still reads as generated, not as a name: long, made of
    letters in mixed case whose case changes as often as a coin's ("ocXwvFDovohxqsatBIvc…",
    not "AbstractSingletonProxyFactoryBean" or "XMLHttpRequestEventTarget")."""
    letters = [c for c in text if c.isalpha()]
    if len(text) < RANDOM_LETTERS_MIN or len(letters) < len(text) * 0.9:
        return False
    upper = sum(c.isupper() for c in letters)
    if not 0.25 <= upper / len(letters) <= 0.75:
        return False
    pairs = list(itertools.pairwise(letters))
    switches = sum(a.isupper() != b.isupper() for a, b in pairs)
    # short words change case as often ("ThisIsAVeryLongName"), but never put two capitals
    # side by side as often as chance does
    capitals = sum(a.isupper() and b.isupper() for a, b in pairs)
    return switches / len(pairs) >= RANDOM_CASE_SWITCHES and capitals / len(pairs) >= RANDOM_PAIRS
