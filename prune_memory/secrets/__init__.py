"""Secret detection: labelled detectors, one scan that merges them, and masking.

A secret value never leaves this package: callers get `SecretHit` records (label, a short
prefix, the length, the line) and text with every value masked.
"""
