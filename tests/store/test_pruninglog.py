from __future__ import annotations

import pytest

from prune_memory.store.pruninglog import (
    ChangeRow,
    RegisterRow,
    add_change_row,
    add_protected,
    add_register_row,
    contains_row,
    new_log_text,
    next_register_id,
    parse_log,
    parse_protected_line,
    remove_protected,
    set_audit_fields,
)

DESIGN_EXAMPLE = """# Pruning log

## Protected
- `decision_layout.md` — architecture decision (protected 2026-10-01)
- user_style.md — explicit user preference
- [audit.md](audit.md): security audit result
* `rename.md` - rename record (2026-09-30)

### 2026-11-29 Audit
- Entries audited: 40
- Entries withdrawn: 4 (10%)
- Entries updated: 2
- Snapshot manifest: /state/snap/MANIFEST.sha256
- Staleness found: 3 (path-drift 2, count-drift 1)
- Fidelity failures: 1 (old.md)
- Protected: 4

#### Deaccession register
| register_id | Entry (summary) | Type | Reason | Tombstone | superseded_by |
|---|---|---|---|---|---|
| 2026-11-29-01 | `old.md` — a \\| pipe | Project | 2-failed-fidelity: wrong count \
| deaccessioned/old.md | N/A |
| 2026-11-29-02 | `strategy.md` — retry | Pattern | 5i: abandoned | deaccessioned/strategy.md \
| superseded_strategy.md |
"""


def test_parses_the_design_layout_field_for_field() -> None:
    log = parse_log(DESIGN_EXAMPLE)
    assert [(p.file, p.reason, p.since) for p in log.protected] == [
        ("decision_layout.md", "architecture decision", "2026-10-01"),
        ("user_style.md", "explicit user preference", None),
        ("audit.md", "security audit result", None),
        ("rename.md", "rename record", "2026-09-30"),
    ]
    (audit,) = log.audits
    assert audit.date == "2026-11-29"
    assert audit.fields["Entries withdrawn"] == "4 (10%)"
    assert audit.manifest == "/state/snap/MANIFEST.sha256"
    first, second = audit.rows
    assert first.cells() == ("2026-11-29-01", "`old.md` — a | pipe", "Project",
                             "2-failed-fidelity: wrong count", "deaccessioned/old.md", "N/A")
    assert first.file == "old.md" and first.manifest == audit.manifest
    assert second.superseded_by == "superseded_strategy.md"
    assert log.is_protected("user_style.md") and not log.is_protected("old.md")


@pytest.mark.parametrize(("line", "expected"), [
    ("- file.md — reason", ("file.md", "reason", None)),
    ("- `file.md` — reason (protected 2026-01-02)", ("file.md", "reason", "2026-01-02")),
    ("- file.md", ("file.md", "", None)),
    ("- ./file.md: why", ("file.md", "why", None)),
    ("- `my file.md` – en dash", ("my file.md", "en dash", None)),
    ("not a bullet", None),
])
def test_protected_lines_in_every_hand_written_shape(
        line: str, expected: tuple[str, str, str | None] | None) -> None:
    assert parse_protected_line(line) == expected


def test_register_ids_count_up_within_the_day_and_are_never_reused() -> None:
    log = parse_log(DESIGN_EXAMPLE)
    assert next_register_id(log, "2026-11-29") == "2026-11-29-03"
    assert next_register_id(log, "2026-11-30") == "2026-11-30-01"
    restored = add_change_row(DESIGN_EXAMPLE, ChangeRow("2026-11-30", "restored", "`old.md`",
                                                        "2026-11-29-02", "on request"))
    assert next_register_id(parse_log(restored), "2026-11-29") == "2026-11-29-03"
    assert next_register_id(parse_log(""), "2026-01-01", taken=("2026-01-01-07",)) == \
        "2026-01-01-08"


def test_rows_are_appended_under_the_right_audit_and_old_ones_kept() -> None:
    row = RegisterRow("2026-11-29-03", "`new.md` — x", "Ephemeral", "1-ephemeral: chatter",
                      "deaccessioned/new.md", "N/A")
    text = add_register_row(DESIGN_EXAMPLE, row, manifest="/state/snap/MANIFEST.sha256",
                            date="2026-11-29")
    assert text.startswith(DESIGN_EXAMPLE.rstrip("\n").rsplit("\n", 1)[0])
    assert [r.register_id for r in parse_log(text).rows] == [
        "2026-11-29-01", "2026-11-29-02", "2026-11-29-03"]
    other = add_register_row(text, row, manifest="/other/MANIFEST.sha256", date="2026-12-01")
    audits = parse_log(other).audits
    assert [a.manifest for a in audits] == ["/state/snap/MANIFEST.sha256",
                                            "/other/MANIFEST.sha256"]
    assert audits[1].date == "2026-12-01" and len(audits[1].rows) == 1
    assert contains_row(other, row.cells())


def test_a_new_log_grows_protected_changes_and_an_audit() -> None:
    text = add_protected(new_log_text(), "keep.md", "rename record", "2026-11-29")
    text = add_change_row(text, ChangeRow("2026-11-29", "protected", "`keep.md`", "N/A",
                                          "rename record"))
    text = set_audit_fields(text, manifest="/m/MANIFEST.sha256", date="2026-11-29",
                            fields=[("Entries audited", "3"), ("Protected", "1")])
    log = parse_log(text)
    assert [p.file for p in log.protected] == ["keep.md"]
    assert [c.change for c in log.changes] == ["protected"]
    assert log.audits[0].fields == {"Entries audited": "3", "Protected": "1",
                                    "Snapshot manifest": "/m/MANIFEST.sha256"}
    assert "<!--" not in text
    assert parse_log(remove_protected(text, "keep.md")).protected == ()


def test_audit_fields_are_replaced_but_rows_stay() -> None:
    text = set_audit_fields(DESIGN_EXAMPLE, manifest="/state/snap/MANIFEST.sha256",
                            date="2026-11-29", fields=[("Entries audited", "41")])
    log = parse_log(text)
    assert log.audits[0].fields["Entries audited"] == "41"
    assert log.audits[0].fields["Fidelity failures"] == "1 (old.md)"
    assert len(log.rows) == 2


def test_crlf_log_keeps_its_line_endings() -> None:
    crlf = DESIGN_EXAMPLE.replace("\n", "\r\n")
    text = add_protected(crlf, "x.md", "why", "2026-11-29")
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")
    assert parse_log(text).is_protected("x.md")
