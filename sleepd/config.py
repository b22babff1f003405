"""The TOML config file: documented keys, defaults, validation, provenance.

Every key is declared once below with its type, default, allowed values and a
one-line doc. A bad value fails with one line naming the file, the key, what was
given and what is allowed. `sleepd config show` reports where each value came
from (default, file or environment).
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sleepd import paths
from sleepd.errors import ConfigError


def _opt(default: Any, doc: str, **rules: Any) -> Any:
    if isinstance(default, list | dict):
        return field(default_factory=lambda: type(default)(default), metadata={"doc": doc, **rules})
    return field(default=default, metadata={"doc": doc, **rules})


_TIME_RE = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
#: The largest number any key accepts unless it names its own bound: a value past it is a
#: typo or an attempt to disable a limit (20-digit token caps, 1e308 dollars).
SANE_MAX = 10**9
BACKEND_CHOICES = ("auto", "anthropic", "openai", "claude-cli", "codex-cli", "sim")


@dataclass
class ScheduleConfig:
    """`[schedule]`: when nights run and when they may not."""

    time: str = _opt("03:30", "Local time of the nightly run (HH:MM, 24 h).", pattern=_TIME_RE)
    timezone: str = _opt("local", "IANA timezone for `time`, or 'local'.", timezone=True)
    jitter_minutes: int = _opt(20, "Random delay added to the night's start.", min=0, max=240)
    harvest_interval_minutes: int = _opt(15, "Periodic harvest sweep interval.", min=1, max=1440)
    catchup_grace_hours: float = _opt(
        6.0, "A night is overdue after 24 h plus this grace.", min=0, max=72
    )
    misfire_grace_hours: float = _opt(
        8.0, "How late a missed night may still start.", min=0, max=48
    )
    only_on_ac_power: bool = _opt(False, "Run nights only on AC power.")
    only_when_idle: bool = _opt(False, "Run nights only when the machine is idle.")
    idle_cpu_percent: float = _opt(
        25.0, "CPU use below which the machine counts as idle.", min=1, max=100
    )


@dataclass
class SourcesConfig:
    """`[sources]`: which agents' transcripts are harvested, and from where."""

    claude: bool = _opt(True, "Harvest Claude Code transcripts.")
    codex: bool = _opt(True, "Harvest Codex rollouts.")
    claude_projects_dirs: list[str] = _opt(
        [],
        "Extra Claude projects roots (besides $CLAUDE_CONFIG_DIR/projects, or without it"
        " ~/.claude/projects and ~/.config/claude/projects).",
    )
    codex_session_dirs: list[str] = _opt([], "Extra Codex session roots.")


@dataclass
class HarvestConfig:
    """`[harvest]`: how transcripts are read and stored."""

    redact: bool = _opt(True, "Redact secrets before storing (strongly recommended).")
    max_text_bytes: int = _opt(
        262144,
        "Longest text stored per event; longer text is truncated.",
        min=1024,
        max=64 * 1024 * 1024,
    )
    batch_lines: int = _opt(2000, "Lines per insert batch.", min=10, max=100000)
    workers: int = _opt(
        0,
        "Processes that parse and redact a harvest of at least `parallel_min_mb` "
        "(`sleepd harvest --jobs`): 0 one per CPU (at most 4; none on one CPU), 1 parses "
        "in the harvesting process, more start that many worker processes.",
        min=0,
        max=64,
    )
    parallel_min_mb: int = _opt(
        16, "New transcript megabytes from which a harvest uses worker processes.", min=0
    )
    watch: bool = _opt(True, "Watch transcript roots for changes (the sweep stays the truth).")
    debounce_seconds: float = _opt(2.0, "Quiet time before a changed file is harvested.", min=0)


@dataclass
class RoleConfig:
    """`[roles.NAME]`: the backend and model one pipeline role uses."""

    backend: str = _opt("auto", "Backend for this role.", choices=BACKEND_CHOICES)
    model: str = _opt("", "Model name for this role ('' = the backend's default).")


