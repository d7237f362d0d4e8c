"""The review prompt: one question at a time, with the keys of `git add -p`, then one
confirmation before anything is written.

Line-based input (a key or its word, then Enter) so it works in any terminal, with or
without colour. Each question shows what is proposed and the exact diff it writes
(`cli/proposal_text.py` renders them); the prompt lists exactly the keys that work for it
(`keys_for`), and the words people type for them (`keep`, `yes`, `diff`, …) count as the
key. `y` takes what `procedure.review.accepted` says accepting means, `n` keeps the memory
as it is, `a` accepts every remaining one of its class. A stopped review (q, Ctrl-C,
Ctrl-D) is saved and the next run offers to resume it; the end asks once
(`Apply 7 withdrawals, 2 updates…? [y,n,d,?]`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import typer
from rich.console import Console

from prune_memory.analysis.inoculation_check import inoculation_problem
from prune_memory.cli.common import ask, console
from prune_memory.cli.external import EditorFailed, edit_text, page
from prune_memory.cli.proposal_text import (
    confirm_lines,
    describe,
    diff_lines,
    item_lines,
    legend,
    view_lines,
)
from prune_memory.engine.entries import is_index_line
from prune_memory.engine.preview import Preview, preview, unified
from prune_memory.engine.repairs import DROPS, RETARGETS
from prune_memory.errors import ExitCode
from prune_memory.model import INDEX_FILE, JSON, Action, EntryKind, MemoryDir
from prune_memory.plan import Inoculation, Plan, PlanEntry
from prune_memory.procedure.review import (
    Choice,
    Decided,
    Proposal,
    ReviewSession,
    Verdict,
    accepted,
    offered,
    redaction,
    secret_in,
    withdraw_verdicts,
)
from prune_memory.procedure.review_state import (
    drop_session,
    load_session,
    remember_keeps,
    save_session,
)
from prune_memory.procedure.run_pass import as_changes
from prune_memory.report.wrapping import wrap
from prune_memory.secrets.mask import mask_text
from prune_memory.store.loader import load_memory_dir

INTERRUPTED = 130  # Ctrl-C, as shells report it


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
    now: dt.datetime | None = None
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

    def accepted(self, item: Proposal) -> list[Verdict] | str:
        """What `y` writes for this question, or why nothing is proposed."""
        return accepted(item, self.check, self.bodies)

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


# Every key, as `git add -p` has them where it has one: (key, words typed for it, help).
KEYS = (
    ("y", ("yes", "accept"), "accept what is proposed (the diff shows what it writes)"),
    ("n", ("no", "keep", "k"), "keep it as it is: not proposed again until it changes"),
    ("a", ("all",), "accept this and every remaining proposal of its class"),
    ("d", ("diff",), "show the whole diff of what y writes"),
    ("e", ("edit",), "edit the text in $EDITOR, then see the diff; it becomes an update"),
    ("s", ("superseded", "note"), "write a SUPERSEDED note (asks each field; nothing is "
                                  "filled in for you), so the idea is not re-derived"),
    ("w", ("withdraw",), "withdraw: move it into deaccessioned/ (restore brings it back)"),
    ("u", ("update",), "update it with the proposed text"),
    ("r", ("redact",), "redact the secret only: the rest stays, the original goes to the "
                       "private vault"),
    ("p", ("protect",), "protect it: never withdrawn or updated until unprotected"),
    ("1", (), "withdraw the first of the two (the second stays)"),
    ("2", (), "withdraw the second of the two (the first stays)"),
    ("v", ("view", "show"), "view the text through $PAGER (secrets masked)"),
    ("j", ("skip", "later", "next"), "leave it undecided: asked again next pass"),
    ("b", ("back", "previous"), "back to the previous question"),
    ("q", ("quit",), "quit: stop here, then apply what you decided, or save it for later"),
    ("?", ("help", "h"), "this help"),
)
WHAT = {key: what for key, _, what in KEYS}
WORDS = (
    ("fidelity", "how well the repo still agrees with the memory: high, medium, low, failed "
                 "or unverifiable"),
    ("withdraw", "take a memory out of use into a tombstone under deaccessioned/ (a "
                 "deaccession); nothing is deleted"),
    ("register", "the table in pruning-log.md: one id per change, which `restore` takes"),
    ("SUPERSEDED", "a note naming an abandoned idea, so it is not re-derived"),
    ("strength", "how much the evidence proves: 5 safety (a secret, injected text), 4 a "
                 "conflict, 3 git history or an exact copy, 2 the memory's shape, 1 wording; "
                 "the strongest come first"),
    ("class", "proposals with the same kind of evidence and the same change: a accepts them "
              "all"),
)
QUESTIONS = {
    Action.WITHDRAW: "Withdraw {file}?",
    Action.WITHDRAW_INOCULATE: "Withdraw {file} and write a SUPERSEDED note?",
    Action.INOCULATE: "Write a SUPERSEDED note for {file}?",
    Action.UPDATE: "Update {file}?",
    Action.REVIEW: "{file}: keep it, withdraw it or edit it?",
    Action.KEEP: "Keep {file}?",
}


def prompt(item: Proposal, position: int, total: int, left: int, keys: Sequence[str]) -> str:
    """`[3/13, 10 left] Withdraw x.md? [y,n,…]`."""
    return f"[{position}/{total}, {left} left] {question(item)} [{','.join(keys)}] "


def question(item: Proposal) -> str:
    if item.repair is not None:
        return f"{_repair_verb(item.repair)}?"
    entry = item.entry
    assert entry is not None
    if item.partner is not None:
        return "Which stays? (n keeps both)"
    if entry.action is Action.FLAG:
        secret_line = "redact the secret in it" if entry.file.startswith("MEMORY.md#") \
            else "withdraw it"
        return f"{entry.file} holds a secret: {secret_line}?"
    return QUESTIONS.get(offered(entry), QUESTIONS[Action.REVIEW]).format(file=entry.file)


def _repair_verb(repair: JSON) -> str:
    kind = repair.get("kind")
    if kind in DROPS:
        return f"Drop index line {repair.get('line')} (it links {repair.get('target')})"
    if kind == "index-orphan":
        return f"Index {repair.get('file')}"
    if kind in RETARGETS:
        return f"Point index line {repair.get('line')} at {repair.get('to')}"
    return f"Rewrite index line {repair.get('line')}"


def help_lines(keys: Sequence[str], width: int) -> list[str]:
    """The keys that work here first, then the other keys, then the words."""
    here = [k for k, _, _ in KEYS if k in keys]
    other = [k for k, _, _ in KEYS if k not in keys]
    out: list[str] = ["Keys here (type one, or its word, then Enter):"]
    for key in here:
        out += wrap(f"  {key}  {WHAT[key]}", width, hang="     ")
    if other:
        out += wrap(f"Not for this question: {', '.join(other)}", width, hang="  ")
    out.append("Words:")
    for word, what in WORDS:
        out += wrap(f"  {word}: {what}", width, hang="      ")
    return out


def run_review(review: Review) -> None:
    """Ask each question until every one is decided or the reviewer quits."""
    session = review.session
    shown: int | None = None
    while (item := session.current) is not None:
        keys = keys_for(item, review)
        if shown != session.position:  # after ?, v, d or a message only the prompt again
            review.say("")
            review.say(item_lines(item, review.width, review.dates))
            review.say(_diff_on_screen(item, review))
            shown = session.position
        answer = review.ask(prompt(item, session.position + 1, len(session.items),
                                   session.left, keys))
        handle(answer, item, review, keys)


def _diff_on_screen(item: Proposal, review: Review) -> list[str]:
    found = review.accepted(item)
    if isinstance(found, str):
        return []
    shown = review.preview(found, item)
    if shown is None or not shown.diff:
        return []
    return diff_lines(shown.diff, review.width)


def handle(answer: str, item: Proposal, review: Review, keys: list[str] | None = None) -> None:
    """What one answer does to the question on screen."""
    keys = keys if keys is not None else keys_for(item, review)
    key = key_of(answer)
    if key is None:
        review.say("Type a key, then Enter (? explains each key)." if not answer.strip()
                   else f"{answer.strip()!r} is not a key here. Keys: {', '.join(keys)} "
                        "(? explains each).")
        return
    if key not in keys:
        review.say(f"{key} does not apply to this question. Keys: {', '.join(keys)} "
                   "(? explains each).")
        return
    MENU[key](item, review, keys)


Handler = Callable[[Proposal, Review, list[str]], None]
_WORDS = {word: key for key, words, _ in KEYS for word in (key, *words)}


def key_of(answer: str) -> str | None:
    """The key an answer stands for: the key itself, or one of its words."""
    return _WORDS.get(answer.strip().lower())


def keys_for(item: Proposal, review: Review) -> list[str]:
    """The keys that work for this question, in the order the prompt lists them."""
    found = review.accepted(item)
    accept = not isinstance(found, str)
    keys = ["y"] if accept else []
    keys.append("n")
    if accept and len(review.session.same_class()) > 1:
        keys.append("a")
    if item.repair is not None:
        keys.append("d")
    elif item.partner is not None:
        keys += ["1", "2", "d", "e", "v"]
    else:
        withdraws = not isinstance(found, str) and found[0].choice is Choice.WITHDRAW
        keys += _entry_keys(item.entry, withdraws)
    keys += ["j", *(["b"] if review.session.position else []), "q", "?"]
    return keys


def _entry_keys(entry: PlanEntry | None, y_withdraws: bool) -> list[str]:
    assert entry is not None
    action = offered(entry)
    keys = ["d", "e", "s"]
    if not y_withdraws:
        keys.append("w")
    if entry.proposed_text is not None and action is not Action.UPDATE:
        keys.append("u")
    if secret_in(entry):
        keys.append("r")
    if not is_index_line(entry.file):
        keys.append("p")
    return [*keys, "v"]


def _yes(item: Proposal, review: Review, keys: list[str]) -> None:
    found = review.accepted(item)
    if isinstance(found, str):
        review.say(f"Nothing to accept: {found}.")
    else:
        review.session.decide(*found)


def _keep(item: Proposal, review: Review, keys: list[str]) -> None:
    review.session.decide(*(Verdict(f, Choice.KEEP) for f in (item.files or (item.key,))))


def _skip(item: Proposal, review: Review, keys: list[str]) -> None:
    review.session.decide(*(Verdict(f, Choice.SKIP) for f in (item.files or (item.key,))))


def _all(item: Proposal, review: Review, keys: list[str]) -> None:
    """This question and every later one of its class, each as `y` would take it."""
    session = review.session
    taken, left = [], []
    for other in session.same_class():
        found = review.accepted(other)
        if isinstance(found, str):
            left.append(other.key)
        else:
            session.settle(other, *found)
            taken.append(other.key)
    session.advance()
    said = f"Accepted {len(taken)} of this class ({item.group_words()})"
    review.say(said + (f"; left to ask: {', '.join(left)}" if left else "") + ".")


def _withdraw(item: Proposal, review: Review, keys: list[str]) -> None:
    assert item.entry is not None
    review.session.decide(*withdraw_verdicts(item.entry))


def _update(item: Proposal, review: Review, keys: list[str]) -> None:
    entry = item.entry
    assert entry is not None and entry.proposed_text is not None
    review.session.decide(Verdict(entry.file, Choice.UPDATE, text=entry.proposed_text,
                                  reason=entry.reason))


def _redact(item: Proposal, review: Review, keys: list[str]) -> None:
    assert item.entry is not None
    found = redaction(item.entry, review.bodies)
    if isinstance(found, str):
        review.say(f"Nothing redacted: {found}.")
    else:
        review.session.decide(*found)


def _protect(item: Proposal, review: Review, keys: list[str]) -> None:
    assert item.entry is not None
    reason = review.ask("Why protect it? ").strip() or "protected in review"
    review.session.decide(Verdict(item.entry.file, Choice.PROTECT, reason=reason))


def _one_of_two(number: int) -> Handler:
    def choose(item: Proposal, review: Review, keys: list[str]) -> None:
        assert item.entry is not None and item.partner is not None
        gone, stays = (item.entry, item.partner) if number == 1 else (item.partner, item.entry)
        review.session.decide(*withdraw_verdicts(gone, f"{stays.file} says otherwise; "
                                                       "withdrawn in review"),
                              Verdict(stays.file, Choice.KEEP))
    return choose


_NO_NOTE = "No SUPERSEDED note written."


def show_diff(item: Proposal, review: Review, keys: list[str]) -> None:
    if item.partner is not None and item.entry is not None:
        one, two = item.entry.file, item.partner.file
        text = unified(review.texts.get(one, "").encode(), review.texts.get(two, "").encode(),
                       f"{one} → {two}")
        review.show(diff_lines(text or "(the same text)\n", review.width, None))
        return
    found = review.accepted(item)
    if isinstance(found, str) and item.entry is not None:
        found, heading = withdraw_verdicts(item.entry), ["What w (withdraw) would write:"]
    else:
        heading = []
    shown = review.preview(found, item) if not isinstance(found, str) else None
    diff = shown.diff if shown is not None else ""
    review.show([*heading, *diff_lines(diff or "(nothing changes)\n", review.width, None)])


def edit(item: Proposal, review: Review, keys: list[str]) -> None:
    entry = item.entry
    assert entry is not None
    if item.partner is not None:
        which = review.ask("Edit which one, 1 or 2? ").strip()
        if which not in ("1", "2"):
            review.say("Nothing edited.")
            return
        entry = item.entry if which == "1" else item.partner
        assert entry is not None
    now = review.bodies.get(entry.file, "")
    start = entry.proposed_text if item.partner is None and entry.proposed_text else now
    try:
        text = edit_text(mask_text(start))
    except EditorFailed as failed:
        review.say(f"{failed}; nothing changed — set $EDITOR, or pick another key.")
        return
    if is_index_line(entry.file):
        text = text.strip("\r\n")
        if "\n" in text or not text.strip():
            review.say("A fact in MEMORY.md is one line: nothing changed.")
            return
    if text.strip() == now.strip():
        review.say("No change made.")
        return
    verdict = Verdict(entry.file, Choice.UPDATE, text=text, reason="edited in review")
    shown = review.preview([verdict], Proposal(entry=entry))
    review.say(diff_lines(shown.diff if shown else "", review.width, None))
    others = [Verdict(f, Choice.KEEP) for f in item.files if f != entry.file]
    review.session.decide(verdict, *others)


_FIELDS = (("pattern", "Pattern: the conclusion that no longer holds"),
           ("evidence", "Evidence: what showed it wrong"),
           ("abandonment_reason", "Abandonment reason"),
           ("do_not_rederive", "Do not re-derive from: what would lead there again"))


def superseded(item: Proposal, review: Review, keys: list[str]) -> None:
    """A SUPERSEDED note, every field typed by the reviewer (an empty one stops)."""
    entry = item.entry
    assert entry is not None
    values: dict[str, str] = {}
    for name, label in _FIELDS:
        values[name] = review.ask(f"{label} (empty: no note): ").strip()
        if not values[name]:
            review.say(_NO_NOTE)
            return
    period = review.ask("Period, such as 2026-03 to 2026-06 (empty: unknown): ").strip()
    ino = Inoculation(period=period, **values)
    if (problem := review.check(ino)) is not None:
        review.say(f"{_NO_NOTE} {problem}.")
        return
    withdraw = is_index_line(entry.file) or _also_withdraw(entry, review)
    choice = Choice.WITHDRAW_INOCULATE if withdraw else Choice.INOCULATE
    review.session.decide(Verdict(entry.file, choice, inoculation=ino, reason=entry.reason))


def _also_withdraw(entry: PlanEntry, review: Review) -> bool:
    usual = offered(entry) is not Action.INOCULATE
    answer = review.ask(f"Withdraw {entry.file} as well? [{'Y/n' if usual else 'y/N'}] ")
    return answer.strip().lower().startswith("y") if answer.strip() else usual


def view(item: Proposal, review: Review, keys: list[str]) -> None:
    lines: list[str] = []
    for file in item.files:
        lines += view_lines(file, review.texts.get(file, ""), review.width)
    review.show(lines)


MENU: dict[str, Handler] = {
    "y": _yes, "n": _keep, "a": _all, "d": show_diff, "e": edit, "s": superseded,
    "w": _withdraw, "u": _update, "r": _redact, "p": _protect, "1": _one_of_two(1),
    "2": _one_of_two(2), "v": view, "j": _skip,
    "b": lambda item, review, keys: review.session.back(),
    "q": lambda item, review, keys: review.session.stop(),
    "?": lambda item, review, keys: review.say(help_lines(keys, review.width)),
}


def review_and_confirm(root: Path, plan: Plan, kept: Mapping[str, str],
                       claude_md: Sequence[tuple[str, str]], now: dt.datetime) -> Decided:
    """Review, then one confirmation; a review that stops is saved and the command ends."""
    out = console(wrap=True)
    session = _session(root, plan, kept, out)
    memdir = load_memory_dir(root)
    review = Review(session=session, texts={e.file: e.text for e in memdir.entries},
                    bodies=_bodies(memdir), console=out,
                    check=lambda ino: inoculation_problem(ino, claude_md), plan=plan,
                    root=root, now=now, dates=_dates(memdir))
    for line in legend(len(session.items), out.width, _kept_here(plan, kept)):
        out.print(line, soft_wrap=True)
    try:
        run_review(review)
        return _confirm(root, plan, session, review, now)
    except (KeyboardInterrupt, EOFError) as stop:
        out.print()  # the answer line was never ended: Ctrl-D and Ctrl-C echo no newline
        _saved(root, session, out, now, "Stopped.")
        raise typer.Exit(INTERRUPTED if isinstance(stop, KeyboardInterrupt) else 0) from None


def _bodies(memdir: MemoryDir) -> dict[str, str]:
    """What an update of each entry rewrites: a topic's body, or a fact's whole line."""
    lines = {f"{INDEX_FILE}#L{ln.number}": ln.text for ln in memdir.index.lines} \
        if memdir.index is not None else {}
    return {e.file: lines.get(e.file, e.body) if e.kind is EntryKind.INDEX_LINE else e.body
            for e in memdir.entries}


def _dates(memdir: MemoryDir) -> dict[str, str]:
    """When each memory was written, as a reviewer reads it: `2026-08-05 (modified:)`."""
    out: dict[str, str] = {}
    for entry in memdir.entries:
        when, source = entry.written_at
        if when is not None:
            out[entry.file] = f"{when.date().isoformat()} ({source})"
    return out


def _session(root: Path, plan: Plan, kept: Mapping[str, str], out: Console) -> ReviewSession:
    saved = load_session(root)
    if saved is None:
        return ReviewSession.of(plan, kept)
    resumed = ReviewSession.resume(plan, saved.verdicts, kept)
    counts = ", ".join(f"{n} {choice}" for choice, n in sorted(_choices(resumed).items()))
    question = (f"You stopped a review on {saved.saved_at[:10]} with {len(resumed.verdicts)} "
                f"decision(s) still current ({counts or 'none'}). Resume it? [Y/n] ")
    try:
        answer = ask(out, question).strip().lower()
    except (KeyboardInterrupt, EOFError):
        raise typer.Exit(INTERRUPTED) from None
    if answer in ("", "y", "yes"):
        return resumed
    drop_session(root)
    return ReviewSession.of(plan, kept)


def _choices(session: ReviewSession) -> dict[str, int]:
    found: dict[str, int] = {}
    for verdict in session.verdicts.values():
        found[verdict.choice.value] = found.get(verdict.choice.value, 0) + 1
    return found


def _confirm(root: Path, plan: Plan, session: ReviewSession, review: Review,
             now: dt.datetime) -> Decided:
    """Every change and every file it touches, the index's growth near its cap, then one
    question: y applies, n saves the review, d shows the whole diff."""
    out = review.console
    verdicts, repairs = session.to_apply(), session.repairs()
    if not (verdicts or repairs):
        remember_keeps(root, session.kept(), now)
        _done_with(root, session, now)
        out.print("Nothing to apply.")
        raise typer.Exit(ExitCode.OK)
    shown = preview(root, now, as_changes(plan, verdicts), repairs)
    for line in confirm_lines(verdicts, repairs, shown, out.width):
        out.print(line, soft_wrap=True)
    while True:
        answer = ask(out, f"Apply {describe(verdicts, len(repairs))}? [y,n,d,?] ")
        key = answer.strip().lower()
        if key in ("y", "yes"):
            return Decided(verdicts, repairs, keeps=session.kept(), by_person=True)
        if key in ("d", "diff"):
            review.show(diff_lines(shown.diff, out.width, None))
        elif key in ("?", "help"):
            review.say("y applies every change listed, n applies nothing and saves the review "
                       "for the next run, d shows the whole diff of what y writes.")
        else:
            _saved(root, session, out, now, "Nothing applied.")
            raise typer.Exit(ExitCode.OK)


def _done_with(root: Path, session: ReviewSession, now: dt.datetime) -> None:
    if session.finished:
        drop_session(root)
    else:
        save_session(root, session.decided(), now)


def _saved(root: Path, session: ReviewSession, out: Console, now: dt.datetime,
           what: str) -> None:
    decided = session.decided()
    if not decided:
        out.print(f"{what} No decisions to save.")
        return
    try:
        path = save_session(root, decided, now)
    except OSError as err:
        out.print(f"{what} Your decisions could not be saved ({err.strerror or err}).")
        return
    for line in wrap(f"{what} Your {len(decided)} decision(s) are saved in {path}; "
                     "the next `prune-memory run` offers to resume them.", out.width):
        out.print(line, soft_wrap=True)


def _kept_here(plan: Plan, kept: Mapping[str, str]) -> int:
    return sum(1 for e in plan.entries
               if e.action.value != "keep" and kept.get(e.file) == e.sha256)
