"""Loopback HTTP servers speaking the Anthropic and OpenAI wire formats.

The real SDKs talk to these over 127.0.0.1, so the backends are tested through
their actual request building, response parsing and error classes. A test can
script one-off replies (status, body, headers) per path before the defaults.
"""

from __future__ import annotations

import json
import re
import threading
from collections import defaultdict, deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class FakeServer:
    """Base: routing, scripted replies, and a record of every request."""

    def __init__(self) -> None:
        self.requests: list[Seen] = []
        self.scripted: dict[str, deque[Reply]] = defaultdict(deque)
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # else 40 ms delayed-ACK stalls per reply

            def log_message(self, *args: Any) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                path = self.path.split("?")[0]
                seen = Seen(
                    self.command, path, {k.lower(): v for k, v in self.headers.items()}, body
                )
                with server.lock:
                    server.requests.append(seen)
                    queue = server.scripted.get(path)
                    reply = queue.popleft() if queue else None
                if reply is None:
                    reply = server.route(seen)
                self._send(reply)

            def _send(self, reply: Reply) -> None:
                if isinstance(reply.body, bytes):
                    payload, ctype = reply.body, "application/octet-stream"
                elif isinstance(reply.body, str):
                    payload, ctype = reply.body.encode(), "application/jsonl"
                else:
                    payload, ctype = json.dumps(reply.body).encode(), "application/json"
                self.send_response(reply.status)
                self.send_header("content-type", reply.headers.get("content-type", ctype))
                for key, value in reply.headers.items():
                    if key != "content-type":
                        self.send_header(key, value)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = _handle
            do_POST = _handle

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def start(self) -> Self:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def script(self, path: str, *replies: Reply) -> None:
        with self.lock:
            self.scripted[path].extend(replies)

    def seen(self, path: str) -> list[Seen]:
        return [r for r in self.requests if r.path == path]

    def route(self, seen: Seen) -> Reply:  # pragma: no cover - overridden
        return Reply(404, {"error": {"message": "no route"}})


def anthropic_message(text: str, *, msg_id: str = "msg_1", stop: str = "end_turn",
                      usage: dict[str, int] | None = None) -> dict[str, Any]:  # fmt: skip
    return {
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6-20250929",
        "content": [{"type": "text", "text": text}],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage or {"input_tokens": 10, "output_tokens": 5},
    }


