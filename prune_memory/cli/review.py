"""What every key of the review works with: the session, the memories' texts, the
terminal, the clock, and the preview of what a decision would write."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from rich.console import Console

from prune_memory.cli.common import ask
from prune_memory.cli.external import page
from prune_memory.engine.preview import Preview, preview
from prune_memory.plan import Inoculation, Plan
from prune_memory.procedure.apply import as_changes
from prune_memory.procedure.review import Proposal, ReviewSession, Verdict
from prune_memory.report.wrapping import wrap


@dataclass
class Review:
    """What the keys need besides the session: the memories, the terminal, the clock, and
    how to check a SUPERSEDED note."""

    session: ReviewSession
    texts: Mapping[str, str]  # file → the memory's text (body and description)
    bodies: Mapping[str, str]  # file → what an update rewrites: the body, or a fact's line
    console: Console
    check: Callable[[Inoculation], str | None]
    plan: Plan | None = None
    root: Path | None = None
    now: datetime | None = None
    dates: Mapping[str, str] = field(default_factory=dict)  # file → when it was written

    def say(self, lines: list[str] | str) -> None:
        """Print lines already wrapped, or one message wrapped here."""
        for line in wrap(lines, self.width) if isinstance(lines, str) else lines:
            self.console.print(line, soft_wrap=True, highlight=False)

    def ask(self, text: str) -> str:
        return ask(self.console, text)

    def show(self, lines: list[str]) -> None:
        """Long text through the pager, or printed when there is none."""
        if not page("\n".join(lines) + "\n"):
            self.say(lines)

    def preview(self, verdicts: list[Verdict], item: Proposal) -> Preview | None:
        """What the verdicts (or the item's repair) would write; None without a plan."""
        if self.plan is None or self.root is None or self.now is None:
            return None
        repairs = [item.repair] if item.repair is not None and verdicts else []
        changes = as_changes(self.plan, [v for v in verdicts if v.writes])
        return preview(self.root, self.now, changes, repairs)

    @property
    def width(self) -> int:
        return self.console.width
