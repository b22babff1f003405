"""A secret in JSON text, after an escaped line break: a tool call's input and a raw line are
stored as JSON, so a key that opens a line of a file the agent wrote follows `\\n`.

Found in a real history (isaacmorgado's, MIT, not in the repository): the agent warned that a
Featherless key had been exposed and quoted it on a line of its own in a file it wrote; the
tool call's input was stored with the key in the clear, as every provider rule that wants no
letter before its key read the escape's `n` as one. The keys here are made up.
"""

from __future__ import annotations

import json

import pytest

from sleepd.redaction import PLACEHOLDER_RE, Redactor

KEYS = [
    "AKIAZ7QRSTUVWXY2ABCD",
    "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "sk_live_51QxT2L5BseYEbCapAp3Mziqr4DTtdQupz4a1kTNaGiW52DqW",
    "npm_Xk3vR9qT2mN8pL5wY7zB1cD4eF6gH0jK2lM4",
    "gsk_Xk3vR9qT2mN8pL5wY7zB1cD4eF6gH0jK2lM4nO6pQ8sXk3vR9q",
    "rc_0d2c186ee945d2e0a15310e7630233b1b3bd5448fdf0d587ab5dc71cf5994fa3",
]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("before", ["\n", "\t", "\r\n", "\n```\n"])
def test_a_key_after_an_escaped_break_is_redacted(
    redactor: Redactor, key: str, before: str
) -> None:
    content = f"## Revoke this key{before}{key}\nthen make a new one"
    tool_input = json.dumps({"file_path": "/tmp/SECURITY.md", "content": content})
    redacted, rules = redactor.redact(tool_input)
    assert key[5:25] not in redacted, redacted
    assert rules
    # the same stand-in as the key in the decoded text
    stand_ins = PLACEHOLDER_RE.findall(redactor.redact(content)[0])
    assert stand_ins and all(stand_in in redacted for stand_in in stand_ins)


@pytest.mark.parametrize("key", KEYS)
def test_a_key_after_a_break_escaped_twice_is_redacted(redactor: Redactor, key: str) -> None:
    """A raw line holds a JSON text inside a JSON string: the break is `\\\\n`."""
    inner = json.dumps({"content": f"old key:\n{key}\n"})
    raw_line = json.dumps({"type": "tool_result", "content": inner})
    redacted, _ = redactor.redact(raw_line)
    assert key[5:25] not in redacted, redacted


@pytest.mark.parametrize(
    "content",
    [
        # an empty assignment: the next line is not its value
        "AWS_ACCESS_KEY_ID=\nAWS_SECRET_ACCESS_KEY=\nS3_BUCKET=looksmaxx-images\n",
        "# ELEVENLABS_API_KEY=\n# DEEPGRAM_API_KEY=\n# OPENAI_API_KEY=\n",
        "Service: api\nDeployment: 25193dd7-2cea-4dbd-bbf1-2e9b39d1a9be\nStatus: BUILDING",
        "2. Convert HAR to OpenAPI:\n   mitmproxy2swagger -i traffic.har -o swagger.yml",
        "GOOGLE_API_KEY=your_api_key_here\nGEMINI_MODEL=gemini-2.0-flash-exp\n",
        '{\n  "runpod.apiKey": "your_api_key",\n  "runpod.refreshInterval": 30\n}',
        # a type in code, not a password
        "interface LoginInput {\n  email: string\n  password: string\n}",
        "EMAIL_USERNAME=\nEMAIL_PASSWORD=\nEMAIL_FROM_NAME=\n",
        "| `R2_ACCESS_KEY_ID` | R2 access key |\n| `R2_SECRET_ACCESS_KEY` | R2 secret key |\n"
        "| `R2_BUCKET_NAME` | R2 bucket name |",
    ],
)
def test_a_rule_does_not_read_past_an_escaped_break(redactor: Redactor, content: str) -> None:
    """Each line break reads as one where rules match, so a rule that reads one line never
    takes the next line for its value: in the JSON text as in the decoded one."""
    tool_input = json.dumps({"content": content})
    assert redactor.redact(tool_input) == (tool_input, [])
    assert redactor.redact(content) == (content, [])


def test_a_literal_backslash_n_in_a_command_still_ends_a_password(redactor: Redactor) -> None:
    """printf's own `\\n` (two characters in the command) is read the same way."""
    text = "printf 'nicfio\\n' | sudo -S -p 'Password: ' -v"
    redacted, rules = redactor.redact(text)
    assert "nicfio" not in redacted
    assert rules == ["sudo-password-pipe"]