@dataclass
class BackendsConfig:
    """`[backends]`: which model backends roles use by default."""

    default: str = _opt("auto", "Backend for roles that do not name one.", choices=BACKEND_CHOICES)
    anthropic_base_url: str = _opt("", "Anthropic API base URL ('' = official).", url=True)
    openai_base_url: str = _opt(
        "", "OpenAI-compatible base URL (Ollama, vLLM, llama.cpp).", url=True
    )
    claude_executable: str = _opt("claude", "The Claude Code CLI.")
    codex_executable: str = _opt("codex", "The Codex CLI.")
    timeout_seconds: float = _opt(120.0, "Per-call timeout.", min=1, max=3600)
    max_retries: int = _opt(2, "Retries for transient API errors.", min=0, max=10)
    use_batch: bool = _opt(True, "Use provider batch APIs for replay where available.")
    batch_poll_seconds: float = _opt(
        30.0,
        "How often a night asks whether a submitted provider batch has ended.",
        min=1,
        max=3600,
    )
    concurrency: int = _opt(4, "Parallel model calls.", min=1, max=64)


@dataclass
class BudgetConfig:
    """`[budget]`: the caps on what model calls may spend."""

    max_usd_per_night: float = _opt(2.0, "Hard cap on dollars per night.", min=0, max=10_000)
    max_tokens_per_night: int = _opt(
        2_000_000, "Hard cap on tokens per night.", min=0, max=10_000_000_000
    )
    max_wall_minutes: float = _opt(120.0, "Hard cap on a night's wall time.", min=1, max=24 * 60)


@dataclass
class DreamConfig:
    """`[dream]`: how a night replays tasks under candidate edits."""

    rollouts_per_task: int = _opt(3, "K: rollouts per task and document.", min=1, max=50)
    candidates_per_night: int = _opt(3, "Candidate edits proposed per night.", min=1, max=10)
    max_edits: int = _opt(3, "Edit budget: edits per candidate.", min=1, max=50)
    max_edit_chars: int = _opt(800, "Edit budget: characters changed per candidate.", min=20)
    min_tasks: int = _opt(6, "A project needs this many mined tasks for a night.", min=1)
    max_tasks_per_split: int = _opt(24, "Most tasks replayed per split per night.", min=1)
    safety: str = _opt("reject", "What the safety lint does.", choices=("reject", "flag"))
    known_hosts: list[str] = _opt(
        [], "Hosts an edit may name without a flag (and their subdomains); never from transcripts."
    )
    weight_success: float = _opt(1.0, "Score weight of success.", min=0)
    weight_tokens: float = _opt(0.0, "Score weight of token efficiency.", min=0)
    weight_tools: float = _opt(0.0, "Score weight of tool-use correctness.", min=0)
    weight_latency: float = _opt(0.0, "Score weight of latency.", min=0)


@dataclass
class GateConfig:
    """`[gate]`: the statistical test an edit must pass to be staged."""

    alpha: float = _opt(0.05, "One-sided error rate for accepting an edit.", min=0.0001, max=0.5)
    min_tasks: int = _opt(6, "Fewest informative validation tasks to decide.", min=1)
    max_missing_fraction: float = _opt(
        0.2, "Missing rollouts above this make the gate inconclusive.", min=0, max=1
    )
    no_regression: bool = _opt(True, "Block edits that make any task clearly worse.")
    regression_floor: float = _opt(0.25, "Smallest per-task drop counted as regression.", min=0)
    max_looks: int = _opt(3, "Nights an inconclusive candidate is retried.", min=1, max=10)
    calibrate: bool = _opt(
        False, "Also run the document against itself (A/A) to measure the false-accept rate."
    )
    sequential_rounds: int = _opt(
        5,
        "Most rollouts per validation task and arm (sequential stopping may use fewer).",
        min=1,
        max=20,
    )
    auto_adopt: bool = _opt(False, "Adopt without review when evidence clears auto_adopt_alpha.")
    auto_adopt_alpha: float = _opt(0.01, "Stricter error rate for auto-adoption.", min=0, max=0.5)


