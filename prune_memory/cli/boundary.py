"""The one place errors become messages and exit codes."""

from __future__ import annotations

import datetime as dt
import sys
import traceback

import click
import typer

from prune_memory.errors import ExitCode, PruneMemoryError
from prune_memory.state import state_subdir


def run_app(app: typer.Typer) -> int:
    """Run the typer app; turn our errors into one line and an exit code."""
    try:
        app(standalone_mode=False)
    except PruneMemoryError as err:
        _say(f"prune-memory: {err}")
        return int(err.exit_code)
    except click.exceptions.Exit as done:
        return int(done.exit_code)
    except click.exceptions.Abort:
        _say("prune-memory: aborted")
        return 130
    except click.ClickException as usage:
        usage.show()
        return int(ExitCode.BAD_INPUT)
    except KeyboardInterrupt:
        _say("prune-memory: interrupted")
        return 130
    except Exception as crash:  # noqa: BLE001  the last line of defence
        report = write_crash_report(crash)
        _say(f"prune-memory: internal error ({type(crash).__name__}); crash report: {report}")
        return int(ExitCode.INTERNAL)
    return int(ExitCode.OK)


def write_crash_report(crash: BaseException) -> str:
    """Save the traceback under the state directory, secrets masked, and return its path."""
    from prune_memory.secrets.mask import mask_text

    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    path = state_subdir("crash") / f"crash-{stamp}.txt"
    text = "".join(traceback.format_exception(crash))
    try:
        path.write_text(mask_text(text), encoding="utf-8")
        path.chmod(0o600)
    except OSError:
        return "(could not write a crash report)"
    return str(path)


def _say(message: str) -> None:
    print(message.splitlines()[0] if message else message, file=sys.stderr)
