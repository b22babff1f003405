"""Slash commands in user text: which are intents and which are housekeeping.

Claude Code stores a typed `/name args` as `<command-name>/name</command-name>`,
`<command-message>name</command-message>` and `<command-args>args</command-args>`
(in any order); Codex keeps the plain `/name args` text. A custom command, or any
command given arguments, is a task whose family includes the command name
(`/orchestrator create TODO app` → intent "/orchestrator create TODO app"). The
built-ins that only manage the session (`/clear`, `/compact`, `/model`, …) are
housekeeping: they never start or end an episode.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Built-ins of Claude Code and Codex that manage the session, not the work.
HOUSEKEEPING: frozenset[str] = frozenset(
    {
        "clear", "compact", "model", "cost", "login", "logout", "config", "help", "status",
        "doctor", "memory", "permissions", "resume", "exit", "quit", "vim", "terminal-setup",
        "theme", "ide", "mcp", "hooks", "agents", "bug", "release-notes", "upgrade", "usage",
        "context", "export", "add-dir", "privacy-settings", "output-style",
        "rewind", "todos", "fast", "plugin", "plugins", "approvals", "new", "diff", "mention",
        "feedback", "settings", "keybindings", "install-github-app", "migrate-installer",
        "continue", "sandbox", "bashes", "tasks", "stats", "files", "rename", "copy", "voice",
        "effort", "color", "remote-control", "desktop", "mobile", "chrome", "btw", "skills",
        "bash-input", "reload-plugins", "init-plugins", "logs", "session", "personality",
        "statusline-setup", "permissions-mode", "extra-usage", "privacy", "upgrade-plan",
        "undo", "sessions", "name", "remove-dir", "update-config", "keybindings-help",
        "fewer-permission-prompts",
        # the options dialog Claude Code opens by itself when a usage limit is hit (2.0.65
        # and later; some versions answer it "Unknown slash command: rate-limit-options")
        "rate-limit-options",
    }
)  # fmt: skip
#: Built-ins that wipe the conversation and start a new one in the same window.
STARTS_AFRESH: frozenset[str] = frozenset({"clear", "new", "reset"})
#: Built-ins that switch the session's mode: alone they manage the session; with words
#: after them (`/plan add a dark theme`, `/goal all tests in test/auth pass`: Claude Code's
#: and Codex's goal, which the agent works toward turn after turn) the words are a request
#: made in that mode.
MODE_SWITCHES: frozenset[str] = frozenset({"plan", "goal"})
#: A mode switch's own settings, typed after it in place of a request (`/goal clear`,
#: Codex's `/goal pause`, `/goal resume`, `/goal edit`).
_MODE_SETTINGS: frozenset[str] = frozenset(
    {"clear", "pause", "resume", "edit", "status", "show", "stop", "off", "on", "cancel"}
)

_BUILT_IN: frozenset[str] = HOUSEKEEPING | STARTS_AFRESH | MODE_SWITCHES

_TAG = re.compile(
    r"<(command-name|command-message|command-args)>(.*?)</\1>", re.DOTALL | re.IGNORECASE
)
#: The marks of a Claude Code terminal: its messages and tool calls (⏺, ●), their results
#: (⎿) and its thinking (✻, ✽).
_TRANSCRIPT_MARKS = re.compile(r"[⏺⎿✻✽]|^\s*●", re.MULTILINE)
#: Between a command and its arguments, any space a keyboard types on one line, a no-break
#: one too (the CLIs split a command line on whitespace); a line's end is none.
_SPACE = "[ \t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]"
_PLAIN = re.compile(rf"^\s*/([A-Za-z][\w:.-]{{0,63}})(?:{_SPACE}+(.*))?\s*$", re.DOTALL)
#: A command typed after a word or two that only go on ("and /github-pr-review", "okay,
#: now /github-pr-review", "yes. /release patch"): the command is what the turn asks, as
#: when it opens the message. A command named as the means of other work ("use
#: /writing-clearly-and-concisely to rewrite it", "run /simplify when done") is not run.
GO_ON_THEN_COMMAND = re.compile(
    r"^\W*(?:(?:and|ok|okay|now|yes|yep|yeah|sure|then|also|next|please|pls|great|good|"
    r"thanks|cool|alright)\W+){1,3}/([A-Za-z][\w:.-]{0,63})"
    rf"(?:{_SPACE}+([^\n/]{{1,80}}?))?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class SlashCommand:
    name: str
    args: str

    @property
    def is_housekeeping(self) -> bool:
        """A session-managing built-in (its arguments, e.g. `/model opus`, are settings),
        or a mode switch typed alone or with one of its settings (`/plan`, `/goal clear`)."""
        name = self.name.lower()
        setting = self.args.strip().lower()
        return name in HOUSEKEEPING or (
            name in MODE_SWITCHES and (not setting or setting in _MODE_SETTINGS)
        )

    @property
    def starts_afresh(self) -> bool:
        """A built-in that wipes the conversation (`/clear`, `/new`): what the agent did before
        it is no longer what the next turn answers."""
        return self.name.lower() in STARTS_AFRESH

    @property
    def is_task(self) -> bool:
        return not self.is_housekeeping

    @property
    def intent(self) -> str:
        """The command as the person typed it: the name is part of the task's family."""
        return f"/{self.name} {self.args}".strip()


