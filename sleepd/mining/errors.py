"""Which tool results are failures, and whose failure each one is.

Decided in mining from the stored fields, whatever the harvester's `is_error` says:

- **root**: a real failure of its own call: `is_error`, a non-zero exit code, a
  Claude `<tool_use_error>…</tool_use_error>` result anywhere (subagents too), a
  Codex patch that did not apply (`apply_patch verification failed: …`), a result that
  opens with the tool's own timeout notice ("Timed out. New output: …", as an editor's
  agent bridge returns it unflagged) or holds nothing but a warning in place of output
  (Claude Code's Read past the end of a file: "<system-reminder>Warning: the file exists
  but is shorter than the provided offset …</system-reminder>"), or a failure
  the command hid from its exit code (a pipe, `|| true`, Codex code mode) that its
  output states in a program's own words: a line opening with `error:` (or `Error:`,
  as cobra, click and Rust print it), `fatal:`, `FAILED`, `npm ERR!`, a traceback, a
  test or lint summary with failures ("24 fail", "Found 1 error."), among the first
  or last lines, unless a test summary says nothing failed. A line that merely
  mentions an error (source code, a search hit, a log line) is not one.
- **knock_on**: failed only because another call failed or was refused: Claude's
  "Sibling tool call errored", and "The user doesn't want to take this action right
  now" for the calls cancelled with a refused one. It points to its cause (the
  failing or refused call of the same assistant message, else the latest root error
  before it) and is never a failure pattern of its own.
- **benign**: a command whose non-zero exit is an answer, not a failure: `grep`,
  `rg`, `ag`, `ack`, `git grep` exit 1 (no match), `diff`/`cmp`/`git diff
  --exit-code` exit 1 (files differ), `test`/`[`/`[[` exit 1 (false), `which`,
  `command -v`, `type`, `pgrep`, `pidof` exit 1 (not found), `ssh-add -l` and
  `crontab -l` exit 1 (none listed), and a search over a tree (`rg`, `grep -r`,
  `find`, `fd`) that exits 1 or 2 after finding what it looked for only because
  some paths could not be read ("Permission denied", "Interrupted system call").
  Otherwise only exit 1, only when
  the family's command decides the exit status (the last one of a chain or pipe),
  and only without error text of its own. A call the person refused ("The user
  doesn't want to proceed with this tool use", a plan "rejected by the user") is
  benign too: it is the person's feedback (a `tool_rejected` signal), not a tool
  failing; so is a call the person stopped while it ran (`[Request interrupted by user
  for tool use]`, `Interrupted by user`; Codex's "aborted by user after 33.4s"). So
  is a failure the agent
  announced before making the call ("let me test the error case when there's no PR",
  "running the test to confirm it fails for the intended reason": the red step of
  test-first work): the failure is the answer it wanted. And a stop or kill whose
  target had already stopped ("Shell … is not running", `pkill`/`killall` exit 1):
  the state it asked for already holds.

Shell-init noise, a line the machine prints in every shell output (a broken
`.bashrc`, a version-manager banner), is found per session and across the store's
newest shell results, and stripped before signatures and examples.
"""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from sleepd.mining.episodes import CODEX_REFUSAL, EventView
from sleepd.mining.late_exits import POLLED_SESSION, RUNNING
from sleepd.mining.signatures import ANSI, SEARCH_PROGRAMS, is_shell_tool, is_wrapper_line
from sleepd.mining.tasks import command_of, full_command

ErrorKind = Literal["root", "knock_on", "benign"]

