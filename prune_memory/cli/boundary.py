"""The one place errors become messages and exit codes."""

from __future__ import annotations

import datetime as dt
import sys
import traceback
from typing import Any, TextIO

import typer

from prune_memory.errors import ExitCode, PruneMemoryError
from prune_memory.state import state_subdir


def run_app(app: typer.Typer, argv: list[str] | None = None) -> int:
    """Run the typer app; our errors become one line and an exit code, crashes a report.

    Typer itself handles usage errors (exit 2), `typer.Exit` and Ctrl-C. Everything the
    command prints passes through `MaskedStream`: a secret in a file name (or anywhere
    else) is masked on the way out, whatever printed it.
    """
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = MaskedStream(out), MaskedStream(err)
    try:
        return _run(app, argv)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout, sys.stderr = out, err


def _run(app: typer.Typer, argv: list[str] | None) -> int:
    from prune_memory.cli.common import completion_argv

    try:
        app(args=completion_argv(sys.argv[1:] if argv is None else argv),
            prog_name="prune-memory")
    except SystemExit as done:
        return _code(done.code)
    except PruneMemoryError as err:
        _say(f"prune-memory: {err}")
        return int(err.exit_code)
    except Exception as crash:
        report = write_crash_report(crash)
        _say(f"prune-memory: internal error ({type(crash).__name__}); crash report: {report}")
        return int(ExitCode.INTERNAL)
    return int(ExitCode.OK)


class MaskedStream:
    """A text stream that masks secrets in each complete line before passing it on (a
    partial line waits for its end, or for a flush: a prompt is shown at once)."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner
        self._pending = ""

    def write(self, text: str) -> int:
        from prune_memory.secrets.mask import mask_text

        self._pending += text
        done, newline, rest = self._pending.rpartition("\n")
        if newline:
            self._inner.write(mask_text(done + newline))
            self._pending = rest
        return len(text)

    def flush(self) -> None:
        from prune_memory.secrets.mask import mask_text

        if self._pending:
            self._inner.write(mask_text(self._pending))
            self._pending = ""
        self._inner.flush()

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding…: the real stream's
        return getattr(self._inner, name)


def write_crash_report(crash: BaseException) -> str:
    """Save the traceback under the state directory, secrets masked, and return its path."""
    from prune_memory.secrets.mask import mask_text

    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    try:
        path = state_subdir("crash") / f"crash-{stamp}.txt"
        text = "".join(traceback.format_exception(crash))
        path.write_text(mask_text(text), encoding="utf-8")
        path.chmod(0o600)
    except OSError:
        return "(could not write a crash report)"
    return str(path)


def _code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    _say(str(code))
    return int(ExitCode.INTERNAL)


def _say(message: str) -> None:
    from prune_memory.cli.common import say

    lines = message.strip().splitlines()
    say(lines[0] if lines else message, err=True)
