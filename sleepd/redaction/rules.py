"""The rule set: gitleaks' provider rules plus sleepd's own, loaded from TOML.

Rules are data (``gitleaks_rules.toml`` vendored from upstream, and
``sleepd_rules.toml``) so they can be refreshed without touching the engine.
Loading translates each RE2 pattern to Python ``re``. A rule file a person
loads is compiled whole and fails loudly if a pattern does not compile; the
shipped files compile each pattern when its rule first runs (a short harvest
runs few rules), and the test suite compiles them all, so a bad refresh is
caught there, not at 3 a.m.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from sleepd.redaction.translate import go_to_python

RULES_DIR = Path(__file__).parent
GITLEAKS_FILE = RULES_DIR / "gitleaks_rules.toml"
SLEEPD_FILE = RULES_DIR / "sleepd_rules.toml"

#: Keywords too common to be a useful prefilter, replaced by a sharper one that
#: every real match still contains (a JWT's parts start with "eyJ"; legacy
#: "s." Vault tokens are only looked for when the text mentions vault).
KEYWORD_OVERRIDES: dict[str, tuple[str, ...]] = {
    "jwt": ("eyj",),
    "vault-service-token": ("hvs.", "vault"),
    # SK[0-9a-fA-F]{32}: "sk" plus a hex digit skips "task", "skip", "risk ".
    "twilio-api-key": tuple(f"sk{digit}" for digit in "0123456789abcdef"),
}
#: Vendored rules whose every match starts at a keyword: try them only there.
#: ("sk" occurs in every other word of English; scanning the whole text for a
#: Twilio key each time would dominate the cost of redaction.)
ANCHORED_OVERRIDES: frozenset[str] = frozenset({"twilio-api-key"})
#: Cheap necessary conditions for anchored rules, as (pattern, window): the
#: rule's regex can only match at a keyword hit ``p`` if the pattern occurs in
#: ``text[p : p + window]``. Each is read off the rule's regex; most of the
#: ~5000 keyword hits per 2 MB of transcripts ("Tokens", "x-llamacpp-", "API
#: nodes") fail it, which saves running the full regex there.
GATES: dict[str, tuple[str, int]] = {
    # (?:PASSWORD|...|TOKEN|...|AUTH|_PASS|_PWD) is case-sensitive: two capitals at the
    # keyword, or an underscore and a capital.
    "env-secret-assignment": (r"[A-Z_][A-Z]", 2),
    # A keyword of <= 10 characters and [ \t\w.-]{0,20}[\s'"\\]{0,4} put the
    # operator's first character before p + 35; the rest of the operator (`%3D` before
    # a value in a URL inside a URL's query) and [\x60'" \t=\\]{0,6} take <= 9 more, then
    # the value has >= 10 characters.
    "generic-api-key": (r"(?:[=>:|?]|%3[dD])[=>:|?\x60'\"\s\\]{0,9}[\w.=+/%-]{10}", 35 + 9 + 10),
    # x-[a-z0-9-]{0,20}(?:api-?key|token|auth) ends by p + 29, then \\?["']?\s*:
    "api-key-header": (r"(?i:key|token|auth)[\\\"'\s:]", 2 + 20 + 7 + 1),
    # SK[0-9a-fA-F]{32} is case-sensitive.
    "twilio-api-key": (r"SK", 2),
}

#: The end gitleaks asks of a provider's token: a quote, a blank, `;`, an escaped line
#: break, or the end of the text. A token also ends where a command, a URL or a JSON text
#: puts it against another delimiter: curl's `-u sk_live_…:` (the key as a user name, its
#: empty password after the colon), `?key=…&`, `(…)`, `[…]`, `{…}`, `<…>`, a pipe, a comma,
#: and a quote escaped inside a JSON string (`"echo \"sk_live_…\" | vercel env add"`, as
#: a tool call's input is stored). Read with only gitleaks' ends, a live Stripe key in
#: seven commands of one real history was stored as typed. A dot ends a token only where
#: a sentence ends (`… is sk_live_….`) or an ellipsis cuts it (a JWT access token shown as
#: `eyJ….eyJ….D32irJfb…`): several tokens hold dots, and one cut before a dot inside it
#: would leave the rest in the clear. Rules read an escaped line break as a break
#: (`engine._as_read`), so one escaped twice (`\\n`) reads as a backslash before a break.
GITLEAKS_TOKEN_END = r"""(?:[\x60'"\s;]|\\[nr]|$)"""
TOKEN_END = r"""(?:[\x60'"\s;:,&|()<>\[\]{}…]|\\[nrt"'\\\s]|\.(?=\s|$)|\.\.\.|$)"""

_FLAGS = re.ASCII  # RE2's \w, \d, \s and \b are ASCII-only too


class RuleError(ValueError):
    """A rule file entry that cannot be used."""


@dataclass(frozen=True)
class Allowlist:
    """Conditions under which a candidate secret is not a secret."""

    #: Python `re` sources (translated from RE2), compiled when first used
    patterns: tuple[str, ...] = ()
    stopwords: tuple[str, ...] = ()
    target: str = "secret"  # "secret", "match" or "line"

    @cached_property
    def regexes(self) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(p, _FLAGS) for p in self.patterns)


@dataclass(frozen=True)
class Rule:
    """One detector: where to look (keywords), what to match, what to keep."""

    id: str
    #: the Python `re` source (translated from RE2), compiled when the rule first runs:
    #: a harvest of a few new lines runs few rules, and need not compile the rest
    pattern: str
    keywords: tuple[str, ...]
    entropy: float | None = None
    secret_group: int | None = None  # None: first unnamed group that matched, else all
    allowlists: tuple[Allowlist, ...] = ()
    anchored: bool = False
    gate: re.Pattern[str] | None = None  # see GATES; anchored rules only
    gate_window: int = 0
    source: str = ""
    description: str = field(default="", compare=False)

    @cached_property
    def regex(self) -> re.Pattern[str]:
        return re.compile(self.pattern, _FLAGS)

    @cached_property
    def unnamed_groups(self) -> tuple[int, ...]:
        """The regex's groups without a name, in order (the secret is the first that
        matched, unless `secret_group` says which)."""
        named = set(self.regex.groupindex.values())
        return tuple(g for g in range(1, self.regex.groups + 1) if g not in named)


def _compile(pattern: str, where: str) -> re.Pattern[str]:
    try:
        return re.compile(go_to_python(pattern), _FLAGS)
    except re.error as exc:
        raise RuleError(f"{where}: regex does not compile: {exc}") from exc


def _source(pattern: str, where: str, check: bool) -> str:
    """The Python source of an RE2 pattern; `check` compiles it now, so a bad pattern
    fails the load (a rule file a person wrote), not the first text it meets."""
    source = go_to_python(pattern)
    if check:
        try:
            re.compile(source, _FLAGS)
        except re.error as exc:
            raise RuleError(f"{where}: regex does not compile: {exc}") from exc
    return source


def _allowlist(raw: dict[str, Any], where: str, check: bool = True) -> Allowlist:
    target = str(raw.get("regexTarget", "secret"))
    if target not in ("secret", "match", "line"):
        raise RuleError(f"{where}: unknown regexTarget {target!r}")
    return Allowlist(
        patterns=tuple(_source(p, where, check) for p in raw.get("regexes", [])),
        stopwords=tuple(str(w).lower() for w in raw.get("stopwords", [])),
        target=target,
    )


def _rule(raw: dict[str, Any], source: str, check: bool = True) -> Rule:
    rule_id = str(raw.get("id", ""))
    where = f"{source} rule {rule_id or '?'}"
    if not rule_id or "regex" not in raw:
        raise RuleError(f"{where}: needs an id and a regex")
    keywords = KEYWORD_OVERRIDES.get(rule_id) or tuple(str(k).lower() for k in raw["keywords"])
    if not keywords:
        raise RuleError(f"{where}: needs keywords (the prefilter runs no rule without one)")
    group = raw.get("secretGroup")
    anchored = bool(raw.get("anchored", False)) or rule_id in ANCHORED_OVERRIDES
    gate, window = GATES.get(rule_id, (None, 0))
    if gate is not None and not anchored:
        raise RuleError(f"{where}: a gate needs an anchored rule")
    return Rule(
        id=rule_id,
        pattern=_source(str(raw["regex"]).replace(GITLEAKS_TOKEN_END, TOKEN_END), where, check),
        keywords=tuple(keywords),
        entropy=float(raw["entropy"]) if "entropy" in raw else None,
        secret_group=int(group) if group is not None else None,
        allowlists=tuple(_allowlist(a, where, check) for a in raw.get("allowlists", [])),
        anchored=anchored,
        gate=_compile(gate, where) if gate is not None else None,
        gate_window=window,
        source=source,
        description=str(raw.get("description", "")),
    )


def load_rule_file(path: Path, *, check: bool = True) -> tuple[list[Rule], Allowlist]:
    """Rules of one TOML file, in file order, and its global allowlist. `check` compiles
    every pattern now; the shipped files skip it (the test suite compiles them)."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    rules = [_rule(raw, path.name, check) for raw in data.get("rules", [])]
    return rules, _allowlist(data.get("allowlist", {}), f"{path.name} allowlist", check)


@dataclass(frozen=True)
class RuleSet:
    """Rules in priority order (provider rules first) and the global allowlist."""

    rules: tuple[Rule, ...]
    allowlist: Allowlist


@cache
def default_rules() -> RuleSet:
    """The shipped rule set, loaded once per process."""
    vendored, global_allow = load_rule_file(GITLEAKS_FILE, check=False)
    own, _ = load_rule_file(SLEEPD_FILE, check=False)
    ids = [r.id for r in vendored + own]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise RuleError(f"duplicate rule ids: {', '.join(duplicates)}")
    return RuleSet(rules=tuple(vendored + own), allowlist=global_allow)
