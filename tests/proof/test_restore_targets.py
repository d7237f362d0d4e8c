"""`restore` writes only a plain name directly inside the memory directory, and reads only a
snapshot the tool itself wrote.

The pruning log and the tombstones are files anything can edit. Each case plants a
tombstone header or a register row (with a snapshot manifest of its own making) that names
a path outside the directory, and checks that `restore` refuses without writing a byte
anywhere, while a genuine fallback to a `--snapshot-dir` snapshot still works.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from prune_memory.errors import ExitCode
from tests.conftest import CliResult, topic, tree_hash, write_tree

Cli = Callable[..., CliResult]
NOW = "2026-11-29T12:00:00Z"
BODY = b"ssh-ed25519 AAAAC3Nza attacker@example\n"
INDEX = "# Memory\n- [CI](project_ci.md) \u2014 pipeline\n"


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    return write_tree(tmp_path / "memory", {
        "MEMORY.md": INDEX, "project_ci.md": topic("ci", "Jenkins", description="CI")})


def plant_row(memory: Path, file: str, *, tombstone: str = "deaccessioned/evil.md",
              manifest: str = "/nowhere/MANIFEST.sha256") -> None:
    (memory / "pruning-log.md").write_text(
        "# Pruning log\n\n### 2026-11-01 Audit\n"
        f"- Snapshot manifest: {manifest}\n\n#### Deaccession register\n"
        "| register_id | Entry (summary) | Type | Reason | Tombstone | superseded_by |\n"
        "|---|---|---|---|---|---|\n"
        f"| 2026-11-01-01 | `{file}` — x | Project | r | {tombstone} | N/A |\n")


def plant_tombstone(memory: Path, original_file: str) -> None:
    digest = hashlib.sha256(BODY).hexdigest()
    (memory / "deaccessioned").mkdir(exist_ok=True)
    (memory / "deaccessioned" / "evil.md").write_bytes(
        b"---\nname: withdrawn-evil\ndescription: WITHDRAWN 2026-11-01\n"
        b"deaccessioned_at: 2026-11-01T00:00:00Z\nreason: r\nrule: 1-ephemeral\n"
        b"superseded_by: N/A\nregister_id: 2026-11-01-01\n"
        + f"original_sha256: {digest}\noriginal_file: {original_file}\n---\n".encode()
        + BODY)


def plant_snapshot(folder: Path, rel: str) -> Path:
    """A manifest of the attacker's making, listing `rel` with the payload's hash."""
    target = folder / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(BODY)
    manifest = folder / "MANIFEST.sha256"
    manifest.write_text(f"{hashlib.sha256(BODY).hexdigest()}  {rel}\n")
    return manifest


def refused_and_untouched(cli: Cli, memory: Path, tmp_path: Path, *places: Path) -> str:
    before = {p: tree_hash(p) for p in (memory, *places)}
    done = cli("restore", "2026-11-01-01", memory, "--now", NOW)
    assert done.code == ExitCode.REFUSED, done.err
    for place, digest in before.items():
        assert tree_hash(place) == digest, place
    assert not list(tmp_path.rglob("authorized_keys"))
    assert not (tmp_path / "payload.md").exists() and not (memory / "payload.md").exists()
    return done.err


@pytest.mark.parametrize("target", ["../home/.ssh/authorized_keys", "{tmp}/home/abs.md",
                                    "MEMORY.md", "pruning-log.md", "sub/x.md", "..", "."])
def test_a_tombstone_header_naming_a_path_is_refused(cli: Cli, memory: Path, tmp_path: Path,
                                                     target: str) -> None:
    name = target.format(tmp=tmp_path)
    plant_tombstone(memory, name)
    plant_row(memory, "evil.md")
    err = refused_and_untouched(cli, memory, tmp_path, tmp_path / "home")
    assert "only a plain name directly inside the memory directory" in err


def test_a_register_row_naming_a_path_with_a_planted_manifest_is_refused(
        cli: Cli, memory: Path, tmp_path: Path) -> None:
    manifest = plant_snapshot(tmp_path / "planted" / "snap", "../payload.md")
    plant_row(memory, "../payload.md", tombstone="deaccessioned/gone.md",
              manifest=str(manifest))
    refused_and_untouched(cli, memory, tmp_path, tmp_path / "planted")


@pytest.mark.parametrize("where", ["outside", "inside"])
def test_a_manifest_the_tool_did_not_write_is_never_read(cli: Cli, memory: Path,
                                                         tmp_path: Path, where: str) -> None:
    folder = tmp_path / "planted" if where == "outside" else memory / "deaccessioned" / "snap"
    manifest = plant_snapshot(folder, "payload.md")
    plant_row(memory, "payload.md", tombstone="deaccessioned/gone.md", manifest=str(manifest))
    err = refused_and_untouched(cli, memory, tmp_path)
    assert "did not write" in err


def test_a_snapshot_taken_under_snapshot_dir_still_restores(cli: Cli, memory: Path,
                                                            tmp_path: Path) -> None:
    original = (memory / "project_ci.md").read_bytes()
    done = cli("withdraw", memory / "project_ci.md", "--reason", "moved", "--now", NOW,
               "--snapshot-dir", tmp_path / "my-snaps")
    assert done.code == ExitCode.OK, done.err
    (memory / "deaccessioned" / "project_ci.md").unlink()
    back = cli("restore", "2026-11-29-01", memory, "--now", NOW)
    assert back.code == ExitCode.OK, back.err
    assert (memory / "project_ci.md").read_bytes() == original
    assert (memory / "MEMORY.md").read_text() == INDEX


@pytest.mark.parametrize("shape", ["empty", "file", "under-file", "unwritable"])
def test_an_unusable_snapshot_dir_is_bad_input_and_changes_nothing(
        cli: Cli, memory: Path, tmp_path: Path, shape: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "afile").write_text("x")
    value = {"empty": "", "file": str(tmp_path / "afile"),
             "under-file": str(tmp_path / "afile" / "snaps"),
             "unwritable": "/proc/prune-memory-test/snaps"}[shape]  # refused even to root
    monkeypatch.chdir(memory)  # an empty value must not mean "here"
    before = tree_hash(memory)
    for args in (("snapshot", memory), ("withdraw", memory / "project_ci.md", "--reason", "x"),
                 ("run", memory, "--yes", "--now", NOW)):
        done = cli(*args, "--snapshot-dir", value)
        assert done.code == ExitCode.BAD_INPUT, (args, done.err)
        assert "--snapshot-dir" in done.err and "Traceback" not in done.err
        assert tree_hash(memory) == before


@pytest.mark.parametrize("op", ["restore", "withdraw"])
def test_a_journal_record_naming_a_path_is_set_aside_unrun(cli: Cli, memory: Path,
                                                           tmp_path: Path, op: str) -> None:
    from prune_memory.engine import journal

    digest = hashlib.sha256(BODY).hexdigest()
    (tmp_path / "payload.md").write_bytes(BODY)
    step = {"op": op, "file": "../home/evil.md", "original_sha256": digest,
            "source": {"snapshot": str(tmp_path), "file": "payload.md"}, "index_lines": [],
            "row": [], "tombstone": "deaccessioned/x.md", "tombstone_sha256": digest,
            "tombstone_header": "", "manifest": "/nowhere", "date": "2026-11-29",
            "register_id": "2026-11-29-01"}
    journal.begin(memory, step)
    before = tree_hash(memory)
    done = cli("recover", memory)
    assert done.code == ExitCode.OK, done.err
    assert "set-aside" in done.out + done.err
    assert not (tmp_path / "home" / "evil.md").exists() and tree_hash(memory) == before


@pytest.mark.parametrize("op", ["update-entry", "revert-update", "undo-pass", "link-edit"])
def test_the_records_of_updates_undo_and_link_edits_naming_a_path_are_set_aside(
        cli: Cli, memory: Path, tmp_path: Path, op: str) -> None:
    """The same holds for the records an update, its revert, the undo of a pass and the
    link edits of a withdrawal write: nothing outside the directory is touched."""
    from prune_memory.engine import journal
    from prune_memory.engine.journal import pack

    (tmp_path / "home" / "evil.md").write_bytes(BODY)
    digest, evil = hashlib.sha256(BODY).hexdigest(), "../home/evil.md"
    steps = {
        "update-entry": {"file": evil, "original_sha256": digest, "after_sha256": digest,
                         "data": pack(b"x"), "tombstone": "deaccessioned/x.md",
                         "tombstone_sha256": digest, "tombstone_data": pack(b"x"),
                         "register_id": "2026-11-29-01", "index_change": [], "row": [],
                         "manifest": "/nowhere", "date": "2026-11-29"},
        "revert-update": {"file": evil, "original_sha256": "0" * 64, "updated_sha256": digest,
                          "source": {"tombstone": "deaccessioned/x.md"}, "index_change": [],
                          "register_id": "2026-11-29-01", "row": []},
        "undo-pass": {"file": "pass x", "snapshot": str(tmp_path), "dirs": [],
                      "files": [[evil, digest, None]]},
        "link-edit": {"op": "withdraw", "file": "project_ci.md",
                      "original_sha256": hashlib.sha256(
                          (memory / "project_ci.md").read_bytes()).hexdigest(),
                      "tombstone": "deaccessioned/project_ci.md", "tombstone_sha256": digest,
                      "tombstone_header": "", "register_id": "2026-11-29-01", "row": [],
                      "manifest": "/nowhere", "date": "2026-11-29", "index_lines": [],
                      "link_edits": [{"file": evil, "before_sha256": digest,
                                      "after_sha256": digest, "spans": []}]},
    }
    journal.begin(memory, {"op": op, **steps[op]})
    before = tree_hash(memory)
    done = cli("recover", memory)
    assert done.code == ExitCode.OK, done.err
    assert "set-aside" in done.out + done.err
    assert (tmp_path / "home" / "evil.md").read_bytes() == BODY and tree_hash(memory) == before


def plant_extra(memory: Path, original_file: str, extra: str) -> None:
    """A planted tombstone with one of the optional header lines an update, a link edit or
    a vaulted secret writes."""
    plant_tombstone(memory, original_file)
    stone = memory / "deaccessioned" / "evil.md"
    stone.write_bytes(stone.read_bytes().replace(b"\n---\n", f"\n{extra}\n---\n".encode(), 1))


def test_an_update_tombstone_naming_a_path_is_refused(cli: Cli, memory: Path,
                                                      tmp_path: Path) -> None:
    plant_extra(memory, "../home/.ssh/authorized_keys",
                "change: update\nupdated_sha256: " + "0" * 64 + "\nindex_change: []")
    plant_row(memory, "evil.md")
    err = refused_and_untouched(cli, memory, tmp_path, tmp_path / "home")
    assert "only a plain name directly inside the memory directory" in err


def test_a_link_edit_naming_a_path_is_refused(cli: Cli, memory: Path, tmp_path: Path) -> None:
    """Restore puts back the links a withdrawal unlinked in kept files; a header that names
    a file outside the directory for that is refused before the entry is written."""
    (tmp_path / "home" / "notes.md").write_text("see it (withdrawn, register 2026-11-01-01)\n")
    edit = ('[{"file": "../home/notes.md", "before_sha256": "' + "1" * 64 + '", '
            '"after_sha256": "' + hashlib.sha256(
                b"see it (withdrawn, register 2026-11-01-01)\n").hexdigest() + '", '
            '"spans": [[4, "[[evil]]", "it (withdrawn, register 2026-11-01-01)"]]}]')
    plant_extra(memory, "evil.md", f"link_edits: {edit}")
    plant_row(memory, "evil.md")
    err = refused_and_untouched(cli, memory, tmp_path, tmp_path / "home")
    assert "only a plain name directly inside the memory directory" in err
    assert not (memory / "evil.md").exists()


def test_a_vault_path_outside_the_vault_is_never_read(cli: Cli, memory: Path,
                                                      tmp_path: Path) -> None:
    """A redacted tombstone names where its original is; a planted one naming a file of the
    attacker's (with the right hash) is not read: restore falls back to the snapshot the row
    names, which the tool did not write, and refuses."""
    elsewhere = tmp_path / "home" / "vault" / "x" / hashlib.sha256(BODY).hexdigest()
    elsewhere.parent.mkdir(parents=True)
    elsewhere.write_bytes(BODY)
    plant_extra(memory, "evil.md", f"vault: {elsewhere}")
    stone = memory / "deaccessioned" / "evil.md"
    stone.write_bytes(stone.read_bytes().replace(BODY, b"[redacted]\n"))
    plant_row(memory, "evil.md")
    refused_and_untouched(cli, memory, tmp_path, tmp_path / "home")
    assert not (memory / "evil.md").exists()
