"""Reading a shell command: its words, the command that sets a chain's exit status, the
program of a simple command, the command another program runs for it (a shell's `-c`,
ssh, `adb shell`, `docker exec`), the machine it ran on, and whether its exit status is
hidden (a pipe, `|| true`, `; echo …`, Codex code mode) or printed (`echo $?`).
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence

from sleepd.mining.episodes import EventView
from sleepd.mining.json_text import json_value
from sleepd.mining.signatures import ANSI, CODE_MODE_TOOL, is_shell_tool
from sleepd.mining.tasks import full_command, program_name, script_after_flag

#: Codex code mode runs a command from a script (`tools.exec_command({"cmd": …})`) and
#: prints its output without the exit code. The script is JavaScript: the key may be bare
#: and the command a template literal or a single-quoted string (Codex Desktop:
#: "tools.exec_command({\n  cmd: `gh api graphql … | rg '1765'`,\n  workdir: …})"), and
#: other keys may come first.
_CODE_MODE_CMD = re.compile(
    r"tools\.exec_command\(\s*\{[^{}]{0,400}?(?<![\w$])(?:\"cmd\"|'cmd'|cmd)\s*:\s*"
    r"(?:(?P<double>\"(?:[^\"\\]|\\.)*\")|`(?P<template>(?:[^`\\]|\\.)*)`"
    r"|'(?P<single>(?:[^'\\]|\\.)*)')"
)


_CODE_MODE_CALL = re.compile(r"\btools\.exec_command\(")


def _code_mode_command(script: str) -> str | None:
    """The command string of a code-mode script's `exec_command` call, unquoted; None
    without one."""
    match = _CODE_MODE_CMD.search(script[:4000])
    if match is None:
        return None
    if match["double"] is not None:
        try:
            return str(json.loads(match["double"]))
        except ValueError:
            return None
    raw = match["template"] if match["template"] is not None else match["single"]
    return re.sub(r"\\(.)", r"\1", raw, flags=re.DOTALL)


#: Programs whose listing option asks a question, as their family is named: `ssh-add -l`
#: ("The agent has no identities.") and `crontab -l` ("no crontab for dev") answer "none"
#: with exit 1, while the same programs adding a key or a table fail with it.
_LISTINGS = {"ssh-add": ("-l", "-L"), "crontab": ("-l",)}
#: Programs asked whether a process still runs, as their family is named: `ps -p 36591`
#: and `kill -0 36591` answer "no such process" with exit 1.
_PROCESS_QUESTIONS = {"ps": "-p", "kill": "-0"}


_WRAPPERS = frozenset({"sudo", "time", "nice", "nohup", "command", "builtin", "exec", "env"})


#: A command that ends by printing the status of what ran before it (`…; echo "exit: $?"`),
#: and the line it printed ("exit: 1", "Exit code: 2", a bare "1").
_ECHOES_STATUS = re.compile(r"(;|&&|\|\|)\s*echo\s+[^;&|\n]*\$\?[^;&|\n]*$")


_STATUS_LINE = re.compile(
    r"^\W*(?:(?:exit(?: code| status)?|status|rc|return code|returned|code)\W{0,3}\s*)?"
    r"(\d{1,3})\W*$",
    re.IGNORECASE,
)


#: Claude Code's note under a command that left its working directory ("Shell cwd was reset
#: to /Users/dip/Repositories/cli"): written after the output, never the command's.
_CWD_RESET = re.compile(r"^Shell cwd was reset to \S")


def printed_status(call: EventView, text: str) -> int | None:
    """The status a command printed of itself, when it ends with `echo … $?`: the number
    on the last line of its output (None when it printed none)."""
    # (read for every shell result mining sees: the input is parsed only if it echoes `$?`)
    if not is_shell_tool(call.tool_name) or "$?" not in call.text:
        return None
    command = full_command(call.text)[:COMMAND_READ_CHARS]
    if not _ECHOES_STATUS.search(command):
        return None
    lines = [ln for ln in text[-400:].splitlines() if ln.strip() and not _CWD_RESET.match(ln)]
    match = _STATUS_LINE.match(lines[-1]) if lines else None
    return int(match.group(1)) if match else None


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
    if call.tool_name != CODE_MODE_TOOL:
        return ""  # (a file written or edited may hold a script's words)
    return (_code_mode_command(call.text) or "").strip()[:COMMAND_READ_CHARS]


def exit_hidden(call: EventView) -> bool:
    """Only the output can tell whether the call's command failed: a pipe takes its
    status from the last command (`bun test 2>&1 | tail -5` exits 0 when the tests
    fail), `|| true` and `; echo …` throw it away, `&` sends the command to the background
    (`python -m http.server 8000 &` exits 0 when there is no `python`), and Codex code
    mode prints the output without it. What a shell, ssh or a container runs for the line
    is read too (`bash -lc "pytest | tail -5"`), as the script is when the call hands the
    shell its arguments as a list."""
    if not is_shell_tool(call.tool_name):
        # (a script may run several commands, `tools.exec_command({cmd, workdir})` over a
        # list: none of their codes is printed; a file written or edited that holds such
        # a script runs nothing)
        return call.tool_name == CODE_MODE_TOOL and bool(_CODE_MODE_CALL.search(call.text[:4000]))
    command = full_command(call.text)[:COMMAND_READ_CHARS]
    if _hides_status(shell_words(command), _argv_shell(call.text)):
        return True
    chain = _deciding_chain(command)
    if chain == command:
        return False
    outer = shell_words(last_command(command))
    at = _program_at(outer)
    return _hides_status(shell_words(chain), _windows_shell(outer[at]) if at >= 0 else "")


_ARGV_CALL = re.compile(r'"command"\s*:\s*\[')


def _argv_shell(call_text: str) -> str:
    """Which of Windows's shells a call handed its script to as an argument list
    (`["cmd", "/c", "cd app & dotnet test"]`); "" for any other call."""
    if not _ARGV_CALL.search(call_text[:300]):
        return ""  # most calls: a command line, read once already
    data = json_value(call_text.strip(), None)
    argv = data.get("command") if isinstance(data, dict) else None
    return _windows_shell(str(argv[0])) if isinstance(argv, list) and argv else ""


def _hides_status(words: Sequence[str], windows: str = "") -> bool:
    """Whether a command line's words throw its status away (`exit_hidden`); `windows`:
    the Windows shell that runs them, where `&` runs one command after another (cmd) or
    calls a program (PowerShell), and sends nothing to the background."""
    pipefail = False  # `set -o pipefail`: a pipe then fails with any of its commands
    for index, word in enumerate(words):
        nxt = words[index + 1] if index + 1 < len(words) else ""
        pipefail = pipefail or word == "pipefail"
        if word in ("|", "|&") and not pipefail:
            return True
        if word == "&" and not windows:
            # sent to the background: the shell's status is that of starting it
            return True
        if word == "||" and nxt in ("true", ":", "echo"):
            return True
        if word == "||" and nxt == "exit" and words[index + 2 : index + 3] == ["0"]:
            return True  # (a bare `exit`, or `exit 1`, keeps the failure)
        if word == ";" and nxt in ("true", "echo") and "|" not in words[index + 1 :]:
            return True
    return False


def is_operator(word: str) -> bool:
    """`|`, `&&`, `;` … (also glued to a closing `)`, as the lexer reads `$(…);`)."""
    return bool(re.fullmatch(r"[;&|()]+", word)) and bool(re.search(r"[;&|]", word))


def shell_words(command: str) -> list[str]:
    """Shell words with `|`, `&&`, `;` … as words of their own; quotes respected
    (`rg "a|b" src` is one command)."""
    # one command a line; a line that held only a comment separates nothing
    lines = [line for line in without_comments(command).split("\n") if line.strip()]
    joined = " ; ".join(lines)
    words = read_shell_words(joined)
    # a command read only to its first characters may be cut inside a quote (an argument
    # list's patch, `apply_patch '*** Begin Patch …`): read as if the quote closed there
    for close in ("'", '"'):
        if words is None:
            words = read_shell_words(joined + close)
    # quotes unbalanced otherwise: fall back to plain splitting
    return words if words is not None else command.split()


#: A quoted or plain shell word, as an option's value is written.
_VALUE = r"(?:\"[^\"]*\"|'[^']*'|\S+)"
#: git's own options before its subcommand (`git -C "C:\\src\\repo"`, `git -c
#: core.pager=cat`, `git --no-pager`): where or how git runs, not what it is asked.
_GIT_OPTIONS = re.compile(
    rf"(?<![\w./-])git((?:\s+(?:-[Cc]\s+{_VALUE}"
    rf"|--(?:git-dir|work-tree|namespace|config-env)(?:={_VALUE}|\s+{_VALUE})"
    r"|--no-pager|--paginate|-[Pp]|--bare|--no-replace-objects|--literal-pathspecs"
    r"|--no-optional-locks))+)(?=\s)"
)


def without_git_options(command: str) -> str:
    """The command with git's own options taken out (`git -C "C:\\src\\repo" remote get-url
    alt` → `git remote get-url alt`), so that what git was asked reads the same however
    the agent pointed git at the repository."""
    return _GIT_OPTIONS.sub("git", command)


def fallback_echoes(command: str) -> frozenset[str]:
    """What the command's own fallbacks print (`… 2>&1 || echo "NOT_FOUND"` → `NOT_FOUND`):
    the answer the agent wrote down beforehand, never words of the program it ran."""
    words = shell_words(command)
    found: set[str] = set()
    for index, word in enumerate(words[:-1]):
        if word != "||" or words[index + 1] != "echo":
            continue
        said: list[str] = []
        for arg in words[index + 2 :]:
            if is_operator(arg):
                break
            if said or not re.fullmatch(r"-[neE]+", arg):  # echo's own options
                said.append(arg)
        if said:
            found.add(" ".join(said))
    return frozenset(found)


#: Programs a pipe hands a command's output to, to cut it down, search it or show it: they
#: change what is shown, never what ran (`pytest -q 2>&1 | tail -20`).
OUTPUT_FILTERS = frozenset(
    {"tail", "head", "grep", "egrep", "rg", "wc", "less", "more", "cat", "sort", "uniq", "tee",
     "cut"}
)  # fmt: skip


#: Programs a question about a path is asked with ("is it there?").
PATH_PROBES = frozenset({"ls", "lsd", "eza", "exa", "stat", "readlink", "realpath", "file"})


def without_comments(command: str) -> str:
    """`command` less its comments as a shell reads them: a `#` that opens a word, outside
    quotes, to the end of its line ("# Check if the font is there\nfc-list | grep -i x",
    "make test  # all of it"); not a `#` inside a word (`--format=%h#%s`, `${#list}`, `$#`)
    or quotes (`grep "#include"`)."""
    if "#" not in command:
        return command
    out: list[str] = []
    quote = ""
    previous = " "
    index = 0
    while index < len(command):
        char = command[index]
        if quote:
            if char == "\\" and quote == '"' and index + 1 < len(command):
                out.append(command[index : index + 2])
                index += 2
                continue
            if char == quote:
                quote = ""
        elif char == "\\" and index + 1 < len(command):
            out.append(command[index : index + 2])
            previous = "x"
            index += 2
            continue
        elif char in "'\"":
            quote = char
        elif char == "#" and (previous.isspace() or previous in ";&|()"):
            end = command.find("\n", index)
            index = len(command) if end < 0 else end
            continue
        out.append(char)
        previous = char
        index += 1
    return "".join(out)


def read_shell_words(line: str) -> list[str] | None:
    """`line`'s shell words with `|`, `&&`, `;`, `>` … as words of their own and quotes
    taken off (`--grep "A|B"` is one word, `2>&1` reads as `2`, `>&`, `1`); None when it
    cannot be read as words (an open quote)."""
    lexer = shlex.shlex(without_comments(line), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""  # shlex would end a word at any "#" ("--format=%h#%s")
    try:
        return list(lexer)
    except ValueError:
        return None


def last_command(command: str) -> str:
    """The command that sets a chain's exit status (the last of `a && b | c`)."""
    return shlex.join(_last_link(command)[1])


