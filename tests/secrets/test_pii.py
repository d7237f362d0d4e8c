"""Personal data: addresses and phone numbers are found; things shaped like them are not."""

from __future__ import annotations

import pytest

from prune_memory.secrets.pii import find_pii
from prune_memory.secrets.scan import find_secrets
from prune_memory.secrets.shortkeys import SHORT_KEY_LABEL


@pytest.mark.parametrize(("text", "label"), [
    ("Ask mara.lind@northwind-labs.se for the VPN profile.", "email-address"),
    ("Escalations: ops+pager@tally.co.uk (weekdays)", "email-address"),
    ("On call: +44 20 7946 0321", "phone-number"),
    ("Front desk (212) 555-0187 after six", "phone-number"),
    ("Support line 312.555.0144", "phone-number"),
    ("mobile: 0171 2345678", "phone-number"),
])
def test_personal_data_is_found(text: str, label: str) -> None:
    (hit,) = find_pii(text)
    assert hit.label == label and hit.line == 1


@pytest.mark.parametrize("text", [
    "The lockfile pins inflight@1.0.6 and once@1.4.0.",
    "Restart redis-server@6380.service after the upgrade.",
    "Icons live in assets/logo@2x.png.",
    "Clone git@github.com:acme/tools.git first.",
    "Docs use someone@example.org and a@b.test as samples.",
    "Commits come from 4412+bot@users.noreply.github.com.",
    "ssh pi@printer.local then reboot",
    "Released on 2026-11-29; build 1.2.3.4567; ip 10.0.12.200",
    "The +5 bonus applies at 12:30 and again at +05:00.",
    "Image pinned by digest app@sha256:deadbeef.",
])
def test_look_alikes_are_not_personal_data(text: str) -> None:
    assert find_pii(text) == ()


def test_personal_data_is_not_a_secret() -> None:
    # `run` flags secrets for a human; personal data is only the lint's business.
    assert find_secrets("Ask mara.lind@northwind-labs.se") == ()


def test_short_sk_keys_are_secrets_and_sk_words_are_not() -> None:
    key = "sk-" + "m3n4b5v6" + "c7x8z9a0"
    (hit,) = find_secrets(f"The staging key is {key}.")
    assert (hit.label, hit.length, hit.first4) == (SHORT_KEY_LABEL, len(key), "sk-m")
    assert find_secrets("We train with sk-learn and name it sk-abcdefghijklmnopq.") == ()
    # Twenty characters and more belong to the vendor pattern: reported once, not twice.
    long_key = "sk-" + "A1b2C3d4E5f6G7h8I9j0K1l2"
    assert [h.label for h in find_secrets(long_key)] == ["openai-key"]
