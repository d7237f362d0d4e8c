"""Plan renderings: one Protocol, one module per format, one exhaustive mapping."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Protocol, assert_never

if TYPE_CHECKING:
    from rich.console import RenderableType

    from prune_memory.plan import Plan


class Format(StrEnum):
    TABLE = "table"
    JSON = "json"
    MARKDOWN = "markdown"


class PlanRenderer(Protocol):
    def __call__(self, plan: Plan) -> RenderableType | str: ...


def renderer(fmt: Format) -> PlanRenderer:
    """The function that renders a plan in `fmt`."""
    if fmt is Format.TABLE:
        from prune_memory.report.plan_table import render_table
        return render_table
    if fmt is Format.JSON:
        from prune_memory.report.plan_json import render_json
        return render_json
    if fmt is Format.MARKDOWN:
        from prune_memory.report.plan_markdown import render_markdown
        return render_markdown
    assert_never(fmt)
