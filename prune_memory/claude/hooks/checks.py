"""The gate's checks on text about to become memory: secrets, injected instructions, and the
retention policy's never-persist rules. They are the hygiene stage's own single-text checks.

Imported only when a write really targets a memory directory, so other writes never pay for it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

from prune_memory.analysis.poison import find_injection
from prune_memory.analysis.policy import Policy, default_policy, load_policy, match_filters
from prune_memory.analysis.sessions import lasting_rule
from prune_memory.claude.hooks.payload import Candidate
from prune_memory.errors import PruneMemoryError
from prune_memory.matching.timedregex import PatternTimeout, deadline, time_left
from prune_memory.secrets.base import SecretSpan
from prune_memory.secrets.mask import describe
from prune_memory.secrets.scan import DETECTORS, find_spans, hits_for
from prune_memory.secrets.vendor import VendorDetector
from prune_memory.store.files import read_or_none
from prune_memory.vocab import INDEX_FILE, OWN_FILES

# The plan's detectors, every one: those that need no detect-secrets import run first.
_PATTERNS = tuple(d for d in DETECTORS if not isinstance(d, VendorDetector))
_VENDOR = tuple(d for d in DETECTORS if isinstance(d, VendorDetector))


class GateHit(NamedTuple):
    """One reason to stop a write: the rule, where it sits, and a description with no secret."""

    rule: str  # "secret", "injected-instruction" or "never-persist:<rule id>"
    where: str
    line: int
    detail: str


class CheckResult(NamedTuple):
    hits: tuple[GateHit, ...]
    problems: tuple[str, ...]  # why a check ran with less than it should have (for the log)
    stopped: str = ""  # why the check ended before the end of the text ("": it did not)


# Long texts are checked a piece at a time, so the gate can stop when its time is up. Each
# piece repeats the end of the one before, so a secret (a PEM block, say) cut by a boundary
# is still seen whole in one of them.
PIECE_CHARS = 256 * 1024
OVERLAP_CHARS = 16 * 1024
ENOUGH_HITS = 64  # past this many the verdict cannot change: stop looking


def check_texts(texts: Iterable[Candidate], memory_dir: str, *,
                policy_rules: bool = True, seconds: float | None = None) -> CheckResult:
    """Every gate hit in `texts`, bound for `memory_dir` (whose retention policy applies),
    within `seconds` when given (then perhaps not `complete`).

    `policy_rules=False` leaves the never-persist rules out: the tool's own files quote the
    very phrases those rules look for (the policy's examples, the log's entry summaries).
    """
    policy, problems = _policy(memory_dir) if policy_rules else (None, ())
    hits: list[GateHit] = []
    with deadline(seconds) if seconds is not None else nullcontext():
        for candidate in texts:
            for piece, lines_before, lowest, upto in pieces(candidate.text):
                left = time_left()
                if len(hits) >= ENOUGH_HITS:
                    return CheckResult(tuple(hits), problems, f"it stopped after {ENOUGH_HITS} "
                                       "findings")
                if left is not None and left <= 0:
                    return CheckResult(tuple(hits), problems, "too long to check in the "
                                       "gate's time; a memory is a few KB")
                try:
                    found = _piece_hits(piece, candidate.where, policy)
                except PatternTimeout as err:
                    return CheckResult(tuple(hits), (*problems, str(err)), str(err))
                hits.extend(hit._replace(line=line) for hit in found
                            if lowest <= (line := hit.line + lines_before)
                            and (upto is None or line < upto))
    return CheckResult(tuple(dict.fromkeys(hits)), problems)


def lasting_rule_write(texts: Iterable[Candidate], target: str) -> bool:
    """Whether the memory this write leaves reads as a lasting rule (a `feedback` or `user`
    memory, or one with rule markers), as the plan's never-persist decision asks. A lasting
    rule may tell the session that taught it ("**Why:** in this session …"): that is its
    point, not session state. The type comes from the write when it brings frontmatter,
    else from the file as it is. The index is no memory: its many pointers' wording says
    nothing about a line being added to it."""
    if Path(target).name == INDEX_FILE:
        return False
    new = "\n".join(candidate.text for candidate in texts).removeprefix("\ufeff")
    raw = read_or_none(Path(target)) if not new.startswith("---") else None
    current = raw.decode("utf-8", errors="replace").removeprefix("\ufeff") if raw else ""
    return lasting_rule(_declared_type(new if new.startswith("---") else current),
                        f"{current}\n{new}") is not None


_TYPE_LINE = re.compile(r"^[ \t]*type:[ \t]*[\"']?([A-Za-z]+)", re.MULTILINE)


def _declared_type(text: str) -> str | None:
    """`type:` in the frontmatter (top level or under `metadata:`), read without YAML: the
    gate only needs the word, and loading a YAML parser would cost every write."""
    if not text.startswith("---"):
        return None
    end = text.find("\n---", 3)
    found = _TYPE_LINE.search(text, 3, end if end > 0 else len(text))
    return found.group(1).lower() if found else None


def _piece_hits(text: str, where: str, policy: Policy | None) -> list[GateHit]:
    hits = _secret_hits(Candidate(where, text))
    hits.extend(GateHit("injected-instruction", where, hit.line, hit.kind)
                for hit in find_injection(text))
    if policy is not None:
        hits.extend(GateHit(f"never-persist:{hit.rule}", where, hit.line, hit.reason)
                    for hit in match_filters(text, policy, within_lines=True))
    return hits


def pieces(text: str) -> Iterator[tuple[str, int, int, int | None]]:
    """`text` in pieces of about PIECE_CHARS cut at line ends, each starting up to
    OVERLAP_CHARS before the previous one ended; with the lines that come before it, and
    the lines whose findings it reports: from the middle of its overlap with the piece
    before to the middle of its overlap with the next (None: to the end). A secret shorter
    than half the overlap is seen whole, with what precedes it, by the piece that reports
    it. A piece that starts inside the very line at the middle of its overlap (no line end
    near) shares its findings with the piece before instead."""
    spans = _piece_spans(text)
    lines = _LineCounter(text)  # counted forward once: recounting from 0 was quadratic
    middles = [_middle_line(text, lines, after, end)
               for (_, end), (after, _) in pairwise(spans)]
    for n, (begin, end) in enumerate(spans):
        lowest = (middles[n - 1] if n else None) or 1
        upto = middles[n] if n < len(middles) else None
        yield text[begin:end], lines.before(begin), lowest, upto


class _LineCounter:
    """Line ends before an offset, for offsets asked in (mostly) rising order."""

    def __init__(self, text: str) -> None:
        self.text, self.at, self.count = text, 0, 0

    def before(self, offset: int) -> int:
        if offset < self.at:
            self.at, self.count = 0, 0
        self.count += self.text.count("\n", self.at, offset)
        self.at = offset
        return self.count


def _middle_line(text: str, lines: _LineCounter, after: int, end: int) -> int | None:
    """The line at the middle of the overlap between a piece ending at `end` and the next,
    starting at `after`: the first line the next piece reports. None when that line is the
    one the next piece starts inside (it does not see it whole): then both report."""
    starts_inside = lines.before(after) + 1
    middle = lines.before((after + end) // 2) + 1
    return middle if text[after - 1] == "\n" or middle > starts_inside else None


def _piece_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    while start < len(text) or not spans:
        end = len(text) if start + PIECE_CHARS >= len(text) else \
            (text.rfind("\n", start, start + PIECE_CHARS) + 1 or start + PIECE_CHARS)
        cut = max(0, start - OVERLAP_CHARS)  # back to a line start near it, if there is one
        begin = 0 if start == 0 else \
            (text.rfind("\n", max(0, cut - OVERLAP_CHARS), cut) + 1) or cut
        spans.append((begin, end))
        start = max(end, start + 1)
    return spans


def is_own_file(path: str, memory_dir: str) -> bool:
    """Whether `path` is the pruning log or the retention policy of `memory_dir`."""
    real = os.path.realpath(path)
    return os.path.dirname(real) == memory_dir and os.path.basename(real) in OWN_FILES


def secret_spans(text: str) -> tuple[SecretSpan, ...]:
    """The scan's spans, with the vendor plugins run only over text the patterns left alone.

    A token our own patterns already caught then never costs the detect-secrets import, which
    alone would use up the gate's time budget; vendor finds elsewhere are still reported.
    """
    found = find_spans(text, _PATTERNS)
    blanked = _blank(text, found)
    extra = tuple(span for span in find_spans(blanked, _VENDOR)
                  if not any(span.overlaps(other) for other in found))
    return tuple(sorted(found + extra, key=lambda span: span.start))


def _secret_hits(candidate: Candidate) -> list[GateHit]:
    spans = secret_spans(candidate.text)
    return [GateHit("secret", candidate.where, hit.line, describe(hit))
            for hit in hits_for(candidate.text, spans)]


def _blank(text: str, spans: tuple[SecretSpan, ...]) -> str:
    """`text` with each span replaced by spaces, so offsets stay the same."""
    if not spans:
        return text
    pieces, cursor = [], 0
    for span in spans:
        pieces += [text[cursor:span.start], " " * span.length]
        cursor = span.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _policy(memory_dir: str) -> tuple[Policy, tuple[str, ...]]:
    """The directory's policy; the built-in rules (and a note) when its file cannot be used."""
    try:
        return load_policy(Path(memory_dir)), ()
    except PruneMemoryError as err:
        return default_policy(), (f"retention policy unusable, built-in rules applied: {err}",)
