"""Exits that answer a question rather than fail: no match, files differ, false, not
found, no such process, none listed, a poll's "not yet", a path looked up that is not
there, a unit not running, a search that found its hits past unreadable paths, a history
that does not exist yet, a package version or a branch's pull request looked up that is not
there.
"""

from __future__ import annotations

import re
import shlex

from sleepd.mining.errors.noise import EXIT_LINE
from sleepd.mining.errors.shell import (
    GLOB_UNMATCHED,
    PATH_PROBES,
    command_family,
    deciding_command,
    fallback_echoes,
    is_operator,
    last_command,
    shell_complained,
    shell_words,
    without_git_options,
)
from sleepd.mining.signatures import (
    ANSI,
    NPM_FOOTER,
    SEARCH_PROGRAMS,
    is_cut_note,
    is_shell_tool,
    is_wrapper_line,
)

#: Families whose exit status 1 means "no" (no match, differ, false, not found).
BENIGN_EXIT_1: frozenset[str] = SEARCH_PROGRAMS | frozenset(
    {"diff", "cmp", "colordiff", "test", "[", "[[", "which", "type", "command -v", "pgrep",
     "pidof", "comm", "lsof", "fuser", "look", "pkill", "killall", "ssh-add -l", "crontab -l",
     "ps -p", "kill -0"}
)  # fmt: skip


#: git's questions: a search, a comparison, an ancestry or ref test, a config key read
#: (exit 1: no match, they differ, not an ancestor, no such ref, the key is not set).
_GIT_BENIGN = re.compile(
    r"^git\s+(grep\b|diff\b.*--(exit-code|quiet)\b|merge-base --is-ancestor|"
    r"config\b.*(--get(-all|-regexp)?\b|\s--default\b)|config get\b|"
    # (a key alone, no value after it, is read: `git config gc.auto`, `git config --global
    # fetch.prune`; with a value it is set)
    r"config(\s+--(global|local|system|worktree)|\s+(-f|--file)\s+\S+)*\s+[\w-]+(\.[\w*-]+)+"
    # (and a redirection after it, as the command's words hold it: "2 '>&' 1")
    r"(\s+(\d\s+)?'?&?>>?&?'?\s*\S+)*\s*$|"
    r"show-ref\b.*--(quiet|verify|exists)\b|rev-parse\b.*(--quiet|-q)\b|"
    r"ls-remote\b.*--exit-code\b|check-ignore\b)"
)


#: Error words in an output line; "usage:" only opening one (a usage message), not a
#: login banner's "Memory usage: 23%".
_ERROR_TEXT = re.compile(
    r"error|fatal|denied|no such file|not found|cannot|invalid|unrecognized|^\s*usage:", re.I
)


#: git's answer, in a repository with no commit yet, to a question about its history
#: (`git log`, `git rev-parse HEAD`): that there is none.
_NO_HISTORY = re.compile(r"^fatal: your current branch '[^'\n]+' does not have any commits yet$")


def answers_no_history(text: str) -> bool:
    """The only failure the output reports is git's "does not have any commits yet": the
    command asked about a history that does not exist yet, and that is its answer."""
    failing = [ln for ln in text.splitlines() if _ERROR_TEXT.search(ln.strip())]
    return bool(failing) and all(_NO_HISTORY.match(ln.strip()) for ln in failing)


#: A question about a remote (`git ls-remote origin`, `git remote get-url origin`) ...
_ASKS_A_REMOTE = re.compile(r"\bgit\s+(ls-remote|remote\s+(get-url|show))\b")
#: ... answered by git: there is no such remote.
_NO_REMOTE = re.compile(
    r"^(fatal: '[^'\n]+' does not appear to be a git repository|"
    r"fatal: Could not read from remote repository\.|error: No such remote '[^'\n]+')$"
)


#: Words of trouble beyond `_ERROR_TEXT`'s ("Could not resolve hostname", "timed out").
_TROUBLE = re.compile(r"could not|couldn'?t|unable|fail|timed? ?out|refused|resolve", re.I)
#: git's advice under a remote it could not read.
_GIT_HINT = re.compile(
    r"^(Please make sure you have the correct access rights|and the repository exists\.)$"
)


