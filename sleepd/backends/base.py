"""The one interface every model call of the pipeline goes through.

Backends differ (HTTP SDKs, CLI subprocesses, the simulator) but the pipeline
sees only `ModelRequest` in and `ModelResponse` out. Provider errors become a
`FailureKind` on the response instead of an exception: a failed rollout is
*missing data*, never a score of zero.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from sleepd.errors import SleepdError

if TYPE_CHECKING:  # pricing imports this module
    from sleepd.backends.pricing import Usage

Role = Literal["miner", "target", "judge", "optimizer"]
ROLES: tuple[Role, ...] = ("miner", "target", "judge", "optimizer")

#: Conservative characters-per-token for estimates without a tokenizer: code and
#: prose average ~3.5-4, so 3 over-estimates and keeps budgets on the safe side.
CHARS_PER_TOKEN = 3
MESSAGE_OVERHEAD_TOKENS = 4


class FailureKind(enum.StrEnum):
    """Why a call produced no usable answer."""

    TIMEOUT = "timeout"
    RATE_LIMIT = "rate_limit"
    AUTH = "auth"
    SERVER_ERROR = "server_error"
    REFUSAL = "refusal"
    BAD_OUTPUT = "bad_output"
    BUDGET = "budget"
    CANCELLED = "cancelled"
    NOT_AVAILABLE = "not_available"


class BackendError(SleepdError):
    """A batch operation (submit/poll/collect) could not be carried out."""

    def __init__(self, kind: FailureKind, detail: str) -> None:
        super().__init__(f"{kind.value}: {detail}")
        self.kind = kind
        self.detail = detail


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One turn; its text is redacted when the message is built (see `outbound`)."""

    role: Literal["user", "assistant"]
    content: str

    def __post_init__(self) -> None:
        from sleepd.backends.outbound import scrub_text

        object.__setattr__(self, "content", scrub_text(self.content))


@dataclass(frozen=True, slots=True)
class ModelRequest:
    """One model call; `cache_prefix` is the long shared prefix (the skill document)."""

    messages: Sequence[ChatMessage]
    system: str | None = None
    model: str | None = None
    max_tokens: int = 1024
    temperature: float | None = None
    role: Role = "target"
    json_schema: Mapping[str, Any] | None = None
    cache_prefix: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """The outbound chokepoint: every text a backend can send is redacted here.

        Messages redact themselves (`ChatMessage`); plain strings given as messages are
        refused rather than sent unredacted. Metadata strings are redacted too: batch
        entries send `custom_id`, CLIs turn `tools` into argv.
        """
        from sleepd.backends.outbound import scrub_optional, scrub_value

        if not all(isinstance(m, ChatMessage) for m in self.messages):
            raise TypeError("ModelRequest.messages must be ChatMessage objects")
        object.__setattr__(self, "system", scrub_optional(self.system))
        object.__setattr__(self, "cache_prefix", scrub_optional(self.cache_prefix))
        object.__setattr__(self, "metadata", scrub_value(dict(self.metadata)))

    def last_user_text(self) -> str:
        for message in reversed(self.messages):
            if message.role == "user":
                return message.content
        return ""

    def prompt_chars(self) -> int:
        total = len(self.system or "") + len(self.cache_prefix or "")
        return total + sum(len(m.content) for m in self.messages)

    def system_text(self) -> str:
        """Cache prefix then system prompt, as one text (for backends without blocks)."""
        parts = [p for p in (self.cache_prefix, self.system) if p]
        return "\n\n".join(parts)


@dataclass(frozen=True, slots=True)
class ModelResponse:
    """What came back; `input_tokens` counts uncached input only (cache reads apart)."""

    text: str
    backend: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    simulated: bool = False
    failure: FailureKind | None = None
    failure_detail: str = ""
    raw_id: str | None = None
    #: Seconds the provider asked us to wait (rate limits), when it said so.
    retry_after_s: float | None = None
    #: Requests of this call that reached the provider, which may have billed each,
    #: with no usage reported: an answer that could not be read, a CLI run that ended
    #: without its report (1), a timeout after the SDK's own retries (each try). The
    #: budget charges the call's reservation, its worst case, once for each.
    unreported_requests: int = 0

    @classmethod
    def measured(cls, usage: Usage, **fields: Any) -> ModelResponse:
        """A response whose token figures are a provider's usage report."""
        return cls(
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            cache_read_tokens=usage.cache_read_tokens,
            cache_write_tokens=usage.cache_write_tokens,
            **fields,
        )

    @property
    def ok(self) -> bool:
        return self.failure is None

    @property
    def bill_unknown(self) -> bool:
        """The provider may have billed this call, and nobody said for how much."""
        return self.unreported_requests > 0

    @property
    def total_tokens(self) -> int:
        return (
            self.input_tokens
            + self.output_tokens
            + self.cache_read_tokens
            + self.cache_write_tokens
        )

    @classmethod
    def failed(
        cls,
        kind: FailureKind,
        detail: str,
        *,
        backend: str,
        model: str,
        simulated: bool = False,
        latency_s: float = 0.0,
        retry_after_s: float | None = None,
        unreported_requests: int = 0,
    ) -> ModelResponse:
        return cls(
            text="",
            backend=backend,
            model=model,
            simulated=simulated,
            failure=kind,
            failure_detail=detail[:500],
            latency_s=latency_s,
            retry_after_s=retry_after_s,
            unreported_requests=unreported_requests,
        )


