"""Rich tables for the read-only views: inventory, scan, where, status."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from prune_memory.claude.locate import Location
    from prune_memory.model import LoadCap
    from prune_memory.procedure.inventory import Inventory
    from prune_memory.procedure.reachability import Reachability
    from prune_memory.procedure.status import ProjectStatus


def load_cap_line(cap: LoadCap) -> Text:
    warn = "  ⚠ near the cap" if cap.near_cap else ""
    return Text(f"Index: {cap.lines}/{cap.line_cap} lines, {cap.chars}/{cap.char_cap} chars — "
                f"usage {cap.usage:.0%} ({cap.binding_cap} bind){warn}")


def inventory_view(inv: Inventory) -> RenderableType:
    table = Table(title=f"Inventory of {inv.memdir.root}", show_lines=False)
    for col in ("file", "class", "signal", "type", "age", "size", "access"):
        table.add_column(col, overflow="fold")
    for row in inv.rows:
        e = row.entry
        table.add_row(e.file, row.classification.cls.value, row.classification.signal,
                      e.memory_type or "-", f"{row.age_days}d ({row.age_source})",
                      f"{e.size} B", row.access.label)
    counts = ", ".join(f"{k} {v}" for k, v in inv.class_counts().items())
    parts: list[RenderableType] = [table, Text(f"{len(inv.rows)} entries: {counts}")]
    if inv.memdir.index:
        parts.append(load_cap_line(inv.memdir.index.cap))
    return Group(*parts)


def scan_view(reach: Reachability) -> RenderableType:
    if reach.clean:
        return Text("Reachability: clean — every index link resolves and every file is indexed.")
    table = Table(title="Reachability findings")
    for col in ("finding", "where", "detail"):
        table.add_column(col, overflow="fold")
    for item in reach.dangling:
        table.add_row("dangling", f"MEMORY.md:{item['line']}", f"links missing {item['target']}")
    for item in reach.outside:
        table.add_row("outside", f"MEMORY.md:{item['line']}",
                      f"links {item['target']}, outside the memory directory (not followed)")
    for item in reach.degraded:
        table.add_row("degraded", f"MEMORY.md:{item['line']}",
                      f"names {item['target']}; likely {item['likely']}")
    for item in reach.orphaned:
        table.add_row("orphaned", item["file"], "on disk, not in the index")
    for item in reach.wiki_missing:
        table.add_row("wiki link", f"{item['file']}:{item['line']}", f"[[{item['name']}]] missing")
    for item in reach.unloaded:
        table.add_row("unloaded", item["file"], "index line past the load cap")
    for name in reach.unregistered_tombstones:
        table.add_row("tombstone", f"deaccessioned/{name}", "no register row")
    for item in reach.missing_tombstones:
        table.add_row("register", item["register_id"], f"tombstone missing: {item['tombstone']}")
    for item in reach.secret_tombstones:
        table.add_row("secret", item["tombstone"], Text(
            f"still holds {', '.join(item['secrets'])}: rotate it, then restore and withdraw "
            "it again to move the original into the private vault"))
    share = reach.orphan_share
    return Group(table, Text(f"Orphans: {share.get('files_pct', 0)}% of files, "
                             f"{share.get('bytes_pct', 0)}% of bytes"))


def where_view(loc: Location) -> RenderableType:
    table = Table(show_header=False)
    table.add_column("key")
    table.add_column("value", overflow="fold")
    for key, value in (("project", loc.project), ("git root", loc.git_root or "(not a git repo)"),
                       ("name", loc.name), ("memory dir", loc.memory_dir),
                       ("found by", loc.source), ("exists", "yes" if loc.exists else "no")):
        table.add_row(key, str(value))
    return table


def status_view(rows: Sequence[ProjectStatus]) -> RenderableType:
    table = Table(title="Memory directories")
    for col in ("project", "entries", "usage", "binds", "orphans", "dangling", "last audit",
                "sessions since"):
        table.add_column(col, overflow="fold")
    for r in rows:
        table.add_row(r.name, str(r.entries), f"{r.usage:.0%}", r.binding_cap, str(r.orphans),
                      str(r.dangling), r.last_audit or "never", str(r.sessions_since))
    return table
