"""Secrets in a table's cells, beside their names, wrapped at the column's width (the shape of
Railway's listing of a project's variables, through its MCP server, in isaacmorgado's
history, MIT, not in the repository, which was stored with a Groq key, an OpenAI key, a JWT
secret and database passwords in it; the values here are made up)."""

from __future__ import annotations

import json

import pytest

from sleepd.redaction import Redactor
from sleepd.redaction.table_cells import named_values

OPENAI = (
    "sk-proj-Kq3Lm8Zp2Xv7Nb4Tc1Yd6Fh0Js5Aw9Er3Tk7Mn2Bv6Cx1Ls8Qw4Ez2Ry7Ui5Op3As6Df9Gh"
    "T3BlbkFJPl1Mk4Nj7Bh2Vg5Cf8Xd3Za6Sq9Wx1Ec4Rv7Tb2Yn5Um8Ik3Ol6Pq9"
)
GROQ = "gsk_ugbarKq3Lm8Zp2Xv7Nb4Tc1Yd6Fh0Js5Aw9Er3Tk7Mn2ZV9Y2QT"
JWT_SECRET = "673790b5c9e6a06ef6062fcd09d272185dc097405f16c2116cd47ff8e9092530"
REDIS_PASSWORD = "chejnNEAOaHZltQXcIoKITUGMNxcGAYJ"


def _box(rows: list[tuple[str, str]], width: int = 43) -> str:
    """A table as railway prints it: each value wrapped at `width`, its name's cell blank
    on the rows that go on."""
    lines = []
    for name, value in rows:
        pieces = [value[n : n + width] for n in range(0, len(value), width)]
        lines.append(f"║ {name:<30} │ {pieces[0]:<{width}} ║")
        lines += [f"║ {'':<30} │ {piece:<{width}} ║" for piece in pieces[1:]]
        lines.append("║" + "─" * (width + 35) + "║")
    return "\n".join(lines)


TABLE = _box(
    [
        ("GROQ_API_KEY", GROQ),
        ("JWT_SECRET", JWT_SECRET),
        ("NODE_ENV", "production"),
        ("OPENAI_API_KEY", OPENAI),
        ("PORT", "3847"),
        ("REDIS_PASSWORD", REDIS_PASSWORD),
    ]
)


def _pieces_left(redacted: str) -> list[str]:
    secrets = (OPENAI, GROQ, JWT_SECRET, REDIS_PASSWORD)
    return [
        s[n : n + 12]
        for s in secrets
        for n in range(8, len(s) - 12, 12)
        if s[n : n + 12] in redacted
    ]


def test_a_wrapped_value_is_read_whole() -> None:
    found = {name: "".join(TABLE[a:b] for a, b in spans) for name, spans in named_values(TABLE)}
    assert found["OPENAI_API_KEY"] == OPENAI
    assert found["GROQ_API_KEY"] == GROQ
    assert found["NODE_ENV"] == "production"


@pytest.mark.parametrize("stored", ["as printed", "in a raw line"])
def test_every_piece_of_a_secret_in_a_table_is_redacted(redactor: Redactor, stored: str) -> None:
    text = TABLE if stored == "as printed" else json.dumps({"stdout": TABLE}, ensure_ascii=False)
    redacted, rules = redactor.redact(text)
    assert _pieces_left(redacted) == []
    assert {"prefixed-provider-key", "env-secret-assignment"} <= set(rules)
    # what is no secret stays, and so does the table's frame
    assert "production" in redacted and "3847" in redacted and "NODE_ENV" in redacted
    assert redactor.redact(redacted) == (redacted, [])


@pytest.mark.parametrize(
    ("row", "secret"),
    [
        ("| `DB_PASSWORD` | `hunter2-Xy9q` |", "hunter2-Xy9q"),
        ("| PGPASSWORD | pCADzvPqsoWVWCozIwkjPybkTRUzwbZu |", "pCADzvPqsoWVWCozIwkjPybkTRUzwbZu"),
        ("  | API_TOKEN | Kq3Lm8Zp2Xv7Nb4T |", "Kq3Lm8Zp2Xv7Nb4T"),
    ],
)
def test_a_markdown_row_naming_a_secret_is_redacted(
    redactor: Redactor, row: str, secret: str
) -> None:
    text = f"The variables:\n\n| Name | Value |\n|---|---|\n{row}\n"
    redacted, rules = redactor.redact(text)
    assert secret not in redacted
    assert rules


@pytest.mark.parametrize(
    "text",
    [
        # a table describing the variables: a description is no value
        "| STRIPE_SECRET_KEY | Stripe billing API |\n| PERPLEXITY_API_KEY | Optional |",
        "| GROQ_API_KEY | https://console.groq.com/keys (rotate - old one exposed) |",
        # a value the command masked
        "║ GROQ_API_KEY │ gsk_****uIm ║",
        # a tree listing and shell pipes
        "│   ├── src\n│   │   ├── token_store.py\n│   └── SECRET_KEY.md",
        "cat .env | grep API_KEY | cut -d= -f1",
    ],
)
def test_what_is_no_secret_beside_a_name_is_kept(redactor: Redactor, text: str) -> None:
    assert redactor.redact(text) == (text, [])