@dataclass
class MiningConfig:
    """`[mining]`: how episodes are found and clustered into tasks."""

    similarity_threshold: float = _opt(
        0.25, "Cosine similarity for two intents to share a cluster.", min=0.05, max=1
    )
    cross_project: bool = _opt(False, "Cluster intents across projects.")
    mine_automated_sessions: bool = _opt(
        False,
        "Mine tasks from sessions a program started (`claude -p` / the SDK, `codex exec`, "
        "Codex as an MCP server): their prompts are a tool's, not a person's requests.",
    )
    min_recurrence: int = _opt(2, "Episodes for a cluster to count as recurring.", min=2)
    correction_patterns: list[str] = _opt([], "Extra regexes that mark a user correction.")
    approval_patterns: list[str] = _opt([], "Extra regexes that mark explicit approval.")
    model_assisted: bool = _opt(
        False, "Use the miner model for judge specs and for the user turns the rules find hard."
    )
    model_max_turns: int = _opt(
        40, "Most hard user turns the miner model is asked about per mining pass.", min=0
    )
    model_max_usd: float = _opt(
        0.25, "Hard cap on dollars the miner model may spend per mining pass.", min=0, max=1000
    )
    val_fraction: float = _opt(0.25, "Share of clusters in validation.", min=0.05, max=0.5)
    test_fraction: float = _opt(
        0.25, "Share of clusters in the sealed test split.", min=0.05, max=0.5
    )


@dataclass
class WatchConfig:
    """`[watch]`: how live sessions after an adoption are weighed against those before."""

    min_episodes: int = _opt(
        8,
        "Fewest live episodes with a known outcome on each side of an adoption (before, "
        "after) before the watch gives a verdict.",
        min=2,
        max=100000,
    )
    alpha: float = _opt(
        0.05,
        "One-sided level of the watch's exact test (before vs after an adoption).",
        min=0.0001,
        max=0.5,
    )
    window_days: float = _opt(
        30.0, "Live sessions this many days before an adoption form its comparison.", min=1
    )
    auto_rollback: bool = _opt(
        False,
        "Roll back an adoption the watch finds 'looks worse' without asking (never one "
        "adopted from a simulated night); audited.",
    )
    region_budget_chars: int = _opt(
        4000,
        "Size budget of a managed region (characters): a candidate past it is not gated, "
        "and a region over it has its weakest learned rules proposed for deletion.",
        min=200,
        max=1000000,
    )
    prune_rules: bool = _opt(
        True,
        "Let a night measure each learned rule's leave-one-out contribution and propose "
        "deleting rules whose contribution vanished (gated like any edit).",
    )
    max_rules_measured: int = _opt(
        6, "Most learned rules a night measures (least recently measured first).", min=1
    )
    deletion_margin: float = _opt(
        0.1,
        "Non-inferiority margin of a rule deletion: it passes the gate when the document "
        "without the rule is significantly no worse than this (score units).",
        min=0.0,
        max=0.5,
    )


REPLAY_MODES = ("auto", "text", "tools")
AGENT_CHOICES = ("claude", "codex")


@dataclass
class ReplayProject:
    """Per-project override of what mining found (where a task can be replayed)."""

    test_command: str = ""
    repository: str = ""