_TOOL_USE_ERROR = re.compile(r"<tool_use_error>", re.IGNORECASE)
_KNOCK_ON = re.compile(
    r"Sibling tool call errored|Cancelled: parallel tool call|"
    r"user doesn'?t want to take this action right now|"
    r"cancell?ed because (a |another )?(sibling|parallel) (tool )?call (errored|failed)",
    re.IGNORECASE,
)
#: A tool result that says the person refused the call ("The user doesn't want to proceed
#: with this tool use", a plan "rejected by the user", Codex's "exec command rejected by
#: user"); not the calls cancelled with it
#: ("… doesn't want to take this action right now"), which are knock-ons of the refusal.
REFUSED = re.compile(
    r"user doesn'?t want to proceed with this tool use|tool use was rejected"
    r"|\bplan that was rejected by the user\b|" + CODEX_REFUSAL,
    re.IGNORECASE,
)
_CODEX_REFUSED = re.compile(CODEX_REFUSAL)
_CODEX_SANDBOX_STOPPED = re.compile(r"\s*failed in sandbox\b")
#: A call the person stopped while it ran: Claude Code's result (Esc: `[Request
#: interrupted by user for tool use]`, after `Exit code 137` for a killed command, before
#: what it had printed; a bare `Interrupted by user`) and Codex's ("aborted by user after
#: 33.4s", a shell's "Wall time: 33.4 seconds\naborted by user"): the person's act, not a
#: tool failing.
_STOPPED_BY_PERSON = re.compile(
    r"\A\s*(?:exit code -?\d+\s+)?(?:\[request interrupted by user(?: for tool use)?\]"
    r"|interrupted by user\W*\Z)"
    r"|\A\s*(?:wall time: [\d.]+ seconds\s+)?aborted by user(?: after [\d.]+s)?\s*\Z",
    re.IGNORECASE,
)
_PATCH_FAILED = re.compile(
    r"^[^\w\n]*(\w+ failed: |apply_patch verification failed|Failed to find expected lines|"
    r"patch rejected|Invalid patch|error: patch failed|Failed to apply patch)",
    re.IGNORECASE | re.MULTILINE,
)
#: A tool's own notice that the call did not finish, opening its result: an editor's
#: agent bridge (Zed's `mcp__acp__Bash`) returns "Timed out. New output: …" unflagged.
_TIMED_OUT = re.compile(r"\A\W*(the )?(command |call |request )?timed out\b", re.IGNORECASE)
#: A result that is nothing but a warning in place of the output, as Claude Code's Read
#: answers an offset past the end of the file, unflagged.
_WARNING_ONLY = re.compile(
    r"\A\s*<system-reminder>\s*Warning:[^<]*</system-reminder>\s*\Z", re.IGNORECASE
)
#: A tool answering that what it needs is not there, unflagged (the Chrome extension's
#: MCP tools: "Browser extension is not connected. Please ensure the Claude browser
#: extension is installed and running …").
_UNAVAILABLE = re.compile(
    r"\A\s*[\w .'-]{1,60}? (is|are) not (connected|running|available|reachable|installed|"
    r"enabled|authenticated|logged in)\b[^\n]{0,200}\b(please|make sure|ensure|try)\b",
    re.IGNORECASE,
)
#: A failure a pipe or a wrapper hid (`git log … | head` exits 0): git's `fatal:`, a
#: program's own "no such file" line, or a wrapper's `FAILED: git commit`, opening the
#: output; a program refusing its arguments ("grep: invalid option -- P", a click or typer
#: program's "Try 'ec decision create --help' for help.", which it prints only on a usage
#: error), and Python missing the module it was asked to run ("python: No module named
#: pytest").
_HIDDEN_FAILURE = re.compile(
    r"^[^\S\n]*fatal: "
    r"|^[\w.-]+: \S.*(No such file or directory|command not found|Permission denied)"
    r"|^[\w.-]+: (invalid|unrecognized|illegal|unknown) option\b"
    r"|^Try '[^'\n]+ --help' for help\.$"
    r"|^[\w./-]+: No module named \S"
    # the shell named by its path ("/bin/bash: line 1: ps: command not found")
    r"|^/[\w./-]*/(ba|z|da|k|fi)?sh: \S.*(No such file or directory|command not found|"
    r"Permission denied)"
    r"|^FAILED: \S"
    # GitHub's API refusing the request, whether `gh api` or curl asked ("{"message":"Not
    # Found","documentation_url":"https://docs.github.com/rest/…","status":"404"}"), and
    # gh's own line for it ("gh: Not Found (HTTP 404)"), both printed with exit 0 behind
    # a pipe
    r'|^\{\s*"message":\s*"[^"\n]{1,200}",\s*"documentation_url":\s*"https://docs\.github\.com/'
    r"|^gh: [^\n]{1,200}\(HTTP [45]\d\d\)",
    re.MULTILINE,
)
#: An output line in which a program says that it (or the tests it ran) failed, as
#: compilers, test runners, linters, git, npm and gh write it: at the start of the line,
#: so a source line or a search hit that mentions an error ("    error: vi.fn(),",
#: "src/a.py:12: raise …") is not one.
_FAILURE_LINE = re.compile(
    r"^([Ee]rror|fatal)(\[\w+\])?: \S"
    r"|^Traceback \(most recent call last\)"
    r"|^npm ERR! "
    # npm 10 and later ("npm error code EACCES")
    r"|^npm error code \S"
    r"|^FAILED\b"
    r"|^[^\S\n]*[1-9]\d* (fail|failed|failing)\b"
    r"|^=+ .*\b[1-9]\d* failed\b"
    r"|^Tests?:?\s+.*\b[1-9]\d* failed\b"
    r"|^Found [1-9]\d* errors?\b"
    r"|\bexited with (exit )?code [1-9]"
    r"|^make(\[\d+\])?: \*\*\* "
    r"|^[^\S\n]*[×✖✗✘] \S"
    r"|^failed to [a-z]+\b"
    r"|^\S+: command not found\b"
    # tsc's diagnostics ("src/a.ts:29:39 - error TS2345: …") and golangci-lint's count
    r"|^\S+:\d+:\d+ - error TS\d+:"
    r"|^[1-9]\d* issues?:$"
    # pytest's errors (a collection or fixture error: "==== 1 error in 0.12s ====", with
    # -q "1 error in 0.12s", and its short summary "ERROR tests/test_a.py::test_b - …"),
    # pip's "ERROR: Could not find a version …" and twine's "ERROR    HTTPError: 403 …"
    r"|^=+ .*\b[1-9]\d* errors?\b"
    r"|^[^\S\n]*[1-9]\d* errors? in [\d.]+s\b"
    r"|^ERROR [\w./-]+\.py\b"
    r"|^ERROR: \S"
    r"|^ERROR\s+\w*(Error|Exception)\b"
    # pytest's report of a failing test when its summary line was cut off: the exception
    # line it marks with "E" ("E       AssertionError: assert …"), the test's file and line
    # that raised ("tests/test_a.py:179: AssertionError"), and an error in a fixture
    # ("____ ERROR at setup of test_drill ____")
    r"|^E {3,}\w*(Error|Exception)\b"
    r"|^[\w./-]+\.py:\d+: \w*(Error|Exception)$"
    r"|^_+ ERROR at (setup|teardown) of \S"
    # a web server's error page printed by an upload or a fetch ("<h1>400 File already
    # exists …</h1>", "<title>502 Bad Gateway</title>")
    r"|^\s*<(h1|title)>[45]\d\d [A-Z]",
    re.MULTILINE,
)
#: A run's own summary that nothing failed (a test run's; a linter's that fixed all it
#: found): it outweighs error lines the tests logged.
_NOTHING_FAILED = re.compile(
    r"^[^\S\n]*0 fail\b|^Tests?:?\s+(?!.*\bfailed\b).*\bpassed\b"
    r"|^=+ (?!.*\b(failed|errors?)\b).*\bpassed\b"
    # ruff's `--fix` that fixed every finding it counted
    r"|^Found \d+ errors? \(\d+ fixed, 0 remaining\)",
    re.MULTILINE,
)
#: How many lines at the end of an output are read for a failure (a failing command
#: stops there; the middle of a long output is work, or another tool's logged noise).
FAILURE_TAIL_LINES = 15
#: Codex code mode runs a command from a script (`tools.exec_command({"cmd": …})`) and
#: prints its output without the exit code.
_CODE_MODE_CMD = re.compile(r'tools\.exec_command\(\s*\{\s*"cmd"\s*:\s*("(?:[^"\\]|\\.)*")')
#: Families whose exit status 1 means "no" (no match, differ, false, not found).
BENIGN_EXIT_1: frozenset[str] = SEARCH_PROGRAMS | frozenset(
    {"diff", "cmp", "colordiff", "test", "[", "[[", "which", "type", "command -v", "pgrep",
     "pidof", "comm", "lsof", "fuser", "look", "pkill", "killall", "ssh-add -l", "crontab -l"}
)  # fmt: skip
#: Programs whose listing option asks a question, as their family is named: `ssh-add -l`
#: ("The agent has no identities.") and `crontab -l` ("no crontab for dev") answer "none"
#: with exit 1, while the same programs adding a key or a table fail with it.
_LISTINGS = {"ssh-add": ("-l", "-L"), "crontab": ("-l",)}
#: The agent said, before the call, that it expects the call to fail.
_ANTICIPATED = re.compile(
    r"\b(confirm|verify|check|see|ensure|prove|show|watch|make sure)\s+(that\s+)?(it|this|they|"
    r"the (new )?tests?|the command|the call)\s+(still\s+|now\s+)?(fails?|errors?|throws|raises|"
    r"rejects?|exits? (non-?zero|with))\b"
    r"|\b(expect(ed|ing)?|should|is supposed to|are supposed to)\s+(it\s+|this\s+|them\s+)?"
    r"(to\s+)?(fail|error|throw|raise|reject|exit (non-?zero|with (an )?error))\b"
    r"|\b(test|try|exercise|check|verify)\w*\s+(the\s+|an?\s+)?(error|failure|failing|negative|"
    r"unhappy)[\s-](case|path|message|handling|output|scenario|behaviou?r)s?\b"
    r"|\bred (step|phase|check|test|run)\b|\bsee (it|them|the test) fail\b"
    # a check tried on input it must turn away ("Test commit-msg hook rejects bad message")
    r"|\brejects? (an? |the )?(bad|invalid|wrong|malformed|empty|unsigned)\b"
    r"|\bfails? for the (right|intended|expected) reason\b",
    re.IGNORECASE,
)
#: How much of the agent's words before a call is read for an announced failure.
ANNOUNCE_TAIL = 600
#: A stop or kill tool, and the answer that its target had stopped already.
_STOP_TOOL = re.compile(r"kill|stop|terminate|cancel", re.IGNORECASE)
_ALREADY_STOPPED = re.compile(
    r"\b(is not running|not running|already (exited|stopped|finished|completed|terminated|"
    r"killed|dead)|no such process|no process found)\b",
    re.IGNORECASE,
)
#: git's questions: a search, a comparison, an ancestry or ref test, a config key read
#: (exit 1: no match, they differ, not an ancestor, no such ref, the key is not set).
_GIT_BENIGN = re.compile(
    r"^git\s+(grep\b|diff\b.*--(exit-code|quiet)\b|merge-base --is-ancestor|"
    r"config\b.*(--get(-all|-regexp)?\b|\s--default\b)|config get\b|"
    r"show-ref\b.*--(quiet|verify|exists)\b|rev-parse\b.*(--quiet|-q)\b|"
    r"ls-remote\b.*--exit-code\b|check-ignore\b)"
)
_WRAPPERS = frozenset({"sudo", "time", "nice", "nohup", "command", "builtin", "exec", "env"})
#: Error words in an output line; "usage:" only opening one (a usage message), not a
#: login banner's "Memory usage: 23%".
_ERROR_TEXT = re.compile(
    r"error|fatal|denied|no such file|not found|cannot|invalid|unrecognized|^\s*usage:", re.I
)
_EXIT_LINE = re.compile(r"^\s*(Exit code:? \d+|Process exited with code \d+)\s*$", re.I)
#: Noise: a line in at least this share of a set of shell outputs …
NOISE_SHARE = 0.6
#: … of at least this many outputs, and in at least two outputs that succeeded.
NOISE_MIN_OUTPUTS = 3


