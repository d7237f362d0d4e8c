"""Rich tables for the read-only views: inventory, scan, where, status."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from prune_memory.report.rows import fill

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
    rest = fill(table, [(row.entry.file, row.classification.cls.value,
                         row.classification.signal, row.entry.memory_type or "-",
                         f"{row.age_days}d ({row.age_source})", f"{row.entry.size} B",
                         row.access.label) for row in inv.rows], "entries")
    counts = ", ".join(f"{k} {v}" for k, v in inv.class_counts().items())
    parts: list[RenderableType] = [table, *([rest] if rest else []),
                                   Text(f"{len(inv.rows)} entries: {counts}")]
    if inv.memdir.index:
        parts.append(load_cap_line(inv.memdir.index.cap))
    return Group(*parts)


def scan_view(reach: Reachability) -> RenderableType:
    if reach.clean:
        return Text("Reachability: clean — every index link resolves and every file is indexed.")
    table = Table(title="Reachability findings")
    for col in ("finding", "where", "detail"):
        table.add_column(col, overflow="fold")
    rest = fill(table, _findings(reach), "findings")
    share = reach.orphan_share
    return Group(table, *([rest] if rest else []),
                 Text(f"Orphans: {share.get('files_pct', 0)}% of files, "
                      f"{share.get('bytes_pct', 0)}% of bytes"))


def _findings(reach: Reachability) -> list[tuple[str, str, str | Text]]:
    """One row per reachability finding, kind by kind."""
    line = "MEMORY.md:{line}".format
    rows: list[tuple[str, str, str | Text]] = [
        *(("dangling", line(**i), f"links missing {i['target']}") for i in reach.dangling),
        *(("outside", line(**i), f"links {i['target']}, outside the memory directory (not "
           "followed)") for i in reach.outside),
        *(("degraded", line(**i), f"names {i['target']}; likely {i['likely']}")
          for i in reach.degraded),
        *(("orphaned", i["file"], "on disk, not in the index") for i in reach.orphaned),
        *(("wiki link", f"{i['file']}:{i['line']}", f"[[{i['name']}]] missing")
          for i in reach.wiki_missing),
        *(("body link", f"{i['file']}:{i['line']}", f"links missing {i['target']}")
          for i in reach.body_dangling),
        *(("unloaded", i["file"], "index line past the load cap") for i in reach.unloaded),
        *(("tombstone", f"deaccessioned/{n}", "no register row")
          for n in reach.unregistered_tombstones),
        *(("register", i["register_id"], f"tombstone missing: {i['tombstone']}")
          for i in reach.missing_tombstones),
    ]
    rows += [("secret", i["tombstone"], Text(
        f"still holds {', '.join(i['secrets'])}: rotate it, then restore and withdraw it again "
        "to move the original into the private vault")) for i in reach.secret_tombstones]
    return rows


def where_lines(loc: Location, *, aligned: bool) -> list[str]:
    """Key and value per line: aligned for a terminal, tab-separated for a pipe. Never a
    table: a path is what people copy, and a table folds or cuts it to the width."""
    rows = (("project", loc.project), ("git root", loc.git_root or "(not a git repo)"),
            ("name", loc.name), ("memory dir", loc.memory_dir), ("found by", loc.source),
            ("exists", "yes" if loc.exists else "no"))
    return [f"{key:<10}  {value}" if aligned else f"{key}\t{value}" for key, value in rows]


def status_view(rows: Sequence[ProjectStatus]) -> RenderableType:
    table = Table(title="Memory directories")
    for col in ("project", "entries", "usage", "binds", "orphans", "dangling", "last audit",
                "sessions since"):
        table.add_column(col, overflow="fold")
    rest = fill(table, [(r.name, str(r.entries), f"{r.usage:.0%}", r.binding_cap,
                         str(r.orphans), str(r.dangling), r.last_audit or "never",
                         str(r.sessions_since)) for r in rows], "directories")
    return Group(table, rest) if rest else table