@dataclass
class ReplayConfig:
    """`[replay]`: how mined tasks are replayed."""

    mode: str = _opt(
        "auto",
        "How tasks are replayed: text (a rehearsal judged in words), tools (the agent's CLI "
        "acts in a scratch checkout, the project's tests judge), auto (tools where repository, "
        "commit and test command are known).",
        choices=REPLAY_MODES,
    )
    agents: list[str] = _opt(
        ["claude", "codex"],
        "Agent CLIs allowed to act in tools mode (claude, codex).",
        choices=AGENT_CHOICES,
    )
    max_turns: int = _opt(30, "Most agent turns per tool rollout (claude --max-turns).", min=1)
    rollout_wall_seconds: float = _opt(
        900.0, "Wall-time cap of one tool rollout (agent run).", min=5, max=7200
    )
    test_timeout_seconds: float = _opt(
        600.0, "Wall-time cap of one run of the project's tests.", min=5, max=7200
    )
    allowed_tools: list[str] = _opt(
        ["Read", "Edit", "MultiEdit", "Write", "Glob", "Grep", "LS", "Bash"],
        "Claude Code tools a replay may use (--allowedTools).",
    )
    disallowed_tools: list[str] = _opt(
        ["WebFetch", "WebSearch"], "Claude Code tools a replay may never use (--disallowedTools)."
    )
    network: str = _opt(
        "off",
        "Network for the agent's tools and the tests: off where the platform allows it.",
        choices=("off", "on"),
    )
    require_isolation: bool = _opt(
        False,
        "Refuse to run an agent in tools mode where its tools' network cannot be cut "
        "(no bubblewrap, network namespaces or sandbox-exec); off runs it with a notice.",
    )
    max_usd_per_rollout: float = _opt(
        0.5,
        "Dollars the budget reserves for one tools-mode rollout; Claude Code stops there "
        "(--max-budget-usd, checked between its turns); Codex has no such switch.",
        min=0.01,
        max=100,
    )
    min_fidelity: float = _opt(
        0.5,
        "A tools-mode task is gated only if replaying it under the original document "
        "reproduces the original outcome at least this often.",
        min=0,
        max=1,
    )
    nice: int = _opt(10, "Scheduling niceness of agents and tests in a replay.", min=0, max=19)
    concurrency: int = _opt(
        1, "Tool rollouts run at once (each is an agent plus tests).", min=1, max=64
    )
    rubric_judge: bool = _opt(
        False,
        "Also ask the judge model whether a tool rollout did the task, from its diff and test "
        "output (fenced); the tests must pass either way.",
    )
    projects: dict[str, ReplayProject] = field(default_factory=dict)


@dataclass
class TargetConfig:
    """`[[targets]]`: one document a project lets sleepd edit."""

    project: str
    path: str
    kind: str = "skill"
    editable: str = "managed_section"


@dataclass
class Config:
    """The whole validated config: every section, with where each value came from."""

    database_url: str = _opt("", "SQLAlchemy URL ('' = SQLite in SLEEPD_HOME).")
    schedule: ScheduleConfig = field(default_factory=ScheduleConfig)
    sources: SourcesConfig = field(default_factory=SourcesConfig)
    harvest: HarvestConfig = field(default_factory=HarvestConfig)
    backends: BackendsConfig = field(default_factory=BackendsConfig)
    roles: dict[str, RoleConfig] = field(default_factory=dict)
    budget: BudgetConfig = field(default_factory=BudgetConfig)
    dream: DreamConfig = field(default_factory=DreamConfig)
    gate: GateConfig = field(default_factory=GateConfig)
    mining: MiningConfig = field(default_factory=MiningConfig)
    replay: ReplayConfig = field(default_factory=ReplayConfig)
    watch: WatchConfig = field(default_factory=WatchConfig)
    targets: list[TargetConfig] = field(default_factory=list)
    prices: dict[str, dict[str, float]] = field(default_factory=dict)
    source_file: Path | None = None
    provenance: dict[str, str] = field(default_factory=dict)

    def role(self, name: str) -> RoleConfig:
        """The backend and model for a pipeline role, falling back to the default backend."""
        configured = self.roles.get(name)
        if configured is None:
            return RoleConfig(backend=self.backends.default, model="")
        if configured.backend == "auto" and self.backends.default != "auto":
            return RoleConfig(backend=self.backends.default, model=configured.model)
        return configured

    def targets_for(self, project: str) -> list[TargetConfig]:
        return [t for t in self.targets if t.project == project]


SECTIONS: dict[str, type] = {
    "schedule": ScheduleConfig,
    "sources": SourcesConfig,
    "harvest": HarvestConfig,
    "backends": BackendsConfig,
    "budget": BudgetConfig,
    "dream": DreamConfig,
    "gate": GateConfig,
    "mining": MiningConfig,
    "replay": ReplayConfig,
    "watch": WatchConfig,
}
ROLE_NAMES = ("miner", "target", "judge", "optimizer")
TARGET_KINDS = ("skill", "agents", "claude")
PRICE_KEYS = ("input", "output", "cache_read", "cache_write", "cache_write_1h")

#: Environment variables that override config keys.
ENV_OVERRIDES = {"database_url": paths.ENV_DATABASE_URL}


