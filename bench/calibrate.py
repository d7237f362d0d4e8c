"""Measure the plan's judgment on real memory directories with expert labels.

    python bench/calibrate.py EXE CORPUS_ROOT LABELS [CORPUS_ROOT LABELS ...]
                              [--out references/judgment.md]

Each CORPUS_ROOT holds `<name>/memory` and `<name>/repo` (see each corpus's `setup.sh`:
`../shared/corpus` and the project's own `bench/corpus`); LABELS maps each name to
`{file: {"label", "ok", "why"}}`. For every evidence class the plan names, it counts what
the class proposed, whether an expert accepts it, and from how many folders, both for
actions the plan automates and for suggestions it leaves to review. That table is what
decides which classes `run --yes` may apply (`prune_memory/procedure/automation.py`).
Only counts are written: no text of the corpus reaches the output.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

AUTOMATED = frozenset({"withdraw", "update", "inoculate", "withdraw+inoculate"})
NOW = "2026-12-01T12:00:00Z"


@dataclass
class Tally:
    """Proposals of one class: right when an expert's `ok` list accepts the action."""

    right: int = 0
    wrong: int = 0
    unjudged: int = 0
    folders: set[str] = field(default_factory=set)

    @property
    def total(self) -> int:
        return self.right + self.wrong

    @property
    def precision(self) -> float | None:
        return self.right / self.total if self.total else None


@dataclass
class Score:
    automated: dict[str, Tally] = field(default_factory=dict)
    suggested: dict[str, Tally] = field(default_factory=dict)
    by_rule: dict[str, Tally] = field(default_factory=dict)
    found: int = 0
    missed: int = 0
    false_alarms: int = 0
    keep_only: int = 0
    rejected: int = 0
    failed: list[str] = field(default_factory=list)
    per_dir: list[str] = field(default_factory=list)
    missed_by_label: Counter[str] = field(default_factory=Counter)
    needing_action: int = 0
    automated_right: int = 0

    def total(self, table: dict[str, Tally]) -> Tally:
        out = Tally()
        for t in table.values():
            out.right += t.right
            out.wrong += t.wrong
            out.unjudged += t.unjudged
        return out


def run_plan(exe: str, root: Path, name: str) -> dict[str, object] | None:
    env = {"XDG_STATE_HOME": str(root / name / "state"), "HOME": str(root / name / "home"),
           "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    proc = subprocess.run(
        [exe, "plan", str(root / name / "memory"), "--repo", str(root / name / "repo"),
         "--json", "--now", NOW], capture_output=True, text=True, env=env, check=False)
    try:
        plan: dict[str, object] = json.loads(proc.stdout)
    except ValueError:
        return None
    return plan


def needs_action(label: dict[str, object]) -> bool:
    """An entry an expert would not leave alone: `keep` is not among its accepted actions."""
    ok = label.get("ok", [])
    return "keep" not in ok if isinstance(ok, list) else False


def class_of(entry: dict[str, object]) -> str:
    return str(entry.get("evidence_class") or entry.get("rule") or "none")


def tally(table: dict[str, Tally], key: str, action: str, label: dict[str, object] | None,
          folder: str = "") -> None:
    item = table.setdefault(key, Tally())
    item.folders.add(folder)
    if label is None:
        item.unjudged += 1
    elif action in label["ok"]:  # type: ignore[operator]
        item.right += 1
    else:
        item.wrong += 1


