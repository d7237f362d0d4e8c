from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from prune_memory.engine.results import WithdrawRequest
from prune_memory.engine.withdraw import withdraw_many
from prune_memory.procedure.auditlog import AuditSummary, audit_fields, write_audit
from prune_memory.store.pruninglog import AUDIT_FIELDS, read_log
from prune_memory.store.snapshot import take_snapshot
from tests.conftest import topic, write_tree

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_fields_in_design_order_with_percentages() -> None:
    summary = AuditSummary(entries_audited=40, withdrawn=3, updated=2, protected=4,
                           staleness={"path-drift": 2, "count-drift": 1},
                           fidelity_failures=("a.md",))
    fields = audit_fields(summary, Path("/s/MANIFEST.sha256"))
    assert [key for key, _ in fields] == list(AUDIT_FIELDS)
    assert dict(fields) == {
        "Entries audited": "40", "Entries withdrawn": "3 (7.5%)", "Entries updated": "2",
        "Snapshot manifest": "/s/MANIFEST.sha256",
        "Staleness found": "3 (count-drift 1, path-drift 2)",
        "Fidelity failures": "1 (a.md)", "Protected": "4"}
    empty = dict(audit_fields(AuditSummary(0, 0, 0, 0), Path("/m")))
    assert empty["Entries withdrawn"] == "0 (0%)" and empty["Staleness found"] == "none"


def test_one_section_per_pass_holding_its_register_rows(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", {
        "MEMORY.md": "- [A](a.md) — a\n- [B](b.md) — b\n",
        "a.md": topic("a", "x"), "b.md": topic("b", "y")})
    snap = take_snapshot(root, NOW)
    withdraw_many(root, [WithdrawRequest("a.md", "stale"), WithdrawRequest("b.md", "dup")],
                        snapshot=snap, now=NOW)
    audit = write_audit(root, AuditSummary(2, 2, 0, 0, {"stale": 1}), snapshot=snap, now=NOW)
    assert audit.manifest == str(snap.manifest)
    assert [r.register_id for r in audit.rows] == ["2026-11-29-01", "2026-11-29-02"]
    assert audit.fields["Entries withdrawn"] == "2 (100%)"
    again = write_audit(root, AuditSummary(2, 2, 1, 0), snapshot=snap, now=NOW)
    assert again.fields["Entries updated"] == "1" and len(again.rows) == 2
    log = read_log(root)
    assert len(log.audits) == 1
    text = (root / "pruning-log.md").read_text()
    assert text.index("- Protected: 0") < text.index("#### Deaccession register")


def test_a_pass_with_no_withdrawal_still_gets_its_section(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", {"MEMORY.md": "", "a.md": topic("a", "x")})
    snap = take_snapshot(root, NOW)
    audit = write_audit(root, AuditSummary(1, 0, 0, 0), snapshot=snap, now=NOW)
    assert audit.rows == () and audit.date == "2026-11-29"
    assert "#### Deaccession register" in (root / "pruning-log.md").read_text()
