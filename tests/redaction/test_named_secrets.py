"""Secrets named in prose or typed bare after a password name (shapes from wild sample 6,
public sessions not in the repository; the values here are made up)."""

from __future__ import annotations

import pytest

from sleepd.redaction import Redactor

FOUND = [
    # an agent repeating the person's password back to them, in backticks
    ("Your password `Hallo22berg9!` is in users/ann/user.nix on GitHub.", "Hallo22berg9!"),
    ("the hash is from your current password `Hallo22berg9!`, so you", "Hallo22berg9!"),
    # a provider the rules do not know, named by "token"
    (
        "I preserve the existing token value `zq-k41mq0z7x2pq8v0c3n6b5m1l9k8j7h6g5f4d3s2a1` here",
        "zq-k41mq0z7x2pq8v0c3n6b5m1l9k8j7h6g5f4d3s2a1",
    ),
    # a password hash printed after its prompt, and bare password assignments
    (
        "<bash-stdout>Password: $y$j9T$Qm2Xa9LpQ0wZ4uVt$Yc8rN1pK3sF6hJ0dG2lA5qW9eR7tY4uI1oP3aS6dF8"
        "</bash-stdout>",
        "$y$j9T$Qm2Xa9LpQ0wZ4uVt$Yc8rN1pK3sF6hJ0dG2lA5qW9eR7tY4uI1oP3aS6dF8",
    ),
    ("login with password: Hallo22berg9!", "Hallo22berg9!"),
    ("db_password=s3cr3t-value-77", "s3cr3t-value-77"),
]


@pytest.mark.parametrize(("text", "secret"), FOUND)
def test_a_secret_named_before_it_is_redacted(text: str, secret: str) -> None:
    out, rules = Redactor(salt=b"t").redact(text)
    assert secret not in out and rules


KEPT = [
    "Password: required",
    "password: str = Field(..., min_length=12)",
    "password=hash_password(plain)",
    "password: ${DB_PASSWORD}",
    "password: ********",
    "password: args.password",
    "const clickhousePassword = process.env.CLICKHOUSE_PASSWORD?.trim() || ''",
    "showPassword = !showPassword",
    "the token file `token_cache2.json`",
    "the token `TOKEN_EXPIRED` comes back after an hour",
    "api key version `v2.1.0`",
    "max_tokens `4096`",
]


@pytest.mark.parametrize("text", KEPT)
def test_code_words_and_placeholders_are_no_secrets(text: str) -> None:
    assert Redactor(salt=b"t").redact(text) == (text, [])
