"""Lint the text an edit adds: transcripts are untrusted, and so is what is learned from them.

Only *added* lines are checked (a user's own document is not ours to judge). Each rule either
rejects the edit or flags it for the reviewer, as `SafetyPolicy` says.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["reject", "flag"]

_NEGATION = re.compile(
    r"\b(never|don't|do not|dont|must not|mustn't|should not|shouldn't|avoid|no need to|"
    r"not|without)\b[^.;:!?\n]{0,40}$",
    re.IGNORECASE,
)

_URL = re.compile(r"\b(?:https?|ftp)://([A-Za-z0-9.-]+)(?::\d+)?[^\s)\]>'\"`]*", re.IGNORECASE)
_PIPE_TO_SHELL = [
    re.compile(r"\b(?:curl|wget)\b[^\n|]*\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b", re.IGNORECASE),
    re.compile(
        r"\b(?:iex|invoke-expression)\b[^\n]*\b(?:iwr|irm|invoke-webrequest|"
        r"invoke-restmethod|downloadstring)\b",
        re.IGNORECASE,
    ),
    re.compile(r"(?:ba)?sh\s+<\(\s*(?:curl|wget)\b", re.IGNORECASE),
]
_BYPASS = [
    re.compile(r"--no-verify\b"),
    re.compile(r"--dangerously-skip-permissions\b"),
    re.compile(
        r"\bskip(?:ping)?\s+(?:the\s+|all\s+)?(?:tests?|checks?|ci|linters?|hooks?)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bdisabl(?:e|ing)\s+(?:the\s+|all\s+)?(?:[\w-]+\s+){0,2}"
        r"(?:tests?|checks?|hooks?|linters?|lint|safety|sandbox|permissions?)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bbypass(?:ing)?\s+(?:the\s+)?(?:[\w-]+\s+){0,2}(?:permissions?|safety|checks?|"
        r"hooks?|review|sandbox)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bgit\s+push\s+(?:\S+\s+)*(?:--force|-f)\b[^\n]*\b(?:main|master)\b", re.IGNORECASE
    ),
    re.compile(r"\bgit\s+push\s+(?:\S+\s+)*(?:main|master)\b[^\n]*(?:--force|-f)\b", re.IGNORECASE),
    re.compile(r"\brm\s+-(?:rf|fr|r\s+-f|f\s+-r)\s+(?:--no-preserve-root\s+)?/(?:\s|$|\*)"),
    re.compile(r"\bchmod\s+(?:-R\s+)?0?777\b"),
    re.compile(r"#\s*(?:noqa|type:\s*ignore|eslint-disable|nosec)\b", re.IGNORECASE),
]
_SECRETS = [
    re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    re.compile(r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"),
    re.compile(r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
]

RULES = ("unknown_host", "pipe_to_shell", "bypass_safety", "secret")


@dataclass(frozen=True)
class SafetyFlag:
    rule: str
    severity: Severity
    excerpt: str


@dataclass(frozen=True)
class SafetyPolicy:
    """Per-rule severity; everything rejects by default except unknown hosts."""

    severities: Mapping[str, Severity] = field(
        default_factory=lambda: {
            "unknown_host": "flag",
            "pipe_to_shell": "reject",
            "bypass_safety": "reject",
            "secret": "reject",
        }
    )

    def severity(self, rule: str) -> Severity:
        return self.severities.get(rule, "reject")


def added_lines(old_doc: str, new_doc: str) -> list[str]:
    """Lines present in the new document but not in the old one (difflib)."""
    matcher = difflib.SequenceMatcher(
        a=old_doc.splitlines(), b=new_doc.splitlines(), autojunk=False
    )
    return [
        line
        for tag, _i1, _i2, j1, j2 in matcher.get_opcodes()
        if tag in ("insert", "replace")
        for line in new_doc.splitlines()[j1:j2]
    ]


def lint_edit(
    old_doc: str,
    new_doc: str,
    *,
    known_hosts: set[str],
    policy: SafetyPolicy | None = None,
) -> list[SafetyFlag]:
    """Every rule hit in the added text; an empty list means nothing to worry about."""
    policy = policy or SafetyPolicy()
    flags: list[SafetyFlag] = []
    checks: list[tuple[str, Callable[[str], list[str]]]] = [
        ("unknown_host", lambda line: _unknown_hosts(line, known_hosts)),
        ("pipe_to_shell", lambda line: _hits(_PIPE_TO_SHELL, line, negatable=False)),
        ("bypass_safety", lambda line: _hits(_BYPASS, line, negatable=True)),
        ("secret", lambda line: _hits(_SECRETS, line, negatable=False)),
    ]
    for line in added_lines(old_doc, new_doc):
        for rule, check in checks:
            for excerpt in check(line):
                flags.append(SafetyFlag(rule, policy.severity(rule), excerpt))
    return flags


def blocking(flags: list[SafetyFlag]) -> bool:
    """True when any flag rejects the edit."""
    return any(f.severity == "reject" for f in flags)


def _unknown_hosts(line: str, known_hosts: set[str]) -> list[str]:
    known = {h.lower() for h in known_hosts}
    out = []
    for m in _URL.finditer(line):
        host = m.group(1).lower().rstrip(".")
        if not any(host == k or host.endswith("." + k) for k in known):
            out.append(m.group(0))
    return out


def _hits(patterns: list[re.Pattern[str]], line: str, *, negatable: bool) -> list[str]:
    out = []
    for pattern in patterns:
        for m in pattern.finditer(line):
            if negatable and _NEGATION.search(line[: m.start()]):
                continue
            out.append(_redact(m.group(0)) if pattern in _SECRETS else m.group(0))
    return out


def _redact(secret: str) -> str:
    """Never copy a secret into a report: keep only a recognisable prefix."""
    return secret[:6] + "…"
