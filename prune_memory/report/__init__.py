"""Renderings of the tool's results: rich tables for people, markdown and JSON for tools."""
