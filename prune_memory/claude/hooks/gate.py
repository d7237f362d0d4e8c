"""The write-time gate: decide whether a tool call may put its text into a memory directory.

`decide` reads the PreToolUse payload, looks only at writes that land in a memory directory,
and runs the checks on the new text. `answer` turns the verdict into Claude Code's JSON:
strict denies with a reason Claude sees; warn leaves the permission flow alone and adds the
reason to Claude's context (a PreToolUse "allow" would skip the user's permission prompt).
Anything unexpected allows: the gate must never stand in the way of ordinary work.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import NamedTuple

from prune_memory.claude.hooks import payload
from prune_memory.claude.hooks.memroots import memory_dir_of, memory_roots, names_memory

ENV_MODE = "PRUNE_MEMORY_GATE"
MAX_LISTED = 8  # hits named in a reason; the rest are counted
# Time for the checks themselves: the gate answers within a second, startup and reading
# the payload included (Claude Code lets the write through at its 10 s timeout).
CHECK_SECONDS = 0.5
# Text bound for memory past this is not read at all, and is denied: a memory is a few KB
# and the index loads 25,000 characters; checking megabytes would not fit the second.
MAX_TEXT_CHARS = 512 * 1024


class Mode(StrEnum):
    STRICT = "strict"  # deny the write
    WARN = "warn"  # let it through, tell Claude (and the user) why it should not be there
    OFF = "off"  # look at nothing


class Decision(StrEnum):
    ALLOW = "allow"
    DENY = "deny"
    WARN = "warn"


class Verdict(NamedTuple):
    decision: Decision
    reason: str | None = None
    problems: tuple[str, ...] = ()  # what to write to the gate log; never shown to Claude


def resolve_mode(flag: str | None, env: Mapping[str, str]) -> tuple[Mode, tuple[str, ...]]:
    """`--mode` wins over `PRUNE_MEMORY_GATE`; strict when neither holds a known mode."""
    problems: list[str] = []
    for source, value in (("--mode", flag), (ENV_MODE, env.get(ENV_MODE))):
        if value is None or not value.strip():
            continue
        try:
            return Mode(value.strip().lower()), tuple(problems)
        except ValueError:
            problems.append(f"{source}={value!r} is not strict, warn or off; ignored")
    return Mode.STRICT, tuple(problems)


def decide(raw: bytes, mode: Mode, extra_roots: Sequence[str] = (),
           size: int | None = None) -> Verdict:
    """The gate's verdict on one PreToolUse payload (`raw`: all of it, or its first bytes
    when `size` says it is longer)."""
    if mode is Mode.OFF:
        return Verdict(Decision.ALLOW)
    if size is not None and size > len(raw):
        return _oversized(raw, size, mode, extra_roots)
    try:
        data = payload.parse(raw)
        call = payload.write_call(data)
    except payload.PayloadError as err:
        return Verdict(Decision.ALLOW, problems=(f"bad payload, allowed: {err}",))
    event = data.get("hook_event_name")
    if event not in (None, "PreToolUse"):
        return Verdict(Decision.ALLOW, problems=(f"unexpected hook_event_name {event!r}",))
    if call is None:
        return Verdict(Decision.ALLOW)
    cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
    roots = memory_roots(extra_roots, cwd)
    bound = {target: root for target in call.targets
             if (root := memory_dir_of(target, roots)) is not None}
    if call.unread and (root := names_memory(call.unread, roots, cwd)) is not None:
        bound[f"{root} (named past what the gate reads of the command)"] = root
    if not bound:
        return Verdict(Decision.ALLOW)  # not memory: the text is never looked at
    size = sum(len(candidate.text) for candidate in call.texts)
    if size > MAX_TEXT_CHARS or call.unread:
        return _too_long(call, tuple(bound), size, mode)
    return _judge(call, bound, mode)


def _oversized(head: bytes, size: int, mode: Mode, extra_roots: Sequence[str]) -> Verdict:
    """A payload longer than the gate reads: where it writes, from its first bytes."""
    sketch = payload.sketch(head)
    if sketch is None:
        return Verdict(Decision.ALLOW, problems=(f"payload of {size:,} bytes, not read",))
    roots = memory_roots(extra_roots, sketch.cwd)
    hits = [root for target in sketch.targets
            if (root := memory_dir_of(target, roots)) is not None]
    if sketch.rest and (root := names_memory(sketch.rest, roots, sketch.cwd)) is not None:
        hits.append(root)
    if not hits:
        return Verdict(Decision.ALLOW)
    return _verdict(mode, f"prune-memory gate: this {sketch.tool} puts {size:,} bytes into "
                          f"memory ({', '.join(dict.fromkeys(hits))}), more than the gate "
                          "reads; a memory is a few KB — write less, or split it")


def _too_long(call: payload.WriteCall, targets: tuple[str, ...], size: int,
              mode: Mode) -> Verdict:
    from prune_memory.secrets.mask import mask_text

    what = "a command too long to read to its end" if call.unread else \
        f"{size:,} characters, more than the gate reads"
    return _verdict(mode, f"prune-memory gate: this {call.tool} puts {what} into memory "
                          f"({mask_text(', '.join(targets))}); a memory is a few KB — "
                          "write less, or split it")


def _verdict(mode: Mode, reason: str) -> Verdict:
    return Verdict(Decision.DENY if mode is Mode.STRICT else Decision.WARN, reason)


def _judge(call: payload.WriteCall, bound: dict[str, str], mode: Mode) -> Verdict:
    from prune_memory.claude.hooks.checks import (  # memory writes only
        check_texts,
        is_own_file,
        lasting_rule_write,
    )

    hits: dict[tuple[str, str, int, str], None] = {}
    problems: list[str] = []
    stopped = ""
    started = time.monotonic()
    for memory_dir in dict.fromkeys(bound.values()):
        targets = [target for target, root in bound.items() if root == memory_dir]
        # The never-persist rules are for session state: not for the tool's own files (they
        # quote them) nor for a lasting rule, whose **Why:** may tell the session behind it.
        rules = not all(is_own_file(target, memory_dir) or lasting_rule_write(call.texts, target)
                        for target in targets)
        left = CHECK_SECONDS - (time.monotonic() - started)
        result = check_texts(call.texts, memory_dir, policy_rules=rules, seconds=left)
        hits.update(dict.fromkeys(result.hits))
        problems.extend(result.problems)
        stopped = stopped or result.stopped
    if not hits and not stopped:
        return Verdict(Decision.ALLOW, problems=tuple(problems))
    decision = Decision.DENY if mode is Mode.STRICT else Decision.WARN
    reason = _reason(call, tuple(bound), list(hits), decision, stopped)
    return Verdict(decision, reason, tuple(problems))


def _reason(call: payload.WriteCall, targets: tuple[str, ...],
            hits: list[tuple[str, str, int, str]], decision: Decision,
            stopped: str = "") -> str:
    from prune_memory.secrets.mask import mask_text  # a secret in a file name stays out

    verb = "blocked" if decision is Decision.DENY else "warning"
    where = mask_text(", ".join(targets))
    lines = [f"prune-memory gate ({verb}): this {call.tool} puts text into memory ({where}) "
             "that must not be kept there:"]
    for rule, part, line, detail in hits[:MAX_LISTED]:
        lines.append(f"- {_rule_text(rule, detail)} ({part}, line {line})")
    if len(hits) > MAX_LISTED:
        lines.append(f"- and {len(hits) - MAX_LISTED} more")
    if stopped:
        size = sum(len(candidate.text) for candidate in call.texts)
        lines.append(f"- the text ({size:,} characters) was not checked to its end: "
                     f"{mask_text(stopped)}")
    if decision is Decision.DENY:
        lines.append("Write the memory without these: keep a pointer to where a secret is "
                     "stored rather than its value, and keep session chatter out of memory.")
    else:
        lines.append("The write goes ahead; rewrite that memory without these.")
    return "\n".join(lines)


def _rule_text(rule: str, detail: str) -> str:
    if rule == "secret":
        return f"secret {detail}"
    if rule == "injected-instruction":
        return f"text that reads as an instruction planted for the model ({detail})"
    return f"retention policy rule {rule.removeprefix('never-persist:')}: {detail}"


def answer(verdict: Verdict) -> str | None:
    """The JSON Claude Code reads on stdout, or None to allow without a word."""
    if verdict.decision is Decision.ALLOW or verdict.reason is None:
        return None
    if verdict.decision is Decision.DENY:
        specific = {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                    "permissionDecisionReason": verdict.reason}
        return json.dumps({"hookSpecificOutput": specific})
    specific = {"hookEventName": "PreToolUse", "additionalContext": verdict.reason}
    return json.dumps({"hookSpecificOutput": specific, "systemMessage": verdict.reason})
