"""The error taxonomy. Core code raises these; only the CLI turns them into exit codes."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Exit codes of every command (a contract: see DESIGN §4 and the README)."""

    OK = 0
    FINDINGS = 1
    BAD_INPUT = 2
    INTERNAL = 3
    REFUSED = 4


class PruneMemoryError(Exception):
    """Base of every error the tool raises on purpose."""

    exit_code: ExitCode = ExitCode.INTERNAL


class BadInputError(PruneMemoryError):
    """The user gave us something we cannot work on; nothing was changed."""

    exit_code = ExitCode.BAD_INPUT


class RefusedError(PruneMemoryError):
    """A safety rule stopped a write: lock held, snapshot gate, file changed since the plan."""

    exit_code = ExitCode.REFUSED


class FileLoadError(BadInputError):
    """One file of a memory directory cannot be read; the pass goes on without it."""

    def __init__(self, file: str, message: str) -> None:
        super().__init__(f"{file}: {message}")
        self.file = file
        self.reason = message
