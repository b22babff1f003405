"""Model backends: one interface for every model call (anthropic, openai, CLIs, simulator).

Import concrete backends from their modules (they load SDKs); this package root
stays light so the CLI starts fast.
"""

from sleepd.backends.base import (
    ROLES,
    Backend,
    BackendError,
    BatchBackend,
    BatchStatus,
    ChatMessage,
    Estimate,
    FailureKind,
    ModelRequest,
    ModelResponse,
    Role,
    supports_batch,
)

__all__ = [
    "ROLES",
    "Backend",
    "BackendError",
    "BatchBackend",
    "BatchStatus",
    "ChatMessage",
    "Estimate",
    "FailureKind",
    "ModelRequest",
    "ModelResponse",
    "Role",
    "supports_batch",
]
