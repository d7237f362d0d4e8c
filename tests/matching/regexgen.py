"""Random regexes for the property tests of the literal and line answers and the gate: nested
sequences, alternations, groups, scoped flags and repeats over a given set of atoms."""

from __future__ import annotations

from hypothesis import strategies as st


def regex_patterns(atoms: st.SearchStrategy[str],
                   scoped_flags: tuple[str, str]) -> st.SearchStrategy[str]:
    """Patterns of up to eight atoms; `scoped_flags` are the two inline flag groups tried,
    `(?i:…)` and `(?-i:…)` for instance."""
    def extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        seq = st.lists(children, min_size=1, max_size=4).map("".join)
        first, second = scoped_flags
        return st.one_of(
            seq,
            st.lists(seq, min_size=2, max_size=3).map(lambda alts: "(?:" + "|".join(alts) + ")"),
            seq.map(lambda s: f"({s})"),
            seq.map(lambda s: f"(?{first}:{s})"),
            seq.map(lambda s: f"(?{second}:{s})"),
            st.tuples(seq, st.sampled_from(["*", "+", "?", "{2}", "{0,2}", "+?"])).map(
                lambda p: f"(?:{p[0]}){p[1]}"),
        )
    return st.recursive(atoms, extend, max_leaves=8)
