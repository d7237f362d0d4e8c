"""A saved review is read back only in the shapes a review saves: anything else is one line,
exit 2, before any decision is used."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.errors import BadInputError, ExitCode
from prune_memory.procedure.review import Choice, Verdict
from prune_memory.procedure.review_state import SESSION, load_session, reviews_dir, save_session

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
GOOD = {"file": "a.md", "choice": "update", "text": "edited", "inoculation": None,
        "reason": "", "sha256": "x"}

BAD_SHAPES: dict[str, object] = {
    "decisions an object": {"a.md": GOOD},
    "a decision null": [GOOD, None],
    "a decision a string": ["a.md"],
    "update text not a string": [{**GOOD, "text": {"x": 1}}],
    "reason a number": [{**GOOD, "reason": 7}],
    "file outside": [{**GOOD, "file": "../../.bashrc"}],
    "file in a folder": [{**GOOD, "file": "sub/a.md"}],
    "file not text": [{**GOOD, "file": ["a.md"]}],
    "unknown choice": [{**GOOD, "choice": "burn"}],
    "no choice": [{"file": "a.md"}],
    "draft a list": [{**GOOD, "choice": "inoculate", "inoculation": ["p"]}],
    "draft field not text": [{**GOOD, "choice": "inoculate", "inoculation": {
        "pattern": 1, "evidence": "e", "abandonment_reason": "r", "do_not_rederive": "d"}}],
}


@pytest.mark.parametrize("case", sorted(BAD_SHAPES))
def test_a_session_of_a_shape_never_saved_is_one_line_exit_2(tmp_path: Path, case: str) -> None:
    path = reviews_dir(tmp_path) / SESSION
    path.write_text(json.dumps({"saved_at": NOW.isoformat(), "decisions": BAD_SHAPES[case]}))
    with pytest.raises(BadInputError) as caught:
        load_session(tmp_path)
    assert caught.value.exit_code == ExitCode.BAD_INPUT
    assert "saved review" in str(caught.value) and "\n" not in str(caught.value)


def test_a_session_as_saved_still_loads(tmp_path: Path) -> None:
    save_session(tmp_path, [Verdict("a.md", Choice.UPDATE, text="edited", sha256="x")], NOW)
    saved = load_session(tmp_path)
    assert saved is not None and saved.verdicts[0].text == "edited"
