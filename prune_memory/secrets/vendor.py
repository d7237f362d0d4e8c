"""detect-secrets' vendor plugins, behind a cheap trigger so clean text never pays the import.

Importing detect-secrets costs about a quarter of a second (it pulls in `requests`), too much
for the write-time gate. Each plugin row carries a trigger: a regex that matches wherever the
plugin's own patterns can, so text with no trigger skips the import. The regexes come from
the plugins' `denylist` (their documented extension point); verification, which would call
vendors over the network, is never used.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Sequence
from functools import cache
from typing import NamedTuple

from prune_memory.matching.literals import required_literals
from prune_memory.matching.regexgate import LazyPattern, may_match, needle_lines
from prune_memory.secrets.base import VENDOR_FORMAT, Screen, SecretSpan

_EDGE = " \t\"'=:"  # delimiters some plugin patterns include around the value
_TOKEN_RUN = re.compile(r"[A-Za-z0-9_-]*")  # the rest of a token, from where a match ends


class VendorPlugin(NamedTuple):
    module: str  # under detect_secrets.plugins
    cls: str
    label: str
    trigger: str  # must match wherever the plugin's patterns match


VENDOR_PLUGINS: tuple[VendorPlugin, ...] = (
    VendorPlugin("aws", "AWSKeyDetector", "aws-access-key",
                 r"A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA|(?i:aws.{0,20}?(?:key|pw|pass|token))"),
    VendorPlugin("github_token", "GitHubTokenDetector", "github-token", r"gh[pousr]_"),
    VendorPlugin("gitlab_token", "GitLabTokenDetector", "gitlab-token",
                 r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-|GR1348941"),
    VendorPlugin("slack", "SlackDetector", "slack-token", r"(?i:xox[abposr]-|hooks\.slack\.com)"),
    VendorPlugin("stripe", "StripeDetector", "stripe-key", r"[rs]k_live_"),
    VendorPlugin("sendgrid", "SendGridDetector", "sendgrid-key", r"SG\."),
    VendorPlugin("twilio", "TwilioKeyDetector", "twilio-key", r"(?:AC|SK)[a-z0-9]{32}"),
    VendorPlugin("npm", "NpmDetector", "npm-token", r"_authToken="),
    VendorPlugin("pypi_token", "PypiTokenDetector", "pypi-token", r"pypi-AgE"),
    VendorPlugin("openai", "OpenAIDetector", "openai-key", r"T3BlbkFJ"),
    VendorPlugin("discord", "DiscordBotTokenDetector", "discord-token",
                 r"[MNO][a-zA-Z\d_-]{23,25}\.[a-zA-Z\d_-]{6}\."),
    VendorPlugin("telegram_token", "TelegramBotTokenDetector", "telegram-token",
                 r"\d{8,10}:[0-9A-Za-z_-]{35}"),
    VendorPlugin("square_oauth", "SquareOAuthDetector", "square-secret", r"sq0csp-"),
    VendorPlugin("azure_storage_key", "AzureStorageKeyDetector", "azure-storage-key",
                 r"AccountKey="),
    VendorPlugin("mailchimp", "MailchimpDetector", "mailchimp-key", r"[0-9a-z]{32}-us\d"),
)


class VendorDetector:
    """The high-signal vendor plugins of detect-secrets; the entropy and keyword ones are left
    out because they fire on git SHAs, UUIDs and ordinary prose."""

    name = "detect-secrets"

    def __init__(self, plugins: Sequence[VendorPlugin] = VENDOR_PLUGINS) -> None:
        self.plugins = tuple(plugins)

    def screen(self) -> Screen:
        """The triggers' literals; a trigger without one is searched as it is."""
        needles: dict[bool, set[str]] = {True: set(), False: set()}
        patterns: list[LazyPattern] = []
        for row in self.plugins:
            literals = required_literals(_trigger(row))
            if literals is None:
                patterns.append(_trigger(row))
            for text, folded in literals or ():
                needles[folded].add(text)
        return Screen(tuple(sorted(needles[True])), tuple(sorted(needles[False])),
                      tuple(patterns))

    def spans(self, text: str) -> Iterator[SecretSpan]:
        for row in self.plugins:
            if not _fires(row, text):
                continue  # the usual case: that plugin, and detect-secrets, never imported
            for regex in plugin_patterns(row):
                covered = 0
                for match in regex.finditer(text):
                    if match.start() < covered:
                        continue  # the rest of a token already given whole
                    start, end = _secret_part(match)
                    if end > start:
                        covered = end
                        yield SecretSpan(row.label, start, end, VENDOR_FORMAT)


def triggered(text: str, plugins: Sequence[VendorPlugin] = VENDOR_PLUGINS) -> bool:
    """Whether any vendor plugin could match: the cheap test that saves the import."""
    return any(_fires(row, text) for row in plugins)


def _fires(row: VendorPlugin, text: str) -> bool:
    """Whether `row`'s trigger matches. Triggers are tried one by one, each behind its own
    literals: clean prose then compiles only the few whose literals it happens to hold."""
    trigger = _trigger(row)
    if required_literals(trigger) is None:
        return trigger.search(text) is not None
    return may_match(trigger, text) and _search_lines(trigger, text)


def _search_lines(trigger: LazyPattern, text: str) -> bool:
    """Every trigger matches within one line, so only lines holding a literal are searched."""
    spans = needle_lines(trigger, text)
    if spans is None:
        return trigger.search(text) is not None
    return any(trigger.search(text, start, end) for start, end in spans)


@cache
def _trigger(row: VendorPlugin) -> LazyPattern:
    return LazyPattern(row.trigger)


@cache
def plugin_patterns(row: VendorPlugin) -> tuple[re.Pattern[str], ...]:
    """The compiled patterns of one plugin class (imports detect-secrets on first use)."""
    module = importlib.import_module(f"detect_secrets.plugins.{row.module}")
    return tuple(getattr(module, row.cls).denylist)


def _secret_part(match: re.Match[str]) -> tuple[int, int]:
    """The capturing group that holds the secret when there is one, else the whole match.

    Some plugins capture only a short prefix (`ghp`); a group that short is not the secret.
    """
    groups = [i for i in range(1, (match.re.groups or 0) + 1) if match.group(i)]
    best = max(groups, key=lambda i: len(match.group(i)), default=0)
    if best and len(match.group(best)) < 8:
        best = 0
    start, end = match.span(best)
    text = match.string
    while start < end and text[start] in _EDGE:
        start += 1
    while end > start and text[end - 1] in _EDGE:
        end -= 1
    # a pattern of a fixed length (Discord's 27) matched a longer token's head
    if end > start and (rest := _TOKEN_RUN.match(text, end)) is not None:
        end = rest.end()
    return start, end
