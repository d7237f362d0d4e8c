"""Plan renderings: one Protocol, one exhaustive mapping; the table and the markdown have a
module each, the JSON (`prune-memory/plan@1`) is the plan's own `to_json`."""

from __future__ import annotations

import json
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
        return _render_json
    if fmt is Format.MARKDOWN:
        from prune_memory.report.plan_markdown import render_markdown
        return render_markdown
    assert_never(fmt)


def _render_json(plan: Plan) -> str:
    return json.dumps(plan.to_json(), indent=2, ensure_ascii=False)
