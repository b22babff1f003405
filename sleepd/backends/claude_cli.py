"""Claude Code as a backend: `claude -p --output-format json`, isolated per call.

Users already have it authenticated, which makes it the most natural default.
Flags: `--no-session-persistence` (no transcript saved), `--tools ""` (no tools
unless `metadata["tools"]` asks), `--model`, and the skill document via
`--append-system-prompt` for the target role (a replay keeps Claude Code's own
system prompt) or `--system-prompt` for miner/judge/optimizer. The prompt goes
on stdin, so it never shows in `ps` and has no argv length limit.

`act` is the tools-mode replay: Claude Code works in a scratch checkout with a bounded
tool set (`--allowedTools`/`--disallowedTools`, `--permission-mode acceptEdits`), a
turn cap (`--max-turns`) and no session persistence, and reports every step as
`--output-format stream-json` (which needs `--verbose` with `-p`). It reads the skill
document where it would for the user: `.claude/skills/<name>/SKILL.md` or `CLAUDE.md`.
Its tool commands run with the network cut where the platform allows (see
`agent_act.tool_network_env`), and `--max-budget-usd` stops it at the dollars the night
reserved for the rollout.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

import orjson

from sleepd.backends.agent_act import (
    NO_ISOLATION,
    ActDetail,
    ActRequest,
    nice_prefix,
    not_started,
    offline_prefix,
    run_in_dir,
    tool_network_env,
)
from sleepd.backends.base import (
    FailureKind,
    ModelRequest,
    ModelResponse,
    json_output_problem,
    ran_without_report,
)
from sleepd.backends.cli_base import CliBackend
from sleepd.backends.pricing import (
    Usage,
    report_fields,
    reported_count,
    reported_model,
    reported_text,
    reported_usd,
)
from sleepd.backends.subproc import (
    ProcResult,
    classify_cli_text,
    schema_instruction,
)

DEFAULT_MODEL = "claude-sonnet-4-6"
#: Claude Code tools that reach the network from inside the agent process.
WEB_TOOLS = ("WebFetch", "WebSearch")


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
        text = reported_text(data.get("result"))
        if data.get("is_error") or result.returncode:
            subtype = reported_text(data.get("subtype"))
            detail = f"exit {result.returncode}: {subtype} {text}".strip()
            return failed(classify_cli_text(detail), detail[:300])
        usage = _usage(data)
        reported = reported_usd(data.get("total_cost_usd"))
        cost = reported if reported is not None else self.prices.cost(model, usage)
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
            raw_id=reported_text(data.get("session_id")) or None,
        )

    def act_argv(self, request: ActRequest) -> list[str]:
        argv = [
            self.executable, "-p", "--output-format", "stream-json", "--verbose",
            "--no-session-persistence", "--max-turns", str(request.max_turns),
            "--permission-mode", "acceptEdits",
        ]  # fmt: skip
        if request.allowed_tools:
            argv += ["--allowedTools", ",".join(request.allowed_tools)]
        disallowed = list(request.disallowed_tools)
        if not request.network:  # in-process web tools would bypass the shell prefix
            disallowed += [t for t in WEB_TOOLS if t not in disallowed]
        if disallowed:
            argv += ["--disallowedTools", ",".join(disallowed)]
        if request.max_usd is not None:
            argv += ["--max-budget-usd", f"{request.max_usd:.4f}"]
        if model := request.model or self.default_model:
            argv += ["--model", model]
        return argv

    def act(self, request: ActRequest) -> tuple[ModelResponse, ActDetail]:
        """Let Claude Code act in `request.workdir`; the tests judge what it leaves.

        With the network off, its tool commands run through the offline shell prefix
        (see `agent_act`); the claude process itself keeps the network for its API.
        """
        model = request.model or self.default_model or self.fallback_model
        if shutil.which(self.executable) is None:  # `nice` would hide the missing CLI
            reason = f"cannot run {self.executable}: not found on PATH"
            return not_started(self.name, model, reason, self.isolation(request))
        env: dict[str, str] | None = None
        if not request.network:
            extra, _label = tool_network_env(request.workdir, request.workdir.parent)
            if not extra and request.require_isolation:
                reason = (
                    "the tools' network cannot be cut on this platform and "
                    "replay.require_isolation is on"
                )
                return not_started(self.name, model, reason, self.isolation(request))
            env = {**os.environ, **extra}
        argv = [*nice_prefix(request.nice), *self.act_argv(request)]
        try:
            proc = run_in_dir(
                argv,
                cwd=request.workdir,
                stdin_text=request.prompt,
                timeout_s=request.wall_s,
                env=env,
            )
        except OSError as exc:
            reason = f"cannot run {self.executable}: {exc}"
            return not_started(self.name, model, reason, self.isolation(request))
        response, detail = parse_stream(
            proc.stdout, proc.stderr, proc.returncode, self, model, proc
        )
        detail.isolation = self.isolation(request)
        return ran_without_report(response), detail

    def isolation(self, request: ActRequest) -> str:
        bounds = (
            "Claude Code permission set (" + ",".join(request.allowed_tools) + "), "
            f"{request.max_turns} turns, scratch checkout"
        )
        if request.network:
            return f"{bounds}; network on for its tools (replay.network = on)"
        _prefix, label = offline_prefix(request.workdir)
        if label == NO_ISOLATION:
            return f"{bounds}; NETWORK NOT CUT for its tools: {label}; " + (
                "refused (replay.require_isolation)"
                if request.require_isolation
                else "runs anyway (replay.require_isolation = true refuses)"
            )
        return (
            f"{bounds}; tool commands network off ({label}), web tools disallowed;"
            " the agent's own API calls keep the network"
        )


def parse_stream(
    stdout: str,
    stderr: str,
    returncode: int | None,
    backend: ClaudeCliBackend,
    model: str,
    proc: object,
) -> tuple[ModelResponse, ActDetail]:
    """Read a `stream-json` run: tool_use blocks, the result line, usage and cost."""
    wall = float(getattr(proc, "wall_s", 0.0))
    detail = ActDetail(
        cpu_s=float(getattr(proc, "cpu_s", 0.0)),
        timed_out=bool(getattr(proc, "timed_out", False)),
        returncode=returncode,
    )
    result: dict[str, Any] | None = None
    last_text = ""
    for line in stdout.splitlines():
        try:
            event = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if not isinstance(event, dict):
            continue
        if event.get("type") == "assistant":
            message = event.get("message") or {}
            content = message.get("content") if isinstance(message, dict) else None
            for block in content if isinstance(content, list) else []:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_use":
                    name = str(block.get("name") or "?")[:64]
                    detail.tool_calls += 1
                    detail.tools[name] = detail.tools.get(name, 0) + 1
                elif block.get("type") == "text" and block.get("text"):
                    last_text = str(block["text"])
        elif event.get("type") == "result":
            result = event
    if detail.timed_out:
        response = ModelResponse.failed(
            FailureKind.TIMEOUT,
            f"claude ran past the rollout's {wall:.0f}s cap",
            backend=backend.name,
            model=model,
            latency_s=wall,
        )
        return response, detail
    if result is None:
        text = (stderr or stdout).strip()[:300]
        kind = classify_cli_text(text) if returncode else FailureKind.BAD_OUTPUT
        return ModelResponse.failed(
            kind, f"exit {returncode}: {text}", backend=backend.name, model=model, latency_s=wall
        ), detail
    detail.turns = reported_count(result.get("num_turns"))
    subtype = reported_text(result.get("subtype"))
    detail.stopped_by_turn_cap = subtype == "error_max_turns"
    if result.get("is_error") and not detail.stopped_by_turn_cap:
        text = f"{subtype} {reported_text(result.get('result'))}".strip()
        return ModelResponse.failed(
            classify_cli_text(text), text[:300], backend=backend.name, model=model, latency_s=wall
        ), detail
    usage = _usage(result)
    reported = reported_usd(result.get("total_cost_usd"))
    cost = reported if reported is not None else backend.prices.cost(model, usage)
    response = ModelResponse.measured(
        usage,
        text=reported_text(result.get("result")) or last_text,
        backend=backend.name,
        model=_model_used(result) or model,
        cost_usd=cost,
        latency_s=wall,
        raw_id=reported_text(result.get("session_id")) or None,
    )
    return response, detail


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


def _usage(data: dict[str, Any]) -> Usage:
    raw = report_fields(data.get("usage"))
    return Usage(
        input_tokens=reported_count(raw.get("input_tokens")),
        output_tokens=reported_count(raw.get("output_tokens")),
        cache_read_tokens=reported_count(raw.get("cache_read_input_tokens")),
        cache_write_tokens=reported_count(raw.get("cache_creation_input_tokens")),
    )


def _model_used(data: dict[str, Any]) -> str | None:
    usage = data.get("modelUsage")
    if isinstance(usage, dict) and len(usage) == 1:
        return reported_model(next(iter(usage)))
    return None
