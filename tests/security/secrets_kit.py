"""Fake secrets for the planted-secret suites: every kind the repo's planted corpus has,
plus kinds and forms of our own (fresh random values each run unless a seed is given).

A value is never a real credential. `needles` lists the strings that must never be
found anywhere (the secret itself and, for long ones, a distinctive middle slice, so
a clipped or re-wrapped remnant is still caught).
"""

from __future__ import annotations

import os
import random
import re
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tests.redaction.planted import B64, KINDS, _r

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
AGE = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"

Gen = Callable[[random.Random], str]

#: Kinds beyond the redaction corpus's, each with a variable name that fits it.
EXTRA: dict[str, tuple[Gen, str]] = {
    "anthropic-admin": (lambda r: "sk-ant-admin01-" + _r(r, ALNUM, 93) + "AA", "ANTHROPIC_ADMIN"),
    "age": (lambda r: "AGE-SECRET-KEY-1" + _r(r, AGE, 58), "AGE_KEY"),
    "databricks": (lambda r: "dapi" + _r(r, HEX, 32), "DATABRICKS_TOKEN"),
    "digitalocean": (lambda r: "dop_v1_" + _r(r, HEX, 64), "DO_TOKEN"),
    "doppler": (lambda r: "dp.pt." + _r(r, ALNUM, 43), "DOPPLER_TOKEN"),
    "gitlab-runner": (lambda r: "glrt-" + _r(r, ALNUM, 20), "RUNNER_TOKEN"),
    "grafana-sa": (lambda r: "glsa_" + _r(r, ALNUM, 32) + "_" + _r(r, HEX, 8), "GRAFANA_TOKEN"),
    "terraform": (lambda r: _r(r, "abcdefghijkl0123", 14) + ".atlasv1." + _r(r, ALNUM, 64), "TFE"),
    "linear": (lambda r: "lin_api_" + _r(r, ALNUM, 40), "LINEAR_API_KEY"),
    "notion": (lambda r: "ntn_" + _r(r, "0123456789", 11) + _r(r, ALNUM, 35), "NOTION_TOKEN"),
    "perplexity": (lambda r: "pplx-" + _r(r, ALNUM, 48), "PPLX_KEY"),
    "planetscale": (lambda r: "pscale_tkn_" + _r(r, ALNUM, 43), "PSCALE_TOKEN"),
    "postman": (lambda r: "PMAK-" + _r(r, HEX, 24) + "-" + _r(r, HEX, 34), "POSTMAN_KEY"),
    "prefect": (lambda r: "pnu_" + _r(r, ALNUM, 36), "PREFECT_KEY"),
    "pulumi": (lambda r: "pul-" + _r(r, HEX, 40), "PULUMI_ACCESS_TOKEN"),
    "sentry": (lambda r: "sntryu_" + _r(r, HEX, 64), "SENTRY_TOKEN"),
    "shopify": (lambda r: "shpat_" + _r(r, HEX, 32), "SHOPIFY_TOKEN"),
    "vault": (lambda r: "hvs." + _r(r, ALNUM + "_-", 100), "VAULT_TOKEN"),
    "ec-private-key": (
        lambda r: (
            "-----BEGIN EC PRIVATE KEY-----\n"
            + "\n".join(_r(r, B64, 64) for _ in range(5))
            + "\n-----END EC PRIVATE KEY-----"
        ),
        "EC_KEY",
    ),
    "openssh-private-key": (
        lambda r: (
            "-----BEGIN OPENSSH PRIVATE KEY-----\n"
            + "\n".join(_r(r, B64, 70) for _ in range(8))
            + "\n-----END OPENSSH PRIVATE KEY-----"
        ),
        "DEPLOY_KEY",
    ),
}


#: Kinds that look like any random string: only their assignment context marks them.
CONTEXTUAL = frozenset(
    {"aws-secret-key", "twilio-auth-token", "generic-password", "generic-api-key", "client-secret"}
)


@dataclass(frozen=True)
class Secret:
    kind: str
    value: str
    name: str  # a variable name it is assigned to in text

    def assignment(self) -> str:
        """The secret as a transcript would show it (a kind-appropriate context)."""
        if "PRIVATE KEY" in self.value:
            return f"$ cat key.pem\n{self.value}\n"
        if not self.name:
            return self.value
        return f"export {self.name}={self.value}"

    @property
    def self_evident(self) -> bool:
        """Recognisable without context (a prefix or shape of its own)."""
        return self.kind not in CONTEXTUAL and "PRIVATE KEY" not in self.value

    def needles(self) -> list[str]:
        """Strings that must not be found: the secret and, if long, slices of its body."""
        body = self.value
        if "PRIVATE KEY" in body:
            lines = body.splitlines()[1:-1]
            return [line for line in lines if len(line) >= 16]
        out = [body]
        if len(body) >= 40:
            mid = len(body) // 2
            out.append(body[mid - 10 : mid + 10])
        return out


def make_secrets(seed: int | None = None) -> list[Secret]:
    """One secret of every kind; a fresh random seed unless given (printed on failure)."""
    rng = random.Random(seed if seed is not None else int.from_bytes(os.urandom(8), "big"))
    out: list[Secret] = []
    for kind, (gen, name, contexts) in KINDS.items():
        if kind in {"url-basic-auth", "database-url", "bearer", "azure-storage"}:
            continue  # shaped by context below
        if contexts == ("tool_output", "escaped_json", "prompt") or "gcp_json" in contexts:
            name = ""
        out.append(Secret(kind, gen(rng), name))
    for kind, (gen, name) in EXTRA.items():
        out.append(Secret(kind, gen(rng), name))
    return out


def url_password(rng: random.Random) -> str:
    return _r(rng, ALNUM, 18)


def json_escaped(value: str) -> str:
    """Every character as a `\\uXXXX` escape (what a JSON writer may emit)."""
    return "".join(f"\\u{ord(c):04x}" for c in value)


_ESCAPE = re.compile(rb"\\+u([0-9a-fA-F]{4})")


def unescaped(haystack: bytes) -> bytes:
    """`haystack` with JSON escapes undone, however many times the text was encoded."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)).encode("utf-8", "replace"), haystack)


def found(haystack: bytes, secrets: Iterable[Secret]) -> list[str]:
    """The kinds whose needles occur in `haystack`, as stored or with JSON escapes undone."""
    plain = unescaped(haystack)
    hits = []
    for secret in secrets:
        needles = [n.encode() for n in secret.needles()]
        if any(n in haystack or n in plain for n in needles):
            hits.append(secret.kind)
    return hits