def is_failed_result(event: EventView, call: EventView | None = None) -> bool:
    """The result reports a failure (of its own call or knocked on by another). With the
    call, a failure its command hid from the exit code counts too (`exit_hidden`)."""
    if event.kind != "tool_result":
        return False
    if event.is_error or (event.exit_code is not None and event.exit_code != 0):
        return True
    head = event.text[:600]
    return bool(
        _TOOL_USE_ERROR.search(event.text)
        or _CODEX_REFUSED.match(head)  # these two stored before the harvest flagged them
        or _CODEX_SANDBOX_STOPPED.match(head)
        or _PATCH_FAILED.search(head)
        or _TIMED_OUT.search(head)
        or _WARNING_ONLY.match(head)
        or _UNAVAILABLE.match(head)
        or _STOPPED_BY_PERSON.match(head)  # Codex flags no stopped call
        or _HIDDEN_FAILURE.search("\n".join(ANSI.sub("", head).splitlines()[:3]))
        or (call is not None and exit_hidden(call) and output_shows_failure(event.text))
        or (call is not None and bool(printed_status(call, event.text)))
    )


#: A command that ends by printing the status of what ran before it (`…; echo "exit: $?"`),
#: and the line it printed ("exit: 1", "Exit code: 2", a bare "1").
_ECHOES_STATUS = re.compile(r"(;|&&|\|\|)\s*echo\s+[^;&|\n]*\$\?[^;&|\n]*$")
_STATUS_LINE = re.compile(
    r"^\W*(?:(?:exit(?: code| status)?|status|rc|return code|returned|code)\W{0,3}\s*)?"
    r"(\d{1,3})\W*$",
    re.IGNORECASE,
)