class _Fail:
    def __init__(self, file: Path | None, where: str | None = None) -> None:
        self.file = file
        self.where = where

    def __call__(self, key: str, given: Any, allowed: str) -> ConfigError:
        where = self.where or (str(self.file) if self.file else "<defaults>")
        return ConfigError(f"{where}: {key} = {given!r} is not allowed; expected {allowed}")


def _check_value(fail: _Fail, key: str, f: dataclasses.Field[Any], value: Any) -> Any:
    expected = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
    meta = f.metadata
    if expected == "bool":
        if not isinstance(value, bool):
            raise fail(key, value, "true or false")
        return value
    if expected == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(key, value, _range_text("an integer", meta))
    elif expected == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise fail(key, value, _range_text("a number", meta))
        value = float(value)
    elif expected == "str":
        if not isinstance(value, str):
            raise fail(key, value, "a string")
        if "choices" in meta and value not in meta["choices"]:
            raise fail(key, value, "one of " + ", ".join(meta["choices"]))
        if "pattern" in meta and not meta["pattern"].match(value):
            raise fail(key, value, "a time as HH:MM (24 h)")
        if meta.get("timezone") and value != "local":
            _check_timezone(fail, key, value)
        if meta.get("url"):
            _check_http_url(fail, key, value)
        if key == "database_url":
            return check_database_url(fail, key, value)
        return value
    elif expected == "list[str]":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(key, value, "a list of strings")
        bad = [v for v in value if "choices" in meta and v not in meta["choices"]]
        if bad:
            raise fail(key, bad[0], "each one of " + ", ".join(meta["choices"]))
        for pattern in value if key.endswith("_patterns") else ():
            try:
                # as the lexicon joins them, each in a group of its own: a global flag
                # ("(?i)…") is valid alone and not there
                re.compile(f"(?:{pattern})")
            except re.error as exc:
                raise fail(key, pattern, f"a valid regular expression ({exc})") from None
        return value
    if isinstance(value, float) and not math.isfinite(value):
        raise fail(key, value, _range_text("a finite number", meta))
    if "min" in meta and value < meta["min"]:
        raise fail(key, value, _range_text("a value", meta))
    if value > meta.get("max", SANE_MAX):
        raise fail(key, value, _range_text("a value", {"max": SANE_MAX, **meta}))
    return value


def _check_http_url(fail: _Fail, key: str, value: str) -> None:
    """'' or an http(s) URL with a host: a base URL every request and API key goes to."""
    if not value:
        return
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
        host = parts.hostname
    except ValueError:
        host, parts = None, None
    if parts is None or parts.scheme not in ("http", "https") or not host:
        raise fail(key, _masked(value), "an http:// or https:// URL with a host, or ''")


#: SQLAlchemy backends the store supports, and the driver modules each may name.
DATABASE_DRIVERS: dict[str, dict[str, str]] = {
    "sqlite": {"": "sqlite3", "pysqlite": "sqlite3"},
    "postgresql": {
        "": "psycopg",  # sleepd maps postgresql:// to psycopg 3 (`store.urls.driver_url`)
        "psycopg": "psycopg",
        "psycopg2": "psycopg2",
        "pg8000": "pg8000",
    },
}
_DB_URL_RE = re.compile(r"^(?P<backend>[A-Za-z0-9]+)(?:\+(?P<driver>[A-Za-z0-9_]+))?://")


def check_database_url(fail: _Fail, key: str, value: str) -> str:
    """A URL of a supported backend whose driver is installed ('' = SQLite in the home)."""
    if not value:
        return value
    match = _DB_URL_RE.match(value)
    if match is None:
        raise fail(key, _masked(value), "a database URL such as sqlite:///path or postgresql://…")
    backend, driver = match["backend"].lower(), (match["driver"] or "").lower()
    backend = "postgresql" if backend == "postgres" else backend
    drivers = DATABASE_DRIVERS.get(backend)
    if drivers is None:
        raise fail(key, _masked(value), "a URL whose scheme is sqlite or postgresql")
    module = drivers.get(driver)
    if module is None:
        names = ", ".join(f"{backend}+{d}" for d in drivers if d)
        raise fail(key, _masked(value), f"a known driver ({names})")
    import importlib.util

    if importlib.util.find_spec(module) is None:
        if module == "psycopg":
            raise fail(key, _masked(value), "its driver: pip install 'sleepd[postgres]'")
        raise fail(key, _masked(value), f"a driver that is installed (`{module}` is not)")
    if (
        backend == "sqlite"
        and value[match.end() :] not in ("", ":memory:")
        and not value[match.end() :].startswith("/")
    ):
        raise fail(key, _masked(value), "sqlite:///<absolute path> (three slashes)")
    return value


