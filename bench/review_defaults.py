"""What a person who accepts everything the review proposes would do, scored by the labels.

    python bench/review_defaults.py CORPUS_ROOT LABELS

For every labelled real folder (`<name>/memory`, `<name>/repo`), the review's questions
are built as `run` builds them, and each question's `y` (what the review proposes: the
plan's action, or the evidence's suggestion) is turned into the action a label names —
withdraw, update, keep — and checked against the expert's `ok` list. A question with no
`y` (nothing proposed) is a person's call and is counted apart; so are changes the labels
cannot judge (an index pointer nobody labelled, a SUPERSEDED note kept beside its
memory). Only counts are printed: no text of the corpus reaches the output.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from prune_memory.analysis.inoculation_check import inoculation_problem
from prune_memory.analysis.instruction_files import read_claude_md
from prune_memory.engine.repairs import DROPS
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.procedure.review import Choice, ReviewSession, accepted
from prune_memory.store.loader import load_memory_dir

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
ACTION = {Choice.WITHDRAW: "withdraw", Choice.WITHDRAW_INOCULATE: "withdraw",
          Choice.UPDATE: "update", Choice.KEEP: "keep"}


def score_folder(folder: Path, labels: dict[str, dict[str, object]], counts: Counter[str]) -> None:
    memory, repo = folder / "memory", folder / "repo"
    plan = build_plan(memory, PassOptions(repo=repo if repo.is_dir() else None, now=NOW))
    memdir = load_memory_dir(memory)
    claude_md = read_claude_md(repo if repo.is_dir() else None, Path.home())
    bodies = {e.file: e.body for e in memdir.entries}
    for item in ReviewSession.of(plan).items:
        found = accepted(item, lambda ino: inoculation_problem(ino, claude_md), bodies)
        if isinstance(found, str):
            counts["no y: a person's call"] += 1
            continue
        for verdict in found:
            _score(verdict.file, verdict.choice, item.repair, labels, counts)


def _score(file: str, choice: Choice, repair: dict[str, object] | None,
           labels: dict[str, dict[str, object]], counts: Counter[str]) -> None:
    if repair is not None:
        line = f"MEMORY.md#L{repair.get('line')}"
        label = labels.get(line) if repair.get("kind") in (*DROPS, "relink-outside") else None
        action = "update" if repair.get("kind") == "relink-outside" else "withdraw"
    else:
        label, action = labels.get(file), ACTION.get(choice, "")
    if label is None or not action:
        counts["unjudged (no label, or a note beside its memory)"] += 1
        return
    ok = [str(a) for a in label.get("ok", [])]  # type: ignore[attr-defined]
    right = action in ok or (label.get("label") == "flag" and action in ("withdraw", "update"))
    counts["right" if right else "wrong"] += 1
    counts[f"{action}: {'right' if right else 'wrong'}"] += 1


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("labels", type=Path)
    args = parser.parse_args(argv)
    labels = json.loads(args.labels.read_text(encoding="utf-8"))
    counts: Counter[str] = Counter()
    for name in sorted(labels):
        if (args.corpus / name / "memory").is_dir():
            score_folder(args.corpus / name, labels[name], counts)
            counts["folders"] += 1
    for key, value in sorted(counts.items()):
        print(f"{key}: {value}")
    judged = counts["right"] + counts["wrong"]
    share = counts["right"] / judged if judged else 0.0
    print(f"accepting every review default is right for {counts['right']} of {judged} "
          f"judged changes ({share:.2f}) on {counts['folders']} folders")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
