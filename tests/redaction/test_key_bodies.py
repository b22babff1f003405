"""A private key's body with only one of its armor lines (the shape from M-Thisness/M-Claude,
MIT, a whole history not in the repository: gpg quoting the key it could not import,
"gpg: invalid armor header: <body> … -----END PGP PRIVATE KEY BLOCK-----", had been
stored as printed; the keys here are made up)."""

from __future__ import annotations

import random
import time

import pytest

from sleepd.redaction import Redactor
from sleepd.redaction.key_bodies import MIN_BODY_CHARS, REACH_CHARS, body_before

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _lines(seed: int, count: int = 8, width: int = 64) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(B64) for _ in range(width)) for _ in range(count)]


def _leaks(redacted: str, body: list[str]) -> list[str]:
    return [line for line in body if line[8:40] in redacted]


@pytest.mark.parametrize(
    ("shape", "join", "end"),
    [
        # gpg's complaint on one line, the body's lines joined by spaces (a Claude Code Bash
        # result), with PGP's checksum line
        ("gpg: invalid armor header: {body} =UTah ", " ", "-----END PGP PRIVATE KEY BLOCK-----"),
        # the same under PowerShell: lines broken by CRLF, an escaped break after the END
        (
            "gpg.exe : gpg: invalid armor header: {body} \r\n=UTah \r\n",
            " \r\n",
            "-----END PGP PRIVATE KEY BLOCK-----\\r\\n",
        ),
        # `tail -n 8 id_rsa`
        ("$ tail -n 8 ~/.ssh/id_rsa\n{body}\n", "\n", "-----END RSA PRIVATE KEY-----"),
        # a key stored in JSON, its breaks escaped once or twice
        ('{{"out": "{body}\\n', "\\n", '-----END OPENSSH PRIVATE KEY-----"}'),
        ('{{"raw": "{body}\\\\n', "\\\\n", '-----END PRIVATE KEY-----\\\\n"}'),
        # an output whose head, the BEGIN line with it, was cut (Claude Code's note of it)
        ("... [4000 characters truncated] ...\n{body}\n", "\n", "-----END EC PRIVATE KEY-----"),
    ],
)
def test_a_body_above_its_end_line_is_redacted(
    redactor: Redactor, shape: str, join: str, end: str
) -> None:
    body = _lines(1)
    body[-1] = body[-1][:23] + "=="  # a body's last line is short
    text = shape.format(body=join.join(body)) + end
    redacted, rules = redactor.redact(text)
    assert _leaks(redacted, body) == []
    assert "private-key-body" in rules
    # the END line stays, to say what was there, and so do the words above the body
    assert end.split("-----")[1] in redacted
    assert redacted.startswith(shape.split("{body}")[0].replace("{{", "{")[:12])


def test_a_body_under_its_begin_line_is_redacted_when_the_end_line_was_cut(
    redactor: Redactor,
) -> None:
    body = _lines(2)
    text = (
        "cat deploy_key\n-----BEGIN OPENSSH PRIVATE KEY-----\n"
        + "\n".join(body)
        + "\n... [2210 characters truncated] ...\nDone."
    )
    redacted, rules = redactor.redact(text)
    assert _leaks(redacted, body) == []
    assert rules == ["private-key-head"]
    assert redacted.endswith("truncated] ...\nDone.")
    # PGP's armor headers sit between the BEGIN line and the body
    pgp = "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n" + "\n".join(body)
    redacted, _ = redactor.redact(pgp)
    assert _leaks(redacted, body) == []


def test_a_whole_key_is_still_the_private_key_rules(redactor: Redactor) -> None:
    body = _lines(3)
    text = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END RSA PRIVATE KEY-----"
    redacted, rules = redactor.redact(text)
    assert rules == ["private-key"]
    assert _leaks(redacted, body) == []


@pytest.mark.parametrize(
    "text",
    [
        # the END line named in prose or code, with nothing or words above it
        "The file must end with -----END RSA PRIVATE KEY----- and a newline.",
        "if line.startswith('-----END OPENSSH PRIVATE KEY-----'):",
        "Check that the key is complete\n-----END PRIVATE KEY-----",
        # a few short base64-looking words above it are no body
        "paste it here\nAAAA BBBB\n-----END PRIVATE KEY-----",
    ],
)
def test_an_end_line_with_no_body_above_it_is_kept(redactor: Redactor, text: str) -> None:
    assert redactor.redact(text) == (text, [])


def test_the_walk_up_stops_at_the_first_line_that_is_no_body() -> None:
    body = _lines(4, count=2)
    above = "Importing the key below into the agent's keyring now\n"
    text = above + "\n".join(body) + "\n-----END PGP PRIVATE KEY BLOCK-----"
    start = body_before(text, text.index("-----END"))
    assert start == len(above)
    # too few base64 characters to be a key
    short = "x\n" + body[0][: MIN_BODY_CHARS - 1] + "\n-----END PRIVATE KEY-----"
    assert body_before(short, short.index("-----END")) is None


def test_many_end_lines_and_a_huge_run_stay_fast(redactor: Redactor) -> None:
    """Hostile input: the walk is linear, and many END lines each read only what stands
    between them; a walk over the whole reach for each END line would take minutes (the
    deadline is a guard against that, far above what the work takes)."""
    texts = [
        "-----END RSA PRIVATE KEY-----\n" * 50_000,
        "".join(_lines(5, count=1, width=REACH_CHARS * 4)) + " -----END PRIVATE KEY-----",
        ("word " * 8 + "-----END PGP PRIVATE KEY BLOCK----- ") * 10_000,
    ]
    started = time.monotonic()
    for text in texts:
        redactor.redact(text)
    assert time.monotonic() - started < 20
