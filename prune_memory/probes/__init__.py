"""Staleness probes: one module per kind of drift, all behind the `Probe` protocol."""

from __future__ import annotations

from prune_memory.probes.base import Probe
from prune_memory.probes.compression import CompressionProbe
from prune_memory.probes.counts import CountProbe
from prune_memory.probes.decisions import DecisionProbe
from prune_memory.probes.linecounts import LineCountProbe
from prune_memory.probes.names import NameProbe
from prune_memory.probes.paths import PathProbe
from prune_memory.probes.plans import PlanProbe
from prune_memory.probes.prosecounts import ProseCountProbe
from prune_memory.probes.releases import ReleaseProbe
from prune_memory.probes.states import StateProbe
from prune_memory.probes.versions import VersionProbe


def default_probes() -> tuple[Probe, ...]:
    """Every built-in probe, in the order the procedure lists the drifts."""
    return (CountProbe(), LineCountProbe(), PathProbe(), PlanProbe(), StateProbe(),
            DecisionProbe(), VersionProbe(), ReleaseProbe(), NameProbe(), ProseCountProbe(),
            CompressionProbe())
