"""One-line YAML scalars that read back as exactly the string that was written."""

from __future__ import annotations

import json
from typing import Any

import yaml
from yaml.reader import Reader

_NON_PRINTABLE = Reader.NON_PRINTABLE


def scalar(value: str) -> str:
    """`value` as a YAML scalar on one line: plain when that is safe, else double-quoted."""
    if value and "\n" not in value and value == value.strip() and _plain_reads_back(value):
        return value
    quoted = json.dumps(value, ensure_ascii=False)
    # YAML refuses some characters JSON leaves raw (DEL, C1 controls…): escape those too.
    return _NON_PRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


def flow(value: Any) -> str:
    """A list or mapping as one line of YAML flow (JSON is a subset YAML reads)."""
    return _NON_PRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}",
                              json.dumps(value, ensure_ascii=False))


def _plain_reads_back(value: str) -> bool:
    try:
        loaded = yaml.safe_load(f"k: {value}")
    except yaml.YAMLError:
        return False
    return isinstance(loaded, dict) and loaded.get("k") == value
