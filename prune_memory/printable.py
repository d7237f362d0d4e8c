"""The one sanitiser for text that reaches a terminal: memory text never drives it.

A memory, a file name or a link target can hold ESC sequences (clear the screen, set the
window title, hide what follows), C1 controls, backspaces. Every command prints memory
text through `printable`, which shows each such character as a visible escape (`\\x1b`)
instead; line breaks and tabs stay. `has_break` is what a single-line value (a rename's
NEW) must not hold.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls; a carriage return before a newline
# is a line ending, not a control, and goes quietly.
_CONTROL = re.compile(r"(\r(?=\n))|[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_JSON_CONTROLS = re.compile(r"[\x7f-\x9f]")  # JSON itself escapes the C0 controls
_BREAKS = re.compile(r"[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def printable(text: str) -> str:
    """`text` with every control character but newline and tab shown as `\\xNN`."""
    return _CONTROL.sub(_shown, text) if _CONTROL.search(text) else text


def printable_json(text: str) -> str:
    """JSON text with DEL and the C1 controls (which some terminals obey too) written as
    `\\u00NN`: still the same JSON."""
    return _JSON_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def has_control(text: str) -> bool:
    """Whether `text` holds a character `printable` would escape."""
    return bool(_CONTROL.search(text))


def has_break(text: str) -> bool:
    """Whether `text` holds anything a reader takes for a line break."""
    return bool(_BREAKS.search(text))


def _shown(match: re.Match[str]) -> str:
    return "" if match.group(1) else f"\\x{ord(match.group()):02x}"