def _last_link(command: str) -> tuple[str, list[str]]:
    """The operator before a chain's last command ("" when it has none) and that command's
    words."""
    words = shell_words(command)
    while words and is_operator(words[-1]):
        words.pop()
    for index in range(len(words) - 1, -1, -1):
        if is_operator(words[index]):
            return words[index], words[index + 1 :]
    return "", words


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
    question (`ssh-add -L`) is named with its option (`ssh-add -l`), and so is a question
    whether a process runs (`ps -p 36591`, `kill -0 36591`)."""
    words = shell_words(command)
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
    asks = _PROCESS_QUESTIONS.get(program)
    if asks is not None:
        # the process ids after the option (`ps -p 36591 -o pid=,etime=`, `kill -0 36591`)
        rest = _without_redirects(words[at + 1 :])
        pids = rest[rest.index(asks) + 1 :][:1] if asks in rest else []
        if pids and re.fullmatch(r"(\d+|\$\{?\w+\}?)(,\d+)*", pids[0]):
            return f"{program} {asks}"
    return program


#: Shells that run a command string given with `-c` (`bash -lc "…"`).
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "ash", "fish"})
#: Windows's shells, handed a script after `-Command` or `/c` (`powershell.exe -NoProfile
#: -Command "rg --files | rg speckit"`), as a command line names them.
_WINDOWS_SHELLS = frozenset({"powershell", "pwsh", "cmd"})
#: One named by its whole Windows path, as a POSIX reading of the line leaves it (the
#: backslashes taken as escapes): `C:WindowsSystem32cmd.exe`.
_WINDOWS_SHELL_AT = re.compile(r"[A-Za-z]:\S*?(powershell|pwsh|cmd)\.exe", re.IGNORECASE)


def _windows_shell(word: str) -> str:
    """Which of Windows's shells `word` names ("" for none)."""
    name = program_name(word)
    if name in _WINDOWS_SHELLS:
        return name
    glued = _WINDOWS_SHELL_AT.fullmatch(word)
    return glued.group(1).lower() if glued else ""


