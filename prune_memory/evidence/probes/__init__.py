"""Staleness probes: one module per kind of drift, all behind the `Probe` protocol."""

from __future__ import annotations

from prune_memory.evidence.probes.base import Probe
from prune_memory.evidence.probes.compression import CompressionProbe
from prune_memory.evidence.probes.counts import CountProbe
from prune_memory.evidence.probes.decisions import DecisionProbe
from prune_memory.evidence.probes.enums import EnumProbe
from prune_memory.evidence.probes.identifiers import IdentifierProbe
from prune_memory.evidence.probes.linecounts import LineCountProbe
from prune_memory.evidence.probes.names import NameProbe
from prune_memory.evidence.probes.paths import PathProbe
from prune_memory.evidence.probes.plans import PlanProbe
from prune_memory.evidence.probes.prosecounts import ProseCountProbe
from prune_memory.evidence.probes.releases import ReleaseProbe
from prune_memory.evidence.probes.states import StateProbe
from prune_memory.evidence.probes.versions import VersionProbe


def default_probes() -> tuple[Probe, ...]:
    """Every built-in probe, in the order the procedure lists the drifts."""
    return (CountProbe(), LineCountProbe(), EnumProbe(), PathProbe(), PlanProbe(),
            StateProbe(), DecisionProbe(), VersionProbe(), ReleaseProbe(), NameProbe(),
            IdentifierProbe(),
            ProseCountProbe(), CompressionProbe())