def score_dir(score: Score, name: str, plan: dict[str, object],
              labels: dict[str, dict[str, object]]) -> None:
    entries = plan.get("entries", [])
    assert isinstance(entries, list)
    actions: dict[str, str] = {}
    for entry in entries:
        file, action = str(entry["file"]), str(entry.get("action", "keep"))
        actions[file] = action
        label = labels.get(file)
        if action in AUTOMATED:
            tally(score.automated, class_of(entry), action, label, name)
        suggested = entry.get("suggested_action")
        proposed = suggested if action == "review" and isinstance(suggested, str) else action
        if proposed != "keep":
            tally(score.by_rule, str(entry.get("rule")), str(proposed), label, name)
        if action == "review" and isinstance(suggested, str) and suggested in AUTOMATED:
            tally(score.suggested, class_of(entry), suggested, label, name)
    reach = plan.get("reachability") or {}
    for dangling in reach.get("dangling", []) if isinstance(reach, dict) else []:
        if isinstance(dangling, dict) and "line" in dangling:
            key = f"MEMORY.md#L{dangling['line']}"
            label = labels.get(key)
            # dropping a dangling pointer is that line's withdrawal; a person decides one
            # that leaves the folder (`--yes` never drops it)
            if dangling.get("relink"):  # a person points it where the repo has the file
                actions.setdefault(key, "review")
                tally(score.suggested, "outside-relink", "update", label, name)
            elif dangling.get("outside"):
                actions.setdefault(key, "review")
                tally(score.suggested, "outside-dangling", "withdraw", label, name)
            else:
                actions.setdefault(key, "drop-dangling")
                tally(score.automated, "dangling-pointer", "withdraw", label, name)
    errors = plan.get("errors", [])
    score.rejected += len(errors) if isinstance(errors, list) else 0
    found = missed = alarms = keep_only = 0
    for file, label in labels.items():
        acted = actions.get(file, "keep") != "keep"
        if label.get("label") != "keep":
            score.needing_action += 1
            done = actions.get(file, "keep")
            done = "withdraw" if done == "drop-dangling" else done
            score.automated_right += done in AUTOMATED and done in label["ok"]  # type: ignore[operator]
        if needs_action(label):
            found += acted
            missed += not acted
            if not acted:
                score.missed_by_label[str(label["label"])] += 1
        elif label["ok"] == ["keep"]:
            keep_only += 1
            alarms += acted
    score.found += found
    score.missed += missed
    score.false_alarms += alarms
    score.keep_only += keep_only
    score.per_dir.append(f"| {name} | {found}/{found + missed} | {alarms}/{keep_only} | "
                         f"{len(errors) if isinstance(errors, list) else 0} |")


PRINCIPLES = [
    "## How the numbers are used",
    "",
    "- Every plan entry names the **evidence class** its decision rests on. A class may act",
    "  without a person (`run --yes`, or an automated `update`) only when it is listed in",
    "  `prune_memory/procedure/automation.py` — proposed at least `MIN_PROPOSALS` (5) times",
    "  here with precision ≥ 0.95 — and it *proves* (git history, the files as they are)",
    "  rather than suggests",
    "  (a dated log, a phrase). Everything else is planned as `review` and keeps its",
    "  `suggested_action`; the second table measures those suggestions.",
    "- Recall counts an entry an expert would not keep as surfaced when the plan does",
    "  anything but keep it (a review or a flag included).",
    "- \"Keep-only entries not kept\" counts reviews and flags on entries the expert would",
    "  only keep: the cost a person pays in attention.",
    "- The corpus is a yardstick, not a target: rules follow principles (history proves,",
    "  absence proves nothing, claims not files, standing rules are not ephemera) and other",
    "  real folders are scored the same way.",
]


def pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def table(rows: dict[str, Tally], key: str = "evidence class") -> list[str]:
    out = [f"| {key} | proposals | right | wrong | precision | folders |",
           "|---|---|---|---|---|---|"]
    for key, t in sorted(rows.items(), key=lambda kv: (-kv[1].total, kv[0])):
        folders = len(t.folders - {""})
        out.append(f"| `{key}` | {t.total} | {t.right} | {t.wrong} | {pct(t.precision)} "
                   f"| {folders} |")
    return out


SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def judged(exe: str, root: Path, labels: Path, *, topics: bool) -> str:
    """`judge.py`'s last line (proposal precision and recall, as the corpus scores it)."""
    argv = [sys.executable, str(SHARED / "judge.py"), exe, str(root), str(labels)]
    done = subprocess.run(argv + (["--topics"] if topics else []), capture_output=True,
                          text=True, check=False)
    lines = done.stdout.strip().splitlines()
    if not lines:
        return f"judge.py gave no answer ({done.returncode})"
    return lines[-1].removeprefix("judged: ")


def peer(ctxlint: str, root: Path, labels: Path, *, topics: bool) -> str:
    """The peer tool's figures on the same folders and labels (`peer_ctxlint.py`)."""
    argv = [sys.executable, str(SHARED / "peer_ctxlint.py"), ctxlint, str(root), str(labels)]
    done = subprocess.run(argv + (["--topics"] if topics else []), capture_output=True,
                          text=True, check=False)
    lines = done.stdout.strip().splitlines()
    return lines[-1].removeprefix("TOTAL ctxlint: ") if lines else "no answer"


