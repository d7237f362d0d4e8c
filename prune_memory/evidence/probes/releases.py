"""version-drift (releases): "v2.0 is the current stable release" when 3.1.0 has shipped.

A memory that says which release is current (or which one is the baseline it describes)
is checked against what the repo says was released: its version tags and the top release
of CHANGELOG.md. Both must be newer than the claim before it counts as stale, so an
unreleased tag or a changelog someone forgot to update cannot alone make a memory wrong.
"""

from __future__ import annotations

import re
from pathlib import Path

from prune_memory.analysis.text import entry_sentences, mentions_change, planned
from prune_memory.evidence.gitrepo import RepoFacts
from prune_memory.evidence.probes.base import EMPTY, Claim, ProbeContext, ProbeResult, Verdict, flag
from prune_memory.model import Entry, FindingCode

KIND = "release"

def _version(group: str) -> str:
    # "$0.13" is a price, "0.5%" a share: neither is a release
    return rf"(?<![\w.$€£¥])v?(?P<{group}>\d+\.\d+(?:\.\d+)?)\b(?!\s*%)"


# Between the cue and the number: words, not a mapping printed from code
# (`{'version': '0.0.0.dev0'}` is what a call returned).
_BETWEEN = r"""(?:(?!['"]\s*:)[^\n{}]){0,30}?"""
_CLAIM = re.compile(
    rf"\b(?:current(?:ly)?|latest|stable|baseline|as of|now (?:at|on)|we(?:'re| are) on|"
    rf"version)\b{_BETWEEN}{_version('a')}|{_version('b')}{_BETWEEN}"
    rf"\b(?:is|as) (?:the )?(?:current|latest)(?: stable)? (?:release|version)\b|"
    rf"{_version('c')}\s+baseline\b", re.IGNORECASE)
_TAG = re.compile(r"^v?(\d+(?:\.\d+){1,2})$")
_CHANGELOG_RELEASE = re.compile(r"^#{1,3}\s*\[?v?(\d+\.\d+(?:\.\d+)?)\]?", re.MULTILINE)
CHANGELOGS = ("CHANGELOG.md", "CHANGELOG", "CHANGES.md", "HISTORY.md")


class ReleaseProbe:
    """Compares a stated current release with the repo's tags and changelog."""

    code = FindingCode.VERSION_DRIFT

    def check(self, entry: Entry, ctx: ProbeContext) -> ProbeResult:
        if not ctx.facts.available:
            return EMPTY
        released = ctx.memo("release.latest", lambda: _released(ctx.facts))
        if not released:
            return EMPTY
        result = EMPTY
        seen: set[str] = set()
        for sentence in entry_sentences(entry):
            if mentions_change(sentence) or planned(sentence):
                continue
            for match in _CLAIM.finditer(sentence):
                stated = next(v for v in match.groupdict().values() if v)
                if stated not in seen:
                    seen.add(stated)
                    result = result + _verdict(match.group(0), stated, released)
        return result


def _released(facts: RepoFacts) -> dict[str, tuple[tuple[int, ...], str]]:
    """The newest release by each source: {source: (version, how it is shown)}."""
    out: dict[str, tuple[tuple[int, ...], str]] = {}
    tags = [(_parse(m.group(1)), t) for t in facts.tags if (m := _TAG.match(t.name))]
    if tags:
        version, tag = max(tags, key=lambda pair: pair[0])
        when = f", {tag.date.date()}" if tag.date else ""
        out["tags"] = (version, f"tag {tag.name} ({tag.commit}{when})")
    top = _changelog_top(facts.root)
    if top is not None:
        out["changelog"] = top
    return out


def _changelog_top(root: Path | None) -> tuple[tuple[int, ...], str] | None:
    for name in CHANGELOGS:
        try:
            text = (root / name).read_text(encoding="utf-8", errors="replace") if root else ""
        except OSError:
            continue
        found = _CHANGELOG_RELEASE.search(text)
        if found:
            return _parse(found.group(1)), f"{name} lists {found.group(1)} as its newest release"
    return None


def _verdict(phrase: str, stated: str, released: dict[str, tuple[tuple[int, ...], str]],
             ) -> ProbeResult:
    claimed = _parse(stated)
    newer = [shown for version, shown in released.values() if _pad(version) > _pad(claimed)]
    if len(newer) < len(released):
        return ProbeResult((Claim(KIND, phrase, Verdict.CONFIRMED, "matches the releases"),))
    story = " and ".join(newer)
    message = f"says {phrase.strip()!r}, but {story}"
    evidence = {"memory_says": phrase.strip(), "claim": stated, "repo_says": story,
                "kind": "release", "commit": None, "date": None}
    return ProbeResult((Claim(KIND, phrase, Verdict.CONTRADICTED, story),),
                       (flag(FindingCode.VERSION_DRIFT, message, evidence),))


def _parse(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _pad(version: tuple[int, ...]) -> tuple[int, ...]:
    return (*version, 0, 0, 0)[:3]
