"""Progress bars for the pass's stages, shown only on a terminal and for large directories."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from prune_memory.cli.common import console as stderr_console

# In the order the pass runs them: the repo is read, and git's longest work started, before
# fidelity and hygiene; the probes finish after them (procedure/pipeline.py).
STAGES = ("load", "classify", "repo", "fidelity", "hygiene", "staleness", "decide")


@contextmanager
def stage_progress(console: Console, *,
                   show: bool | None = None) -> Iterator[Callable[[str], None]]:
    """A callback for the pipeline: each stage gets a bar that fills when it ends."""
    visible = sys.stderr.isatty() if show is None else show
    if not visible:
        yield lambda stage: None
        return
    with Progress(TextColumn("{task.description:<10}"), BarColumn(), TimeElapsedColumn(),
                  console=stderr_console(stderr=True),
                  transient=True) as progress:
        tasks = {name: progress.add_task(name, total=1, start=False) for name in STAGES}
        current: list[str] = []

        def advance(stage: str) -> None:
            if current:
                progress.update(tasks[current[0]], completed=1)
            current[:] = [stage]
            if stage in tasks:
                progress.start_task(tasks[stage])

        yield advance
        if current:
            progress.update(tasks[current[0]], completed=1)
