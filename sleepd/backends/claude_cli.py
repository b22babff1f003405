"""Claude Code as a backend: `claude -p --output-format json`, isolated per call.

Users already have it authenticated, which makes it the most natural default.
Flags: `--no-session-persistence` (no transcript saved), `--tools ""` (no tools
unless `metadata["tools"]` asks), `--model`, and the skill document via
`--append-system-prompt` for the target role (a replay keeps Claude Code's own
system prompt) or `--system-prompt` for miner/judge/optimizer. The prompt goes
on stdin, so it never shows in `ps` and has no argv length limit.
"""

from __future__ import annotations

from typing import Any

import orjson

from sleepd.backends.base import (
    FailureKind,
    ModelRequest,
    ModelResponse,
    json_output_problem,
)
from sleepd.backends.cli_base import CliBackend
from sleepd.backends.pricing import Usage
from sleepd.backends.subproc import (
    ProcResult,
    classify_cli_text,
    schema_instruction,
)

DEFAULT_MODEL = "claude-sonnet-4-6"


def flatten_messages(request: ModelRequest) -> str:
    """A CLI takes one prompt: earlier turns become a labelled transcript."""
    if len(request.messages) == 1:
        return request.messages[0].content
    return "\n\n".join(f"[{m.role}]\n{m.content}" for m in request.messages)


class ClaudeCliBackend(CliBackend):
    name = "claude-cli"
    fallback_model = DEFAULT_MODEL
    default_executable = "claude"

    def argv(self, request: ModelRequest) -> list[str]:
        argv = [self.executable, "-p", "--output-format", "json", "--no-session-persistence"]
        tools = request.metadata.get("tools")
        if tools:
            argv += ["--allowedTools", ",".join(tools) if isinstance(tools, list) else str(tools)]
        else:
            argv += ["--tools", ""]
        model = request.model or self.default_model
        if model:
            argv += ["--model", model]
        if system := request.system_text():
            flag = "--append-system-prompt" if request.role == "target" else "--system-prompt"
            argv += [flag, system]
        return argv

    def complete(self, request: ModelRequest) -> ModelResponse:
        prompt = flatten_messages(request) + schema_instruction(request.json_schema)
        model = self.model_for(request)
        return self.call(self.argv(request), prompt, request, model)

    def parse(self, result: ProcResult, request: ModelRequest, model: str) -> ModelResponse:
        def failed(kind: FailureKind, detail: str) -> ModelResponse:
            return ModelResponse.failed(
                kind, detail, backend=self.name, model=model, latency_s=result.latency_s
            )

        if result.timed_out:
            return failed(FailureKind.TIMEOUT, f"claude timed out after {self.timeout_s:.0f}s")
        data = _parse_json_object(result.stdout)
        if data is None:
            if result.returncode:
                detail = f"exit {result.returncode}: {(result.stderr or result.stdout).strip()}"
                return failed(classify_cli_text(detail), detail[:300])
            return failed(FailureKind.BAD_OUTPUT, f"not JSON: {result.stdout[:200]!r}")
        text = str(data.get("result") or "")
        if data.get("is_error") or result.returncode:
            detail = f"exit {result.returncode}: {data.get('subtype', '')} {text}".strip()
            return failed(classify_cli_text(detail), detail[:300])
        usage_raw = data.get("usage") or {}
        usage = Usage(
            input_tokens=int(usage_raw.get("input_tokens") or 0),
            output_tokens=int(usage_raw.get("output_tokens") or 0),
            cache_read_tokens=int(usage_raw.get("cache_read_input_tokens") or 0),
            cache_write_tokens=int(usage_raw.get("cache_creation_input_tokens") or 0),
        )
        reported = data.get("total_cost_usd")
        cost = float(reported) if reported is not None else self.prices.cost(model, usage)
        problem = json_output_problem(text, request.json_schema)
        return ModelResponse.measured(
            usage,
            text=text,
            backend=self.name,
            model=_model_used(data) or model,
            cost_usd=cost,
            latency_s=result.latency_s,
            failure=FailureKind.BAD_OUTPUT if problem else None,
            failure_detail=problem or "",
            raw_id=data.get("session_id"),
        )


def _parse_json_object(stdout: str) -> dict[str, Any] | None:
    """The result object; tolerates log lines before it."""
    for candidate in (stdout.strip(), *reversed(stdout.strip().splitlines())):
        try:
            value = orjson.loads(candidate)
        except orjson.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _model_used(data: dict[str, Any]) -> str | None:
    usage = data.get("modelUsage")
    if isinstance(usage, dict) and len(usage) == 1:
        return str(next(iter(usage)))
    return None