def answers_no_remote(command: str, text: str) -> bool:
    """The command asked git about a remote, and the only failure it reports is that there
    is none (`git ls-remote --heads origin | grep …` in a repository with no remote: no
    branches there, which is the answer; `git -C repo remote get-url alt 2>&1 || echo
    NOT_FOUND`, whose own fallback prints the "NOT_FOUND")."""
    if not _ASKS_A_REMOTE.search(without_git_options(command)):
        return False
    # every line that tells of trouble says so (a network failure, "ssh: Could not resolve
    # hostname", is a failure of its own; a shell's "Now using node v22" tells of none)
    said = [ln for ln in _trouble_told(command, text) if not _GIT_HINT.match(ln)]
    return bool(said) and all(_NO_REMOTE.match(ln) for ln in said)


def _trouble_told(command: str, text: str, also: re.Pattern[str] | None = None) -> list[str]:
    """The output's lines, stripped, that tell of trouble (an error word, a word of
    trouble, or `also`'s), less the messages the command's own fallback prints."""
    fallback = fallback_echoes(command)
    lines = (ln.strip() for ln in ANSI.sub("", text).splitlines())
    return [
        ln
        for ln in lines
        if (_ERROR_TEXT.search(ln) or _TROUBLE.search(ln) or (also is not None and also.search(ln)))
        and ln not in fallback
    ]


#: A question to a package registry about a package or one of its versions (`npm view
#: left-pad@1.4.0 version`, `npm info`, `pnpm view`), or to GitHub about the pull request of
#: the branch checked out (`gh pr view`, `gh pr checks`, `gh pr status`).
_ASKS_WHETHER_IT_EXISTS = re.compile(
    r"\b(?:(?:npm|pnpm)\s+(?:view|info|show|v)|yarn\s+(?:npm\s+)?info)\s"
    r"|\bgh\s+pr\s+(?:view|checks|status)\b"
)
#: ... answered: it is not there. npm's 404 block and the JSON it prints with `--json`
#: ("npm error 404 No match found for version 1.4.0", "'left-pad@1.4.0' is not in this
#: registry."), pnpm's `ERR_PNPM_FETCH_404`, and gh's "no pull requests found for branch
#: "main""; npm's log footer under them (`signatures.NPM_FOOTER`) says nothing either way.
_ANSWERED_NOT_THERE = re.compile(
    r"^(?:npm (?:ERR!|error) (?:code E404|404\b.*)|ERR_PNPM_FETCH_404\b.*|\"error\": \{"
    r"|\"(?:code|summary|detail)\": \".*\",?|no (?:open )?pull requests found for branch"
    r" \"[^\"\n]+\")$",
    re.IGNORECASE,
)
#: Every package manager command a line runs, with its subcommand: a lookup answers for
#: the line only when no other kind of package command ran in it.
_PACKAGE_MANAGER_RUN = re.compile(r"\b(npm|pnpm|yarn)\s+([\w-]+)")
_LOOKUP_VERBS = frozenset({"view", "info", "show", "v", "npm"})
_SAYS_NOT_THERE = re.compile(r"\bE?404\b|no (?:open )?pull requests found", re.IGNORECASE)


def answers_not_there(command: str, text: str) -> bool:
    """The command asked whether a package, a version of it or the branch's pull request
    exists, and the only failure it reports is the answer "no": a release checked against
    the registry before publishing (`npm view left-pad@1.4.0 version --json || true`), a
    branch checked for an open pull request (`gh pr view`). A lookup that failed otherwise
    (no network, no login) says so in lines of its own, and stays a failure."""
    if not _ASKS_WHETHER_IT_EXISTS.search(command):
        return False
    if any(m.group(2).lower() not in _LOOKUP_VERBS for m in _PACKAGE_MANAGER_RUN.finditer(command)):
        return False  # another package command ran with it (`npm view x && npm publish`)
    said = [ln for ln in _trouble_told(command, text, _SAYS_NOT_THERE) if not is_wrapper_line(ln)]
    return any(_SAYS_NOT_THERE.search(ln) for ln in said) and all(
        _ANSWERED_NOT_THERE.match(ln) or NPM_FOOTER.fullmatch(ln) for ln in said
    )


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
        # a pipe hid the status: a path probe shown through a pager answers as it does alone
        probe = _probe_through_a_pager(command)
        return bool(probe) and _answers_with_its_status(command_family(probe), probe, 2, text)
    if family not in _LOOKUPS and shell_complained(text):
        return False
    if _answers_with_its_status(family, final, exit_code, text):
        return True
    if exit_code != 1:
        return False
    head = _output_head(text)
    if _only_waiting(head):
        return True
    # "node not found" (zsh), "which: no node in (…)" (GNU), "node: not found": the answer
    # a lookup gives, not an error of its own
    beyond_lookups = [ln for ln in head if not _LOOKUP_MISS.match(ln)]
    if not beyond_lookups and "&&" in command and _stopped_at_a_question(command):
        return True
    if family == "gofmt" and "-d" in shell_words(final):
        # `gofmt -d` exits 1 when it prints a difference (since Go 1.26), as diff does; its
        # output then opens with the diff's own "diff a.go.orig a.go" line
        head = _output_head(text)
        return bool(head) and head[0].startswith("diff ")
    if family not in BENIGN_EXIT_1 and not (
        family == "git" and _GIT_BENIGN.search(without_git_options(final))
    ):
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
    words = shell_words(command)
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