#: A command as mining stores its intent: `/name args`.
_STORED_COMMAND = re.compile(r"^/([\w:.@-]+)(?=\s|$)")
#: A Codex skill invoked by name: `$skill-creator` is written into the message as a
#: link to its SKILL.md ("[$skill-creator](/Users/x/.codex/skills/…/SKILL.md) …"), or
#: as typed ("$handoff", then the skill's text injected as a message of its own). Typed,
#: only a name in lower case opens it, as skills are named ("$PATH is wrong" names a
#: variable), and alone or, when the name has a skill's hyphen or colon, with its
#: arguments ("$review-pr 12"): "$foo is not defined" is a script's error.
SKILL_INVOKED = re.compile(
    r"^\s*(?:\[\$([\w:.@-]+)\]\([^)\n]*SKILL\.md\)"
    r"|\$([a-z][a-z0-9]*(?:[-:][a-z0-9]+)+)(?=\s|$)"
    r"|\$([a-z][a-z0-9]*)\s*$)"
)


def skill_name(found: re.Match[str]) -> str:
    """The name of the skill a `SKILL_INVOKED` match invoked, linked or typed."""
    return found.group(1) or found.group(2) or found.group(3)


#: A saved prompt or a skill run by typing its path, alone or with its arguments after
#: it, as a slash command takes them (`.codex/prompts/plan.md`, `.codex/prompts/specify.md
#: .arguments/specify-arg-1.json`, `… please drop in x.md as the $ARGUMENTS`; a skill's
#: folder, `.agents/skills/speckit-git-commit`, or its `SKILL.md`).
PROMPT_BY_PATH = re.compile(
    r"^\s*(?:[\w.-]+/)*(?:(?:prompts?|commands)/([\w.-]+)\.md"
    r"|skills/([\w.-]+?)(?:/SKILL\.md|/)?(?=\s|$))"
    # a sentence about the file ("… plan.md is wrong") is no run of it
    r"(?![ \t]+(is|are|was|has|have|looks?|seems?|should|needs?|does|doesn'?t|isn'?t|can|"
    r"could|would|will|contains?|says)\b)(?:[ \t]+\S.*)?\s*$",
    re.I | re.S,
)


#: A file of instructions for the agent, named by its path: a workflow, task, agent,
#: prompt, command or skill file.
_INSTRUCTION_FILE = re.compile(
    r"(?:[\w.-]+/)*(workflows?|tasks?|agents?|prompts?|commands?|skills?)/(?:[\w.-]+/)*"
    r"([\w.-]+)\.(?:md|mdc|ya?ml|xml|toml|txt)\b",
    re.IGNORECASE,
)
#: The order to load such a file ("LOAD the FULL @bmad/…/workflow.md", "read
#: .claude/commands/review.md") and the order to follow what it says.
_LOAD_FILE = re.compile(
    r"\b(load|read|open)\s+(the\s+)?((full|entire|whole)\s+)?((agent\s+)?file\s+(from\s+|at\s+)?)?@?"
    r"(?=[\w.-]*/)",
    re.IGNORECASE,
)
_FOLLOW_FILE = re.compile(
    r"\b(follow|execute|executing|obey)\b[^\n]{0,80}?\b(directions|instructions|steps|"
    r"workflow|exactly)\b",
    re.IGNORECASE,
)
#: A file name that says only what kind of file it is: its folder names it.
_GENERIC_STEMS = frozenset(
    ("workflow", "instructions", "index", "readme", "skill", "agent", "prompt", "main", "task")
)
#: Folders whose files are what a launcher runs (agent and task files are what it loads).
_RUN_FOLDERS = frozenset(("workflow", "prompt", "command", "skill"))
#: How far into a message the order to load and follow a file is looked for.
_ORDER_CHARS = 1500