def side_by_side(exe: str, corpora: list[tuple[Path, Path]], ctxlint: str | None) -> list[str]:
    """prune-memory's and ctxlint's figures on each corpus, every entry and topic files only."""
    out = ["## Against the labels, beside a peer tool", "",
           "`judge.py` (../shared/corpus) over every non-keep proposal and every entry that",
           "needs action; ctxlint (npm `@yawlabs/ctxlint`, deterministic, checks that cited paths",
           "exist) scored by `peer_ctxlint.py` on the same folders and labels.", "",
           "| corpus | entries | prune-memory | ctxlint |", "|---|---|---|---|"]
    for root, labels in corpora:
        name = "../shared/corpus" if labels.parent == SHARED else "bench/corpus"
        for topics in (False, True):
            ours = judged(exe, root, labels, topics=topics)
            theirs = peer(ctxlint, root, labels, topics=topics) if ctxlint else "not run"
            out.append(f"| {name} | {'topic files' if topics else 'all'} | {ours} | {theirs} |")
    return [*out, ""]


def render(score: Score) -> str:
    auto = score.total(score.automated)
    recall = score.found / (score.found + score.missed) if score.found + score.missed else 0.0
    lines = [
        "# Judgment measured on real memory directories",
        "",
        "Written by `make calibrate` (`bench/calibrate.py`): the plan of every directory of the",
        "labelled real-world corpus, scored against the expert labels. Counts only: no text of",
        "the corpus is copied here.",
        "",
        *PRINCIPLES,
        "",
        f"**Overall:** automated actions right {auto.right} of {auto.total} "
        f"(precision {pct(auto.precision)}); labelled problems surfaced {score.found} of "
        f"{score.found + score.missed} (recall {recall:.2f}); keep-only entries sent to "
        f"review or flagged {score.false_alarms} of {score.keep_only}; real files rejected "
        f"{score.rejected}; directories that failed to plan {len(score.failed)}. Entries "
        f"the labels say need action that are acted on automatically and rightly: "
        f"{score.automated_right} of {score.needing_action} "
        f"({score.automated_right / max(score.needing_action, 1):.2f}).",
        "",
        "## Automated actions (what `plan` proposes and `run --yes` may apply)",
        "",
        *table(score.automated),
        "",
        "## Suggestions left to review (what the evidence points to, not applied)",
        "",
        *table(score.suggested),
        "",
        "## Per rule id (every proposal: applied, suggested, flagged or reviewed)",
        "",
        "A review or a flag is right when the expert's accepted actions include it.",
        "",
        *table(score.by_rule, "rule"),
        "",
        "## Per directory",
        "",
        "| directory | problems surfaced | keep-only entries not kept | rejected files |",
        "|---|---|---|---|",
        *score.per_dir,
        "",
        "Missed problems by their label: "
        + (", ".join(f"{k} {v}" for k, v in sorted(score.missed_by_label.items())) or "none")
        + ".",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exe")
    parser.add_argument("corpora", nargs="+", help="CORPUS_ROOT LABELS pairs")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--ctxlint", help="the peer tool's binary, to score it beside")
    args = parser.parse_args(argv)
    if len(args.corpora) % 2:
        parser.error("give each corpus as a CORPUS_ROOT and its LABELS file")
    score = Score()
    pairs = [(Path(r), Path(f).resolve()) for r, f in
             zip(args.corpora[::2], args.corpora[1::2], strict=True)]
    for root, labels_file in pairs:
        labels = json.loads(Path(labels_file).read_text(encoding="utf-8"))
        for name, dir_labels in labels.items():
            if name.startswith("_"):
                continue
            plan = run_plan(args.exe, Path(root), name)
            if plan is None:
                score.failed.append(name)
                continue
            score_dir(score, name, plan, dir_labels)
    text = render(score)
    text = text.replace("## How the numbers are used", "\n".join(
        side_by_side(args.exe, pairs, args.ctxlint)) + "\n## How the numbers are used", 1)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
