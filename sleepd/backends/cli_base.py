"""What the `claude` and `codex` CLI backends share: settings, the isolated run, estimates."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from sleepd.backends.base import (
    Estimate,
    FailureKind,
    ModelRequest,
    ModelResponse,
    ran_without_report,
)
from sleepd.backends.pricing import CLI_OWN_PROMPT_TOKENS, PriceTable, input_token_bound
from sleepd.backends.subproc import ProcResult, run_isolated


class CliBackend(ABC):
    """A model reached through an agent CLI run as an isolated subprocess."""

    name: str
    simulated = False
    #: The model priced when neither the request nor the settings name one.
    fallback_model: str
    default_executable: str

    def __init__(
        self,
        *,
        executable: str | None = None,
        model: str | None = None,
        timeout_s: float = 600.0,
        prices: PriceTable | None = None,
    ) -> None:
        self.executable = executable or self.default_executable
        self.default_model = model
        self.timeout_s = timeout_s
        self.prices = prices or PriceTable()

    def model_for(self, request: ModelRequest) -> str:
        return request.model or self.default_model or self.fallback_model

    def call(
        self, argv: Sequence[str], stdin_text: str | None, request: ModelRequest, model: str
    ) -> ModelResponse:
        """Run the CLI isolated and parse its output; a CLI that cannot start is `not_available`."""
        try:
            result = run_isolated(argv, stdin_text=stdin_text, timeout_s=self.timeout_s)
        except OSError as exc:
            return ModelResponse.failed(
                FailureKind.NOT_AVAILABLE,
                f"cannot run {self.executable}: {exc}",
                backend=self.name,
                model=model,
            )
        return ran_without_report(self.parse(result, request, model))

    @abstractmethod
    def parse(self, result: ProcResult, request: ModelRequest, model: str) -> ModelResponse:
        """Each CLI reports in its own format."""

    def estimate(self, request: ModelRequest) -> Estimate:
        model = self.model_for(request)
        input_tokens = input_token_bound(request) + CLI_OWN_PROMPT_TOKENS
        return self.prices.estimate(model, input_tokens, request.max_tokens)