#: ssh's options that take a value (`ssh -p 2222 -i key host cmd`).
_SSH_VALUED = frozenset("bcDEeFIiJLlmOopQRSWw")


#: `docker exec`'s options that take a value.
_EXEC_VALUED = frozenset({"-u", "--user", "-w", "--workdir", "-e", "--env", "--env-file"})


def inner_command(command: str) -> str:
    """The command another program runs and exits with the status of: a shell's `-c`
    string (PowerShell's `-Command`, cmd's `/c`), ssh's remote command, `adb shell …`,
    `docker|podman exec CONTAINER …`, `kubectl exec POD -- …`; "" when `command` runs none.
    Its exit status is that command's, so that command decides whether an exit is an
    answer."""
    words = shell_words(command)
    at = _program_at(words)
    if at < 0:
        return ""
    program, rest = words[at].rsplit("/", 1)[-1], _without_redirects(words[at + 1 :])
    run: list[str] = []
    windows = _windows_shell(words[at])
    if windows:
        # PowerShell and cmd run the rest of their line after the flag as one script
        run = script_after_flag([windows, *rest]) or []
    elif program in _SHELLS:
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


REMOTE_HINT = re.compile(r"\b(ssh|adb|docker|podman|kubectl|oc)\b")


#: A command line that may run another (`inner_command`): only such lines are lexed for it.
_RUNS_ANOTHER = re.compile(
    r"\b(ssh|adb|docker|podman|kubectl|oc|bash|sh|zsh|dash|ksh|ash|fish)\b"
    r"|\b(powershell|pwsh|cmd)\b|(powershell|pwsh|cmd)\.exe\b",
    re.IGNORECASE,
)


