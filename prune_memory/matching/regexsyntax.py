"""Read a Python regular expression's source into a small tree, for reasoning, not matching.

`literals` (which literals every match holds, and whether a match can involve a line
break) reasons about a pattern's parts. The standard library keeps its own parser
private, so this module reads the syntax itself: literals, escapes, classes, groups,
look-arounds, alternation and repeats. Whatever it does not know (verbose mode, conditional
groups, numbered back-references, `\\N{...}`) raises `Unknown`, and the callers then assume
nothing, so a pattern this reader cannot follow simply runs unfiltered.

Nodes are (kind, value) tuples: ("LITERAL", code point), ("ANY", None), ("IN", members)
with members ("LITERAL", c), ("RANGE", (lo, hi)), ("CATEGORY", letter) and ("NEGATE", None),
("AT", anchor), ("BRANCH", [sequence, ...]), ("GROUP", (flags on, flags off, sequence)),
("ASSERT", sequence) for any look-around, ("REPEAT", (min, max, sequence)) and ("GROUPREF",
name). A sequence is a list of nodes.
"""

from __future__ import annotations

import re
from typing import Any

Node = tuple[str, Any]
FOREVER = -1  # the open end of `*`, `+` and `{m,}`

_FLAG_LETTERS = {"a": re.ASCII, "i": re.IGNORECASE, "L": re.LOCALE, "m": re.MULTILINE,
                 "s": re.DOTALL, "u": re.UNICODE, "x": re.VERBOSE}
_CONTROL = {"a": 7, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11}
_HEX_LENGTH = {"x": 2, "u": 4, "U": 8}
_ANCHORS = {"A": "BEGINNING_STRING", "Z": "END_STRING", "b": "BOUNDARY", "B": "NON_BOUNDARY"}
_CATEGORIES = "dDsSwW"
_OCTAL = re.compile(r"[0-7]{0,2}")
_REPEAT = re.compile(r"\{(\d*)(?:(,)(\d*))?\}")


class Unknown(ValueError):
    """The pattern uses syntax this reader does not follow; assume nothing about it."""


