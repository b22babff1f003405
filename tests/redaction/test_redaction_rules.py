"""The rule set loads, every vendored rule compiles, and RE2 syntax is translated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sleepd.redaction.rules import (
    GITLEAKS_FILE,
    SLEEPD_FILE,
    RuleError,
    default_rules,
    load_rule_file,
)
from sleepd.redaction.translate import go_to_python


def test_every_vendored_and_own_rule_compiles_with_keywords() -> None:
    for path in (GITLEAKS_FILE, SLEEPD_FILE):
        rules, allowlist = load_rule_file(path)
        assert rules, path
        for rule in rules:
            assert isinstance(rule.regex, re.Pattern)
            assert rule.keywords, rule.id
            assert all(k == k.lower() for k in rule.keywords), rule.id
        for allow in [allowlist, *(a for rule in rules for a in rule.allowlists)]:
            assert all(isinstance(regex, re.Pattern) for regex in allow.regexes)
    # the shipped set, loaded without checking, compiles each pattern when first used
    for rule in default_rules().rules:
        assert isinstance(rule.regex, re.Pattern), rule.id


def test_a_rule_file_with_a_bad_pattern_fails_its_load(tmp_path: Path) -> None:
    bad = tmp_path / "rules.toml"
    bad.write_text('[[rules]]\nid = "broken"\nregex = "(unclosed"\nkeywords = ["x"]\n')
    with pytest.raises(RuleError, match="does not compile"):
        load_rule_file(bad)


def test_common_providers_are_covered() -> None:
    ids = {rule.id for rule in default_rules().rules}
    wanted = {
        "aws-access-token", "aws-secret-access-key", "github-pat", "github-oauth",
        "github-app-token", "github-refresh-token", "github-fine-grained-pat", "gitlab-pat",
        "slack-bot-token", "slack-user-token", "slack-webhook-url", "stripe-access-token",
        "openai-api-key", "openai-key", "anthropic-api-key", "anthropic-key", "gcp-api-key",
        "private-key", "azure-ad-client-secret", "azure-storage-account-key", "twilio-api-key",
        "twilio-auth-token", "sendgrid-api-token", "npm-access-token", "pypi-upload-token",
        "huggingface-access-token", "jwt", "generic-api-key", "password-assignment",
        "url-basic-auth", "bearer-token", "database-url-password",
    }  # fmt: skip
    assert wanted <= ids, wanted - ids


def test_vendored_file_carries_attribution() -> None:
    head = GITLEAKS_FILE.read_text()[:600]
    assert "gitleaks/gitleaks" in head and "MIT" in head


@pytest.mark.parametrize(
    ("go", "python"),
    [
        (r"dp\.pt\.(?i)[a-z0-9]{43}", r"dp\.pt\.(?i:[a-z0-9]{43})"),
        (r"(?:x(?i)ab|cd)e", r"(?:x(?i:ab)|(?i:cd))e"),
        (r"\b(a~[\w-]{4})(?:[^\w-]|\z)", r"\b(a~[\w-]{4})(?:[^\w-]|\Z)"),
        (r"(?i)[\w.-]{0,50}?(?:key)=(\w+)", r"(?i:(?:key)=(\w+))"),
        (r"[(?i)]x", r"[(?i)]x"),
    ],
)
def test_translation(go: str, python: str) -> None:
    assert go_to_python(go) == python
    re.compile(python)


def test_mid_pattern_flag_keeps_re2_meaning() -> None:
    pattern = re.compile(go_to_python(r"\b(LTAI(?i)[a-z0-9]{4})\b"))
    assert pattern.search("id LTAIAbC1 end")
    assert not pattern.search("id ltaiabc1 end")  # the prefix stays case-sensitive
    alternation = re.compile(go_to_python(r"^(?:a(?i)b|c)$"))
    assert alternation.match("aB") and alternation.match("C") and not alternation.match("A")