def runs_instruction_file(text: str) -> str | None:
    """The family name of the instruction file a message orders the agent to load and
    follow, or None. A saved prompt of a method such as BMAD expands into the message as
    such an order ("IT IS CRITICAL THAT YOU FOLLOW THIS COMMAND: LOAD the FULL
    @bmad/bmm/workflows/…/check-implementation-readiness/workflow.md, READ its entire
    contents and follow its directions exactly!"): a custom command by another name. A
    file of workflows, prompts, commands or skills names the family before an agent or
    task file (a launcher loads the task engine, then the workflow it runs)."""
    head = text[:_ORDER_CHARS]
    if not (_LOAD_FILE.search(head) and _FOLLOW_FILE.search(head)):
        return None
    # a CI workflow (.github/workflows/ci.yml) is the repository's, not the agent's
    found = [m for m in _INSTRUCTION_FILE.finditer(head) if ".github/" not in m.group(0)]
    if not found:
        return None
    runs = [m for m in found if m.group(1).lower().rstrip("s") in _RUN_FOLDERS]
    chosen = runs[-1] if runs else found[0]
    stem = chosen.group(2)
    if stem.lower() in _GENERIC_STEMS:
        folders = chosen.group(0).split("/")[:-1]
        stem = folders[-1] if folders else stem
    return stem.lower()


#: A saved prompt written into the message whole, as Codex expands `/prompts:name`: its
#: YAML header (`---` then `description:`, `argument-hint:` …), or Spec Kit's opening, which
#: Codex writes without the header: "## User Input", then the arguments fenced as text
#: (then "You **MUST** consider the user input before proceeding", which a long argument
#: may push past the part of a turn mining keeps).
EXPANDED_PROMPT = re.compile(
    r"^\s*(?:---[ \t]*\n(?:[\w-]+:[^\n]*\n){0,8}?(?:description|argument-hint|allowed-tools):"
    r"|## User Input[ \t]*\n\s*```text[ \t]*\n)"
)


def runs_saved_prompt(text: str) -> bool:
    """A Codex skill invoked by name, a saved prompt run by its path or written into the
    message whole, or one expanded into an order to load and follow an instruction file:
    a custom command by another name."""
    return bool(
        SKILL_INVOKED.match(text)
        or PROMPT_BY_PATH.match(text)
        or EXPANDED_PROMPT.match(text)
        or runs_instruction_file(text)
    )


def family_name(intent: str) -> str | None:
    """The name that makes an intent's task family: a custom command's (`/release`), a
    Codex skill's (`$ba-pro`), a saved prompt's run by its path (`plan`); None for any
    other request, a mode switch's among them: `/goal all tests pass` and `/plan add a
    dark theme` are the words after the switch, which no template of the command's makes,
    and they recur with the same words typed without it."""
    stored = _STORED_COMMAND.match(intent)
    if stored:
        name = stored.group(1)
        return None if name.lower() in MODE_SWITCHES else name
    skill = SKILL_INVOKED.match(intent)
    if skill:
        return f"${skill_name(skill)}"
    prompt = PROMPT_BY_PATH.match(intent)
    return (prompt.group(1) or prompt.group(2)) if prompt else runs_instruction_file(intent)