def printed_status(call: EventView, text: str) -> int | None:
    """The status a command printed of itself, when it ends with `echo … $?`: the number
    on the last line of its output (None when it printed none)."""
    # (read for every shell result mining sees: the input is parsed only if it echoes `$?`)
    if not is_shell_tool(call.tool_name) or "$?" not in call.text:
        return None
    command = full_command(call.text)[:COMMAND_READ_CHARS]
    if not _ECHOES_STATUS.search(command):
        return None
    lines = [ln for ln in text[-400:].splitlines() if ln.strip()]
    match = _STATUS_LINE.match(lines[-1]) if lines else None
    return int(match.group(1)) if match else None


#: git's answer, in a repository with no commit yet, to a question about its history
#: (`git log`, `git rev-parse HEAD`): that there is none.
_NO_HISTORY = re.compile(r"^fatal: your current branch '[^'\n]+' does not have any commits yet$")


def answers_no_history(text: str) -> bool:
    """The only failure the output reports is git's "does not have any commits yet": the
    command asked about a history that does not exist yet, and that is its answer."""
    failing = [ln for ln in text.splitlines() if _ERROR_TEXT.search(ln.strip())]
    return bool(failing) and all(_NO_HISTORY.match(ln.strip()) for ln in failing)


def before_status_echo(command: str) -> str:
    """The command without its closing `echo … $?`: the command whose status was printed."""
    return _ECHOES_STATUS.sub("", command).rstrip()


#: How much of a command is read: for a pipe or an `|| true` that hides its status, and for
#: the last command of a chain, which sets it (a heredoc script may be long).
COMMAND_READ_CHARS = 4000


def shell_command(call: EventView) -> str:
    """The shell command of a call: a shell tool's argument, or the command a Codex
    code-mode script runs (`tools.exec_command({"cmd": "…"})`)."""
    if is_shell_tool(call.tool_name):
        return full_command(call.text)[:COMMAND_READ_CHARS]
    match = _CODE_MODE_CMD.search(call.text[:4000])
    if match is None:
        return ""
    try:
        value = json.loads(match.group(1))
    except ValueError:
        return ""
    return str(value).strip()[:COMMAND_READ_CHARS]


def exit_hidden(call: EventView) -> bool:
    """Only the output can tell whether the call's command failed: a pipe takes its
    status from the last command (`bun test 2>&1 | tail -5` exits 0 when the tests
    fail), `|| true` and `; echo …` throw it away, and Codex code mode prints the output
    without it."""
    if not is_shell_tool(call.tool_name):
        return bool(_CODE_MODE_CMD.search(call.text[:4000]))
    words = _words(full_command(call.text)[:COMMAND_READ_CHARS])
    for index, word in enumerate(words):
        nxt = words[index + 1] if index + 1 < len(words) else ""
        if word in ("|", "|&"):
            return True
        if word == "||" and nxt in ("true", ":", "echo", "exit"):
            return True
        if word == ";" and nxt in ("true", "echo") and "|" not in words[index + 1 :]:
            return True
    return False


def output_shows_failure(text: str) -> bool:
    """The output says its command failed: a failure line (`_FAILURE_LINE`) among its
    first three or last `FAILURE_TAIL_LINES` lines, and no test summary saying nothing
    failed."""
    lines = [ln for ln in ANSI.sub("", text[:20000]).splitlines() if ln.strip()]
    if len(text) > 20000:
        lines += [ln for ln in ANSI.sub("", text[-4000:]).splitlines() if ln.strip()]
    read = "\n".join(lines[:3] + lines[3:][-FAILURE_TAIL_LINES:])
    return bool(_FAILURE_LINE.search(read)) and not _NOTHING_FAILED.search(read)


def is_knock_on(event: EventView) -> bool:
    return bool(_KNOCK_ON.search(event.text[:400]))


_TOOL_VOCABULARY = re.compile(
    r"error|fail|not found|denied|invalid|cannot|can't|unable|exit code|no such|unknown|"
    r"refused|timed? ?out|exception|must|required|expected|string to replace|not allowed|"
    r"permission|blocked|abort|killed|usage|missing|does not exist|doesn't exist|<\w+>|"
    r"requires?|approv|not permitted|hook|limit|quota|illegal|\bE[A-Z]{3,}\b|"
    # Claude Code's own answers to a call it would not run, written without their
    # `<tool_use_error>` wrapper by 1.0.x ("File has not been read yet. Read it first before
    # writing to it.", "File has been modified since read", "No changes to make: …")
    r"has not been read|read it first|modified since|no changes to make|exactly the same|"
    r"found \d+ matches|too large|exceeds|is a directory|not a directory",
    re.IGNORECASE,
)


