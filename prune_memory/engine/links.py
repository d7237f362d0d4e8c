"""Links in kept memories to an entry being withdrawn: unlink them, and put them back.

A withdrawal turns each `[[name]]` (or `[[name|label]]`) and each markdown link to its file
(`[label](file.md)`, `[label](./file.md#part)`) in the other topic files into plain words
that say where the memory went; a link shown as code is left as written. Each edit is
recorded as spans — byte offset, the old text, the new text — with the file's hash before
and after, so the same record can finish the edit after a crash and `restore` can undo it
exactly. The record holds link text only, never a memory's body.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

from prune_memory.model import JSON
from prune_memory.secrets.mask import mask_text
from prune_memory.store.files import (
    inside,
    read_or_none,
    read_scanned,
    replace_if,
    sha256,
    sha_or_none,
    topic_names,
)
from prune_memory.store.wikinames import wiki_key


@dataclass(frozen=True)
class LinkEdit:
    """The `[[links]]` one withdrawal unlinked in one kept file."""

    file: str
    before_sha256: str
    after_sha256: str
    spans: tuple[tuple[int, str, str], ...]  # (byte offset in the file before, old, new)

    def to_json(self) -> JSON:
        return {"file": self.file, "before_sha256": self.before_sha256,
                "after_sha256": self.after_sha256,
                "spans": [list(span) for span in self.spans]}

    @classmethod
    def from_json(cls, data: JSON) -> LinkEdit:
        return cls(file=str(data["file"]), before_sha256=str(data["before_sha256"]),
                   after_sha256=str(data["after_sha256"]),
                   spans=tuple((int(at), str(old), str(new)) for at, old, new in data["spans"]))

    @property
    def links(self) -> tuple[str, ...]:
        return tuple(old for _, old, _ in self.spans)


def wiki_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """`[[name]]`, `[[name#part]]` and `[[name|label]]` for any of `names`."""
    alternatives = sorted({n for n in names if n}, key=len, reverse=True)
    if not alternatives:
        return None
    body = "|".join(re.escape(n) for n in alternatives)
    return re.compile(r"\[\[\s*(?:" + body + r")\s*(?:#[^\]|\n]*)?(?:\|([^\]\n]*))?\]\]")


def markdown_pattern(files: Iterable[str]) -> re.Pattern[str] | None:
    """`[label](file.md)`, with `./`, a `#part`, angle brackets or a title, for any of
    `files` (names ending in `.md`); an image (`![..](..)`) is no link to a memory."""
    alternatives = sorted({f for f in files if f.endswith(".md")}, key=len, reverse=True)
    if not alternatives:
        return None
    body = "(?:" + "|".join(re.escape(f) for f in alternatives) + ")"
    return re.compile(r"(?<!!)\[([^\[\]\n]*)\]\(\s*(?:<(?:\./)?" + body + r"(?:#[^>\n]*)?>"
                      r"|(?:\./)?" + body + r"(?:#[^)\s]*)?)(?:\s+\"[^\"\n]*\")?\s*\)")


def plan_link_edits(root: Path, names: Iterable[str], *, register_id: str,
                    spare: Collection[str]) -> tuple[LinkEdit, ...]:
    """The edits that would unlink `names` in every top-level topic file but `spare`."""
    return LinkIndex.read(root).plan(names, register_id=register_id, spare=spare)


# The name part of a `[[name#part|label]]` link, as `wiki_pattern` would match it.
_LINK_NAME = re.compile(r"\[\[\s*([^\[\]\n#|]*?)\s*(?:[#|][^\]\n]*)?\]\]")
_ODD_NAME = re.compile(r"[\[\]\n#|]|^\s|\s$")
# The memory file a markdown link names, as `markdown_pattern` would match it.
_MD_TARGET = re.compile(r"\]\(\s*<?(?:\./)?([^()\s<>#]+\.md)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)


class LinkIndex:
    """The kept files that hold `[[links]]`, by the name each link uses, read once for a
    batch of withdrawals. Each edit planned is applied to the text kept here, so the next
    withdrawal in the batch plans on the file as the ones before it will leave it."""

    def __init__(self, texts: dict[str, bytes], stems: Iterable[str] = ()) -> None:
        self.texts = texts
        # How many topic files answer to each loose key: who else a loose name may mean.
        self.stem_keys = Counter(wiki_key(stem) for stem in set(stems))
        self.by_name: dict[str, set[str]] = {}
        self.by_key: dict[str, set[str]] = {}  # loose key → the `[[names]]` written for it
        for file, raw in texts.items():
            text = raw.decode("utf-8", errors="replace")
            wiki = _LINK_NAME.findall(text)
            for name in wiki:
                self.by_key.setdefault(wiki_key(name), set()).add(name)
            for name in (*wiki, *_MD_TARGET.findall(text)):
                self.by_name.setdefault(name, set()).add(file)

    @classmethod
    def read(cls, root: Path) -> LinkIndex:
        files = topic_names(root)
        texts = {file: raw for file in files
                 if (raw := read_scanned(root / file)) is not None
                 and (b"[[" in raw or b".md" in raw)}
        return cls(texts, (Path(file).stem for file in files))

    def _written_loosely(self, wanted: list[str]) -> list[str]:
        """The `[[names]]` written loosely for `wanted` (another case, `-` for `_`, no type
        prefix) that no other memory's file stem also answers to."""
        own = {wiki_key(n) for n in wanted if n.endswith(".md")}  # its own file's key
        return sorted(name for key in {wiki_key(n) for n in wanted}
                      if self.stem_keys[key] <= (1 if key in own else 0)
                      for name in self.by_key.get(key, ()) if name not in wanted)

    def plan(self, names: Iterable[str], *, register_id: str,
             spare: Collection[str]) -> tuple[LinkEdit, ...]:
        """The edits that unlink `names` in every file here but `spare`."""
        wanted = [n for n in names if n]
        wanted += self._written_loosely(wanted)
        odd = any(_ODD_NAME.search(n) for n in wanted)  # a name the index cannot key
        files = set(self.texts) if odd else set().union(
            *(self.by_name.get(n, set()) for n in wanted))
        patterns = [p for p in (wiki_pattern(wanted), markdown_pattern(wanted)) if p] \
            if files - set(spare) else []
        if not patterns:
            return ()
        edits: list[LinkEdit] = []
        for file in sorted(files - set(spare)):
            raw = self.texts[file]
            spans = _spans(raw, patterns, register_id)
            if spans:
                after = _replaced(raw, spans)
                edits.append(LinkEdit(file, sha256(raw), sha256(after), spans))
                self.texts[file] = after
        return tuple(edits)


