"""Checks on a candidate value: does it look like a real credential or a stand-in for one?"""

from __future__ import annotations

from prune_memory.matching.regexgate import LazyPattern

# Words that show a value is a stand-in, a pointer to a vault, or a how-to, not a credential.
_STAND_IN_WORDS = (
    "example", "placeholder", "redacted", "changeme", "your", "dummy", "sample", "xxxx",
    "****", "vault", "1password", "keychain", "bitwarden", "lastpass", "secretsmanager",
    "undefined", "todo", "tbd",
)
_BARE_KEYWORDS = frozenset({
    "password", "passwd", "pass", "secret", "token", "apikey", "api_key", "none", "null",
    "true", "false", "empty", "required", "optional", "string",
})
_DOTTED_NAME = LazyPattern(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+")  # settings.DB_PASSWORD
_LOWER_PATH = LazyPattern(r"[a-z0-9_.-]*(?:/[a-z0-9_.-]+)+/?")  # ops/deploy, /run/secrets/db
_CAMEL_WORDS = LazyPattern(r"[a-z]+(?:[A-Z][a-z]+)+|(?:[A-Z][a-z]+){2,}")  # userSessionToken
_STAMP = LazyPattern(r"\d{4}-?\d{2}-?\d{2}(?:[T ]\d{2}:?\d{2}(?::?\d{2}(?:\.\d+)?)?)?"
                     r"(?:Z|[+-]\d{2}:?\d{2})?(?:-\d+)?")
_TRAILING = ".,;:!?)]}>"
_NON_SYMBOLS = frozenset("_-.")


def trim_trailing(value: str) -> str:
    """Drop sentence punctuation that a greedy match took from the end of a value."""
    return value.rstrip(_TRAILING)


def is_stand_in(value: str) -> bool:
    """True for env references, masks, template slots and vault pointers."""
    lower = value.lower()
    return (
        value[:1] in "$%<{[(#&"
        or any(ch in value for ch in "(){}[]<>")
        or set(value) <= set("*xX.-_•")
        or any(word in lower for word in _STAND_IN_WORDS)
    )


def is_credential_value(value: str) -> bool:
    """Whether the value given to a credential-sounding name looks like an actual secret."""
    if len(value) < 6 or is_stand_in(value) or value.lower() in _BARE_KEYWORDS:
        return False
    if not any(ch.isalpha() for ch in value) or _STAMP.fullmatch(value):  # numbers, dates,
        return False  # versions, time stamps (`20261129T120000Z`)
    if _DOTTED_NAME.fullmatch(value) or _LOWER_PATH.fullmatch(value):
        return False
    if _CAMEL_WORDS.fullmatch(value):
        return False
    has_digit = any(ch.isdigit() for ch in value)
    has_symbol = any(not ch.isalnum() and ch not in _NON_SYMBOLS for ch in value)
    if has_digit or has_symbol:
        return True
    inner_upper = any(ch.isupper() for ch in value[1:])
    if inner_upper and len(value) >= 8:
        return True
    return len(value) >= 16 and value.isalnum()  # a long run-together passphrase


_PLAIN_SETTINGS = frozenset({"enabled", "disabled", "required", "optional", "inherit",
                             "default", "unset", "missing", "redacted", "rotated"})


def is_literal_credential(value: str) -> bool:
    """A value spelled out for a secret-named setting (`NOTIFY_SECRET=team-notify-secret`).

    Beyond `is_credential_value`, words joined by dashes count: a shared secret is often a
    readable phrase, and it guards just as much.
    """
    if is_credential_value(value):
        return True
    if len(value) < 8 or is_stand_in(value) or value.lower() in _PLAIN_SETTINGS:
        return False
    if _DOTTED_NAME.fullmatch(value) or _LOWER_PATH.fullmatch(value):
        return False
    parts = [p for p in value.replace("_", "-").split("-") if p]
    return len(parts) >= 2 and all(p.isalnum() for p in parts)


def is_quoted_password(value: str) -> bool:
    """A password written out in quotes or backticks, however short: `user` is a password
    if the memory says it is one."""
    return (len(value) >= 3 and not is_stand_in(value)
            and value.lower() not in _BARE_KEYWORDS | _PLAIN_SETTINGS)


def is_random_token(value: str) -> bool:
    """Generated keys mix digits with both cases; words joined by hyphens do not."""
    return (any(ch.isdigit() for ch in value) and any(ch.isupper() for ch in value)
            and any(ch.islower() for ch in value))


_KEY_PREFIX = LazyPattern(r"sk-(?:ant-[a-z0-9]+-|proj-|svcacct-|admin-)?")


def is_random_after_prefix(value: str) -> bool:
    """An `sk-` key whose body (after its vendor prefix) looks generated."""
    prefix = _KEY_PREFIX.match(value)
    return is_random_token(value[prefix.end():] if prefix else value)


def has_digit(value: str) -> bool:
    return any(ch.isdigit() for ch in value)


def is_url_password(value: str) -> bool:
    """The password part of `scheme://user:PASS@host`, unless it is a reference or a mask."""
    return bool(value) and not is_stand_in(value)


def is_jwt(value: str) -> bool:
    """A JWT's first segment decodes to a JSON object (its header)."""
    import base64  # only JWT-shaped text pays for these imports
    import binascii
    import json

    head = value.split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(head + "=" * (-len(head) % 4))
        return isinstance(json.loads(decoded), dict)
    except (binascii.Error, ValueError):
        return False


def is_key_body(value: str) -> bool:
    """A private-key block with real key material in it, not a header quoted in prose."""
    return sum(ch.isalnum() or ch in "+/=" for ch in value) >= 40
