"""`sk-` keys shorter than the vendor formats: sixteen to nineteen characters after the dash.

Older and self-hosted services issue keys this short, and a test key of this shape is what
a store lint's own self-check plants. The body must mix letters and digits, so `sk-` words
in prose (`sk-learn`, a hyphenated name) are left alone; twenty characters and more are the
vendor pattern's (`patterns.py`), so the two never report the same key.
"""

from __future__ import annotations

import re

from prune_memory.matching.regexgate import LazyPattern
from prune_memory.secrets.base import VENDOR_FORMAT
from prune_memory.secrets.patterns import LabelledPattern, PatternDetector

SHORT_KEY_LABEL = "api-key-short"


def _letters_and_digits(value: str) -> bool:
    body = value.removeprefix("sk-")
    return any(ch.isdigit() for ch in body) and any(ch.isalpha() for ch in body)


SHORT_KEYS = (LabelledPattern(
    SHORT_KEY_LABEL,
    LazyPattern(r"(?<![\w-])sk-[A-Za-z0-9]{16,19}(?![\w-])", re.ASCII),
    VENDOR_FORMAT, _letters_and_digits, needles=("sk-",)),)


class ShortKeyDetector(PatternDetector):
    name = "short-keys"

    def __init__(self) -> None:
        super().__init__(SHORT_KEYS)
