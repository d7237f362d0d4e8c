"""Byte-preserving edits of the files the engine changes: index lines, log rows, links, bodies."""
