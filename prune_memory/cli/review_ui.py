"""The interactive review: one screen per proposed action, one key per decision.

Line-based input (a key, then Enter) so it works in any terminal, with or without colour.
"""

from __future__ import annotations

import difflib
import os
import shlex
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from prune_memory.model import Action
from prune_memory.plan import Inoculation, PlanEntry
from prune_memory.stages.review import Choice, ReviewSession, Verdict, proposed_verdict

HELP = """Keys (type the letter, then Enter):
  a  accept the proposal as shown          w  withdraw into a tombstone
  i  withdraw and inoculate (SUPERSEDED)   n  inoculate only (keep the entry)
  u  update with the proposed text         e  edit the new text in $EDITOR
  k  keep as it is                         p  protect (asks for a reason)
  s  skip: decide next time                b  back to the previous entry
  q  quit: keep the decisions so far       ?  this help"""
FIELDS = (("pattern", "Pattern"), ("period", "Period"), ("evidence", "Evidence"),
          ("abandonment_reason", "Abandonment reason"),
          ("do_not_rederive", "Do not re-derive from"))


def entry_screen(entry: PlanEntry, body: str, position: str) -> RenderableType:
    """Everything a reviewer needs for one decision."""
    head = Text(f"[{position}] {entry.file}", style="bold")
    meta = Text(f"class {entry.cls.value} · fidelity {entry.fidelity} · "
                f"rule {entry.rule or '-'} · proposed: {entry.action.value}")
    parts: list[RenderableType] = [head, meta, Text(entry.reason or "")]
    for finding in entry.findings:
        parts.append(Text(f"  - {finding.code.value}: {finding.message}"))
    if entry.action is Action.REVIEW and entry.findings:
        parts.append(_side_by_side(entry))
    if entry.proposed_text is not None:
        parts.append(_diff(body, entry.proposed_text))
    parts.append(Text("Keys: a w i n u e k p s b q ?  (? for help)", style="dim"))
    return Group(*parts)


def _side_by_side(entry: PlanEntry) -> RenderableType:
    evidence = next((f.evidence for f in entry.findings if "other_text" in f.evidence), None)
    if evidence is None:
        return Text("")
    table = Table(show_lines=True)
    table.add_column(entry.file, overflow="fold")
    table.add_column(str(evidence.get("other_file", "other")), overflow="fold")
    table.add_row(str(evidence.get("text", "")), str(evidence.get("other_text", "")))
    return table


def _diff(old: str, new: str) -> RenderableType:
    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), "current", "proposed",
                                 lineterm="")
    out = Text()
    for line in lines:
        style = "green" if line.startswith("+") else "red" if line.startswith("-") else "dim"
        out.append(line + "\n", style=style)
    return out


def run_review(session: ReviewSession, bodies: Mapping[str, str], console: Console) -> None:
    """Drive the session from the keyboard until every entry is decided or the user quits."""
    while (entry := session.current) is not None:
        console.print(entry_screen(entry, bodies.get(entry.file, ""),
                                   f"{session.position + 1}/{len(session.items)}"))
        key = console.input("> ").strip().lower()[:1]
        _handle(key, entry, session, bodies, console)


def _handle(key: str, entry: PlanEntry, session: ReviewSession, bodies: Mapping[str, str],
            console: Console) -> None:
    simple = {"w": Choice.WITHDRAW, "k": Choice.KEEP, "s": Choice.SKIP}
    if key in simple:
        session.decide(Verdict(entry.file, simple[key], reason=entry.reason))
    elif key == "a":
        session.decide(proposed_verdict(entry))
    elif key in ("i", "n"):
        choice = Choice.WITHDRAW_INOCULATE if key == "i" else Choice.INOCULATE
        session.decide(Verdict(entry.file, choice, inoculation=ask_inoculation(entry, console),
                               reason=entry.reason))
    elif key == "u" and entry.proposed_text is not None:
        session.decide(Verdict(entry.file, Choice.UPDATE, text=entry.proposed_text,
                               reason=entry.reason))
    elif key == "e":
        text = edit_text(entry.proposed_text or bodies.get(entry.file, ""))
        session.decide(Verdict(entry.file, Choice.UPDATE, text=text, reason="edited in review"))
    elif key == "p":
        reason = console.input("Why protect it? ").strip() or "protected in review"
        session.decide(Verdict(entry.file, Choice.PROTECT, reason=reason))
    elif key == "b":
        session.back()
    elif key == "q":
        session.stop()
    else:
        console.print(HELP if key == "?" else "No proposed text to accept; try e, or ? for help")


def ask_inoculation(entry: PlanEntry, console: Console) -> Inoculation:
    """Prompt for each SUPERSEDED field, the drafted value offered as the default."""
    draft = entry.inoculation or Inoculation(pattern=entry.reason, evidence=entry.reason,
                                             abandonment_reason=entry.reason,
                                             do_not_rederive=entry.reason)
    values: dict[str, str] = {}
    for key, label in FIELDS:
        default = getattr(draft, key)
        answer = console.input(f"{label} [{default}]: ").strip()
        values[key] = answer or default
    return replace(draft, **values)


def edit_text(text: str) -> str:
    """Open $EDITOR (or vi) on a temporary copy outside the memory directory."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.TemporaryDirectory(prefix="prune-memory-") as folder:
        path = Path(folder) / "entry.md"
        path.write_text(text, encoding="utf-8")
        subprocess.run([*shlex.split(editor), str(path)], check=False)
        return path.read_text(encoding="utf-8")