_BASH_INPUT = re.compile(r"^\s*<bash-input>(.*?)</bash-input>", re.DOTALL | re.IGNORECASE)
#: A memory the person added with Claude Code's `#` shortcut: the `/memory` built-in's
#: work, typed as a line of its own.
_MEMORY_INPUT = re.compile(
    r"^\s*<user-memory-input>(.*?)</user-memory-input>", re.DOTALL | re.IGNORECASE
)
_BASH_OUTPUT = re.compile(
    r"<bash-(stdout|stderr)>(.*?)(?:</bash-\1>|\Z)", re.DOTALL | re.IGNORECASE
)


#: How the records of a command the person ran themselves begin.
LOCAL_COMMAND_TAGS = ("<bash-input>", "<bash-stdout>", "<bash-stderr>")


def local_command_part(text: str) -> tuple[str, str] | None:
    """A record of a command the person ran themselves (Claude Code's `! cmd`):
    ("command", what they typed) or ("output", what it printed, stdout then stderr);
    None for any other text."""
    head = text[:20000]
    bash = _BASH_INPUT.match(head)
    if bash:
        return "command", bash.group(1).strip()
    if not head.lstrip().lower().startswith(("<bash-stdout>", "<bash-stderr>")):
        return None
    printed = [m.group(2).strip() for m in _BASH_OUTPUT.finditer(text)]
    return "output", "\n".join(part for part in printed if part)


#: A folder, then a shell's prompt sign and a command: "/work $ ping …", "/app # ls".
_PROMPT_AFTER_FOLDER = re.compile(r"^\s*/[\w.~-]*\s*[$#%]\s+\S")


#: A built-in Codex ran for the person and whose result it hands back as a message of the
#: person's (`/review`: "<user_action> <context>User initiated a review task. Here's the
#: full review output from reviewer model. …</context> <action>review</action> <results>
#: …"): the command, not words typed, and not a program's output pasted back.
_CODEX_ACTION = re.compile(
    r"\s*<user_action>\s*(?:<context>[^<]{0,1000}</context>\s*)?<action>([\w-]{1,60})</action>"
)


def parse_command(text: str) -> SlashCommand | None:
    """The slash command a user record carries, or None. A bash-mode command the
    person ran themselves (`! cmd`, stored as `<bash-input>`) and a memory added with
    `#` (stored as `<user-memory-input>`) are housekeeping too."""
    bash = _BASH_INPUT.match(text[:20000])
    if bash:
        return SlashCommand(name="bash-input", args=bash.group(1).strip())
    memory = _MEMORY_INPUT.match(text[:20000])
    if memory:
        return SlashCommand(name="memory", args=memory.group(1).strip())
    tags = {m.group(1).lower(): m.group(2).strip() for m in _TAG.finditer(text[:20000])}
    if "command-name" in tags or "command-message" in tags:
        name = (tags.get("command-name") or tags.get("command-message") or "").lstrip("/")
        name = name.split()[0] if name.split() else ""
        if not name:
            return None
        return SlashCommand(name=name, args=tags.get("command-args", ""))
    action = _CODEX_ACTION.match(text[:20000])
    if action:
        return SlashCommand(name=action.group(1), args="")
    match = _PLAIN.match(text[:20000])
    if match and "\n" not in match.group(1):
        # a path such as "/usr/bin/env" is not a command
        first_line = text.strip().splitlines()[0]
        if "/" in first_line.split()[0][1:]:
            return None
        # nor is a shell prompt that shows its folder, pasted with what it ran
        # ("/work $ ping www.googleapis.com")
        if _PROMPT_AFTER_FOLDER.match(first_line):
            return None
        # nor is an agent's terminal pasted back from elsewhere, which opens with the command
        # typed there and goes on with what the agent printed ("/sequant:setup ⏺ I'll run
        # the Sequant setup …"): Claude Code marks its messages and results with these
        if _TRANSCRIPT_MARKS.search(match.group(2) or ""):
            return None
        return SlashCommand(name=match.group(1), args=(match.group(2) or "").strip())
    after = GO_ON_THEN_COMMAND.match(text[:200])
    if after and after.group(1).lower() not in _BUILT_IN:
        # (a built-in typed after other words is no command: the CLI runs only one that
        # opens the message, so "and then /clear" wiped nothing)
        return SlashCommand(name=after.group(1), args=(after.group(2) or "").strip())
    return None
