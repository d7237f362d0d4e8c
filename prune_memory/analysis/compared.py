"""What the fidelity checks compare: each entry's words, worked out once, and its text as
evidence may show it (secret values masked)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from prune_memory.analysis.similarity import Corpus, has_words
from prune_memory.model import JSON, Entry, EntryKind
from prune_memory.secrets.mask import mask_text


@dataclass(frozen=True)
class ComparedTexts:
    """The entries that say something, with their words worked out once."""

    entries: list[Entry]
    texts: list[str]
    corpus: Corpus
    masked: dict[int, str] = field(default_factory=dict)

    def shown(self, i: int) -> str:
        """Entry i's text with secret values masked, as evidence may be printed or logged."""
        text = self.masked.get(i)
        if text is None:
            text = self.masked[i] = mask_text(self.texts[i])
        return text


def analysed_text(entry: Entry) -> str:
    """What is compared: the frontmatter-free body; for an inline index fact, the line's text."""
    if entry.kind is EntryKind.INDEX_LINE:
        return entry.body or entry.description
    return entry.body


def compared_texts(entries: Sequence[Entry]) -> ComparedTexts:
    # an entry without words is the noise check's business, not a duplicate
    said = [(entry, analysed_text(entry)) for entry in entries]
    said = [(entry, text) for entry, text in said if has_words(text)]
    return ComparedTexts([entry for entry, _ in said], [text for _, text in said],
                  Corpus([text for _, text in said]))


def pair_texts(data: ComparedTexts, this: int, that: int) -> JSON:
    return {"text": data.shown(this), "other_file": data.entries[that].file,
            "other_text": data.shown(that)}


def written_dates(this: Entry, other: Entry) -> JSON:
    """When each side was last written, and by which signal (modified: or mtime)."""
    return {"written": {e.file: f"{e.written_at[0].isoformat()} ({e.written_at[1]})"
                        for e in (this, other)}}
