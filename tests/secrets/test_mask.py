from __future__ import annotations

from prune_memory.secrets.base import SecretHit
from prune_memory.secrets.mask import describe, mask_text


def test_describe_names_label_prefix_and_length() -> None:
    assert describe(SecretHit("github-token", "ghp_", 40, 3)) == "github-token ghp_… (40 chars)"


def test_mask_text_replaces_each_value_and_keeps_the_rest() -> None:
    key = "AKIA" + "Q7RT2XW9PLM4ZK8B"
    text = f"Traceback: boto failed with key {key}\npassword: hunter22x here\n"
    masked = mask_text(text)
    assert key not in masked and "hunter22x" not in masked
    assert "[aws-access-key AKIA… (20 chars)]" in masked
    assert masked.startswith("Traceback: boto failed with key ")
    assert masked.endswith(" here\n")


def test_mask_text_leaves_clean_text_alone() -> None:
    text = "nothing to hide: commit 3f9a2c1, uuid 123e4567-e89b-12d3-a456-426614174000"
    assert mask_text(text) == text
