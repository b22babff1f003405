"""A deterministic simulated world: a TEST DOUBLE, never a model.

Task families each carry a hidden requirement (a rule the skill document must
state for the simulated target to succeed more often), the keywords that
identify the family from a task intent, and a conflicting rule that hurts it.
The demo, the tests and the learning benchmark all run on this world.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

SIM_MARKER = "[simulated]"


@dataclass(frozen=True, slots=True)
class Family:
    name: str
    keywords: tuple[str, ...]
    requirement: str
    #: Lower-case phrase whose presence in a document means the requirement is stated.
    key_phrase: str
    harmful_rule: str
    harmful_phrase: str
    subjects: tuple[str, ...]

    def states_requirement(self, document: str) -> bool:
        return self.key_phrase in document.lower()

    def states_harm(self, document: str) -> bool:
        return self.harmful_phrase in document.lower()


CATALOGUE: tuple[Family, ...] = (
    Family(
        "python-tests",
        ("pytest", "failing test", "unit test"),
        "Run the test suite with `pytest -q` before declaring a task done.",
        "pytest -q",
        "Declare the task done as soon as the code compiles.",
        "as soon as the code compiles",
        ("the parser", "the cache layer", "the CLI", "date handling"),
    ),
    Family(
        "db-migrations",
        ("migration", "alembic", "schema change"),
        "Generate database migrations with `alembic revision --autogenerate` and review them.",
        "alembic revision --autogenerate",
        "Edit schema SQL files by hand and apply them directly.",
        "apply them directly",
        ("the users table", "the orders model", "an index", "a column"),
    ),
    Family(
        "lint-format",
        ("lint", "ruff", "formatting"),
        "Run `ruff check --fix` and `ruff format` after editing Python files.",
        "ruff check --fix",
        "Leave formatting of touched files to the reviewer.",
        "formatting of touched files",
        ("the service module", "the models", "the test helpers", "the scripts"),
    ),
    Family(
        "dependencies",
        ("dependency", "upgrade", "package version"),
        "Pin new dependencies in `pyproject.toml` with an upper bound.",
        "upper bound",
        "Let the resolver pick the newest version of every dependency.",
        "newest version of every",
        ("requests", "numpy", "the HTTP client", "the ORM"),
    ),
    Family(
        "git-workflow",
        ("commit", "branch", "rebase"),
        "Never commit directly to `main`; create a feature branch first.",
        "feature branch",
        "Commit small fixes straight to the current branch.",
        "straight to the current branch",
        ("the release fix", "the refactor", "the hotfix", "the docs change"),
    ),
    Family(
        "docs",
        ("readme", "docstring", "documentation"),
        "Update the README usage section whenever a CLI flag changes.",
        "readme usage section",
        "Keep documentation changes out of code pull requests.",
        "documentation changes out",
        ("the install steps", "the config options", "the API", "the changelog"),
    ),
    Family(
        "frontend",
        ("react", "component", "typescript"),
        "Run `npm run typecheck` after changing TypeScript components.",
        "npm run typecheck",
        "Type props loosely when the compiler complains.",
        "type props loosely",
        ("the navbar", "the settings page", "the modal", "the table view"),
    ),
    Family(
        "http-api",
        ("endpoint", "route", "http handler"),
        "Add a request validation schema for every new HTTP endpoint.",
        "request validation schema",
        "Return HTTP 200 with an error message instead of raising.",
        "http 200 with an error",
        ("/users", "/orders", "/health", "/login"),
    ),
    Family(
        "logging",
        ("logging", "log message", "traceback"),
        "Use structured logging with `logger.info(..., extra=...)`, never print().",
        "structured logging",
        "Use print() for debugging output and leave it in.",
        "leave it in",
        ("the worker", "the scheduler", "the importer", "the webhook"),
    ),
    Family(
        "performance",
        ("slow", "performance", "profiling"),
        "Profile with `py-spy` before optimizing anything.",
        "py-spy",
        "Optimize by caching results in global variables.",
        "caching results in global",
        ("the report job", "the search", "the export", "the startup"),
    ),
)

_VERBS = ("Fix", "Investigate", "Update", "Clean up", "Extend")


def _synthetic_family(index: int) -> Family:
    token = f"widget{index}"
    return Family(
        f"family-{index}",
        (token,),
        f"Run `check-{index}` before finishing any {token} work.",
        f"run `check-{index}` before",
        f"Treat `check-{index}` as optional for {token} code.",
        f"`check-{index}` as optional",
        (f"{token} core", f"{token} api", f"{token} io", f"{token} ui"),
    )


def family_for_intent(text: str, families: Sequence[Family] = CATALOGUE) -> Family | None:
    """The family whose keywords occur most often in `text` (first wins a tie)."""
    lowered = text.lower()
    best: Family | None = None
    best_hits = 0
    for family in families:
        hits = sum(lowered.count(k) for k in family.keywords)
        if hits > best_hits:
            best, best_hits = family, hits
    return best


def unit_noise(*parts: object) -> float:
    """A uniform draw in [0, 1) fixed by its parts (no global random state)."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def document_sha(document: str) -> str:
    return hashlib.sha256(document.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SimTask:
    intent: str
    family: str


class SimWorld:
    """Families, their hidden requirements, and the target's success model."""

    def __init__(
        self,
        seed: int = 0,
        n_families: int = 6,
        *,
        base_rate: float = 0.35,
        base_jitter: float = 0.1,
        lift: float = 0.4,
        penalty: float = 0.3,
        family_names: Sequence[str] | None = None,
    ) -> None:
        """`family_names` picks catalogue families by name (e.g. to match sample transcripts)."""
        if n_families < 1:
            raise ValueError("n_families must be at least 1")
        self.seed = seed
        self.lift = lift
        self.penalty = penalty
        rng = random.Random(f"sim-world-{seed}")
        pool = list(CATALOGUE)
        rng.shuffle(pool)
        if family_names is not None:
            by_name = {f.name: f for f in CATALOGUE}
            unknown = [n for n in family_names if n not in by_name]
            if unknown:
                raise ValueError(f"unknown simulated families: {', '.join(unknown)}")
            pool = [by_name[n] for n in family_names]
            n_families = len(pool)
        extra = [_synthetic_family(i) for i in range(len(pool) + 1, n_families + 1)]
        self.families: tuple[Family, ...] = tuple((pool + extra)[:n_families])
        self.base_rates: dict[str, float] = {
            f.name: min(0.9, max(0.05, base_rate + rng.uniform(-base_jitter, base_jitter)))
            for f in self.families
        }

    def family(self, name: str) -> Family:
        for family in self.families:
            if family.name == name:
                return family
        raise KeyError(name)

    def family_for_intent(self, text: str) -> Family | None:
        return family_for_intent(text, self.families)

    def success_probability(self, intent: str, document: str) -> float:
        family = self.family_for_intent(intent)
        if family is None:
            return 0.5
        p = self.base_rates[family.name]
        if family.states_requirement(document):
            p += self.lift
        if family.states_harm(document):
            p -= self.penalty
        return min(0.98, max(0.02, p))

    def rollout_succeeds(self, intent: str, document: str, rollout: int) -> bool:
        draw = unit_noise(self.seed, intent, rollout, document_sha(document))
        return draw < self.success_probability(intent, document)

    def make_tasks(self, n: int, split_seed: int = 0) -> list[SimTask]:
        """`n` task intents spread over the families; fixed by (world seed, split seed)."""
        rng = random.Random(f"sim-tasks-{self.seed}-{split_seed}")
        tasks: list[SimTask] = []
        for i in range(n):
            family = self.families[i % len(self.families)]
            keyword = rng.choice(family.keywords)
            subject = rng.choice(family.subjects)
            verb = rng.choice(_VERBS)
            intent = f"{verb} the {keyword} problem in {subject} (ticket {split_seed}-{i})"
            tasks.append(SimTask(intent=intent, family=family.name))
        return tasks