def _person_words(event: EventView) -> bool:
    """A refused call whose result is the person's own words (Claude Code writes what
    the person typed when refusing with feedback, e.g. "please add transformer.js too
    first"): one short line without any of a tool's error vocabulary."""
    text = event.text.strip()
    return (
        event.is_error
        and event.exit_code is None
        and 0 < len(text) <= 300
        and "\n" not in text
        and not _TOOL_VOCABULARY.search(text)
    )


def _is_operator(word: str) -> bool:
    """`|`, `&&`, `;` … (also glued to a closing `)`, as the lexer reads `$(…);`)."""
    return bool(re.fullmatch(r"[;&|()]+", word)) and bool(re.search(r"[;&|]", word))


def _words(command: str) -> list[str]:
    """Shell words with `|`, `&&`, `;` … as words of their own; quotes respected
    (`rg "a|b" src` is one command)."""
    lexer = shlex.shlex(command.replace("\n", " ; "), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: fall back to plain splitting
        return command.split()


def last_command(command: str) -> str:
    """The command that sets a chain's exit status (the last of `a && b | c`)."""
    words = _words(command)
    while words and _is_operator(words[-1]):
        words.pop()
    for index in range(len(words) - 1, -1, -1):
        if _is_operator(words[index]):
            words = words[index + 1 :]
            break
    return shlex.join(words)


def _program_at(words: Sequence[str]) -> int:
    """Where a simple command's program is among its words (-1: none)."""
    for index, word in enumerate(words):
        if "=" in word and not word.startswith(("-", "=")) and word.split("=")[0].isidentifier():
            continue
        if word in _WRAPPERS or word == "timeout" or re.fullmatch(r"-\S+|\d+[smh]?", word):
            continue
        return index
    return -1


def command_family(command: str) -> str:
    """The program of a simple command: `sudo FOO=1 grep -r x` → `grep`; `command -v x`,
    the shell's own "is there such a program", is `command -v`; a listing that asks a
    question (`ssh-add -L`) is named with its option (`ssh-add -l`)."""
    words = _words(command)
    for index, word in enumerate(words):
        if word == "command" and words[index + 1 : index + 2] in (["-v"], ["-V"]):
            return "command -v"
    at = _program_at(words)
    # quotes the lexer could not pair stay on the word (`"psql -c …` read by plain split)
    program = words[at].strip("\\\"'`").rsplit("/", 1)[-1] if at >= 0 else ""
    listing = _LISTINGS.get(program, ())
    options = _without_redirects(words[at + 1 :]) if listing else []
    if options and all(word in listing for word in options):
        return f"{program} {listing[0]}"
    return program


#: Shells that run a command string given with `-c` (`bash -lc "…"`).
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "ash", "fish"})
#: ssh's options that take a value (`ssh -p 2222 -i key host cmd`).
_SSH_VALUED = frozenset("bcDEeFIiJLlmOopQRSWw")
#: `docker exec`'s options that take a value.
_EXEC_VALUED = frozenset({"-u", "--user", "-w", "--workdir", "-e", "--env", "--env-file"})


def inner_command(command: str) -> str:
    """The command another program runs and exits with the status of: a shell's `-c`
    string, ssh's remote command, `adb shell …`, `docker|podman exec CONTAINER …`,
    `kubectl exec POD -- …`; "" when `command` runs none. Its exit status is that
    command's, so that command decides whether an exit is an answer."""
    words = _words(command)
    at = _program_at(words)
    if at < 0:
        return ""
    program, rest = words[at].rsplit("/", 1)[-1], _without_redirects(words[at + 1 :])
    run: list[str] = []
    if program in _SHELLS:
        flag = next((i for i, w in enumerate(rest) if re.fullmatch(r"-[a-z]*c[a-z]*", w)), None)
        run = rest[flag + 1 : flag + 2] if flag is not None else []
    elif program == "ssh":
        run = rest[_ssh_host_at(rest) + 1 :]  # after the host
    elif program == "adb" and "shell" in rest:
        run = rest[rest.index("shell") + 1 :]
    elif program in ("docker", "podman") and rest[:1] == ["exec"]:
        index = 1
        while index < len(rest) and rest[index].startswith("-"):
            index += 2 if rest[index] in _EXEC_VALUED else 1
        run = rest[index + 1 :]  # after the container
    elif program in ("kubectl", "oc") and "exec" in rest and "--" in rest:
        run = rest[rest.index("--") + 1 :]
    if len(run) == 1:
        return run[0]  # the command string, quoted as one word
    return shlex.join(run) if run else ""


def _ssh_host_at(args: Sequence[str]) -> int:
    """Where the host is among ssh's arguments: after its options and their values."""
    index = 0
    while index < len(args) and args[index].startswith("-"):
        option = args[index]
        index += 2 if len(option) == 2 and option[1] in _SSH_VALUED else 1
    return index


def _without_redirects(words: Sequence[str]) -> list[str]:
    """The words without redirections (`2>&1`, `> out.log`, `2>/dev/null`), which the
    lexer splits into a file descriptor, an operator and a target."""
    kept: list[str] = []
    skip_next = False
    for word in words:
        if skip_next:
            skip_next = False
            continue
        if re.fullmatch(r"[<>&]*[<>][<>&]*", word):
            if kept and kept[-1].isdigit():
                kept.pop()  # the file descriptor before the operator
            skip_next = True
            continue
        kept.append(word)
    return kept


