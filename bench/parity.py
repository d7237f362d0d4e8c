"""What a pass writes, fingerprinted, so a code move can show it changed nothing.

For the bundled demo, each folder of the labelled corpora (`/tmp/corpus`, `/tmp/corpus-more`,
as `make calibrate` builds them) and, with `--big N`, a generated store of N entries, this
records on a copy with the clock pinned:

- the bytes of `plan --json`;
- every file of the copy after `run --yes`;
- every file after `restore --pass last`.

`record OUT.json` writes the fingerprints; `compare OUT.json` records again and names each
folder whose plan, apply or restore differs, exiting 1 if any does. Copies sit at one fixed
path per folder (under $PARITY_WORK, default /tmp/parity-work), so the paths inside a plan
match between runs; the demo's file times are pinned, as a checkout sets them to its own.

Run: .venv/bin/python bench/parity.py record /tmp/parity-before.json [--big 10000]
     .venv/bin/python bench/parity.py compare /tmp/parity-before.json [--big 10000]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).with_name("prune-memory")
NOW = "2026-12-01T12:00:00+00:00"
WORK = Path(os.environ.get("PARITY_WORK", "/tmp/parity-work"))  # one per concurrent run
PINNED = 1_790_000_000  # 2026-09-21: the demo's files, whenever they were checked out


def tree_digest(folder: Path) -> str:
    """One hash over every file name and its bytes under `folder`, in sorted order."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def fingerprint(name: str, memory: Path, repo: Path | None, *,
                pin_times: bool = False) -> dict[str, str]:
    copy = WORK / name / "memory"
    state = WORK / name / "state"
    shutil.rmtree(WORK / name, ignore_errors=True)
    shutil.copytree(memory, copy, symlinks=True)
    if pin_times:  # a checkout's files carry the time of the checkout: pin them
        for path in copy.rglob("*"):
            os.utime(path, (PINNED, PINNED), follow_symlinks=False)
    state.mkdir(parents=True)
    env = {**os.environ, "XDG_STATE_HOME": str(state), "HOME": str(state / "home"),
           "COLUMNS": "120"}
    repo_args = ["--repo", str(repo)] if repo else []

    def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([str(SCRIPT), *args, "--now", NOW], env=env,
                              capture_output=True, check=False)

    plan = cli("plan", str(copy), *repo_args, "--json")
    cli("run", str(copy), *repo_args, "--yes")
    applied = tree_digest(copy)
    cli("restore", "--pass", "last", "--memory-dir", str(copy))
    return {"plan": hashlib.sha256(plan.stdout).hexdigest(), "plan_rc": str(plan.returncode),
            "applied": applied, "restored": tree_digest(copy)}


def folders(big: int) -> list[tuple[str, Path, Path | None]]:
    found: list[tuple[str, Path, Path | None]] = []
    demo_repo = WORK / "demo-repo"
    if not demo_repo.is_dir():
        subprocess.run([sys.executable, str(ROOT / "fixtures" / "build_demo_repo.py"),
                        str(demo_repo)], check=True, capture_output=True)
    found.append(("demo", ROOT / "fixtures" / "demo-memory", demo_repo))
    for corpus in (Path("/tmp/corpus"), Path("/tmp/corpus-more")):
        for folder in sorted(corpus.glob("*/memory")):
            repo = folder.parent / "repo"
            found.append((f"{corpus.name}-{folder.parent.name}", folder,
                          repo if repo.is_dir() else None))
    if big:
        dest = WORK / f"generated-{big}-source"
        if not dest.is_dir():
            subprocess.run([sys.executable, str(ROOT / "bench" / "gen_store.py"), str(dest),
                            "--entries", str(big)], check=True, capture_output=True)
        found.append((f"generated-{big}", dest, None))
    return found


def record(big: int) -> dict[str, dict[str, str]]:
    return {name: fingerprint(name, memory, repo, pin_times=name == "demo")
            for name, memory, repo in folders(big)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["record", "compare"])
    parser.add_argument("file", type=Path)
    parser.add_argument("--big", type=int, default=0)
    args = parser.parse_args()
    now = record(args.big)
    if args.action == "record":
        args.file.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(now)} folders in {args.file}")
        return 0
    before = json.loads(args.file.read_text())
    differ = [f"{name}: {part}" for name, parts in sorted(before.items())
              for part in parts if now.get(name, {}).get(part) != parts[part]]
    for line in differ:
        print("differs", line)
    print(f"{len(before) - len({d.split(':')[0] for d in differ})} of {len(before)} folders "
          "the same")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
