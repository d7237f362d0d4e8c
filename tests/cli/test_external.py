"""The pager a review starts gets what the terminal would: masked, controls made visible."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from prune_memory.cli.external import page

TOKEN = "ghp_" + "Lm40Nb39Vc28Xz17Qa06Ws95Ed84Rf73Tg62"


def test_the_pager_gets_no_escape_sequence_and_no_secret(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = tmp_path / "paged.txt"
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("PAGER", f"{sys.executable} -c \"import sys, pathlib; "
                                f"pathlib.Path({str(seen)!r}).write_bytes(sys.stdin.buffer.read())\"")
    assert page(f"--- a.md ---\nkey {TOKEN}\n\x1b]0;pwned\x07\x1b[2Jcleared\n")
    paged = seen.read_text(encoding="utf-8")
    assert "\x1b" not in paged and "\x07" not in paged
    assert "\\x1b]0;pwned\\x07\\x1b[2Jcleared" in paged
    assert TOKEN not in paged and TOKEN[4:12] not in paged