_REMOTE_HINT = re.compile(r"\b(ssh|adb|docker|podman|kubectl|oc)\b")
#: A command line that may run another (`inner_command`): only such lines are lexed for it.
_RUNS_ANOTHER = re.compile(r"\b(ssh|adb|docker|podman|kubectl|oc|bash|sh|zsh|dash|ksh|ash|fish)\b")


def remote_of(command: str) -> str:
    """The machine a command runs on when it is not this one (`ssh root@host …` →
    `ssh root@host`, `adb -s emulator-5554 shell …`, `docker exec box …`), else ""."""
    if not _REMOTE_HINT.search(command):
        return ""  # most commands: no shell lexing for each of them
    words = _words(last_command(command))
    at = _program_at(words)
    if at < 0 or not inner_command(command):
        return ""
    program, rest = words[at].rsplit("/", 1)[-1], words[at + 1 :]
    if program == "ssh":
        host = _ssh_host_at(rest)
        return f"ssh {rest[host]}" if host < len(rest) else ""
    if program in ("adb", "docker", "podman", "kubectl", "oc"):
        return " ".join(words[at : at + 3])
    return ""


def deciding_command(command: str) -> str:
    """The simple command whose exit status a command line ends with: the last of a
    chain, inside whatever runs it (`ssh host "psql … | grep x"` → `grep x`)."""
    final = last_command(command)
    for _ in range(4):
        inner = inner_command(final) if _RUNS_ANOTHER.search(final) else ""
        if not inner:
            break
        final = last_command(inner)
    return final


def program_of(command: str) -> str:
    """The program of `deciding_command` (`ssh host "psql … | grep x"` → `grep`)."""
    return command_family(deciding_command(command))


def is_benign_exit(command: str, exit_code: int | None, text: str) -> bool:
    """A non-zero exit that answers a question (see the module docstring)."""
    if exit_code is None and text.strip() == "Error":
        # Claude Code 1.0 wrote a bare "Error", with no code, for a command that failed and
        # printed nothing: a question's "no" (an error of its own would have been printed)
        exit_code, text = 1, ""
    if not command:
        return False
    final = deciding_command(command)  # what a shell, ssh or a container runs decides
    family = command_family(final)
    if exit_code is None and family in _LOOKUPS:
        # Claude Code 1.0 flagged a lookup that missed one of several programs without
        # writing its code ("/usr/local/bin/npm\n/usr/local/bin/node" for `which docker
        # … node`): the only failure a lookup has is that answer
        exit_code = 1
    if exit_code is None or exit_code == 0:
        return False
    if _answers_with_its_status(family, final, exit_code, text):
        return True
    if exit_code != 1:
        return False
    head = _output_head(text)
    # "node not found" (zsh), "which: no node in (…)" (GNU), "node: not found": the answer
    # a lookup gives, not an error of its own
    beyond_lookups = [ln for ln in head if not _LOOKUP_MISS.match(ln)]
    if not beyond_lookups and "&&" in command and _stopped_at_a_question(command):
        return True
    if family not in BENIGN_EXIT_1 and not (family == "git" and _GIT_BENIGN.search(final)):
        return False
    if family in ("diff", "cmp", "colordiff", "comm") or family == "git":
        return True  # their output is the difference itself, error words included
    shown = beyond_lookups if family in _LOOKUPS else head
    return not any(_ERROR_TEXT.search(ln) for ln in shown)


#: Programs that look a command up; their "not found" line is the answer.
_LOOKUPS = frozenset({"which", "type", "command -v", "whereis"})
_LOOKUP_MISS = re.compile(
    r"^\s*([\w.+-]+ not found|which: no [\w.+-]+ in \(.*\)|[\w.+-]+: not found|"
    r"(bash|zsh|sh): type: [\w.+-]+: not found)\s*$"
)


def _stopped_at_a_question(command: str) -> bool:
    """`a | grep x && b` that failed and printed nothing: the chain stopped at a question
    answered "no" before `b` ran (`b` would have printed, or failed with words of its own).
    True when a command before an `&&` is one whose exit 1 is an answer."""
    words = _words(command)
    segments: list[list[str]] = [[]]
    for word in words:
        if word == "&&":
            segments.append([])
        else:
            segments[-1].append(word)
    return any(
        command_family(last_command(shlex.join(segment))) in BENIGN_EXIT_1
        for segment in segments[:-1]
        if segment
    )


def _output_head(text: str) -> list[str]:
    """The first lines a command printed, its exit-code line and blank lines left out:
    where an error of its own would show."""
    body = [ln for ln in text.splitlines() if ln.strip() and not _EXIT_LINE.match(ln)]
    return body[:20]


#: Programs a question about a path is asked with ("is it there?").
_PATH_PROBES = frozenset({"ls", "stat", "readlink", "realpath", "file"})
#: Standard error sent away, as the command was written or as the shell words join it again
#: ("2>/dev/null", "2 '>' /dev/null", "&>/dev/null").
_ERRORS_SILENCED = re.compile(r"(2|&)\s*'?>'?\s*/dev/null\b")
_GLOB_UNMATCHED = re.compile(r"\bno matches found\b|\bbad pattern\b")
#: `systemctl` asked about a unit: exit 3 is "not running", 1 "not enabled" / "not failed".
_SYSTEMCTL_QUESTION = re.compile(r"\bsystemctl\b.*\s(status|is-active|is-enabled|is-failed)\b")


