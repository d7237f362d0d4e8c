"""Pick the headline figures out of each benchmark's JSON, with the target each must meet."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Figure:
    source: str
    label: str
    value: float
    unit: str
    target: str | None = None
    met: bool | None = None

    @property
    def shown(self) -> str:
        if self.unit == "x":
            return f"{self.value:.1f}x"
        if self.unit == "ratio":
            return f"{self.value:.2f}"
        if self.unit in ("MB", "ms", "/s", "%"):
            return f"{self.value:,.1f} {self.unit}".replace(" %", "%")
        if self.unit == "s":
            return f"{self.value:.2f} s"
        return f"{self.value:g} {self.unit}".strip()

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "label": self.label, "value": self.value,
                "unit": self.unit, "shown": self.shown, "target": self.target, "met": self.met}


def _below(value: float, limit: float) -> bool:
    return value < limit


def _probe(d: dict[str, Any]) -> list[Figure]:
    seconds = d["seconds"]
    repo = d["repo"]
    probe = seconds["probe_staleness (git + probes)"]
    return [
        Figure("probe", f"staleness probe: {repo['tracked_files']:,}-file repo, "
               f"{repo['commits']:,} commits, {d['memories']:,} entries", probe, "s", "< 10 s",
               _below(probe, 10)),
        Figure("probe", "  git subprocesses for the whole probe", repo["git_calls"], ""),
    ]


def _jsonl(d: dict[str, Any]) -> list[Figure]:
    r, m = d["report_100k"], d["memory_dir_10k"]
    out: list[Figure] = []
    if not d.get("seed_found", True):
        out.append(Figure("jsonl", "jsonl report vs the seed's audit.py: seed 000 not found "
                          "(set SEEDS), not measured", 0, "", ">= 30x", False))
    for row in d.get("seed", {}).values():
        n, target = f"{row['records']:,}", 30 if row["records"] <= 3000 else 100
        gen = row["generator"]
        out += [
            Figure("jsonl", f"jsonl report vs the seed's audit.py, {gen}, {n} records "
                   "(whole processes, CPU time)", row["speedup_cpu"], "x", f">= {target}x",
                   row["speedup_cpu"] >= target and row["results_equal"]),
            Figure("jsonl", f"  same, wall time (audit.py {row['seed_wall_s']:.1f} s, ours "
                   f"{row['ours_wall_s']:.2f} s)", row["speedup_wall"], "x"),
            Figure("jsonl", f"  reports identical, key for key ({row['near_pairs']:,} near "
                   f"pairs, {row['contradictions']:,} flags)", float(row["results_equal"]),
                   "", "1 (yes)", row["results_equal"]),
        ]
    return [
        *out,
        Figure("jsonl", "jsonl report, 100,000 records (whole command)", r["wall_s"], "s",
               "< 60 s", _below(r["wall_s"], 60)),
        Figure("jsonl", "  peak RSS of that command", r["peak_rss_mb"], "MB", "< 1024 MB",
               _below(r["peak_rss_mb"], 1024)),
        Figure("jsonl", "check_fidelity alone, 10,000 entries", m["wall_s"], "s"),
    ]


def _plan(d: dict[str, Any]) -> list[Figure]:
    out: list[Figure] = []
    sizes = d["sizes"]
    gen = d.get("generator", "zipf")
    if "10000" in sizes:
        row = sizes["10000"]
        median = row["analysis_median_s"]
        out += [
            Figure("plan", f"analysis of 10,000 loaded entries ({gen}; fidelity + hygiene, "
                   "median of 3)", median, "s", "< 3 s", _below(median, 3)),
            Figure("plan", "  same, CPU time (best of 3)", min(row["analysis_cpu_s"]), "s"),
            Figure("plan", "  same two stages inside build_plan", row["in_plan_analysis_s"],
                   "s"),
            Figure("plan", f"load 10,000 entries ({gen}; index + topic files)", row["load_s"],
                   "s"),
        ]
    for size, row in sizes.items():
        n = f"{int(size):,}"
        judged = size == "10000"
        out.append(Figure("plan", f"build_plan ({gen}), {n} entries, 20k-file repo",
                          row["build_plan_s"], "s"))
        if "floor_s" in row:
            out.append(Figure("plan", f"  floor: read and YAML-parse every file, {n} entries",
                              row["floor_s"], "s"))
            out.append(Figure("plan", f"  build_plan over the floor, {n} entries (CPU time)",
                              row["over_floor_cpu"], "x", "<= 8x" if judged else None,
                              row["over_floor_cpu"] <= 8 if judged else None))
            out.append(Figure("plan", f"  same in wall time, {n} entries", row["over_floor"],
                              "x"))
        out.append(Figure("plan", f"  peak RSS at {n} entries", row["peak_rss_mb"], "MB",
                          "< 1024 MB" if judged else None,
                          row["peak_rss_mb"] < 1024 if judged else None))
    if "scaling_10k_over_1k_cpu" in d:
        out.append(Figure("plan", f"scaling time(10k) / time(1k) of build_plan ({gen}, CPU)",
                          d["scaling_10k_over_1k_cpu"], "ratio", "~10 (linear)"))
    if "scaling_30k_over_10k_cpu" in d:
        bound = d["scaling_30k_over_10k_bound"]
        out.append(Figure("plan", f"scaling time(30k) / time(10k) of build_plan ({gen}, CPU)",
                          d["scaling_30k_over_10k_cpu"], "ratio", f"<= {bound} (n log n)",
                          d["scaling_30k_over_10k_cpu"] <= bound))
        out.append(Figure("plan", "  same in wall time", d["scaling_30k_over_10k"], "ratio"))
    return out


def _corners(d: dict[str, Any]) -> list[Figure]:
    """Issue 26's two corners: whole `plan --json` on unindexed files and on near copies."""
    out: list[Figure] = []
    for key, what in (("orphans", "unindexed files"), ("near", "near-duplicates")):
        for size, row in d.get(key, {}).items():
            out.append(Figure("corners", f"`plan --json`, {int(size):,} {what}, CPU time "
                              f"(median of {d['runs']}; wall {row['wall_s']:.2f} s)",
                              row["cpu_s"], "s"))
        grow = d.get(f"{key}_growth")
        if grow:
            out.append(Figure("corners", f"  growth {grow['from']:,} -> {grow['to']:,} "
                              f"{what}", grow["cpu_ratio"], "ratio",
                              f"<= {grow['bound']} (n log n)", grow["within_n_log_n"]))
    return out


