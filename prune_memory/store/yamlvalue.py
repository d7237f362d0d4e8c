"""One-line YAML scalars that read back as exactly the string that was written."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

import yaml
from yaml.reader import Reader

# What YAML must not see raw in a one-line scalar: its non-printable characters, and the
# ones it reads as line breaks (NEL, LS, PS) though JSON leaves them as they are.
_ESCAPE = re.compile(f"{Reader.NON_PRINTABLE.pattern}|[\x85\u2028\u2029]")


def scalar(value: str) -> str:
    """`value` as a YAML scalar on one line: plain when that is safe, else double-quoted."""
    if value and "\n" not in value and value == value.strip() and _plain_reads_back(value):
        return value
    quoted = json.dumps(value, ensure_ascii=False)
    # YAML refuses some characters JSON leaves raw (DEL, C1 controls…): escape those too.
    return _ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


def flow(value: Any) -> str:
    """A list or mapping as one line of YAML flow (JSON is a subset YAML reads)."""
    return _ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}",
                       json.dumps(value, ensure_ascii=False))


_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z0-9_ .,/()'+-]*|[0-9a-f]*[a-f][0-9a-f]*")
_YAML_WORDS = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null"})


@lru_cache(maxsize=256)
def _plain_reads_back(value: str) -> bool:
    if _SIMPLE.fullmatch(value) and value.lower() not in _YAML_WORDS:
        return True  # plain words, or hex with a letter in it: YAML keeps these as text
    try:
        loaded = yaml.safe_load(f"k: {value}")
    except (yaml.YAMLError, ValueError):  # ValueError: a date-shaped value that is no date
        return False
    return isinstance(loaded, dict) and loaded.get("k") == value