def _spans(raw: bytes, patterns: list[re.Pattern[str]],
           register_id: str) -> tuple[tuple[int, str, str], ...]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return ()  # not ours to re-encode
    code = [m.span() for m in _CODE_SPAN.finditer(text)]
    matches = sorted((m for p in patterns for m in p.finditer(text)
                      if not any(a <= m.start() < b for a, b in code)), key=lambda m: m.start())
    spans: list[tuple[int, str, str]] = []
    end = 0
    for match in matches:
        if match.start() < end or mask_text(match.group(0)) != match.group(0):
            continue  # inside a link already taken, or its words hold a secret: the
            # record would copy it into the tombstone, so that link is left as it is
        words = (match.group(1) or "").strip() or _name_of(match.group(0))
        offset = len(text[:match.start()].encode("utf-8"))
        spans.append((offset, match.group(0), f"{words} (withdrawn, register {register_id})"))
        end = match.end()
    return tuple(spans)


def _name_of(link: str) -> str:
    return re.split(r"[#|]", link[2:-2], maxsplit=1)[0].strip()


def _replaced(raw: bytes, spans: Iterable[tuple[int, str, str]], *,
              backwards: bool = False) -> bytes:
    """`raw` with each span's old text swapped for its new one (or back, `backwards`)."""
    out = bytearray()
    cursor = shift = 0
    for at, old, new in spans:
        src, dst = (new, old) if backwards else (old, new)
        start = at + shift if backwards else at
        piece = src.encode("utf-8")
        if raw[start:start + len(piece)] != piece:
            raise ValueError("the text at the recorded place is not the link")
        out += raw[cursor:start] + dst.encode("utf-8")
        cursor = start + len(piece)
        shift += len(new.encode("utf-8")) - len(old.encode("utf-8"))
    return bytes(out + raw[cursor:])


def apply_edit(root: Path, edit: LinkEdit) -> bool:
    """Unlink in `edit.file` if it still holds the bytes the edit was planned on; True when
    the file now holds the edited text (done before, or done now)."""
    raw = read_or_none(inside(root, edit.file))
    if raw is None or sha256(raw) == edit.after_sha256:
        return raw is not None
    if sha256(raw) != edit.before_sha256:
        return False  # changed since: left as it is, the link stays for `scan` to report
    replace_if(root / edit.file, edit.before_sha256, _replaced(raw, edit.spans))
    return sha_or_none(root / edit.file) == edit.after_sha256


def revert_edit(root: Path, edit: LinkEdit) -> str:
    """Put the links back: `reverted`, `unchanged` (nothing of ours there), or `changed`
    (the file was edited since; the links were put back where their words still stand).
    The edit may come from a tombstone header, which anyone can edit: only a file directly
    in the memory directory is ever written."""
    raw = read_or_none(inside(root, edit.file))
    if raw is None or sha256(raw) == edit.before_sha256:
        return "unchanged"
    if sha256(raw) == edit.after_sha256:
        replace_if(root / edit.file, edit.after_sha256,
                   _replaced(raw, edit.spans, backwards=True))
        return "reverted"
    text = raw.decode("utf-8", errors="strict") if _utf8(raw) else None
    if text is None or not any(new in text for _, _, new in edit.spans):
        return "unchanged"
    for _, old, new in edit.spans:
        text = text.replace(new, old, 1)
    replace_if(root / edit.file, sha256(raw), text.encode("utf-8"))
    return "changed"


def _utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
