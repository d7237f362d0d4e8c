"""Run the prune-memory CLI with a Python audit hook that records every file it touches.

Usage: python tests/proof/audit_runner.py LOG.json prune-memory-args...

Each `open` (with its flags), rename, remove, mkdir, chmod, symlink, link and utime event
is written to LOG.json when the command ends, so a test can check that nothing outside the
allowed directories was read or written. `stat` raises no event: a stat is allowed.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

EVENTS = {"open", "os.rename", "os.remove", "os.rmdir", "os.mkdir", "os.chmod", "os.symlink",
          "os.link", "os.utime", "os.truncate", "shutil.rmtree", "shutil.copyfile"}


def main() -> int:
    log_path, argv = sys.argv[1], sys.argv[2:]
    seen: list[dict[str, Any]] = []
    recording = [True]

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if not recording[0] or event not in EVENTS or not args:
            return
        paths = [a for a in args[:2] if isinstance(a, str | bytes | os.PathLike)]
        if event in ("os.symlink", "os.link"):
            paths = paths[1:]  # what is created; a link's target is only text (or an inode)
        elif event != "os.rename":
            paths = paths[:1]
        flags = args[2] if event == "open" and len(args) > 2 else None
        mode = args[1] if event == "open" and len(args) > 1 else None
        for path in paths:
            seen.append({"event": event, "path": os.fsdecode(path), "cwd": os.getcwd(),
                         "mode": mode if isinstance(mode, str) else None,
                         "flags": flags if isinstance(flags, int) else None})

    sys.addaudithook(hook)
    from prune_memory.cli import main as cli_main

    sys.argv = ["prune-memory", *argv]
    try:
        code = cli_main()
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 1
    recording[0] = False
    with open(log_path, "w", encoding="utf-8") as out:
        json.dump({"code": code, "events": seen}, out)
    return code or 0


if __name__ == "__main__":
    sys.exit(main())
