"""Text analysis: how memories are read and compared, with no file access of its own.

Duplicates: similarity.py (tokens, the exact set-similarity join in setjoin.py),
containment.py, neargroups.py, survivor.py (which copy stays). Contradictions:
contradiction.py, negation.py, statements.py, valueclash.py, saidgone.py. Hygiene:
noise.py, poison.py, sessions.py. Worth: utility.py, decay.py, access.py. The index as a
whole: coherence.py, pointers.py, reach_match.py. Also claudemd.py (CLAUDE.md cut into
what a memory might repeat), inoculation*.py (SUPERSEDED drafts) and renames.py (what a
rename leaves behind).
"""