@dataclass(frozen=True, slots=True)
class Estimate:
    """Upper-bound usage of one call (output counted at the full `max_tokens`)."""

    input_tokens: int
    output_tokens: int
    cost_usd: float
    price_known: bool = True

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


BatchState = Literal["in_progress", "ended", "failed", "cancelled", "expired"]


@dataclass(frozen=True, slots=True)
class BatchStatus:
    batch_id: str
    state: BatchState
    total: int = 0
    succeeded: int = 0
    failed: int = 0
    detail: str = ""

    @property
    def done(self) -> bool:
        return self.state != "in_progress"


@runtime_checkable
class Backend(Protocol):
    name: str
    simulated: bool

    def complete(self, request: ModelRequest) -> ModelResponse:
        """Never raises for provider errors: maps them to `FailureKind`."""
        ...

    def estimate(self, request: ModelRequest) -> Estimate: ...


@runtime_checkable
class BatchBackend(Backend, Protocol):
    """Optional capability: provider batches, resumable from the batch id alone."""

    def submit_batch(self, requests: Sequence[ModelRequest]) -> str: ...

    def poll_batch(self, batch_id: str) -> BatchStatus: ...

    def collect_batch(self, batch_id: str) -> dict[str, ModelResponse]: ...


def supports_batch(backend: Backend) -> bool:
    return isinstance(backend, BatchBackend)


def custom_ids(requests: Sequence[ModelRequest]) -> list[str]:
    """`metadata["custom_id"]` when given, else the position; must be unique."""
    ids = [str(r.metadata.get("custom_id", f"req-{i}")) for i, r in enumerate(requests)]
    if len(set(ids)) != len(ids):
        raise ValueError("batch requests need unique metadata['custom_id'] values")
    return ids


#: What reading a provider's answer raises when the answer is not the shape the SDK
#: documents (an HTML page from a proxy sent as 200, a truncated body, a field of
#: another type: the SDKs build response objects without validating them).
UNREADABLE_ANSWER = (AttributeError, KeyError, TypeError, ValueError)


def unreadable_answer(exc: Exception, *, backend: str, model: str) -> ModelResponse:
    """A failed response for an answer that could not be read (`UNREADABLE_ANSWER`): one
    clear line instead of an exception that would stop the night."""
    detail = f"the provider's answer could not be read ({type(exc).__name__}: {exc})"
    return ModelResponse.failed(
        FailureKind.BAD_OUTPUT, detail[:300], backend=backend, model=model, unreported_requests=1
    )


def ran_without_report(response: ModelResponse) -> ModelResponse:
    """A CLI run's response, its one request counted as unreported
    (`unreported_requests`) when the run ended without a usage report after it may have
    called the model: it ran past its time, or printed no answer the backend could read
    (a CLI that could not start, or that reported an error of its own, such as a refused
    login, keeps its reported figures)."""
    unread = response.failure in (FailureKind.TIMEOUT, FailureKind.BAD_OUTPUT)
    if unread and response.total_tokens == 0 and response.cost_usd == 0:
        return replace(response, unreported_requests=1)
    return response


def heuristic_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def heuristic_input_tokens(request: ModelRequest) -> int:
    overhead = MESSAGE_OVERHEAD_TOKENS * (len(request.messages) + 1)
    return math.ceil(request.prompt_chars() / CHARS_PER_TOKEN) + overhead


def json_output_problem(text: str, schema: Mapping[str, Any] | None) -> str | None:
    """A reason when a structured-output call did not return a JSON object."""
    if schema is None:
        return None
    import orjson

    try:
        value = orjson.loads(extract_json_text(text))
    except orjson.JSONDecodeError as exc:
        return f"output is not JSON: {exc}"
    if not isinstance(value, dict):
        return "output JSON is not an object"
    return None


def extract_json_text(text: str) -> str:
    """Strip a ```json fence a model may wrap around its JSON answer."""
    stripped = text.strip()
    if stripped.startswith("```"):
        lines = stripped.splitlines()
        if len(lines) >= 2 and lines[-1].strip() == "```":
            return "\n".join(lines[1:-1])
    return stripped
