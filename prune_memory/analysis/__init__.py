"""Text analysis: how memories are read and compared, with no file access of its own.

Classes: classify.py. Duplicates: duplicates.py (copies inside longer ones, near-duplicate
groups, which copy stays) over similarity.py (tokens, the compared entries) and setjoin.py
(the exact set-similarity joins). Contradictions: contradictions.py (in words) and
valueclash.py (in values). Hygiene: hygiene.py (every check of an entry), noise.py,
poison.py, sessions.py, policy.py (the never-persist rules). Worth: utility.py, decay.py,
access.py. The index as a whole: coherence.py, pointers.py. Also instructions.py (CLAUDE.md
cut into what a memory might repeat), inoculation*.py (SUPERSEDED drafts) and renames.py
(what a rename leaves behind).
"""
