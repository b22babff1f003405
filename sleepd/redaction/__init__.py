"""Secret redaction: applied to every harvested string and every model payload.

>>> redactor = Redactor(salt=b"per-install salt")
>>> text, rule_ids = redactor.redact("export GITHUB_TOKEN=ghp_...")
"""

from sleepd.redaction.engine import PLACEHOLDER_RE, RedactionStats, Redactor
from sleepd.redaction.rules import Rule, RuleError, RuleSet, default_rules, load_rule_file
from sleepd.redaction.walk import redact_obj

__all__ = [
    "PLACEHOLDER_RE",
    "RedactionStats",
    "Redactor",
    "Rule",
    "RuleError",
    "RuleSet",
    "default_rules",
    "load_rule_file",
    "redact_obj",
]
