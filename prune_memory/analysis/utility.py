"""The procedure's utility test, made mechanical: would anything go wrong without this entry?

Two shapes fail it with evidence a reader can check: notes about work that is finished and
holds no reusable lesson, and bare pointers to documentation anyone can search for.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from prune_memory.analysis.text import first_heading
from prune_memory.model import Entry, EntryKind, Finding, FindingCode

_DONE = re.compile(
    r"\b(?:is|was|has been|got) (?:now )?(?:resolved|fixed|merged|closed|shipped|completed)\b|"
    r"\bpost-?mortem\b|\bno follow-?up(?: actions?)? (?:left|remaining|needed)\b|"
    r"\bmerged in #\d+|\bfix went out\b", re.IGNORECASE)
_CONDITIONS = frozenset({"until", "once", "when", "if", "unless", "before", "after"})
_LESSON = re.compile(
    r"\b(?:lesson|workaround|to avoid|watch out|gotcha|when you see|if you see|next time|"
    r"always|never|do not|don't|remember to|pattern)\b", re.IGNORECASE)
_URL = re.compile(r"https?://[^\s)>\]]+")
_ANCHOR = re.compile(r"`[^`]+`|\b(?:we|our|us|this project|the project|ask in)\b|\[\[",
                     re.IGNORECASE)
PUBLIC_DOC_HOSTS = frozenset({
    "docs.python.org", "developer.mozilla.org", "docs.github.com", "react.dev", "reactjs.org",
    "nodejs.org", "docs.npmjs.com", "www.typescriptlang.org", "typescriptlang.org",
    "docs.djangoproject.com", "flask.palletsprojects.com", "docs.rs", "doc.rust-lang.org",
    "go.dev", "pkg.go.dev", "en.wikipedia.org", "stackoverflow.com", "docs.docker.com",
    "kubernetes.io", "www.postgresql.org", "redis.io", "git-scm.com", "peps.python.org",
    "vitest.dev", "jestjs.io", "pytest.org", "docs.pytest.org", "fastapi.tiangolo.com",
})


def check_utility(entry: Entry) -> tuple[Finding, ...]:
    """`low-utility` findings for completed work or a public-docs pointer, with evidence."""
    if entry.memory_type == "superseded":
        return ()
    done = redirect_stub(entry) or marked_done(entry) or _completed_work(entry)
    return tuple(f for f in (done, _public_reference(entry)) if f)


# A status its own head gives the work it is about: "(COMPLETED)", "— DONE", "Status:
# shipped", "✅ 已解决". Shouted or labelled only: "shipped in 3.0" names when a feature
# came, and the feature is still there to describe.
_STATUS_DONE = re.compile(
    r"\b(?:COMPLETED?|DONE|FINISHED|RESOLVED|SHIPPED|MERGED|CLOSED|IMPLEMENTED)\b|"
    r"(?i:\bstatus\s*[:：]\s*\**\s*(?:complete[d]?|done|finished|resolved|shipped|merged|"
    r"closed|implemented|fixed)\b)|✅\s*\**\s*(?:done|complete[d]?|resolved|fixed|shipped|merged|"
    r"已完成|已解决|已落地|已上线|已合并|完成)|(?:已完成|已解决|已落地|已上线|已合并)|"
    r"\b(?:erledigt|abgeschlossen|completado|terminado|resuelto)\b")


HEAD_LINES = 3
_STATUS_LABEL = re.compile(r"^\W*(?:status|state|estado|stand|状态|状態)\W*[:：]", re.IGNORECASE)


def marked_done(entry: Entry) -> Finding | None:
    """A plan or piece of work whose own head (name, description, first heading or first
    line) marks it finished. Rules and user notes are never work that finishes."""
    if entry.memory_type in ("feedback", "user") or entry.kind is EntryKind.INDEX_LINE:
        return None
    lines = [ln for ln in entry.body.splitlines() if ln.strip()]
    # a labelled status near the top is the head's too: "**Date:** May 2", "**Status:** DONE"
    head = [entry.name, entry.description, first_heading(entry.body), *lines[:1],
            *(ln for ln in lines[1:HEAD_LINES] if _STATUS_LABEL.match(ln))]
    for part in head:
        if found := _STATUS_DONE.search(part):
            return Finding(
                FindingCode.LOW_UTILITY,
                f"marked finished in its own head ({found.group(0).strip()!r}): a record of "
                "completed work, unless it holds a lesson still to be applied",
                evidence={"kind": "marked-done", "says": found.group(0).strip(),
                          "where": _where_said(entry, part)})
    return None


def _where_said(entry: Entry, part: str) -> str:
    if part == entry.name:
        return "name"
    if part == entry.description:
        return "description"
    return "first heading" if part == first_heading(entry.body) else "first lines"


def _completed_work(entry: Entry) -> Finding | None:
    done = next((m for m in _DONE.finditer(entry.body) if not _conditional(entry.body, m)), None)
    if done is None or _LESSON.search(entry.body):
        return None
    return Finding(
        FindingCode.LOW_UTILITY,
        f"describes finished work ({done.group(0)!r}) and holds no reusable lesson",
        evidence={"kind": "completed-work", "says": done.group(0)},
    )


def _conditional(text: str, match: re.Match[str]) -> bool:
    """'until it is fixed' speaks of work still open."""
    before = text[max(0, match.start() - 24):match.start()].lower().split()
    return bool(set(before[-2:]) & _CONDITIONS)


def _public_reference(entry: Entry) -> Finding | None:
    if entry.memory_type not in ("reference", None) or entry.kind is EntryKind.INDEX_LINE:
        return None
    hosts = sorted({urlsplit(u).hostname or "" for u in _URL.findall(entry.body)})
    if not hosts or any(h not in PUBLIC_DOC_HOSTS for h in hosts):
        return None
    if _ANCHOR.search(entry.body):
        return None
    return Finding(
        FindingCode.LOW_UTILITY,
        f"points only at public documentation ({', '.join(hosts)}) with no project-specific "
        "context: a search away",
        evidence={"kind": "public-reference", "hosts": hosts},
    )


# A file left only to point elsewhere: "Superseded by [[auth-v2]].", "Moved to `x.md`".
_REDIRECT = re.compile(
    r"\b(?:superseded by|replaced by|moved to|merged into|consolidated into|folded into|"
    r"see instead|now lives in|obsoleted by)\b|已(?:合并|迁移|移)(?:到|至|入)|被.{0,12}取代",
    re.IGNORECASE)
_TARGET = re.compile(r"\[\[[^\]]+\]\]|\]\([^)]+\.md\)|`[^`]+\.md`")
STUB_MAX_WORDS = 40


def redirect_stub(entry: Entry) -> Finding | None:
    """A short memory that only says where its content went: the stub is what to withdraw,
    not the memory it points at."""
    if entry.kind is EntryKind.INDEX_LINE:
        return None
    text = re.sub(r"^#.*$", "", entry.body, flags=re.MULTILINE)
    if len(text.split()) > STUB_MAX_WORDS:
        return None
    said = _REDIRECT.search(text) or _REDIRECT.search(entry.description)
    target = _TARGET.search(text) or _TARGET.search(entry.description)
    if said is None or target is None:
        return None
    return Finding(
        FindingCode.LOW_UTILITY,
        f"a stub that only points elsewhere ({said.group(0)!r} {target.group(0)}): the "
        "memory it points at holds the content",
        evidence={"kind": "redirect-stub", "says": said.group(0), "points_at": target.group(0)})