def _apply(d: dict[str, Any]) -> list[Figure]:
    outer = d["command"]
    out: list[Figure] = []
    for row in d.get("sizes") or [d["in_process"]]:
        out.append(Figure("apply", f"run --yes: withdrawals per second ({row['withdrawn']:,} "
                          f"withdrawn of {row['entries']:,}, fsync on)",
                          row["withdrawals_per_s"], "/s"))
    if d.get("growth_per_withdrawal") is not None:
        sizes = d["sizes"]
        out.append(Figure("apply", f"  time per withdrawal, {sizes[-1]['entries']:,} over "
                          f"{sizes[0]['entries']:,} entries", d["growth_per_withdrawal"],
                          "ratio", "~1 (linear)", d["growth_per_withdrawal"] <= 1.5))
    out.append(Figure("apply", "  run --yes end to end (plan, snapshot, apply, audit, scan), "
                      f"{d['entries']:,} entries", outer["wall_s"], "s"))
    return out


def _engine(d: dict[str, Any]) -> list[Figure]:
    return [
        Figure("engine", f"withdraw_many alone, {d['entries']} entries", d["withdrawals_per_s"],
               "/s"),
        Figure("engine", "restore", d["restores_per_s"], "/s"),
    ]


def _hygiene(d: dict[str, Any]) -> list[Figure]:
    corpus = d["corpus"]
    return [
        Figure("hygiene", "check_hygiene alone, 10,000 entries", d["check_hygiene_10k_entries_s"],
               "s"),
        Figure("hygiene", f"secret recall on the corpus ({corpus['secrets']} secrets)",
               100 * corpus["recall"], "%", ">= 95%", corpus["recall"] >= 0.95),
        Figure("hygiene", f"false positives on {corpus['lookalikes']} look-alikes",
               corpus["false_positives"], "", "<= 2", corpus["false_positives"] <= 2),
    ]


def _gate(d: dict[str, Any]) -> list[Figure]:
    """The budget (median under 100 ms) holds for the gate as installed (bytecode compiled by
    pip); the run with no bytecode cache, which compiles every module on each call, is shown
    for reference."""
    out: list[Figure] = []
    for name, row in d.get("cases", {}).items():
        if name == "python_startup":
            continue
        setup, _, case = name.rpartition("/")
        judged = setup in ("", "bytecode")
        where = "installed" if judged else f"{setup}, no bytecode cache"
        p50 = row["wall_ms"]["p50"]
        out.append(Figure("gate", f"hook gate median wall, {case} ({where})", p50, "ms",
                          "< 100 ms" if judged else None, _below(p50, 100) if judged else None))
        out.append(Figure("gate", f"  same, p95 wall, {case}", row["wall_ms"]["p95"], "ms"))
    startup = d.get("cases", {}).get("python_startup")
    if startup:
        out.append(Figure("gate", "  bare `python -c pass`, median wall",
                          startup["wall_ms"]["p50"], "ms"))
    return out


def _startup(d: dict[str, Any]) -> list[Figure]:
    """Everyday commands in a fresh process, as installed: the median wall time."""
    out: list[Figure] = []
    for name, row in d["commands"].items():
        budget = row.get("budget_ms")
        label = f"`prune-memory {name}`, median wall" if budget else f"  `{name}`, median wall"
        out.append(Figure("startup", label, row["median_ms"], "ms",
                          f"< {budget} ms" if budget else None,
                          _below(row["median_ms"], budget) if budget else None))
    return out


def _realdir(d: dict[str, Any]) -> list[Figure]:
    """Whole `plan` commands on real folders of 100+ entries, when a corpus was at hand."""
    out: list[Figure] = []
    for name, row in d["folders"].items():
        out.append(Figure("realdir", f"`plan` on a real folder ({name}, {row['entries']} "
                          "entries), whole command, median", row["median_s"], "s",
                          f"< {d['target_s']:g} s", _below(row["median_s"], d["target_s"])))
        if "median_cpu_s" in row:
            out.append(Figure("realdir", "  same, CPU time (user + system), median",
                              row["median_cpu_s"], "s"))
    return out


EXTRACTORS: dict[str, Callable[[dict[str, Any]], list[Figure]]] = {
    "probe": _probe, "jsonl": _jsonl, "plan": _plan, "plan_similar": _plan,
    "corners": _corners, "apply": _apply, "engine": _engine,
    "hygiene": _hygiene, "gate": _gate, "startup": _startup, "realdir": _realdir,
}


def figures(results: dict[str, dict[str, Any] | None]) -> list[Figure]:
    """Every headline figure of the benchmarks that produced a result, in a fixed order."""
    out: list[Figure] = []
    for name, extract in EXTRACTORS.items():
        data = results.get(name)
        if not data:
            continue
        try:
            out.extend(extract(data))
        except (KeyError, TypeError, ZeroDivisionError) as err:
            out.append(Figure(name, f"{name}: result not understood ({err!r})", 0, ""))
    return out
