#!/usr/bin/env bash
# Rebuild the project's own labelled corpus under DEST (default /tmp/corpus-more) from local
# repository snapshots, holding no memory text here: for each <name>/ORIGIN, <name>/memory is
# the repo's memory_path exported at memory_commit (each file's mtime = the last commit that
# touched it up to memory_commit), and <name>/repo a clone checked out at head_commit. MIRROR
# is the folder of snapshots (`fetch github:<owner>/<repo>` puts them at
# $MIRROR/<owner>+<repo>/). Blobs missing from a snapshot (large files) become empty blobs,
# as in ../shared/corpus/setup.sh, so checkout and rename detection work.
set -eu
HERE=$(dirname "$(readlink -f "$0")"); DEST=${1:-/tmp/corpus-more}
MIRROR=${MIRROR:?set MIRROR to the folder holding the repository snapshots}
mkdir -p "$DEST"
for o in "$HERE"/*/ORIGIN; do
  d=$(dirname "$o"); n=$(basename "$d"); t=$DEST/$n
  field() { sed -n "s/^$1: //p" "$o" | head -1; }
  repo=$(field repo); head=$(field head_commit); mem=$(field memory_commit); path=$(field memory_path)
  mkdir -p "$t"
  if [ ! -d "$t/repo/.git" ]; then
    g=$(ls -d "$MIRROR/${repo/\//+}"/* 2>/dev/null | head -1 || true)
    if [ -z "$g" ]; then echo "$n: no snapshot of $repo under $MIRROR" >&2; continue; fi
    git clone -q --no-checkout "$g" "$t/repo"
    empty=$(git -C "$t/repo" hash-object -w --stdin </dev/null)
    git -C "$t/repo" rev-list --objects --all --missing=print 2>/dev/null | sed -n 's/^?//p' \
      | while read -r sha; do git -C "$t/repo" update-ref "refs/replace/$sha" "$empty"; done
    git -C "$t/repo" -c advice.detachedHead=false checkout -q "$head" 2>/dev/null \
      || git -C "$t/repo" -c advice.detachedHead=false checkout -q -f "$head"
  fi
  rm -rf "$t/memory"; mkdir -p "$t/memory"
  git -C "$t/repo" archive --format=tar "$mem:$path" | tar -x -C "$t/memory"
  (cd "$t/memory" && find . -type f | sed 's|^\./||') | while IFS= read -r f; do
    ts=$(git -C "$t/repo" log -1 --format=%ct "$mem" -- "$path/$f")
    [ -n "$ts" ] && touch -d "@$ts" "$t/memory/$f"
  done
done
echo "$DEST"
