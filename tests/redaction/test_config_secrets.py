"""Passwords in configuration and code shapes that no assignment rule read before: a
compose file's `POSTGRES_PASSWORD: …`, an `.env`'s `SMTP_PASS=…`, a connection string's
`Password=…;`, a `.netrc` entry, an `auth=('user', '…')` pair. Values are made up."""

from __future__ import annotations

import pytest

from sleepd.redaction import Redactor

FOUND = [
    (
        "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: kido_password\n"
        "      POSTGRES_USER: kido\n",
        "kido_password",
        "env-secret-yaml",
    ),
    ("DB_PASSWORD: rootpass", "rootpass", "env-secret-yaml"),
    ("  SMTP_PASS: gm4ilApp  # app password", "gm4ilApp", "env-secret-yaml"),
    ("      REDIS_PWD: 'r3disPw'\n", "r3disPw", None),
    ("DB_PASS=xyz123abc", "xyz123abc", "env-secret-assignment"),
    ("export REDIS_PASS='r3disPw9'", "r3disPw9", "env-secret-assignment"),
    ("MYSQL_PWD=Pw0rd99 mysql -uroot", "Pw0rd99", None),
    (
        "machine api.example.com login me@x.com password 9f8e7d6c5b4a",
        "9f8e7d6c5b4a",
        "netrc-password",
    ),
    ("Server=db;Database=app;User Id=sa;Password=MyPass;", "MyPass", "connection-string-password"),
    (
        "Driver={ODBC Driver 18};Server=db; Uid=sa; Pwd=secretz",
        "secretz",
        "connection-string-password",
    ),
    ("requests.get(url, auth=('admin', 'S3cretPw'))", "S3cretPw", "basic-auth-pair"),
    ('HTTPBasicAuth("user", "pa55word")', "pa55word", "basic-auth-pair"),
    ("gpg --batch --passphrase Gpg5ecret -d f.gpg", "Gpg5ecret", "cli-password-option"),
    ("ssh-keygen -t ed25519 -N 'K3yPhrase' -f key", "K3yPhrase", "ssh-keygen-passphrase"),
]


@pytest.mark.parametrize(("text", "secret", "rule"), FOUND)
def test_a_password_in_configuration_or_code_is_redacted(
    text: str, secret: str, rule: str | None
) -> None:
    out, rules = Redactor(salt=b"t").redact(text)
    assert secret not in out, out
    assert rules
    if rule is not None:
        assert rule in rules


KEPT = [
    # types, references, numbers and variables where a value would be
    "SECRET_KEY: Optional[str] = None",
    "DB_PASSWORD: str = ''",
    "PR_EMS_AB_AUTHORIZED_PASSWORD: Incomplete",
    "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
    "API_TOKEN: settings.API_TOKEN",
    "MAX_TOKEN: 4096",
    "    ANTHROPIC_API_KEY: anthropicKey,",
    "AUTH_TOKEN: string;",
    "PASSWORD: required",
    "OLDPWD=/home/me/src",
    "SKIP_PASS=1",
    # code, not a connection string
    "a = b; password = x;",
    "showLoginForm = false; password = '';",
    "x = auth(user, pw)",
    "auth=('user', os.environ['PW'])",
    "ssh-keygen -t ed25519 -N '' -f key",
    "DEFAULT_NETRC_FMT = 'machine {hostname} login token password {token}'",
]


@pytest.mark.parametrize("text", KEPT)
def test_types_references_and_code_are_kept(text: str) -> None:
    assert Redactor(salt=b"t").redact(text) == (text, [])