def parse(pattern: str, flags: int = 0) -> tuple[list[Node], int]:
    """The pattern's top-level sequence, and its flags with any leading `(?aiLmsux)`."""
    reader = _Reader(pattern)
    flags |= reader.leading_flags()
    if flags & (re.VERBOSE | re.LOCALE):
        raise Unknown("verbose or locale patterns are not read")
    tree = reader.alternation()
    if reader.at < len(pattern):
        raise Unknown(f"unbalanced ')' at {reader.at}")
    return tree, flags


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.at = 0

    def peek(self, length: int = 1) -> str:
        return self.source[self.at:self.at + length]

    def take(self) -> str:
        if self.at >= len(self.source):
            raise Unknown("pattern ends too soon")
        char = self.source[self.at]
        self.at += 1
        return char

    def leading_flags(self) -> int:
        found = re.match(r"\(\?([aiLmsux]+)\)", self.source[self.at:])
        flags = 0
        while found:
            flags |= _flags(found.group(1))
            self.at += found.end()
            found = re.match(r"\(\?([aiLmsux]+)\)", self.source[self.at:])
        return flags

    def alternation(self) -> list[Node]:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.at += 1
            branches.append(self.sequence())
        return branches[0] if len(branches) == 1 else [("BRANCH", branches)]

    def sequence(self) -> list[Node]:
        items: list[Node] = []
        while self.at < len(self.source) and self.peek() not in "|)":
            node = self.atom()
            if node is None:
                continue  # a comment
            repeat = self.repeat()
            if repeat is not None:
                if node[0] in ("AT", "ASSERT"):
                    raise Unknown("nothing to repeat")
                node = ("REPEAT", (*repeat, [node]))
            items.append(node)
        return items

    def repeat(self) -> tuple[int, int] | None:
        char = self.peek()
        if char in ("*", "+", "?"):
            self.at += 1
            bounds = {"*": (0, FOREVER), "+": (1, FOREVER), "?": (0, 1)}[char]
        elif char == "{" and (found := _REPEAT.match(self.source, self.at)) \
                and self.peek(2) != "{}":
            low, comma, high = found.groups()
            self.at = found.end()
            bounds = (int(low or 0), int(high) if high else (FOREVER if comma else int(low)))
        else:
            return None
        if self.peek() in ("?", "+"):
            self.at += 1  # lazy or possessive: the same strings can match
        if self.peek() in ("*", "+", "?") or (self.peek() == "{" and _REPEAT.match(
                self.source, self.at)):
            raise Unknown("multiple repeat")
        return bounds

    def atom(self) -> Node | None:
        char = self.take()
        if char == "(":
            return self.group()
        if char == "[":
            return ("IN", self.char_class())
        if char == ".":
            return ("ANY", None)
        if char == "^":
            return ("AT", "BEGINNING")
        if char == "$":
            return ("AT", "END")
        if char == "\\":
            return self.escape()
        if char in "*+?":
            raise Unknown("nothing to repeat")
        return ("LITERAL", ord(char))

    def escape(self) -> Node:
        char = self.take()
        if char in _ANCHORS:
            return ("AT", _ANCHORS[char])
        if char in _CATEGORIES:
            return ("IN", [("CATEGORY", char)])
        return ("LITERAL", self.escaped_char(char))

    def escaped_char(self, char: str) -> int:
        """The code point of an escape that stands for one character (after the backslash)."""
        if char in _CONTROL:
            return _CONTROL[char]
        if char in _HEX_LENGTH:
            digits = self.source[self.at:self.at + _HEX_LENGTH[char]]
            if len(digits) != _HEX_LENGTH[char] or not all(
                    d in "0123456789abcdefABCDEF" for d in digits):
                raise Unknown("bad hexadecimal escape")
            self.at += len(digits)
            return int(digits, 16)
        if char == "0":
            octal = _OCTAL.match(self.source, self.at)
            assert octal is not None  # the pattern can match nothing
            self.at = octal.end()
            return int("0" + octal.group(), 8)
        if char.isascii() and char.isalnum():
            raise Unknown(f"escape \\{char} is not read")  # back-references, \N{...}, errors
        return ord(char)

    def char_class(self) -> list[Node]:
        members: list[Node] = []
        if self.peek() == "^":
            self.at += 1
            members.append(("NEGATE", None))
        first = True
        while first or self.peek() != "]":
            first = False
            low = self.class_item()
            if self.peek() == "-" and self.peek(2) != "-]" and len(self.peek(2)) == 2:
                self.at += 1
                high = self.class_item()
                if low[0] != "LITERAL" or high[0] != "LITERAL" or high[1] < low[1]:
                    raise Unknown("bad range")
                members.append(("RANGE", (low[1], high[1])))
            else:
                members.append(low)
        self.at += 1
        return members

    def class_item(self) -> Node:
        char = self.take()
        if char != "\\":
            return ("LITERAL", ord(char))
        char = self.take()
        if char in _CATEGORIES:
            return ("CATEGORY", char)
        if char == "b":
            return ("LITERAL", 8)  # a backspace inside a class
        return ("LITERAL", self.escaped_char(char))

    def group(self) -> Node | None:
        if self.peek() != "?":
            return self.closed(("GROUP", (0, 0, self.alternation())))
        self.at += 1
        kind = self.take()
        if kind == ":":
            return self.closed(("GROUP", (0, 0, self.alternation())))
        if kind == ">":
            return self.closed(("GROUP", (0, 0, self.alternation())))  # atomic: same strings
        if kind in "=!":
            return self.closed(("ASSERT", self.alternation()))
        if kind == "<" and self.peek() in ("=", "!"):
            self.at += 1
            return self.closed(("ASSERT", self.alternation()))
        if kind == "#":
            end = self.source.find(")", self.at)
            if end < 0:
                raise Unknown("unterminated comment")
            self.at = end + 1
            return None
        if kind == "P":
            return self.named()
        self.at -= 1
        return self.scoped_flags()

    def named(self) -> Node:
        found = re.match(r"<(\w+)>|=(\w+)\)", self.source[self.at:])
        if not found:
            raise Unknown("bad named group")
        self.at += found.end()
        if found.group(2):
            return ("GROUPREF", found.group(2))
        return self.closed(("GROUP", (0, 0, self.alternation())))

    def scoped_flags(self) -> Node:
        found = re.match(r"([aiLmsux]*)(?:-([imsx]+))?:", self.source[self.at:])
        if not found or not (found.group(1) or found.group(2)):
            raise Unknown("unknown group")  # conditionals, late global flags, errors
        self.at += found.end()
        added, removed = _flags(found.group(1)), _flags(found.group(2) or "")
        if (added | removed) & (re.VERBOSE | re.LOCALE):
            raise Unknown("verbose or locale groups are not read")
        return self.closed(("GROUP", (added, removed, self.alternation())))

    def closed(self, node: Node) -> Node:
        if self.take() != ")":
            raise Unknown("missing )")
        return node


def _flags(letters: str) -> int:
    value = 0
    for letter in letters:
        value |= _FLAG_LETTERS[letter]
    return value
