"""Codex as a backend: `codex exec --json --ephemeral --sandbox read-only`.

stdin is closed (codex would otherwise wait to read a prompt from it), the run
is isolated like the claude CLI, and the JSONL event stream is parsed:
`item.completed` with an `agent_message` item carries the answer,
`turn.completed` the usage, `turn.failed` / `error` the failure. The CLI
reports tokens only, so cost comes from the price table.

`act` is the tools-mode replay: `codex exec --sandbox workspace-write -C <checkout>`,
still `--ephemeral` (no session files) and `--json`, with the sandbox's network switch
(`-c sandbox_workspace_write.network_access=false`) off unless the config allows it.
Codex reads `AGENTS.md` from the checkout, as it would for the user. Codex has no
turn-cap flag: the rollout's wall-time cap bounds it.
"""

from __future__ import annotations

import shutil
from typing import Any

import orjson

from sleepd.backends.agent_act import (
    ActDetail,
    ActRequest,
    nice_prefix,
    not_started,
    run_in_dir,
)
from sleepd.backends.base import (
    FailureKind,
    ModelRequest,
    ModelResponse,
    json_output_problem,
    ran_without_report,
)
from sleepd.backends.claude_cli import flatten_messages
from sleepd.backends.cli_base import CliBackend
from sleepd.backends.pricing import Usage, report_fields, reported_count, reported_text
from sleepd.backends.subproc import ProcResult, classify_cli_text, schema_instruction

#: Pricing assumption when no model is configured (the CLI then uses its own default).
DEFAULT_MODEL = "gpt-5"
#: Linux caps one argv string at 128 KiB; leave room.
MAX_PROMPT_BYTES = 120_000