def _answers_with_its_status(family: str, final: str, exit_code: int, text: str) -> bool:
    """A question whose exit status is the answer beyond exit 1: a path looked up with its
    errors silenced (`ls Dockerfile* 2>/dev/null`: exit 1 or 2, "none there"; the agent asked
    whether it exists and said it expected a no), and `systemctl status` of a unit that is
    not running (exit 3)."""
    if family in _PATH_PROBES and exit_code in (1, 2) and _ERRORS_SILENCED.search(final):
        # (zsh's own "no matches found" for the glob is not silenced: the probe never ran)
        head = _output_head(text)
        return not any(_ERROR_TEXT.search(ln) or _GLOB_UNMATCHED.search(ln) for ln in head)
    if family in _TREE_SEARCHES and exit_code in (1, 2):
        return _found_past_unreadable_paths(family, text)
    return family == "systemctl" and exit_code in (1, 3) and bool(_SYSTEMCTL_QUESTION.search(final))


#: Programs that walk a tree, and say so when a corner of it cannot be read.
_TREE_SEARCHES = SEARCH_PROGRAMS | frozenset({"find", "fd", "fdfind"})
#: A path the walk could not read: the walk went on past it.
_UNREADABLE = re.compile(
    r"(Permission denied|Operation not permitted|Interrupted system call)"
    r"( \(os error \d+\))?\s*$"
)
#: Codex's note that it shortened the output it shows.
_OUTPUT_SHORTENED = re.compile(r"^Total output lines: \d+$")


def _found_past_unreadable_paths(family: str, text: str) -> bool:
    """A search over a tree that found what it looked for and exited 1 or 2 only because
    some paths could not be read (`rg --files -g README* ~` over a home folder: "rg:
    ~/Library/Containers/…: Interrupted system call (os error 4)", `find / -name x` and
    its "Permission denied" lines): the answer came; the unreadable corners are not it."""
    lines = [
        ln.strip()
        for ln in ANSI.sub("", text).splitlines()
        if ln.strip() and not is_wrapper_line(ln) and not _OUTPUT_SHORTENED.match(ln.strip())
    ]
    own = [ln for ln in lines if ln.startswith(f"{family}: ")]
    found = len(lines) - len(own)
    return bool(own) and found > 0 and all(_UNREADABLE.search(ln) for ln in own)


@dataclass
class NoiseFilter:
    """Lines a machine prints in every shell output; removed before signatures."""

    lines: frozenset[str] = frozenset()

    def strip(self, text: str) -> str:
        if not self.lines:
            return text
        return "\n".join(ln for ln in text.splitlines() if ln.strip() not in self.lines)

    def merged(self, other: Iterable[str]) -> NoiseFilter:
        return NoiseFilter(self.lines | frozenset(other))


def noise_lines(outputs: Sequence[tuple[str, bool]]) -> frozenset[str]:
    """Lines in at least NOISE_SHARE of `outputs` ((text, failed) pairs), at least
    NOISE_MIN_OUTPUTS of them, and in at least two successful ones: a line that shows
    in successes and failures alike says nothing about a failure."""
    if len(outputs) < NOISE_MIN_OUTPUTS:
        return frozenset()
    seen: Counter[str] = Counter()
    in_success: Counter[str] = Counter()
    for text, failed in outputs:
        lines = {ln.strip() for ln in _edge_lines(text) if len(ln.strip()) >= 4}
        lines = {ln for ln in lines if not _EXIT_LINE.match(ln)}
        seen.update(lines)
        if not failed:
            in_success.update(lines)
    need = max(NOISE_MIN_OUTPUTS, int(NOISE_SHARE * len(outputs) + 0.999))
    return frozenset(ln for ln, n in seen.items() if n >= need and in_success[ln] >= 2)


def _edge_lines(text: str) -> list[str]:
    """Shell-init noise comes first (or last); the middle of a long output is work."""
    lines = text[:2000].splitlines()[:8]
    tail = text[-1000:].splitlines()[-4:] if len(text) > 2000 else []
    return lines + tail


@dataclass
class ErrorVerdict:
    kind: ErrorKind
    #: for a knock-on error: the result event whose failure caused it
    cause_id: int | None = None
    command: str = ""


@dataclass
class EpisodeErrors:
    """Each failed result of an episode with its verdict (result event id → verdict)."""

    verdicts: dict[int, ErrorVerdict] = field(default_factory=dict)

    def roots(self) -> list[int]:
        return [i for i, v in self.verdicts.items() if v.kind == "root"]


def _polled_commands(events: Sequence[EventView], calls: dict[str, EventView]) -> dict[int, str]:
    """Codex runs a long command with `exec_command` and reads its end with `write_stdin`
    on the same session id: the exit code `write_stdin` reports is that command's.
    Returns result event id → the command it reports on."""
    started: dict[str, str] = {}
    out: dict[int, str] = {}
    for event in events:
        if event.kind != "tool_result":
            continue
        call = calls.get(event.call_id or "")
        if call is None:
            continue
        running = RUNNING.search(event.text[:400])
        if running and is_shell_tool(call.tool_name):
            started[running.group(1)] = command_of(call.text)
            continue
        polled = POLLED_SESSION.search(call.text[:400])
        if polled and polled.group(1) in started:
            out[event.id] = started[polled.group(1)]
    return out


