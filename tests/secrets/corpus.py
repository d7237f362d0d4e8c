"""A corpus of fake secrets in real formats, and of harmless text that looks like secrets.

Every fake is built here from pieces and random characters, so the repository holds no
literal token for a scanner (ours or a forge's push protection) to trip over. Each sample is
a line of markdown as it would sit in a memory, plus the value that must be caught.
"""

from __future__ import annotations

import base64
import json
import random
import string
from dataclasses import dataclass

ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
LOWER_HEX = "0123456789abcdef"
URLSAFE = ALNUM + "-_"


@dataclass(frozen=True)
class Sample:
    kind: str
    text: str
    value: str  # the secret inside `text` ("" for a look-alike)


class _Fakes:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def chars(self, alphabet: str, n: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def digits(self, n: int) -> str:
        return str(self.rng.randint(1, 9)) + self.chars(string.digits, n - 1)

    def b64url(self, obj: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

    def jwt(self) -> str:
        head = self.b64url({"alg": "HS256", "typ": "JWT"})
        body = self.b64url({"sub": self.digits(8), "name": "svc", "iat": int(self.digits(10))})
        return f"{head}.{body}.{self.chars(URLSAFE, 43)}"

    def key_body(self, lines: int = 8) -> str:
        alphabet = ALNUM + "+/"
        return "\n".join(self.chars(alphabet, 64) for _ in range(lines))


def secrets() -> list[Sample]:
    """At least forty fakes of more than ten kinds, each in the context it would appear in."""
    f = _Fakes(20261130)
    out: list[Sample] = []

    def add(kind: str, template: str, value: str) -> None:
        out.append(Sample(kind, template.format(v=value), value))

    for prefix, ctx in (("ghp", "Deploy bot uses {v} for releases."),
                        ("gho", "- OAuth token: `{v}`"),
                        ("ghs", "CI app token {v} (expires hourly)"),
                        ("ghu", "GH user-to-server token is {v}")):
        add("github-token", ctx, f"{prefix}_{f.chars(ALNUM, 36)}")
    add("github-token", "Fine-grained PAT: {v}",
        f"github_pat_{f.chars(ALNUM, 22)}_{f.chars(ALNUM, 59)}")
    add("github-token", "export GITHUB_TOKEN={v}",
        f"github_pat_{f.chars(ALNUM, 22)}_{f.chars(ALNUM, 59)}")
    for flavour in ("b", "p", "a"):
        add("slack-token", "Slack bot posts with {v} into #deploys",
            f"xox{flavour}-{f.digits(11)}-{f.digits(12)}-{f.chars(ALNUM, 24)}")
    for prefix in ("AKIA", "AKIA", "ASIA", "AKIA"):
        add("aws-access-key", "aws access key id {v} (prod account)",
            prefix + f.chars(UPPER_DIGITS, 16))
    add("aws-secret", "AWS_SECRET_ACCESS_KEY={v}", f.chars(ALNUM + "/+", 40))
    add("aws-secret", "aws_secret_access_key = {v}", f.chars(ALNUM + "/+", 40))
    for ctx in ("Maps key AIza is {v}", "GOOGLE_MAPS_KEY: {v}"):
        add("google-api-key", ctx.replace("AIza is ", ""), "AIza" + f.chars(URLSAFE, 35))
    add("openai-key", "OpenAI key for evals: {v}", "sk-proj-" + f.chars(ALNUM, 48))
    add("openai-key", "- sk key {v}", "sk-" + f.chars(ALNUM, 48))
    add("openai-key", "use OPENAI key `{v}` in the notebook",
        "sk-" + f.chars(ALNUM, 20) + "T3BlbkFJ" + f.chars(ALNUM, 20))
    for _ in range(2):
        add("anthropic-key", "ANTHROPIC key: {v}",
            "sk-ant-api03-" + f.chars(URLSAFE, 93) + "AA")
    for ctx in ("Test session JWT {v}", "Authorization: Bearer {v}", "cookie id_token={v}"):
        add("jwt", ctx, f.jwt())
    for kind in ("RSA ", "OPENSSH ", "EC "):
        body = f.key_body()
        add("private-key", f"deploy key:\n-----BEGIN {kind}PRIVATE KEY-----\n{{v}}\n"
                           f"-----END {kind}PRIVATE KEY-----", body)
    for scheme, port in (("postgres", 5432), ("mysql", 3306), ("mongodb+srv", 27017),
                         ("redis", 6379), ("amqp", 5672)):
        password = f.chars(ALNUM, 6) + "!" + f.chars(ALNUM, 6)
        add("connection-string", f"DB: {scheme}://app_user:{{v}}@db.internal:{port}/app",
            password)
    for ctx in ("password: {v}", "**DB password:** {v}", "pwd={v} for the staging box",
                "Admin passphrase = {v}"):
        add("password", ctx, f.chars(string.ascii_lowercase, 5) + f.digits(3) + "#" +
            f.chars(ALNUM, 4))
    for ctx in ("token={v}", "api_key: {v}", "webhook url ?access_token={v}&x=1",
                "client_secret: {v}", "Deploy token: {v}"):
        add("token-assignment", ctx, f.chars(ALNUM, 32))
    for ctx in ("SECRET_KEY={v}", "export DATABASE_PASSWORD={v}", "STRIPE_API_KEY = {v}"):
        add("env-secret", ctx, f.chars(ALNUM + "_-", 40))
    for prefix in ("sk_live_", "rk_live_"):
        add("stripe-key", "billing key {v}", prefix + f.chars(ALNUM, 24))
    add("sendgrid-key", "mail key {v}", f"SG.{f.chars(URLSAFE, 22)}.{f.chars(URLSAFE, 43)}")
    add("twilio-key", "twilio api key {v}", "SK" + f.chars("0123456789abcdef", 32))
    add("gitlab-token", "GitLab PAT {v}", "glpat-" + f.chars(URLSAFE, 20))
    add("npm-token", "//registry.npmjs.org/:_authToken={v}", "npm_" + f.chars(ALNUM, 36))
    add("telegram-token", "bot {v} posts alerts", f"{f.digits(10)}:{f.chars(URLSAFE, 35)}")
    add("bearer-token", "curl -H 'Authorization: Bearer {v}'", f.chars(ALNUM, 40))
    # Formats detect-secrets alone missed (gitleaks' rules catch them) and prose passwords.
    add("npm-token-bare", "publish with the npm token {v}", "npm_" + f.chars(ALNUM, 36))
    add("pypi-token", "PyPI upload token: {v}", "pypi-AgEIcHlwaS5vcmc" + f.chars(URLSAFE, 60))
    add("discord-token", "Discord bot token {v} for the alerts bot",
        f"MT{f.chars(ALNUM, 24)}.G{f.chars(URLSAFE, 5)}.{f.chars(URLSAFE, 38)}")
    add("discord-secret", "discord_client_secret: {v}", f.chars(string.ascii_lowercase, 32))
    add("password", "the staging password is {v}", f.chars(string.ascii_lowercase, 6)
        + f.digits(3) + f.chars(ALNUM, 3))
    add("password", "DB pass: {v}", f.chars(ALNUM, 5) + "!" + f.digits(4))
    return out


def lookalikes() -> list[Sample]:
    """At least forty harmless lines that share a shape with a secret."""
    f = _Fakes(7)

    def uuid() -> str:
        h = f.chars(LOWER_HEX, 32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    sha = f.chars(LOWER_HEX, 40)
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n" + f.chars(ALNUM, 120).encode()).decode()
    integrity = base64.b64encode(f.chars(ALNUM, 64).encode()).decode()
    lines = [
        f"Request ids look like {uuid()}", f"tenant id: {uuid()}", f"- trace_id={uuid()}",
        f"Fixed in commit {sha}", f"see {sha[:7]} for the revert",
        f"HEAD is {f.chars(LOWER_HEX, 40)}",
        "The docs use AKIAIOSFODNN7EXAMPLE as the sample access key id.",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY (AWS docs sample)",
        "Call getAccessTokenForUser() before fetchRepositories()",
        "passwordResetTokenExpiry is stored in minutes",
        "token: userSessionToken (the field name, not a value)",
        f"logo: data:image/png;base64,{png}",
        "The deploy token is in vault at ops/deploy",
        "password: stored in 1Password under 'staging db'",
        "token=$GITHUB_TOKEN is read from the environment in CI",
        "SECRET_KEY=${SECRET_KEY} comes from the runner",
        "password: <your-password>",
        "api_key: ********",
        f'"integrity": "sha512-{integrity}=="',
        f"image digest sha256:{f.chars(LOWER_HEX, 64)}",
        "Postgres runs at postgres://localhost:5432/app in dev",
        "Connect with postgres://app@db.internal/app (password from vault)",
        "DATABASE_URL=postgres://${DB_USER}:${DB_PASS}@db:5432/app",
        "max_tokens: 4096 for summaries",
        "token_budget=8000",
        "TOKEN_TTL_SECONDS=86400",
        "PASSWORD_MIN_LENGTH=12",
        "Use the scikit-learn wrapper sk-learn-compatible-estimator-wrapper",
        "Classic tokens start with ghp_ and fine-grained ones with github_pat_",
        "Slack bot tokens start with xoxb- and user tokens with xoxp-",
        "never paste -----BEGIN RSA PRIVATE KEY----- blocks into memory",
        "-----BEGIN PUBLIC KEY-----\n" + f.key_body(4) + "\n-----END PUBLIC KEY-----",
        "ssh-rsa AAAAB3NzaC1yc2E" + f.chars(ALNUM + "+/", 200) + " dev@laptop",
        "role arn:aws:iam::123456789012:role/deploy",
        "Region is us-east-1; bucket prune-memory-artifacts",
        "git@github.com:acme/prune-memory.git is the remote",
        "Password policy: at least 12 characters, rotated yearly",
        "Token: refresh every 24h via the cron job",
        "secret: rotate quarterly",
        "JWTs start with eyJ because that is base64 for a brace and a quote",
        f"go.sum line: golang.org/x/text v0.14.0 h1:{f.chars(ALNUM + '+/', 43)}=",
        "apiKey: this.config.apiKey",
        "const token = getToken(request)",
        "The Sentry project key is public and fine to keep",
        f"cache key {f.chars(LOWER_HEX, 64)}",
        "colour #1e90ff and #ff6347 for the charts",
        "version pinned at 3.11.4, lockfile hash in uv.lock",
        "token in vault at ops/deploy",
        "the key lives in .env as OPENAI_API_KEY; never commit that file",
        "Set NPM_TOKEN in the repository secrets, not in memory",
        "password field is `password_hash` (bcrypt, cost 12)",
        "def login(user: str, token: str) -> Session",
        f"md5 of the fixture: {f.chars(LOWER_HEX, 32)}",
        "Kubernetes secret name: api-credentials",
        "send `Authorization: Bearer <token>` on every call",
        "Authorization: Bearer $API_TOKEN",
        "Three tests pass: `test_login_flow_redirects`",
        "All four checks pass: `lint_ok_2`",
        "the staging password is stored in 1Password, rotated monthly",
        '{"pass": "20261129T120000Z", "date": "2026-11-29"}',
        "restore --pass 20261129T120000Z-2 undoes that one",
    ]
    return [Sample("look-alike", line, "") for line in lines]
