"""gitleaks' token rules as data, and the recall gaps of the held-out corpus they close."""

from __future__ import annotations

import random
import re
import string

import pytest

from prune_memory.secrets.gitleaks import entropy, rules
from prune_memory.secrets.mask import mask_text
from prune_memory.secrets.scan import find_secrets

RNG = random.Random(26)
ALNUM = string.ascii_letters + string.digits


def chars(alphabet: str, n: int) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


NPM = "npm_" + chars(ALNUM, 36)
PYPI = "pypi-AgEIcHlwaS5vcmc" + chars(ALNUM + "-_", 58)
DISCORD = f"MTE{chars(ALNUM, 23)}.G{chars(ALNUM, 5)}.{chars(ALNUM + '-_', 38)}"
PROSE = "Zq7" + chars(string.ascii_lowercase, 6) + "42"


@pytest.mark.parametrize("text, value", [
    (f"publish with {NPM} from CI", NPM),
    (f"PyPI upload token: {PYPI}", PYPI),
    (f"the alerts bot logs in with {DISCORD}", DISCORD),
    (f"the staging password is {PROSE}", PROSE),
    (f"The password for prod was {PROSE}.", PROSE),
])
def test_each_is_found_and_masked_whole(text: str, value: str) -> None:
    assert find_secrets(text)
    shown = mask_text(text)
    assert value not in shown
    assert not any(part in shown for part in re.split(r"[._-]", value) if len(part) >= 8)


@pytest.mark.parametrize("text", [
    "Three tests pass: `test_login_flow_redirects`",
    "the staging password is stored in 1Password",
    "the password is rotated monthly by the ops team",
    '{"pass": "20261129T120000Z", "files": []}',
    "Classic npm tokens start with npm_ and PyPI ones with pypi-",
])
def test_prose_and_stamps_are_not_secrets(text: str) -> None:
    assert find_secrets(text) == ()


def test_every_rule_compiles_and_names_its_keywords() -> None:
    loaded = rules()
    assert len(loaded) >= 70
    for rule in loaded:
        assert rule.keywords and all(k == k.lower() for k in rule.keywords), rule.label
        rule.regex.compiled  # noqa: B018 (compiles, or raises)


def test_entropy_is_bits_per_character() -> None:
    assert entropy("aaaa") == 0 and entropy("abcd") == 2