def _masked(value: str) -> str:
    """A URL with its password (and any query string) hidden, for an error line."""
    return re.sub(r"(://[^/:@\s]*:)[^@/\s]*@", r"\1***@", value).split("?")[0]


def _range_text(kind: str, meta: Any) -> str:
    low, high = meta.get("min"), meta.get("max")
    if low is not None and high is not None:
        return f"{kind} from {low} to {high}"
    if low is not None:
        return f"{kind} ≥ {low}"
    if high is not None:
        return f"{kind} ≤ {high}"
    return kind


def _check_timezone(fail: _Fail, key: str, value: str) -> None:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise fail(key, value, "an IANA timezone such as Europe/Berlin, or 'local'") from None


def _fill(fail: _Fail, prefix: str, cls: type, table: Any, provenance: dict[str, str]) -> Any:
    if not isinstance(table, dict):
        raise fail(prefix, table, "a table")
    known = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    if cls is ReplayConfig and "projects" in table:
        table = dict(table)
        values["projects"] = _load_replay_projects(fail, table.pop("projects"), provenance)
    for key, value in table.items():
        full = f"{prefix}.{key}"
        if key not in known:
            raise fail(full, value, "a known key: " + ", ".join(sorted(known)))
        values[key] = _check_value(fail, full, known[key], value)
        provenance[full] = "file"
    return cls(**values)


def load_config(path: Path | None = None) -> Config:
    """Read, validate and merge the config file with defaults and the environment."""
    file = path if path is not None else paths.config_file()
    fail = _Fail(file)
    data: dict[str, Any] = {}
    if file.exists():
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{file}: not valid TOML: {exc}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{file}: cannot read: {exc}") from None
    cfg = Config(source_file=file if file.exists() else None)
    provenance: dict[str, str] = {}
    for key, value in data.items():
        if key in SECTIONS:
            setattr(cfg, key, _fill(fail, key, SECTIONS[key], value, provenance))
        elif key == "database_url":
            db_field = next(f for f in dataclasses.fields(Config) if f.name == "database_url")
            cfg.database_url = _check_value(fail, key, db_field, value)
            provenance[key] = "file"
        elif key == "roles":
            cfg.roles = _load_roles(fail, value, provenance)
        elif key == "targets":
            cfg.targets = _load_targets(fail, value, provenance)
        elif key == "prices":
            cfg.prices = _load_prices(fail, value, provenance)
        else:
            allowed = [*SECTIONS, "database_url", "roles", "targets", "prices"]
            raise fail(key, value, "a known section: " + ", ".join(allowed))
    for key, env in ENV_OVERRIDES.items():
        env_value = os.environ.get(env, "").strip()
        if env_value:
            if key == "database_url":
                check_database_url(_Fail(None, "environment"), env, env_value)
            setattr(cfg, key, env_value)
            provenance[key] = f"env:{env}"
    cfg.provenance = provenance
    return cfg


def _load_replay_projects(
    fail: _Fail, table: Any, provenance: dict[str, str]
) -> dict[str, ReplayProject]:
    """`[replay.projects."/path/to/project"]` with test_command and/or repository."""
    if not isinstance(table, dict):
        raise fail("replay.projects", table, 'a table of projects ([replay.projects."/path"])')
    projects = {}
    for project, entry in table.items():
        key = f"replay.projects.{project}"
        override = _fill(fail, key, ReplayProject, entry, provenance)
        projects[str(Path(project).expanduser())] = override
    return projects