def remote_of(command: str) -> str:
    """The machine a command runs on when it is not this one (`ssh root@host …` →
    `ssh root@host`, `adb -s emulator-5554 shell …`, `docker exec box …`), else ""."""
    if not REMOTE_HINT.search(command):
        return ""  # most commands: no shell lexing for each of them
    words = shell_words(last_command(command))
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
    return last_command(_deciding_chain(command))


def _deciding_chain(command: str) -> str:
    """The chain whose last command decides the line's status: the line itself, or the
    one a command of it runs (`ssh host "psql … | grep x"` → `psql … | grep x`)."""
    chain = command
    for _ in range(4):
        final = last_command(chain)
        inner = inner_command(final) if _RUNS_ANOTHER.search(final) else ""
        if not inner:
            break
        chain = inner
    return chain


def program_of(command: str) -> str:
    """The program of `deciding_command` (`ssh host "psql … | grep x"` → `grep`)."""
    return command_family(deciding_command(command))


def reads_a_pipe(command: str) -> bool:
    """The simple command whose status the line ends with reads what another printed
    (`npm run build 2>&1 | grep error`, `ssh host "journalctl | grep x"`): what it prints
    are that program's lines, not the files it searched."""
    return _last_link(_deciding_chain(command))[0] in ("|", "|&")


#: A line in which the shell itself refuses a command it was given: a glob that matched
#: nothing or would not parse ("zsh:1: no matches found: src/app/(auth)/x", "zsh:1: unknown
#: sort specifier"), a program or a directory that is not there ("bash: line 1: cd: web: No
#: such file or directory", "sh: 1: rg: not found"), a line that would not parse; "(eval)" is
#: how zsh names the line Claude Code hands it.
SHELL_COMPLAINT = re.compile(
    r"^\s*((/[\w/]+/)?(ba|z|da|k|fi)?sh|\(eval\))(:[\w-]+)?:(\s*line)?\s*\d*:\s*(?!.*\bwarning\b)"
    r".*(no matches found|bad pattern|unknown sort specifier|unknown file attribute|"
    r"parse error|syntax error|bad substitution|unmatched|bad math|command not found|"
    r"not found|no such file or directory|permission denied)",
    re.IGNORECASE,
)


#: The shell's word that a glob matched nothing or would not parse: an answer to a probe
#: ("is there any?"), where its other complaints are a line it could not run.
GLOB_UNMATCHED = re.compile(r"\bno matches found\b|\bbad pattern\b")


def shell_complained(text: str) -> bool:
    """Whether the shell refused some command of the line: then the question the line asked
    was never put, and its exit status answers nothing, wherever the complaint stands (after
    the output of `nl -ba f && rg … src/(portal)` as much as alone)."""
    plain = ANSI.sub("", text) if "\x1b" in text else text
    if "sh:" not in plain and "(eval)" not in plain:
        return False  # every complaint opens with one of them; most outputs hold neither
    return any(SHELL_COMPLAINT.match(ln) for ln in plain.splitlines())