#: Programs a probe's answer is piped through to be shown, not changed: its "not there"
#: still the answer.
_PAGERS = frozenset({"head", "tail", "less", "more", "cat", "sort", "column"})
#: Longer than any probe and its pagers.
_PROBE_PIPELINE_CHARS = 2000


def _probe_through_a_pager(command: str) -> str:
    """`ls -la build 2>&1 | head -30`: the path probe at the head of a pipeline of pagers,
    the pipeline the whole command ("" when it is anything else)."""
    if len(command) > _PROBE_PIPELINE_CHARS:
        return ""  # a script, not a probe: not worth splitting into words
    segments: list[list[str]] = [[]]
    for word in shell_words(command):
        if word == "|":
            segments.append([])
        elif is_operator(word):
            return ""  # a chain or a sequence: more than the probe answers
        else:
            segments[-1].append(word)
    if len(segments) < 2 or not all(segments):
        return ""
    families = [command_family(shlex.join(segment)) for segment in segments]
    if families[0] not in PATH_PROBES or not all(f in _PAGERS for f in families[1:]):
        return ""
    return shlex.join(segments[0])


def _output_head(text: str) -> list[str]:
    """The first lines a command printed, its exit-code line and blank lines left out:
    where an error of its own would show."""
    body = [ln for ln in text.splitlines() if ln.strip() and not EXIT_LINE.match(ln)]
    return body[:20]


#: A poll's "not yet": a script asked whether a run has finished says it is still waiting
#: ("Waiting for tests to start...", exit 1) and nothing else; so does gh asked for the
#: logs of a CI run that has not finished ("run 28551206590 is still in progress; logs will
#: be available when it is complete").
_WAITING = re.compile(
    r"^\W*(still )?waiting (for|on|until)\b|^run \d+ is still in progress\b", re.IGNORECASE
)


def _only_waiting(head: list[str]) -> bool:
    lines = [ANSI.sub("", ln).strip() for ln in head if not is_wrapper_line(ln)]
    lines = [ln for ln in lines if ln]
    return len(lines) == 1 and bool(_WAITING.match(lines[0])) and not _ERROR_TEXT.search(lines[0])


#: A probe's answer that a path it was asked about is not there ("ls: cannot access 'ops':
#: No such file or directory", BSD's "ls: package.json: No such file or directory", lsd's
#: "…: No such file or directory (os error 2)").
_NOT_THERE = re.compile(r"^[\w.-]+: .*\bNo such file or directory\b")


#: Standard error sent away, as the command was written or as the shell words join it again
#: ("2>/dev/null", "2 '>' /dev/null", "&>/dev/null").
_ERRORS_SILENCED = re.compile(r"(2|&)\s*'?>'?\s*/dev/null\b")


#: `systemctl` asked about a unit: exit 3 is "not running", 1 "not enabled" / "not failed".
_SYSTEMCTL_QUESTION = re.compile(r"\bsystemctl\b.*\s(status|is-active|is-enabled|is-failed)\b")
#: `gh pr checks` asked how a pull request's checks stand: exit 8 is its documented "checks
#: pending" ("Additional exit codes: 8: Checks pending"), an answer, not a failure.
_GH_CHECKS_QUESTION = re.compile(r"\bgh\s+pr\s+checks\b")