def anthropic_error(kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


class FakeAnthropic(FakeServer):
    """Messages, count_tokens and Message Batches."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: dict[str, list[dict[str, Any]]] = {}
        self.batch_polls: dict[str, int] = defaultdict(int)
        self.polls_until_ended = 1

    def route(self, seen: Seen) -> Reply:
        if seen.path == "/v1/messages":
            body = seen.json()
            return Reply(200, anthropic_message("hello from fake", usage=_anthropic_usage(body)))
        if seen.path == "/v1/messages/count_tokens":
            return Reply(200, {"input_tokens": 42})
        if seen.path == "/v1/messages/batches" and seen.method == "POST":
            batch_id = f"msgbatch_{len(self.batches) + 1}"
            self.batches[batch_id] = seen.json()["requests"]
            return Reply(200, self._batch(batch_id, ended=False))
        if match := re.fullmatch(r"/v1/messages/batches/([\w-]+)/results", seen.path):
            return Reply(200, self._results(match.group(1)))
        if match := re.fullmatch(r"/v1/messages/batches/([\w-]+)", seen.path):
            batch_id = match.group(1)
            if batch_id not in self.batches:
                return Reply(404, anthropic_error("not_found_error", "no such batch"))
            self.batch_polls[batch_id] += 1
            ended = self.batch_polls[batch_id] > self.polls_until_ended
            return Reply(200, self._batch(batch_id, ended=ended))
        return Reply(404, anthropic_error("not_found_error", seen.path))

    def _batch(self, batch_id: str, *, ended: bool) -> dict[str, Any]:
        n = len(self.batches[batch_id])
        return {
            "id": batch_id,
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": {
                "processing": 0 if ended else n,
                "succeeded": n - 1 if ended else 0,
                "errored": 1 if ended else 0,
                "canceled": 0,
                "expired": 0,
            },
            "created_at": "2026-01-01T00:00:00Z",
            "expires_at": "2026-01-02T00:00:00Z",
            "ended_at": "2026-01-01T01:00:00Z" if ended else None,
            "results_url": f"{self.url}/v1/messages/batches/{batch_id}/results" if ended else None,
        }

    def _results(self, batch_id: str) -> str:
        """Every request succeeds but the last, which errors (overloaded)."""
        lines = []
        requests = self.batches[batch_id]
        for i, entry in enumerate(requests):
            cid = entry["custom_id"]
            if i == len(requests) - 1:
                result: dict[str, Any] = {
                    "type": "errored",
                    "error": anthropic_error("overloaded_error", "busy"),
                }
            else:
                usage = _anthropic_usage(entry["params"])
                result = {
                    "type": "succeeded",
                    "message": anthropic_message(f"answer {cid}", msg_id=f"msg_{cid}", usage=usage),
                }
            lines.append(json.dumps({"custom_id": cid, "result": result}))
        return "\n".join(reversed(lines)) + "\n"


def _anthropic_usage(body: dict[str, Any]) -> dict[str, int]:
    system = body.get("system")
    cached = isinstance(system, list) and any("cache_control" in b for b in system)
    return {
        "input_tokens": 10,
        "output_tokens": 5,
        "cache_creation_input_tokens": 100 if cached else 0,
        "cache_read_input_tokens": 0,
    }


def chat_completion(text: str | None, *, refusal: str | None = None, finish: str = "stop",
                    cached: int = 0) -> dict[str, Any]:  # fmt: skip
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-4.1-mini-2025-04-14",
        "choices": [
            {
                "index": 0,
                "finish_reason": finish,
                "message": {"role": "assistant", "content": text, "refusal": refusal},
            }
        ],
        "usage": {
            "prompt_tokens": 20,
            "completion_tokens": 7,
            "total_tokens": 27,
            "prompt_tokens_details": {"cached_tokens": cached},
        },
    }


def openai_error(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "code": None, "param": None}}


class FakeOpenAI(FakeServer):
    """Chat completions, files and the Batch API (paths under /v1)."""

    def __init__(self) -> None:
        super().__init__()
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, str] = {}

    def route(self, seen: Seen) -> Reply:
        if seen.path == "/v1/chat/completions":
            return Reply(200, chat_completion("hello from fake openai"))
        if seen.path == "/v1/files" and seen.method == "POST":
            file_id = f"file-{len(self.files) + 1}"
            self.files[file_id] = _multipart_file(seen)
            return Reply(200, {"id": file_id, "object": "file", "bytes": len(self.files[file_id]),
                               "created_at": 0, "filename": "in.jsonl", "purpose": "batch",
                               "status": "processed"})  # fmt: skip
        if seen.path == "/v1/batches" and seen.method == "POST":
            batch_id = f"batch_{len(self.batches) + 1}"
            self.batches[batch_id] = seen.json()["input_file_id"]
            self.files[f"out-{batch_id}"] = self._output(self.files[self.batches[batch_id]])
            return Reply(200, self._batch(batch_id, "validating"))
        if match := re.fullmatch(r"/v1/batches/([\w-]+)", seen.path):
            return Reply(200, self._batch(match.group(1), "completed"))
        if match := re.fullmatch(r"/v1/files/([\w-]+)/content", seen.path):
            return Reply(200, self.files[match.group(1)].decode())
        return Reply(404, openai_error(f"no route {seen.path}"))

    def _batch(self, batch_id: str, status: str) -> dict[str, Any]:
        n = len(self.files[self.batches[batch_id]].splitlines())
        done = status == "completed"
        return {
            "id": batch_id, "object": "batch", "endpoint": "/v1/chat/completions",
            "input_file_id": self.batches[batch_id], "completion_window": "24h",
            "status": status, "created_at": 0,
            "output_file_id": f"out-{batch_id}" if done else None,
            "request_counts": {"total": n, "completed": n - 1 if done else 0,
                               "failed": 1 if done else 0},
        }  # fmt: skip

    def _output(self, input_jsonl: bytes) -> bytes:
        """Each input line answered; the last one fails with a 500 in-line error."""
        lines = [json.loads(x) for x in input_jsonl.splitlines() if x.strip()]
        out = []
        for i, line in enumerate(lines):
            cid = line["custom_id"]
            if i == len(lines) - 1:
                response = {"status_code": 500, "request_id": "r", "body": openai_error("boom")}
            else:
                body = chat_completion(f"answer {cid}")
                response = {"status_code": 200, "request_id": "r", "body": body}
            out.append(json.dumps({"id": f"o{i}", "custom_id": cid, "response": response,
                                   "error": None}))  # fmt: skip
        return ("\n".join(out) + "\n").encode()


def _multipart_file(seen: Seen) -> bytes:
    """The uploaded file's bytes: the JSONL lines inside the multipart body."""
    lines = [ln for ln in seen.body.split(b"\r\n") if ln.startswith(b'{"custom_id"')]
    if lines:
        return b"\n".join(b"\n".join(x for x in ln.split(b"\n") if x) for ln in lines)
    return seen.body
