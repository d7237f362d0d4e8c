"""Regex programs kept between processes rebuild exactly the pattern `re.compile` gives."""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prune_memory.hooks.checks  # noqa: F401  (creates the gate's patterns)
from prune_memory import regexcache, warmcache
from prune_memory.regexgate import LazyPattern


@pytest.fixture
def new_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """A fresh warm cache under tmp_path; calling the result saves it and forgets it in
    memory, as a process ending and the next one starting would."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    def restart() -> None:
        warmcache.save()
        monkeypatch.setattr(warmcache, "_loaded", None)
        monkeypatch.setattr(warmcache, "_dirty", False)
        monkeypatch.setattr(warmcache, "_root", [])

    monkeypatch.setattr(warmcache, "_loaded", None)
    monkeypatch.setattr(warmcache, "_dirty", False)
    monkeypatch.setattr(warmcache, "_root", [])
    return restart


def _cache_file(tmp_path: Path) -> Path:
    (found,) = (tmp_path / "state" / "prune-memory" / "cache").glob("derived-*.json")
    return found


def test_every_pattern_of_the_package_comes_back_equal(
        new_process: Callable[[], None], tmp_path: Path) -> None:
    patterns = {(p.pattern, p.flags) for p in gc.get_objects() if isinstance(p, LazyPattern)}
    assert len(patterns) > 20
    first = {key: regexcache.compile_pattern(*key) for key in patterns}
    new_process()
    stored = json.loads(_cache_file(tmp_path).read_text(encoding="utf-8"))["sections"]
    assert regexcache._SECTION in stored and len(stored[regexcache._SECTION]) == len(patterns)
    for key, compiled in first.items():
        rebuilt = regexcache.compile_pattern(*key)
        assert rebuilt == compiled == re.compile(*key)  # equality compares the programs
        assert rebuilt.groupindex == compiled.groupindex and rebuilt.groups == compiled.groups


@settings(max_examples=60, deadline=None)
@given(st.from_regex(r"(?:[a-c]|\.|\(\?P<g[0-9]>[a-c]+\)|\[a-c\]|\\d)(?:[*+?]|\{1,3\})?"
                     r"(?:\|?[a-c]{0,3}){0,3}", fullmatch=True),
       st.sampled_from([0, re.IGNORECASE, re.MULTILINE | re.DOTALL]),
       st.text(alphabet="abc1.\n", max_size=30))
def test_random_patterns_match_alike_after_a_restart(pattern: str, flags: int,
                                                     text: str) -> None:
    expected = re.compile(pattern, flags)
    program = regexcache._program(pattern, flags)
    assert program is not None
    rebuilt = regexcache._rebuild(pattern, program)
    assert rebuilt == expected
    assert [m.span() for m in rebuilt.finditer(text)] == \
        [m.span() for m in expected.finditer(text)]
    assert [m.groupdict() for m in rebuilt.finditer(text)] == \
        [m.groupdict() for m in expected.finditer(text)]


def test_a_damaged_entry_is_compiled_afresh_and_replaced(
        new_process: Callable[[], None], tmp_path: Path) -> None:
    regexcache.compile_pattern(r"(?P<word>ab+)c", re.IGNORECASE)
    new_process()
    path = _cache_file(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    section = data["sections"][regexcache._SECTION]
    (key,) = section
    section[key] = [2, "zz-not-hex", 0, {}]
    path.write_text(json.dumps(data), encoding="utf-8")
    compiled = regexcache.compile_pattern(r"(?P<word>ab+)c", re.IGNORECASE)
    assert compiled == re.compile(r"(?P<word>ab+)c", re.IGNORECASE)
    new_process()
    repaired = json.loads(path.read_text(encoding="utf-8"))["sections"][regexcache._SECTION]
    assert repaired[key][1] != "zz-not-hex"


def test_an_unreadable_cache_only_means_compiling(new_process: Callable[[], None],
                                                  tmp_path: Path) -> None:
    regexcache.compile_pattern("abc")
    new_process()
    _cache_file(tmp_path).write_text("{not json", encoding="utf-8")
    assert regexcache.compile_pattern("abc") == re.compile("abc")
