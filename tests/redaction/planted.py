"""A deterministic corpus of fake secrets planted in transcript-like text.

Every secret is random (seeded), shaped like a real provider's key but never
a real credential. Each case names the text it sits in, so a miss can be
read and reproduced.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

ALNUM = string.ascii_letters + string.digits
UPPER_AWS = string.ascii_uppercase + "234567"
HEX = "0123456789abcdef"
B64 = string.ascii_letters + string.digits + "+/"


@dataclass(frozen=True)
class Planted:
    kind: str
    secret: str
    text: str


def _r(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _jwt(rng: random.Random) -> str:
    def b64(obj: dict[str, object]) -> str:
        raw = json.dumps(obj, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    header = b64({"alg": "HS256", "typ": "JWT"})
    payload = b64({"sub": _r(rng, ALNUM, 12), "iat": rng.randrange(10**9, 2 * 10**9)})
    return f"{header}.{payload}.{_r(rng, ALNUM + '-_', 43)}"


def _private_key(rng: random.Random) -> str:
    body = "\n".join(_r(rng, B64, 64) for _ in range(6))
    return f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"


# kind -> (generator, variable name used in assignment contexts, contexts allowed)
Gen = Callable[[random.Random], str]
ANY = ("export", "json_env", "escaped_json", "dotenv", "prompt", "tool_output", "yaml")
KINDS: dict[str, tuple[Gen, str, tuple[str, ...]]] = {
    "aws-access-key": (lambda r: "AKIA" + _r(r, UPPER_AWS, 16), "AWS_ACCESS_KEY_ID", ANY),
    "aws-secret-key": (lambda r: _r(r, B64, 40), "AWS_SECRET_ACCESS_KEY", (*ANY[:4], "yaml")),
    "github-pat": (lambda r: "ghp_" + _r(r, ALNUM, 36), "GITHUB_TOKEN", ANY),
    "github-oauth": (lambda r: "gho_" + _r(r, ALNUM, 36), "GH_TOKEN", ANY),
    "github-app": (lambda r: "ghs_" + _r(r, ALNUM, 36), "GH_APP_TOKEN", ANY),
    "github-user-app": (lambda r: "ghu_" + _r(r, ALNUM, 36), "GH_USER_TOKEN", ANY),
    "github-refresh": (lambda r: "ghr_" + _r(r, ALNUM, 36), "GH_REFRESH", ANY),
    "github-fine-grained": (
        lambda r: "github_pat_" + _r(r, ALNUM, 22) + "_" + _r(r, ALNUM, 59),
        "GITHUB_PAT",
        ANY,
    ),
    "gitlab-pat": (lambda r: "glpat-" + _r(r, ALNUM + "-_", 20), "GITLAB_TOKEN", ANY),
    "slack-bot": (
        lambda r: f"xoxb-{_r(r, '0123456789', 12)}-{_r(r, '0123456789', 13)}-{_r(r, ALNUM, 24)}",
        "SLACK_BOT_TOKEN",
        ANY,
    ),
    "slack-user": (
        lambda r: (
            "xoxp-" + "-".join(_r(r, "0123456789", 12) for _ in range(3)) + "-" + _r(r, HEX, 32)
        ),
        "SLACK_USER_TOKEN",
        ANY,
    ),
    "slack-webhook": (
        lambda r: (
            "https://hooks.slack.com/services/T"
            + _r(r, UPPER_AWS, 10)
            + "/B"
            + _r(r, UPPER_AWS, 10)
            + "/"
            + _r(r, ALNUM, 24)
        ),
        "SLACK_WEBHOOK_URL",
        ANY,
    ),
    "stripe": (lambda r: "sk_live_" + _r(r, ALNUM, 24), "STRIPE_SECRET_KEY", ANY),
    "openai-legacy": (lambda r: "sk-" + _r(r, ALNUM, 48), "OPENAI_API_KEY", ANY),
    "openai-project": (
        lambda r: "sk-proj-" + _r(r, ALNUM + "-_", 74) + "T3BlbkFJ" + _r(r, ALNUM + "-_", 74),
        "OPENAI_API_KEY",
        ANY,
    ),
    "openai-project-short": (lambda r: "sk-proj-" + _r(r, ALNUM, 48), "OPENAI_API_KEY", ANY),
    "anthropic": (
        lambda r: "sk-ant-api03-" + _r(r, ALNUM + "-_", 93) + "AA",
        "ANTHROPIC_API_KEY",
        ANY,
    ),
    "anthropic-oauth": (
        lambda r: "sk-ant-oat01-" + _r(r, ALNUM + "-_", 80),
        "CLAUDE_CODE_OAUTH_TOKEN",
        ANY,
    ),
    "google-api-key": (lambda r: "AIza" + _r(r, ALNUM + "-_", 35), "GOOGLE_API_KEY", ANY),
    "gcp-private-key": (_private_key, "GCP_KEY", ("gcp_json", "tool_output", "escaped_json")),
    "azure-client-secret": (
        lambda r: _r(r, ALNUM, 3) + r.choice("0123456789") + "Q~" + _r(r, ALNUM + "_~.-", 34),
        "AZURE_CLIENT_SECRET",
        ANY,
    ),
    "azure-storage": (lambda r: _r(r, B64, 86) + "==", "AZURE_STORAGE", ("azure_conn",)),
    "twilio-api-key": (lambda r: "SK" + _r(r, HEX, 32), "TWILIO_API_KEY", ANY),
    "twilio-auth-token": (lambda r: _r(r, HEX, 32), "TWILIO_AUTH_TOKEN", ANY[:4]),
    "sendgrid": (
        lambda r: "SG." + _r(r, ALNUM + "-_", 22) + "." + _r(r, ALNUM + "-_", 43),
        "SENDGRID_API_KEY",
        ANY,
    ),
    "npm": (lambda r: "npm_" + _r(r, ALNUM, 36), "NPM_TOKEN", ANY),
    "pypi": (lambda r: "pypi-AgEIcHlwaS5vcmc" + _r(r, ALNUM + "-_", 70), "PYPI_TOKEN", ANY),
    "huggingface": (lambda r: "hf_" + _r(r, string.ascii_letters, 34), "HF_TOKEN", ANY),
    "jwt": (_jwt, "ID_TOKEN", (*ANY, "bearer")),
    "private-key": (_private_key, "SSH_KEY", ("tool_output", "escaped_json", "prompt")),
    "generic-password": (
        lambda r: _r(r, string.ascii_lowercase, 6) + _r(r, "0123456789", 2) + r.choice("!#%"),
        "DB_PASSWORD",
        ("export", "dotenv", "json_env", "py_password", "yaml_password"),
    ),
    "generic-api-key": (lambda r: _r(r, ALNUM, 32), "API_KEY", (*ANY[:6], "header")),
    "client-secret": (lambda r: _r(r, ALNUM, 40), "client_secret", ("yaml", "json_env")),
    "url-basic-auth": (lambda r: _r(r, ALNUM, 14), "", ("url",)),
    "database-url": (lambda r: _r(r, ALNUM, 18), "", ("db_url",)),
    "bearer": (lambda r: _r(r, ALNUM + "-._~", 40), "", ("bearer",)),
}

CONTEXTS: dict[str, Callable[[str, str], str]] = {
    "export": lambda n, s: f"$ export {n}={s}\n$ python deploy.py --env prod",
    "json_env": lambda n, s: json.dumps({"mcpServers": {"api": {"env": {n: s}}}}),
    "escaped_json": lambda n, s: json.dumps(
        {"command": "write", "content": json.dumps({"env": {n: s}})}
    ),
    "dotenv": lambda n, s: f"$ cat .env\nDEBUG=true\n{n}={s}\nPORT=8080\n",
    "prompt": lambda n, s: f"my {n.lower()} is {s} can you check why auth fails?",
    "tool_output": lambda n, s: f"Read 12 lines from config.txt\n  {n.lower()}: {s}\n  region: eu",
    "yaml": lambda n, s: f"settings:\n  {n.lower()}: {s}\n  retries: 3\n",
    "gcp_json": lambda n, s: json.dumps(
        {"type": "service_account", "project_id": "demo", "private_key": s}
    ),
    "azure_conn": lambda n, s: (
        "DefaultEndpointsProtocol=https;AccountName=demo;"
        f"AccountKey={s};EndpointSuffix=core.windows.net"
    ),
    "py_password": lambda n, s: f'conn = connect(host="db", user="app", password="{s}")',
    "yaml_password": lambda n, s: f'database:\n  user: app\n  password: "{s}"\n',
    "url": lambda n, s: f"git clone https://deploy-bot:{s}@git.example.com/team/repo.git",
    "db_url": lambda n, s: f"DATABASE_URL postgresql+psycopg://app:{s}@10.0.0.5:5432/prod",
    "bearer": lambda n, s: f'curl -s -H "Authorization: Bearer {s}" https://api.example.com/v1/me',
    "header": lambda n, s: f'curl -H "X-Api-Key: {s}" https://api.example.com/items',
}


def planted_corpus(seed: int = 20240601, per_kind: int = 4) -> list[Planted]:
    """``per_kind`` cases for every kind, rotating through its contexts."""
    rng = random.Random(seed)
    cases: list[Planted] = []
    for kind, (generate, name, contexts) in KINDS.items():
        for i in range(per_kind):
            secret = generate(rng)
            context = contexts[i % len(contexts)]
            cases.append(Planted(kind, secret, CONTEXTS[context](name, secret)))
    return cases