def _load_roles(fail: _Fail, table: Any, provenance: dict[str, str]) -> dict[str, RoleConfig]:
    if not isinstance(table, dict):
        raise fail("roles", table, "a table of roles")
    roles = {}
    for name, value in table.items():
        if name not in ROLE_NAMES:
            raise fail(f"roles.{name}", value, "a role: " + ", ".join(ROLE_NAMES))
        roles[name] = _fill(fail, f"roles.{name}", RoleConfig, value, provenance)
    return roles


def _load_targets(fail: _Fail, items: Any, provenance: dict[str, str]) -> list[TargetConfig]:
    if not isinstance(items, list):
        raise fail("targets", items, "an array of tables ([[targets]])")
    targets = []
    for index, item in enumerate(items):
        key = f"targets[{index}]"
        if not isinstance(item, dict):
            raise fail(key, item, "a table with project, path, kind")
        for required in ("project", "path"):
            if not isinstance(item.get(required), str) or not item[required]:
                raise fail(f"{key}.{required}", item.get(required), "a non-empty path string")
        unknown = set(item) - {"project", "path", "kind", "editable"}
        if unknown:
            raise fail(
                f"{key}.{sorted(unknown)[0]}",
                item[sorted(unknown)[0]],
                "project, path, kind or editable",
            )
        kind = item.get("kind", "skill")
        if kind not in TARGET_KINDS:
            raise fail(f"{key}.kind", kind, "one of " + ", ".join(TARGET_KINDS))
        editable = item.get("editable", "managed_section")
        if editable not in ("managed_section", "body"):
            raise fail(f"{key}.editable", editable, "managed_section or body")
        project = str(Path(item["project"]).expanduser())
        path = Path(item["path"]).expanduser()
        if not path.is_absolute():
            path = Path(project) / path
        targets.append(TargetConfig(project=project, path=str(path), kind=kind, editable=editable))
        provenance[key] = "file"
    return targets


def _load_prices(
    fail: _Fail, table: Any, provenance: dict[str, str]
) -> dict[str, dict[str, float]]:
    if not isinstance(table, dict):
        raise fail("prices", table, "a table of models")
    prices: dict[str, dict[str, float]] = {}
    for model, entry in table.items():
        if not isinstance(entry, dict):
            raise fail(f"prices.{model}", entry, "a table of USD per million tokens")
        clean = {}
        for key, value in entry.items():
            if key not in PRICE_KEYS:
                raise fail(f"prices.{model}.{key}", value, "one of " + ", ".join(PRICE_KEYS))
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or not 0 <= value <= 100_000
            ):
                raise fail(
                    f"prices.{model}.{key}",
                    value,
                    "a finite number from 0 to 100000 (USD per Mtok)",
                )
            clean[key] = float(value)
        prices[model] = clean
        provenance[f"prices.{model}"] = "file"
    return prices


def effective_items(cfg: Config) -> list[tuple[str, Any, str, str]]:
    """(key, value, origin, doc) for every documented key, for `config show`."""
    rows: list[tuple[str, Any, str, str]] = []
    for f in dataclasses.fields(Config):
        if f.name == "database_url":
            rows.append(
                (f.name, cfg.database_url, cfg.provenance.get(f.name, "default"), f.metadata["doc"])
            )
    for section, cls in SECTIONS.items():
        obj = getattr(cfg, section)
        for f in dataclasses.fields(cls):
            key = f"{section}.{f.name}"
            rows.append(
                (
                    key,
                    getattr(obj, f.name),
                    cfg.provenance.get(key, "default"),
                    f.metadata.get("doc", ""),
                )
            )
    for role in ROLE_NAMES:
        rc = cfg.role(role)
        origin = "file" if role in cfg.roles else "default"
        rows.append((f"roles.{role}.backend", rc.backend, origin, f"Backend for the {role} role."))
        rows.append((f"roles.{role}.model", rc.model, origin, f"Model for the {role} role."))
    for index, target in enumerate(cfg.targets):
        rows.append((f"targets[{index}]", dataclasses.asdict(target), "file", "A target document."))
    for model, price in cfg.prices.items():
        rows.append((f"prices.{model}", price, "file", "Price override (USD per Mtok)."))
    return rows