#: ssh-add's answer when no agent runs: no socket named ("Could not open a connection to
#: your authentication agent.") or one that is gone ("Error connecting to agent: No such
#: file or directory").
_NO_AGENT = re.compile(
    r"^(Could not open a connection to your authentication agent\.|"
    r"Error connecting to agent: (No such file or directory|Connection refused))$"
)


def _answers_with_its_status(family: str, final: str, exit_code: int, text: str) -> bool:
    """A question whose exit status is the answer beyond exit 1: a path looked up (`ls
    .specify/templates/commands`, `ls Dockerfile* 2>/dev/null`: exit 1 or 2, "none there",
    whether its errors were silenced or it says only that the path is not there),
    `systemctl status` of a unit that is not running (exit 3), and `gh pr checks` while
    checks are pending (exit 8)."""
    if family in PATH_PROBES and exit_code in (1, 2):
        # (zsh's own "no matches found" for the glob is no answer: the probe never ran)
        head = _output_head(text)
        said = [ln for ln in head if _ERROR_TEXT.search(ln) or GLOB_UNMATCHED.search(ln)]
        if _ERRORS_SILENCED.search(final):
            return not said
        return bool(said) and all(
            _NOT_THERE.match(ln.strip()) and not GLOB_UNMATCHED.search(ln) for ln in said
        )
    if family in _TREE_SEARCHES and exit_code in (1, 2):
        return _found_past_unreadable_paths(family, text)
    if family == "gh" and exit_code == 8:
        return bool(_GH_CHECKS_QUESTION.search(final))
    if family == "ssh-add -l" and exit_code == 2:
        # its documented "unable to contact the authentication agent": no agent runs, which
        # is what a look at the loaded keys asked
        head = _output_head(text)
        return bool(head) and all(_NO_AGENT.match(ln.strip()) for ln in head)
    return family == "systemctl" and exit_code in (1, 3) and bool(_SYSTEMCTL_QUESTION.search(final))


#: Programs that walk a tree, and say so when a corner of it cannot be read.
_TREE_SEARCHES = SEARCH_PROGRAMS | frozenset({"find", "fd", "fdfind"})


#: A path the walk could not read: the walk went on past it.
_UNREADABLE = re.compile(
    r"(Permission denied|Operation not permitted|Interrupted system call)"
    r"( \(os error \d+\))?\s*$"
)


def _found_past_unreadable_paths(family: str, text: str) -> bool:
    """A search over a tree that found what it looked for and exited 1 or 2 only because
    some paths could not be read (`rg --files -g README* ~` over a home folder: "rg:
    ~/Library/Containers/…: Interrupted system call (os error 4)", `find / -name x` and
    its "Permission denied" lines): the answer came; the unreadable corners are not it."""
    lines = [
        ln.strip()
        for ln in ANSI.sub("", text).splitlines()
        if ln.strip() and not is_wrapper_line(ln) and not is_cut_note(ln)
    ]
    own = [ln for ln in lines if ln.startswith(f"{family}: ")]
    found = len(lines) - len(own)
    return bool(own) and found > 0 and all(_UNREADABLE.search(ln) for ln in own)


#: A search tool's answer that it found nothing ("No results found for your query.", an MCP
#: code search flags it as an error), as grep's exit 1 is.
_FOUND_NOTHING = re.compile(
    r"\A\W*(no (results?|matches|files|documents|hits|items|records) (were )?found\b"
    r"|found (0|no) (results?|matches|files)\b|0 (results|matches) found\b|no results\W*\Z)",
    re.IGNORECASE,
)


#: A reason a search found nothing that is itself a failure ("No results found: the index
#: is unreachable").
_FOUND_NOTHING_BECAUSE = re.compile(
    r"error|fail|denied|refused|unreachable|timed? ?out|unable|cannot|can't"
    r"|not (connected|available)",
    re.IGNORECASE,
)


def found_nothing(tool_name: str | None, text: str) -> bool:
    """A tool other than a shell (a shell's search is read by its exit code and family)
    answered that its search found nothing, and not because it failed."""
    if is_shell_tool(tool_name) or not _FOUND_NOTHING.match(text[:300]):
        return False
    first = text.lstrip().split("\n", 1)[0]
    return not _FOUND_NOTHING_BECAUSE.search(first)
