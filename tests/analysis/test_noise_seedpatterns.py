"""The hygiene patterns a noise audit knows: to-do markers, log lines, heartbeats, `uname`
output, and a record's own low importance rating."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from prune_memory.analysis.hygiene import check_hygiene
from prune_memory.analysis.noise import NOISE_AT, importance_of, is_ephemeral_kind, score_noise
from prune_memory.analysis.policy import default_policy
from prune_memory.model import Action, FindingCode
from prune_memory.procedure.options import PassOptions
from prune_memory.procedure.pipeline import build_plan
from prune_memory.store.loader import load_memory_dir
from tests.conftest import topic, write_tree

NOW = datetime(2026, 3, 10, tzinfo=UTC)


@pytest.mark.parametrize(("text", "reason"), [
    ("TODO: move the retry budget into config\nFIXME: upload test is flaky", "todo-lines"),
    ("XXX check the staging cert", "todo-lines"),
    ("INFO 2026-03-04 09:12:44 indexer started\nINFO 2026-03-04 09:12:45 batch 3 queued",
     "log-lines"),
    ("2026-03-04T09:12:44Z ERROR upstream timed out\n2026-03-04T09:12:47Z WARN retry 2/5",
     "log-lines"),
    ("[DEBUG] cache primed\n[INFO] listening on 8080", "log-lines"),
    ("DEBUG:billing.sync:pulled 40 invoices", "log-lines"),
    ("alive", "heartbeat"),
    ("tick\ntock\ntick", "heartbeat"),
    ("[heartbeat] 2026-03-04T09:00Z", "heartbeat"),
    ("cron job finished in 3s", "heartbeat"),
    ("Linux ci-runner-4 6.8.0-31-generic #31-Ubuntu SMP x86_64 GNU/Linux", "uname-output"),
    ("Darwin\nx86_64", "uname-output"),
])
def test_seed_noise_shapes(text: str, reason: str) -> None:
    score = score_noise(text, secrets=())
    assert reason in score.reasons and score.score >= 0.8


@pytest.mark.parametrize("text", [
    "The service logs at INFO level; set DEBUG only when tracing a request.",
    "Mark unfinished code with TODO(owner) so the linter can find it.",
    "Ping the on-call channel before a schema change: the DBA wants a heads-up.",
    "Builds run on Linux and Darwin runners.",
])
def test_prose_about_those_things_is_not_noise(text: str) -> None:
    assert score_noise(text, secrets=()).score < NOISE_AT


def test_to_do_lines_are_session_state() -> None:
    assert is_ephemeral_kind(score_noise("TODO: rerun the import tomorrow", secrets=()))
    assert not is_ephemeral_kind(score_noise("tick\ntock", secrets=()))


def test_low_importance_rule() -> None:
    assert importance_of({"importance": "0.1"}) == 0.1
    assert importance_of({"importance": True}) is None
    assert importance_of({"importance": 7}) is None
    low = score_noise("Sprint names follow rivers.", secrets=(), importance=0.1)
    assert low.score == 0.5 and low.reasons == ("low-importance",)
    assert score_noise("Sprint names follow rivers.", secrets=(), importance=0.6).score == 0.0


def test_low_importance_in_a_memory_is_a_utility_signal_not_a_withdrawal(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "m", {
        "MEMORY.md": "# Memory\n- [Rivers](rivers.md) — sprint names\n",
        "rivers.md": topic("rivers", "Sprint names follow rivers.",
                           extra="importance: 0.1\nmodified: 2026-03-01T00:00:00Z\n"),
    })
    (finding,) = check_hygiene(load_memory_dir(root), policy=default_policy())["rivers.md"]
    assert finding.code is FindingCode.LOW_UTILITY
    assert finding.evidence == {"kind": "low-importance", "importance": 0.1}
    plan = build_plan(root, PassOptions(repo=None, now=NOW))
    entry = plan.entry("rivers.md")
    # a person decides: the suggestion is never applied by `run --yes`
    assert entry is not None and entry.action is Action.REVIEW
    assert entry.suggested_action is Action.WITHDRAW
