"""Replay tasks: the intent, the minimal context to attempt it, and a hidden judge spec.

The context is built only from the intent and what came *before* its turn (the
project, the branch, the previous intent of the session when the new one refers
back to it, files named in the intent). Corrections and everything after the
intent would leak the answer, so they feed the judge spec and never the context.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sleepd.mining.json_text import NOT_JSON, json_value
from sleepd.mining.judge_spec import Check, JudgeSpec, token_pattern

#: Follow-ups that make no sense without the previous request.
_REFERS_BACK = re.compile(
    r"\b(it|that|this|those|these|again|same|also|too|as well|the above|previous|instead)\b",
    re.IGNORECASE,
)
_FILE_MENTION = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|kt|rb|php|c|h|"
    r"cc|cpp|hpp|cs|swift|md|json|toml|ya?ml|sh|sql|html|css|scss|txt|cfg|ini|lock))\b"
)
_USE_NOT = re.compile(
    r"\buse\s+`?([\w.@/+-]+)`?\s*,?\s+(?:not|instead of|rather than)\s+`?([\w.@/+-]+)`?",
    re.IGNORECASE,
)
_DONT_USE = re.compile(r"\b(?:don'?t|do not|never|stop)\s+us(?:e|ing)\s+`?([\w.@/+-]+)`?", re.I)
_USE_TOOL = re.compile(r"\buse\s+the\s+`?(\w+)`?\s+tool\b", re.IGNORECASE)
#: The answer itself asked for as JSON ("answer only in JSON", "give me the list as JSON",
#: "JSON only"): what a `json` check can hold a reply to. Not JSON the work is about ("make
#: the endpoint return JSON", "parse the config as JSON") nor a pasted man page ("--json
#: <fields>  Output JSON with the specified fields"): a coding agent's reply to those is
#: never JSON alone, and the check would fail every rollout.
_WANTS_JSON = re.compile(
    r"\b(answer|respond|reply)\s+(only\s+)?(in|with|as|using)\s+(valid\s+)?json\b"
    r"|\b(give|show|send|list|print|output|return)\s+(me|us)\s+(\w+\s+){0,4}?"
    r"(as|in)\s+(valid\s+)?json\b"
    r"|\b(your|the)\s+(answer|response|reply)\s+(must|should)\s+be\s+(valid\s+)?json\b"
    r"|^\W*json\s+only\b|\b(only|nothing but)\s+(valid\s+)?json\b(?!\s+(files?|fields?|keys?))",
    re.IGNORECASE | re.MULTILINE,
)
_PACKAGE_MANAGERS = frozenset({"npm", "yarn", "pnpm", "pip", "pip3", "poetry", "uv", "bun"})
MAX_COMMAND_CHARS = 120
#: How much of a command's text the rubric quotes (the replay's request carries it all).
RUBRIC_COMMAND_CHARS = 3000
#: Longer failing commands are too specific to ban outright.
MAX_BANNED_COMMAND = 80


@dataclass(slots=True)
class Evidence:
    """What a finished episode tells the judge (never the replaying agent)."""

    intent_text: str
    corrections: list[tuple[int, str]] = field(default_factory=list)
    #: what the request's command asked of the agent, when it is a command
    #: (`command_text`): what a judge holds the answer to, beside the command's name
    command_text: str = ""
    #: (event ids, failing command, the different command that then did its job) for
    #: tool errors the agent recovered from by running something else (`replacement.py`)
    recovered: list[tuple[list[int], str, str]] = field(default_factory=list)
    outcome: str = "unknown"
    approval: str | None = None


#: The heading over the follow-ups folded into a task's request.
REFINEMENTS_HEADING = "Refinements the user added while it was being done:"


def task_intent(intent_text: str, refinements: Sequence[str]) -> str:
    """The request as a replaying agent needs it: the intent with the follow-ups that
    refined it folded in (a follow-up alone cannot be replayed without its context). A
    follow-up that says again what the request or an earlier follow-up said (the request
    sent a second time, "can you review again" twice) is folded in once."""
    seen = {_said(intent_text)}
    extra: list[str] = []
    for text in refinements:
        if text and text.strip() and _said(text) not in seen:
            seen.add(_said(text))
            extra.append(text.strip())
    if not extra:
        return intent_text
    lines = [intent_text, "", REFINEMENTS_HEADING]
    # a refinement of several lines is indented under its bullet, so that each bullet
    # opens one refinement (`intent_parts` counts them)
    lines.extend("- " + text[:1000].replace("\n", "\n  ") for text in extra[:10])
    return "\n".join(lines)


def _said(text: str) -> str:
    return " ".join(text.lower().split())


def intent_parts(intent: str) -> tuple[str, int]:
    """A stored request split as `task_intent` folded it: the words that opened the task,
    and how many refinements were folded in under them."""
    head, heading, folded = intent.partition(f"\n\n{REFINEMENTS_HEADING}\n")
    if not heading:
        return intent, 0
    return head, sum(1 for line in folded.split("\n") if line.startswith("- "))


def files_mentioned(text: str) -> list[str]:
    seen: dict[str, None] = {}
    for match in _FILE_MENTION.finditer(text):
        seen.setdefault(match.group(1), None)
    return list(seen)[:20]


def needs_prior_intent(intent_text: str) -> bool:
    return len(intent_text) < 40 or bool(_REFERS_BACK.search(intent_text[:200]))


def build_context(
    intent_text: str,
    *,
    project_path: str | None,
    git_branch: str | None,
    prior_intent: str | None,
    local_commands: Sequence[LocalCommand] = (),
    command_text: str = "",
    committed_before: Sequence[str] = (),
) -> dict[str, Any]:
    """The replay context: only facts known when the intent was typed. `local_commands`:
    what the person ran themselves just before asking, and what it printed ("please fix
    these" after `! uv run ty check` points at that output). `command_text`: what the
    request's slash command expanded to (`command_text`), the instructions a replay's
    agent, without the person's commands installed, would otherwise never see.
    `committed_before`: the commits the session had made before the request
    (`session_commits`), its work, which the checkout holds but does not tell apart."""
    context: dict[str, Any] = {
        "project_path": project_path,
        "git_branch": git_branch or None,
        "files": files_mentioned(intent_text),
    }
    if prior_intent and needs_prior_intent(intent_text):
        context["prior_intent"] = prior_intent[:2000]
    if local_commands:
        context["local_commands"] = [
            {"command": c.command[:MAX_COMMAND_CHARS], "output": c.output[-MAX_OUTPUT_CHARS:]}
            for c in local_commands[-MAX_LOCAL_COMMANDS:]
        ]
    if command_text.strip():
        context["command_text"] = command_text
    if committed_before:
        context["committed_before"] = list(committed_before)
    return context


@dataclass(frozen=True)
class LocalCommand:
    """A command the person ran themselves before a request, and what it printed."""

    command: str
    output: str


#: The last commands kept in a task's context, and the end of each one's output (where
#: a linter or a test runner prints its summary and the last errors).
MAX_LOCAL_COMMANDS = 3
MAX_OUTPUT_CHARS = 4000


def local_commands_before(parts: Sequence[tuple[str, str]]) -> list[LocalCommand]:
    """Pair the person's command records (`local_command_part` values, in file order)
    into commands with their output; an output with no command before it keeps an
    empty command."""
    commands: list[LocalCommand] = []
    for kind, value in parts:
        if kind == "command":
            commands.append(LocalCommand(value, ""))
        elif commands and not commands[-1].output:
            commands[-1] = LocalCommand(commands[-1].command, value)
        else:
            commands.append(LocalCommand("", value))
    return commands


def command_of(call_text: str) -> str:
    """The shell command of a tool call's input (JSON argument or plain text), as a line
    to show: its first line, clipped."""
    whole = full_command(call_text)
    return whole.splitlines()[0][:MAX_COMMAND_CHARS] if whole else ""


def full_command(call_text: str) -> str:
    """The whole shell command of a tool call's input, every line of it but the bodies of
    its here-documents (data, not commands: a patch's `a || b` is no `||`): what decides how
    it exits (`pytest … -v 2>&1 | tail -30` hides its status past any clip)."""
    text = call_text.strip()
    data = json_value(text, NOT_JSON)
    if data is NOT_JSON:
        return without_heredoc_bodies(text)
    if isinstance(data, dict):
        value = data.get("command", data.get("cmd", ""))
        if isinstance(value, list):
            value = _argv_command(value)
        return without_heredoc_bodies(str(value).strip()) if value else ""
    return ""


#: A shell handed a script as an argument, and the flag before the script:
#: `["bash", "-lc", "pytest -q && …"]`, `["powershell.exe", "-NoProfile", "-Command", "rg
#: --files | rg speckit"]`, `["cmd", "/c", "dir"]`.
_SCRIPT_FLAGS = {
    **dict.fromkeys(("sh", "bash", "zsh", "dash", "ksh"), ("-c", "-lc", "-ic")),
    **dict.fromkeys(("powershell", "pwsh"), ("-command", "-c")),
    "cmd": ("/c",),
}


def program_name(word: str) -> str:
    """A program as named whatever path or suffix it was called by: `/bin/bash` and
    `C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe` are `bash` and
    `powershell`."""
    return word.replace("\\", "/").rsplit("/", 1)[-1].lower().removesuffix(".exe")


def script_after_flag(words: Sequence[str]) -> list[str] | None:
    """The words of the script a shell is handed after its flag (`bash -lc "…"`,
    `powershell -NoProfile -Command …`, `cmd /c …`): None when `words` is no shell handed a
    script."""
    program = program_name(words[0]) if words else ""
    flags = _SCRIPT_FLAGS.get(program, ())
    for at, word in enumerate(words[1:], start=1):
        if word.lower() in flags:
            return list(words[at + 1 :])
        if program in ("powershell", "pwsh") and word.lower() in ("-file", "-f"):
            return None  # a script file and its own arguments, no script handed over
    return None


def _argv_command(argv: list[object]) -> str:
    """The command line of an argument list, as Codex's `shell` tool took it: the script a
    shell was handed (`_SCRIPT_FLAGS`), or else the arguments quoted as one command, so that
    an argument is one word (`["apply_patch", "*** Begin Patch\n…"]` runs `apply_patch`,
    not each line of the patch; `["rg", "-n", "foo bar", "src"]` searches for "foo bar")."""
    words = [str(word) for word in argv]
    if not words:
        return ""
    script = script_after_flag(words)
    return " ".join(script) if script is not None else shlex.join(words)


_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_]\w*)\1")


def without_heredoc_bodies(command: str) -> str:
    """`command` with each here-document's lines left out, its opening line kept
    (`cat <<'EOF' > a.py` … `EOF`)."""
    if "<<" not in command:
        return command
    kept: list[str] = []
    ends: list[str] = []
    for line in command.splitlines():
        if ends:
            if line.strip() == ends[0]:
                ends.pop(0)
            continue
        kept.append(line)
        ends = [m.group(2) for m in _HEREDOC.finditer(line)]
    return "\n".join(kept)


def _clean_token(token: str) -> str:
    return token.strip("`'\".,;:!?()[]")


def _correction_checks(event_id: int, text: str) -> list[Check]:
    checks: list[Check] = []
    for wanted, unwanted in _USE_NOT.findall(text):
        wanted, unwanted = _clean_token(wanted), _clean_token(unwanted)
        if not wanted or not unwanted:
            continue
        checks.append(Check("must_contain", wanted, 1.0, (event_id,)))
        banned = f"{unwanted} install" if unwanted.lower() in _PACKAGE_MANAGERS else unwanted
        checks.append(Check("must_not_contain", banned, 1.0, (event_id,)))
    for unwanted in _DONT_USE.findall(text):
        token = _clean_token(unwanted)
        if token and not any(c.value == token for c in checks):
            checks.append(Check("must_not_contain", token, 1.0, (event_id,)))
    for tool in _USE_TOOL.findall(text):
        checks.append(Check("tool_called", tool, 1.0, (event_id,)))
    return checks


def heuristic_spec(evidence: Evidence) -> JudgeSpec:
    """Rule checks derived from evidence, plus a rubric for a model judge."""
    checks: list[Check] = []
    for event_id, text in evidence.corrections:
        checks.extend(_correction_checks(event_id, text))
    for event_ids, failing, working in evidence.recovered:
        if not failing or not working or len(failing) > MAX_BANNED_COMMAND:
            continue
        # (not when the command that worked holds the failing one: `python -m pytest …`
        # under `uv run`, `ssh-add -l` under `env`: the ban would refuse the fix)
        if not token_pattern(failing).search(working):
            checks.append(Check("must_not_contain", failing, 0.5, tuple(event_ids)))
    if _WANTS_JSON.search(evidence.intent_text):
        checks.append(Check("json", None, 1.0, ()))
    checks = _dedupe(checks)
    return JudgeSpec(checks=tuple(checks), rubric=_rubric(evidence))


def _dedupe(checks: Sequence[Check]) -> list[Check]:
    seen: set[tuple[str, str]] = set()
    out = []
    for check in checks:
        key = (check.type, str(check.value).lower())
        if key not in seen:
            seen.add(key)
            out.append(check)
    return out


def _rubric(evidence: Evidence) -> str:
    lines = [
        "Judge whether the response fully accomplishes the user's request:",
        evidence.intent_text[:1500],
    ]
    if evidence.command_text:
        lines.append("The request is a command; what it asked of the agent:")
        lines.append(evidence.command_text[:RUBRIC_COMMAND_CHARS])
    if evidence.corrections:
        lines.append("When this task was done before, the user had to correct the agent:")
        lines.extend(f"- {text[:300]}" for _, text in evidence.corrections[:5])
        lines.append("A good response avoids these mistakes from the start.")
    replacements = list(
        dict.fromkeys(
            (failing, working) for _, failing, working in evidence.recovered if failing and working
        )
    )[:5]
    if replacements:
        # only a command another one stood in for was the wrong command; one that failed
        # and then passed, or was followed by something else, was the right check to run
        lines.append("Commands that failed before, and the command that did the job instead:")
        lines.extend(
            f"- `{failing}` failed; `{working}` worked" for failing, working in replacements
        )
    if evidence.approval:
        lines.append(f"The user accepted a solution with: {evidence.approval[:200]}")
    return "\n".join(lines)
