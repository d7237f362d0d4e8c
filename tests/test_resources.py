from __future__ import annotations

from pathlib import Path

import pytest

from prune_memory import resources
from prune_memory.errors import PruneMemoryError


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    resources.read_template.cache_clear()


def test_templates_come_from_the_source_tree() -> None:
    for name in ("tombstone.md", "superseded.md", "pruning-log.md"):
        assert resources.read_template(name).startswith(("---\n", "# Pruning log"))


def test_an_installed_wheel_copy_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "tombstone.md").write_text("packaged")
    monkeypatch.setattr(resources, "_PACKAGED_TEMPLATES", tmp_path / "templates")
    assert resources.read_template("tombstone.md") == "packaged"


def test_a_missing_template_is_an_error(monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    monkeypatch.setattr(resources, "_SOURCE_TEMPLATES", tmp_path)
    monkeypatch.setattr(resources, "_PACKAGED_TEMPLATES", tmp_path)
    with pytest.raises(PruneMemoryError, match="missing"):
        resources.read_template("nope.md")