def shell_outputs_by_machine(events: Sequence[EventView]) -> dict[str, list[tuple[str, bool]]]:
    """Shell results ((text, failed) pairs) by the machine their command ran on ("" for
    this one, `ssh root@host` for another): a remote machine's login banner is its
    shell-init noise, however few of the session's commands ran there."""
    calls = {e.call_id: e for e in events if e.kind == "tool_call" and e.call_id}
    out: dict[str, list[tuple[str, bool]]] = {}
    for event in events:
        if event.kind != "tool_result":
            continue
        call = calls.get(event.call_id or "")
        if call is not None and is_shell_tool(call.tool_name):
            remote = _REMOTE_HINT.search(call.text)  # most calls: no command to decode
            machine = remote_of(command_of(call.text)) if remote else ""
            out.setdefault(machine, []).append((event.text, is_failed_result(event, call)))
    return out


def session_noise(events: Sequence[EventView]) -> frozenset[str]:
    """Noise lines of a session: of all its shell outputs, and of each remote machine's."""
    groups = shell_outputs_by_machine(events)
    lines = noise_lines([output for group in groups.values() for output in group])
    for machine, group in groups.items():
        if machine:
            lines |= noise_lines(group)
    return lines


def announced_failures(events: Sequence[EventView]) -> set[str]:
    """Call ids of the calls the agent said beforehand would fail (since the person's
    last turn, the agent's latest words before the call)."""
    said = ""
    out: set[str] = set()
    for event in events:
        if event.kind == "user_prompt":
            said = ""
        elif event.kind == "assistant_text":
            said = event.text[-ANNOUNCE_TAIL:]
        elif (
            event.kind == "tool_call"
            and event.call_id
            and (_ANTICIPATED.search(said) or _ANTICIPATED.search(_described_as(event)))
        ):
            out.add(event.call_id)
    return out


#: A program that could not run at all: not what a call announced to fail was testing
#: (a missing file may be, "verify it fails without the config").
_COULD_NOT_START = re.compile(
    r"command not found|No module named|Cannot find module|is not installed|"
    r"not recognized as an internal or external command",
    re.IGNORECASE,
)


def _described_as(call: EventView) -> str:
    """What the agent wrote, in the call itself, that the call is for (Claude Code's Bash
    `description`: "Verify both new tests now fail for the right reasons")."""
    if not is_shell_tool(call.tool_name) or '"description"' not in call.text[:4000]:
        return ""
    return _input_text(call, "description")[:ANNOUNCE_TAIL]


def _input_text(call: EventView, name: str) -> str:
    """A text field of the call's JSON input ("" when the input is not JSON, or the field
    is missing or not text)."""
    try:
        data = json.loads(call.text)
    except ValueError:
        return ""
    value = data.get(name) if isinstance(data, dict) else None
    return value if isinstance(value, str) else ""


def _already_stopped(call: EventView | None, event: EventView) -> bool:
    return (
        call is not None
        and bool(_STOP_TOOL.search(call.tool_name or ""))
        and bool(_ALREADY_STOPPED.search(event.text[:300]))
    )


def _stopped_by_the_agent(call: EventView | None, event: EventView) -> bool:
    """The agent sent Ctrl-C (or Ctrl-D) to a command it was polling (Codex
    `write_stdin` with `"chars": "\\u0003"`): the exit that follows (130) is the stop it
    asked for, not a failure."""
    if call is None or event.exit_code in (None, 0):
        return False
    chars = _input_text(call, "chars")
    return chars != "" and set(chars) <= {"\x03", "\x04"}


def judge_errors(events: Sequence[EventView]) -> EpisodeErrors:
    """Root, knock-on or benign for every failed tool result of `events`."""
    calls = {e.call_id: e for e in events if e.kind == "tool_call" and e.call_id}
    announced = announced_failures(events)
    result = EpisodeErrors()
    last_root: int | None = None
    failed = [e for e in events if is_failed_result(e, calls.get(e.call_id or ""))]
    by_message: dict[str, list[EventView]] = {}
    for event in failed:
        call = calls.get(event.call_id or "")
        if call is not None and call.message_id:
            by_message.setdefault(call.message_id, []).append(event)
    polled = _polled_commands(events, calls)
    for event in failed:
        call = calls.get(event.call_id or "")
        command = shell_command(call) if call is not None else ""
        command = command or polled.get(event.id, "")
        if is_knock_on(event):
            siblings = by_message.get(call.message_id, []) if call and call.message_id else []
            cause = next((s.id for s in siblings if not is_knock_on(s)), last_root)
            result.verdicts[event.id] = ErrorVerdict("knock_on", cause, command)
            continue
        head = event.text[:400]
        if REFUSED.search(head) or _STOPPED_BY_PERSON.search(head) or _person_words(event):
            result.verdicts[event.id] = ErrorVerdict("benign", None, command)
            last_root = event.id  # what the calls cancelled with it point to
            continue
        exit_code = event.exit_code
        if exit_code is None and call is not None:
            printed = printed_status(call, event.text)
            if printed:  # the status it printed is the command's before the echo
                exit_code, command = printed, before_status_echo(command)
        if command and (
            is_benign_exit(command, exit_code, event.text) or answers_no_history(event.text)
        ):
            result.verdicts[event.id] = ErrorVerdict("benign", None, command)
            continue
        # a polled command's exit is read by a later call made under the same words
        # (a call expected to fail that could not even start failed for another reason)
        expected = (
            call is not None
            and call.call_id in announced
            and not _COULD_NOT_START.search(event.text[:2000])
        )
        if expected or _already_stopped(call, event) or _stopped_by_the_agent(call, event):
            result.verdicts[event.id] = ErrorVerdict("benign", None, command)
            continue
        result.verdicts[event.id] = ErrorVerdict("root", None, command)
        last_root = event.id
    return result