class CodexCliBackend(CliBackend):
    name = "codex-cli"
    fallback_model = DEFAULT_MODEL
    default_executable = "codex"

    def prompt(self, request: ModelRequest) -> str:
        """codex exec has no system-prompt flag: instructions lead the prompt, fenced."""
        body = flatten_messages(request) + schema_instruction(request.json_schema)
        if system := request.system_text():
            return f"<instructions>\n{system}\n</instructions>\n\n{body}"
        return body

    def argv(self, request: ModelRequest, prompt: str) -> list[str]:
        argv = [
            self.executable, "exec", "--json", "--ephemeral",
            "--sandbox", "read-only", "--skip-git-repo-check",
        ]  # fmt: skip
        if model := request.model or self.default_model:
            argv += ["-m", model]
        return [*argv, "--", prompt]  # "--": a prompt may start with "-"

    def complete(self, request: ModelRequest) -> ModelResponse:
        model = self.model_for(request)
        prompt = self.prompt(request)
        if len(prompt.encode()) > MAX_PROMPT_BYTES:
            return ModelResponse.failed(
                FailureKind.NOT_AVAILABLE,
                f"prompt of {len(prompt.encode())} bytes exceeds the argv limit",
                backend=self.name,
                model=model,
            )
        return self.call(self.argv(request, prompt), None, request, model)

    def parse(self, result: ProcResult, request: ModelRequest, model: str) -> ModelResponse:
        def failed(kind: FailureKind, detail: str) -> ModelResponse:
            return ModelResponse.failed(
                kind, detail[:300], backend=self.name, model=model, latency_s=result.latency_s
            )

        if result.timed_out:
            return failed(FailureKind.TIMEOUT, f"codex timed out after {self.timeout_s:.0f}s")
        events = _events(result.stdout)
        messages: list[str] = []
        usage = Usage()
        errors: list[str] = []
        thread_id: str | None = None
        for event in events:
            kind = event.get("type")
            if kind == "thread.started":
                thread_id = reported_text(event.get("thread_id")) or None
            elif kind == "item.completed":
                item = report_fields(event.get("item"))
                if item.get("type") == "agent_message" and reported_text(item.get("text")):
                    messages.append(item["text"])
            elif kind == "turn.completed":
                raw = report_fields(event.get("usage"))
                cached = reported_count(raw.get("cached_input_tokens"))
                usage = Usage(
                    input_tokens=max(0, reported_count(raw.get("input_tokens")) - cached),
                    output_tokens=reported_count(raw.get("output_tokens")),
                    cache_read_tokens=cached,
                )
            elif kind in ("turn.failed", "error"):
                error = event.get("error")
                message = error.get("message") if isinstance(error, dict) else error
                message = message if isinstance(message, str) else event.get("message")
                errors.append(reported_text(message) or "the CLI reported an error")
        if errors or result.returncode:
            detail = "; ".join(errors) or f"exit {result.returncode}: {result.stderr.strip()}"
            return failed(classify_cli_text(detail), detail)
        if not messages:
            return failed(
                FailureKind.BAD_OUTPUT, f"no agent message in output: {result.stdout[:200]!r}"
            )
        text = messages[-1]
        problem = json_output_problem(text, request.json_schema)
        return ModelResponse.measured(
            usage,
            text=text,
            backend=self.name,
            model=model,
            cost_usd=self.prices.cost(model, usage),
            latency_s=result.latency_s,
            failure=FailureKind.BAD_OUTPUT if problem else None,
            failure_detail=problem or "",
            raw_id=thread_id,
        )

    def act_argv(self, request: ActRequest) -> list[str]:
        network = "true" if request.network else "false"
        argv = [
            self.executable, "exec", "--json", "--ephemeral",
            "--sandbox", "workspace-write", "--skip-git-repo-check",
            "-C", str(request.workdir),
            "-c", f"sandbox_workspace_write.network_access={network}",
        ]  # fmt: skip
        if model := request.model or self.default_model:
            argv += ["-m", model]
        return [*argv, "--", request.prompt]

    def act(self, request: ActRequest) -> tuple[ModelResponse, ActDetail]:
        """Let Codex act in `request.workdir` inside its own workspace-write sandbox."""
        model = request.model or self.default_model or self.fallback_model
        if len(request.prompt.encode()) > MAX_PROMPT_BYTES:
            reason = "the task is longer than the argv limit"
            return not_started(self.name, model, reason, self.isolation(request))
        if shutil.which(self.executable) is None:  # `nice` would hide the missing CLI
            reason = f"cannot run {self.executable}: not found on PATH"
            return not_started(self.name, model, reason, self.isolation(request))
        argv = [*nice_prefix(request.nice), *self.act_argv(request)]
        try:
            proc = run_in_dir(argv, cwd=request.workdir, stdin_text=None, timeout_s=request.wall_s)
        except OSError as exc:
            reason = f"cannot run {self.executable}: {exc}"
            return not_started(self.name, model, reason, self.isolation(request))
        detail = ActDetail(
            cpu_s=proc.cpu_s,
            timed_out=proc.timed_out,
            returncode=proc.returncode,
            isolation=self.isolation(request),
        )
        for event in _events(proc.stdout):
            item = event.get("item") if event.get("type") == "item.completed" else None
            if isinstance(item, dict) and reported_text(item.get("type")) in _TOOL_ITEMS:
                name = str(item.get("type"))
                detail.tool_calls += 1
                detail.tools[name] = detail.tools.get(name, 0) + 1
            if event.get("type") == "turn.completed":
                detail.turns += 1
        if proc.timed_out:
            response = ModelResponse.failed(
                FailureKind.TIMEOUT,
                f"codex ran past the rollout's {request.wall_s:.0f}s cap",
                backend=self.name,
                model=model,
                latency_s=proc.wall_s,
            )
            return ran_without_report(response), detail
        shaped = ProcResult(proc.returncode, proc.stdout, proc.stderr, False, proc.wall_s, "")
        return ran_without_report(self.parse(shaped, ModelRequest(messages=[]), model)), detail

    def isolation(self, request: ActRequest) -> str:
        net = "on" if request.network else "off"
        return f"Codex workspace-write sandbox (network {net}), scratch checkout"


#: Codex items that are the agent acting (commands, patches, tool calls).
_TOOL_ITEMS = frozenset({"command_execution", "file_change", "mcp_tool_call", "web_search"})


def _events(stdout: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for line in stdout.splitlines():
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(value, dict):
            events.append(value)
    return events
