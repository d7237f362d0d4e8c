"""The plan as JSON (`prune-memory/plan@1`)."""

from __future__ import annotations

import json

from prune_memory.plan import Plan


def render_json(plan: Plan) -> str:
    return json.dumps(plan.to_json(), indent=2, ensure_ascii=False)
