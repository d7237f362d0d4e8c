"""Say what a secret is without saying what it is; clean any text before it is shown or saved."""

from __future__ import annotations

from prune_memory.secrets.base import SecretHit
from prune_memory.secrets.scan import find_spans, hits_for


def describe(hit: SecretHit) -> str:
    """A one-line description such as `github-token ghp_… (40 chars)`."""
    return f"{hit.label} {hit.first4}… ({hit.length} chars)"


def mask_text(text: str) -> str:
    """`text` with every detected secret value replaced by its description in brackets."""
    spans = find_spans(text)
    if not spans:
        return text
    pieces: list[str] = []
    cursor = 0
    for span, hit in zip(spans, hits_for(text, spans), strict=True):
        pieces.append(text[cursor:span.start])
        pieces.append(f"[{describe(hit)}]")
        cursor = span.end
    pieces.append(text[cursor:])
    return "".join(pieces)
