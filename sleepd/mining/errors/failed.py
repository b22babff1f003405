"""Whether a tool result reports a failure: a flag or a non-zero exit, Claude's
`<tool_use_error>`, a Codex patch that did not apply, a timeout notice, a warning in
place of output, or a failure a hidden exit status left to the output's own words.
"""

from __future__ import annotations

import re

from sleepd.mining.episodes import CODEX_REFUSAL, EventView
from sleepd.mining.errors.shell import (
    GLOB_UNMATCHED,
    PATH_PROBES,
    exit_hidden,
    is_operator,
    printed_status,
    shell_command,
    shell_complained,
    shell_words,
)
from sleepd.mining.signatures import ANSI, CODEX_CALL_FAILED, is_shell_tool, is_wrapper_line

_TOOL_USE_ERROR = re.compile(r"<tool_use_error>", re.IGNORECASE)


_CODEX_REFUSED = re.compile(CODEX_REFUSAL)


_CODEX_SANDBOX_STOPPED = re.compile(
    r"\s*(?:failed in sandbox\b|" + CODEX_CALL_FAILED + r"(?:CreateProcess \{ message: "
    r"\"Codex\(Sandbox\(Denied\b|SandboxDenied \{))"
)

#: A call Codex could not run as made ("failed to parse function arguments: …",
#: "unsupported call: …"), stored unflagged before the harvest flagged it.
_CODEX_CALL_NOT_RUN = re.compile(r"\s*(?:failed to parse function arguments: |unsupported call: )")

#: A process Codex did not create, named with its command, before why (its message).
CODEX_PROCESS_NOT_CREATED = r"\w+ failed for `[^`\n]*`: CreateProcess \{ message: "

#: A call Codex did not run because something refused it, stored unflagged: a hook of the
#: person's ("Command blocked by PreToolUse hook: rtk-codex-guard: shell command should use
#: RTK compact output.") and a process it never created, refused by its sandbox policy or
#: its automatic approval review ("exec_command failed for `/bin/zsh -lc 'entire login'`:
#: CreateProcess { message: "Rejected(…)" }"), also under code mode's "Script error:".
_CODEX_REFUSED_TO_RUN = re.compile(
    r"\s*(?:Command blocked by \w+ hook: |" + CODEX_PROCESS_NOT_CREATED + r"\\?\"Rejected\()"
)


#: A call the person stopped while it ran: Claude Code's result (Esc: `[Request
#: interrupted by user for tool use]`, after `Exit code 137` for a killed command, before
#: what it had printed; a bare `Interrupted by user`) and Codex's ("aborted by user after
#: 33.4s", a shell's "Wall time: 33.4 seconds\naborted by user"): the person's act, not a
#: tool failing.
STOPPED_BY_PERSON = re.compile(
    r"\A\s*(?:exit code -?\d+\s+)?(?:\[request interrupted by user(?: for tool use)?\]"
    r"|interrupted by user\W*\Z)"
    r"|\A\s*(?:wall time: [\d.]+ seconds\s+)?aborted by user(?: after [\d.]+s)?\s*\Z"
    # the VS Code extension's permission prompt, closed by the person's stop
    r"|\A\s*(?:error:\s*)?tool permission request failed: AbortError\b",
    re.IGNORECASE,
)


#: A patch that did not apply: Codex's `apply_patch` tool ("apply_patch verification failed:
#: …"), and the same program run through the shell, which Codex 0.3x answered in plain text
#: with no exit code ("error: Failed to find expected lines in README.md:", "error: invalid
#: hunk at line 4, '' is not a valid hunk header."); a tool's own "write_stdin failed: …".
#: A count after the colon is a summary's line, not a failure ("Jobs failed: 0", "Total
#: Failed: 0" among a status listing or a passing test run's totals).
_PATCH_FAILED = re.compile(
    r"^[^\w\n]*(\w+ failed: (?!\s*\d+\s*$)|apply_patch verification failed|"
    r"(error: )?Failed to find expected lines|patch rejected|Invalid patch|"
    r"error: patch failed|Failed to apply patch|error: invalid hunk at line \d+)",
    re.IGNORECASE | re.MULTILINE,
)


#: A tool's own notice that the call did not finish, opening its result: an editor's
#: agent bridge (Zed's `mcp__acp__Bash`) returns "Timed out. New output: …" unflagged.
_TIMED_OUT = re.compile(r"\A\W*(the )?(command |call |request )?timed out\b", re.IGNORECASE)


#: A result that is nothing but a warning in place of the output, as Claude Code's Read
#: answers an offset past the end of the file, unflagged. At the first line ("offset (1)")
#: the same warning says the file is empty: an answer, not a failure.
_WARNING_ONLY = re.compile(
    r"\A\s*<system-reminder>\s*Warning:(?![^<]*\boffset \([01]\))[^<]*</system-reminder>\s*\Z",
    re.IGNORECASE,
)


#: A tool answering that what it needs is not there, unflagged (the Chrome extension's
#: MCP tools: "Browser extension is not connected. Please ensure the Claude browser
#: extension is installed and running …").
_UNAVAILABLE = re.compile(
    r"\A\s*[\w .'-]{1,60}? (is|are) not (connected|running|available|reachable|installed|"
    r"enabled|authenticated|logged in)\b[^\n]{0,200}\b(please|make sure|ensure|try)\b",
    re.IGNORECASE,
)


#: A tool that runs a model of its own over what it fetched (Claude Code's WebFetch) and got
#: the model's refusal of an input too large, as its whole answer, unflagged: the agent
#: learned nothing from the call.
_MODEL_INPUT_TOO_LONG = re.compile(r"\A\s*prompt is too long\.?\s*\Z", re.IGNORECASE)


#: A program's own error line, named by the program (jq's "jq: parse error: Invalid numeric
#: literal at line 1, column 8" and "jq: error (at <stdin>:0): Cannot iterate over null",
#: argparse's "deploy.py: error: the following arguments are required: --env"), and the AWS
#: CLI's "An error occurred (InvalidOriginReadTimeout) when calling the UpdateDistribution
#: operation: …": in the lines a command opens with, or where its exit was hidden.
_PROGRAM_ERROR = (
    r"|^[\w.-]+: (parse )?error(: \S| \(at \S)"
    r"|^An error occurred \([\w.]+\) when calling the \w+ operation\b"
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
    # a program named by its path refusing an option ("C:\\nvm4w\\nodejs\\node.exe: bad
    # option: --cwd", "/usr/bin/node: bad option: --x")
    r"|^([A-Za-z]:)?[\w.\\/-]+: (bad|invalid|unrecognized|illegal|unknown) option\b"
    r"|^Try '[^'\n]+ --help' for help\.$"
    r"|^[\w./-]+: No module named \S"
    # the shell named by its path ("/bin/bash: line 1: ps: command not found")
    r"|^/[\w./-]*/(ba|z|da|k|fi)?sh: \S.*(No such file or directory|command not found|"
    r"Permission denied)"
    # dash, Debian's /bin/sh, failing to run a program: "/bin/sh: 1: python: not found"
    # (a background `&` leaves the exit status 0)
    r"|^(/[\w./-]*/)?(da)?sh: \d+: [\w.+-]+: not found$"
    r"|^FAILED: \S"
    # GitHub's API refusing the request, whether `gh api` or curl asked ("{"message":"Not
    # Found","documentation_url":"https://docs.github.com/rest/…","status":"404"}"), and
    # gh's own line for it ("gh: Not Found (HTTP 404)"), both printed with exit 0 behind
    # a pipe
    r'|^\{\s*"message":\s*"[^"\n]{1,200}",\s*"documentation_url":\s*"https://docs\.github\.com/'
    r"|^gh: [^\n]{1,200}\(HTTP [45]\d\d\)" + _PROGRAM_ERROR,
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
    # pnpm's error code ("ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL  Command "biome" not found"),
    # not its failed look for a newer pnpm, printed on the way of a run that goes on
    # ("ERR_PNPM_META_FETCH_FAIL  GET https://registry.npmjs.org/pnpm: … ENOTFOUND …")
    r"|^[^\S\n]*ERR_PNPM_(?!META_FETCH_FAIL\b)[A-Z_]+\b"
    r"|^FAILED\b"
    r"|^[^\S\n]*[1-9]\d* (fail|failed|failing)\b"
    r"|^=+ .*\b[1-9]\d* failed\b"
    r"|^Tests?:?\s+.*\b[1-9]\d* failed\b"
    r"|^Found [1-9]\d* errors?\b"
    r"|\bexited with (exit )?code [1-9]"
    r"|^make(\[\d+\])?: \*\*\* "
    # a cross-marked line, unless it is a summary's zero count ("✗ Failed: 0" above "✅ ALL
    # TESTS PASSED") or a linter's summary that counts no error, only warnings (Vale's "✖ 0
    # errors, 5 warnings and 0 suggestions in 1 file.", ESLint's "✖ 5 problems (0 errors, 5
    # warnings)"), for which both linters exit 0
    r"|^[^\S\n]*[×✖✗✘] (?![^\n:]{1,30}:\s*0\s*$|0 \w+\s*$"
    r"|[^\n]*\b0 errors?\b(?![^\n]*\b[1-9]\d* errors?\b))\S"
    r"|^failed to [a-z]+\b"
    # a tool's refusal in its own sentence, at the start of the line ("Could not create a
    # project called "Todos" because of npm naming restrictions:", "Cannot find module
    # 'x'", "Unable to locate package foo")
    r"|^(Could not|Cannot|Unable to) [a-z]+ \S"
    # apt's and dpkg's error lines ("E: Unable to locate package foo", "E: Could not get
    # lock /var/lib/dpkg/lock-frontend")
    r"|^E: [A-Z][a-z]+ \S"
    # a type checker's finding with its rule code (pyrefly's "ERROR Could not find import of
    # `conftest` [missing-import]") and pyright's count ("3 errors, 0 warnings, 0 informations")
    r"|^ERROR [^\n]+ \[[a-z][a-z-]+\]$"
    r"|^[1-9]\d* errors?, \d+ warnings?\b"
    # a program handed an empty path, a variable that expanded to nothing ("grep: : No such
    # file or directory", each turn of a loop whose variable was empty)
    r"|^[a-z][\w.-]*: : No such file or directory$"
    r"|^\S+: command not found\b"
    # tsc's diagnostics ("src/a.ts:29:39 - error TS2345: …") and golangci-lint's count
    r"|^\S+:\d+:\d+ - error TS\d+:"
    # golangci-lint's count, also behind a task runner's name ("[lint:go] 2 issues:")
    r"|^(\[[\w:./@-]+\]\s+)?[1-9]\d* issues?:$"
    # markdownlint-cli2's findings ("docs/a.mdx:76:81 error MD013/line-length Line length
    # [Expected: 80; Actual: 282]") and go vet's report of a package that does not compile
    # ("vet: template/bench_test.go:59:17: cannot use tmpl …")
    r"|^\S+:\d+(:\d+)? error [A-Z]+\d+/[\w-]+"
    r"|^vet(\.exe)?: \S+:\d+:\d+: \S"
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
    r"|^\s*<(h1|title)>[45]\d\d [A-Z]"
    # Node's report of an uncaught exception: its coded error line ("Error
    # [ERR_REQUIRE_ASYNC_MODULE]: require() cannot be used …") and the version line it
    # prints last, after the stack, only when the process dies of it ("Node.js v22.17.0")
    r"|^\w*Error \[ERR_[A-Z0-9_]+\]: \S"
    r"|^Node\.js v\d+\.\d+\.\d+\s*$"
    # Go's test failures ("--- FAIL: TestClientSync (0.00s)", "FAIL\tgithub.com/x/y\t0.41s",
    # a lone "FAIL"), a Rust program's panic ("thread 'main' (14442390) panicked at
    # src/settings.rs:101:30:"), and a tool's log lines at error level behind its name, as
    # mise writes them ("mise ERROR Config files in ~/x/mise.toml are not trusted." over
    # "mise ERROR Run with --verbose …"; one such line may be prose: "see ERROR …")
    r"|^[^\S\n]*--- FAIL: \S|^FAIL(\t\S|\s*$)"
    # Go's compile errors under the package they are in ("# entire.io/cli/cmd/entire/cli\n
    # cmd/entire/cli/explain.go:275:95: too many arguments in call to …"), which `go build`
    # prints only when the build fails (a pipe to `head` leaves the exit status 0)
    r"|^# [\w.-]+(/[\w.-]+)+( \[[^\]\n]+\])?\n\S+\.go:\d+:\d+: \S"
    # golangci-lint's finding in a Go file, its linter named last ("cmd/x/transcript.go:119:18:
    # string `message` has 3 occurrences, make it a constant (goconst)"): it prints findings
    # only when it fails, and a pipe to `head` cuts its count off
    r"|^[\w./\\@~+-]+\.go:\d+(:\d+)?: \S[^\n]*\([a-z][\w-]*\)[^\S\n]*$"
    r"|^thread '[^'\n]+'( \(\d+\))? panicked at \S"
    r"|^(?P<tool>[a-z][\w.-]*) ERROR \S[^\n]*\n(?:[^\n]*\n){0,3}?(?P=tool) ERROR \S"
    # a GraphQL API's errors, as `gh api graphql` prints them ('{"errors":[{"message":"A
    # query attribute must be specified …"}]}', '{"data":{…},"errors":[{"type":…') and gh's
    # own line for one ("gh: By the time this query traverses to the replies connection, …")
    r'|"errors"\s*:\s*\[\s*\{\s*"(type|message)"\s*:'
    r"|^gh: [A-Z]"
    # a compiler's or build's coded diagnostic, as MSBuild, csc, the .NET analyzers, NuGet
    # and tsc without --pretty write it, whatever the language of its message
    # ("…NumberToWordsConverter.cs(269,37): error CS0103: 'ScaleWord' adı geçerli bağlamda
    # yok", "MSBUILD : error MSB1009: …", "error CA1304: …"), and xUnit's failed test
    # ("    NumWordify.Tests.Options_do_not_silently_drop_a_currency_code [FAIL]")
    # (its prefix a path, not a line of JSON that quotes such a diagnostic)
    r"|^(?:[^\n\"{}]{0,300}?(?:\)|\s)\s?:\s)?error [A-Z]{2,8}\d{2,5}: \S"
    r"|^[^\S\n]*\S[^\n]* \[FAIL\]\s*$"
    # a Python traceback's exception line under its last frame, when the traceback's head is
    # above the lines read ('  File "…/json/decoder.py", line 363, in raw_decode' … over
    # "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)")
    r'|^  File "[^"\n]+", line \d+, in [^\n]+\n(?:[^\n]*\n){0,6}?'
    r"[A-Za-z_][\w.]*(Error|Exception): \S" + _PROGRAM_ERROR,
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


#: A coverage gate that failed the run, whatever its tests did: pytest-cov's "FAIL Required
#: test coverage of 80.0% not reached. Total coverage: 69.29%" above "53 passed" (pytest
#: then exits 1), coverage.py's "Coverage failure: total of 69 is less than fail-under=80".
_COVERAGE_FAILED = re.compile(
    r"^(ERROR: )?(FAIL Required test coverage of [\d.]+% not reached"
    r"|Coverage failure: total of [\d.]+ is less than fail-under=)",
    re.MULTILINE,
)


#: How many lines at the end of an output are read for a failure (a failing command
#: stops there; the middle of a long output is work, or another tool's logged noise).
FAILURE_TAIL_LINES = 15


#: An MCP server's result that reports its own failure in the JSON it returns, unflagged
#: (Serena: '{"result":"Error executing tool: ValueError - Error: No matches of search
#: expression found …"}', '{"result":"The answer is too long (789836 characters). Please try
#: a more specific tool query …"}').
_MCP_RESULT_ERROR = re.compile(
    r'\A\s*\{\s*"result"\s*:\s*"(Error executing tool\b|Error: |The answer is too long \(\d+ '
    r"characters\))"
)


#: A tool other than a shell that answered with an error object and no flag: Codex writes
#: an MCP connector's result under its "Wall time … Output:" header as the server returned
#: it ('{"error":"GitHub API error 403: {…}","error_code":"…"}', the shape of the connector's
#: answer when the organization's SAML enforcement blocks the token). A shell's output
#: that prints such an object is the program's, and its exit code speaks for it.
_ERROR_OBJECT = re.compile(
    r'\A(?:\s*Wall time: [\d.]+ seconds\s*\n\s*Output:\s*\n)?\s*\{\s*"error"\s*:\s*(?:"\S|\{)'
)


#: Claude Code's reads of a task it runs in the background (`BashOutput` in its early 2.0
#: versions, `TaskOutput` since).
BACKGROUND_READS = frozenset({"BashOutput", "TaskOutput"})
#: Such a read's answer: "<retrieval_status>success</retrieval_status> <task_id>bdea11d</task_id>
#: <task_type>local_bash</task_type> <status>failed</status> <exit_code>255</exit_code>
#: <output>…</output>". Its status says whether the task failed: the read went through, and
#: where the command or subagent it reads failed, this is where that shows. A task still
#: running, a read that timed out, and a task that completed are no failure, whatever their
#: output quotes (a subagent's report on a failed deployment: "Migration failed: …").
READ_ENVELOPE = re.compile(
    r"\A(?:\s*<(retrieval_status|task_id|task_type)>[^<]*</\1>)*\s*<status>(?P<status>\w+)"
    r"</status>"
)


#: Lines left out when the shell's complaints are read with the status ignored: a glob
#: that matched nothing or would not parse, and an indented line (the shell writes its own
#: complaints at the start of a line; indented, one is quoted in what a program printed).
_COMPLAINTS_SET_ASIDE = re.compile(
    rf"^(?:.*(?:{GLOB_UNMATCHED.pattern}).*|[ \t]+\S.*)$", re.MULTILINE
)


def is_failed_result(event: EventView, call: EventView | None = None) -> bool:
    """The result reports a failure (of its own call or knocked on by another). With the
    call, a failure its command hid from the exit code counts too (`exit_hidden`)."""
    if event.kind != "tool_result":
        return False
    if event.is_error or (event.exit_code is not None and event.exit_code != 0):
        return True
    head = event.text[:600]
    envelope = READ_ENVELOPE.match(head)
    if envelope is not None and (call is None or call.tool_name in BACKGROUND_READS):
        return envelope.group("status") == "failed"
    return bool(
        _TOOL_USE_ERROR.search(event.text)
        or _CODEX_REFUSED.match(head)  # these two stored before the harvest flagged them
        or _CODEX_SANDBOX_STOPPED.match(head)
        or _CODEX_CALL_NOT_RUN.match(head)
        or _CODEX_REFUSED_TO_RUN.match(_after_script_error(head))
        or _PATCH_FAILED.search(head)
        or _TIMED_OUT.search(head)
        or _WARNING_ONLY.match(head)
        or _UNAVAILABLE.match(head)
        or _MODEL_INPUT_TOO_LONG.match(head)
        or _MCP_RESULT_ERROR.match(head)
        or (call is not None and not is_shell_tool(call.tool_name) and _ERROR_OBJECT.match(head))
        or STOPPED_BY_PERSON.match(head)  # Codex flags no stopped call
        or _HIDDEN_FAILURE.search(
            "\n".join(
                _opening_lines(head if call is None else _without_probe_answers(call, head), 3)
            )
        )
        or (
            call is not None
            and exit_hidden(call)
            and output_shows_failure(_without_probe_answers(call, event.text))
        )
        or (call is not None and exit_hidden(call) and _usage_unasked(call, event.text))
        or (call is not None and exit_hidden(call) and _only_refused(event.text))
        or (call is not None and bool(printed_status(call, event.text)))
        # the shell refused part of the line, whatever status the rest left: backticks in
        # a double-quoted string ran their words as a command ("zsh:1: command not found:
        # retry.max_attempts" under a `gh pr create --body "… \`retry.max_attempts\` …"`
        # that exited 0 and posted the mangled body)
        # (a glob that matched nothing is left to the exit code: `ls dir/*.md | wc -l` asks
        # whether there are any)
        or (
            call is not None
            and is_shell_tool(call.tool_name)
            and shell_complained(_COMPLAINTS_SET_ASIDE.sub("", event.text))
        )
    )


#: Code mode's header over an error a script threw ("Script failed\nWall time 0.0 seconds\n
#: Output:\n\nScript error:\n<the error>").
_SCRIPT_ERROR_HEADER = re.compile(
    r"\s*Script failed\s.*?^Script error:\s*", re.DOTALL | re.MULTILINE
)


def _after_script_error(head: str) -> str:
    """The result, or the error under code mode's header when a script threw one."""
    header = _SCRIPT_ERROR_HEADER.match(head)
    return head[header.end() :] if header else head


#: Claude Code's report that one of its own hooks failed, printed by a `claude -p` the
#: command ran, after the command's own output ("SessionEnd hook [node …/index.js
#: session-end] failed:"): the hook's failure, not the command's.
_AGENT_HOOK_FAILED = re.compile(r"^\w+ hook \[[^\]\n]*\] failed:")


def _opening_lines(head: str, count: int) -> list[str]:
    """The first `count` lines the command printed, past the lines its tool's wrapper
    writes over any output (Codex's "Exit code: 0", "Wall time: 0 seconds", "Output:")."""
    lines = ANSI.sub("", head).splitlines()
    while lines and is_wrapper_line(lines[0]):
        lines.pop(0)
    return lines[:count]


#: A path probe's answer that a path is not there ("ls: cannot access 'dist/x': No such file
#: or directory", BSD's "ls: x: No such file or directory").
_PROBE_ANSWER = re.compile(r"^\s*(?P<program>[\w.-]+): .*\bNo such file or directory\b")


def _without_probe_answers(call: EventView, text: str) -> str:
    """The output less the "not there" lines of the path probes the command answered for
    itself with a fallback (`ls -la /tmp/marker 2>&1 || echo "NOT EXECUTED - safe"`, `(ls
    dist/__tests__/ 2>&1 || echo "no __tests__ dir (good)")`): a question asked on the way,
    its "no" provided for, hid no failure. A listing piped on (`ls -la C:\\Users\\tvi\\ | grep
    …`) still fails when its path is not there."""
    if "No such file or directory" not in text:
        return text  # no probe answered here: the command need not be read (every result)
    probes = _probes_with_a_fallback(shell_words(shell_command(call)) or [])
    if not probes:
        return text
    kept = []
    for line in text.splitlines():
        answer = _PROBE_ANSWER.match(line)
        if answer is None or answer["program"] not in probes:
            kept.append(line)
    return "\n".join(kept)


def _probes_with_a_fallback(words: list[str]) -> set[str]:
    """The path probes (`ls`, `stat`, …) whose command is followed by `||`."""
    found: set[str] = set()
    program: str | None = None
    for word in words:
        if is_operator(word):
            if word == "||" and program in PATH_PROBES:
                found.add(program)
            program = None
        elif program is None and word.lstrip("("):
            program = word.lstrip("(")  # a subshell's "(" opens no command of its own
    return found


def _only_refused(text: str) -> bool:
    """All the command printed is the shell refusing it ("(eval):1: no matches found:
    CHANGELOG*", zsh's answer to a glob that matched nothing), under the headings it echoed
    if any: nothing of the line ran to print, though the pipe's last command exited 0. A
    refusal among other output (a count that printed 0 after it, a fallback's own words)
    may be the answer the line looked for."""
    lines = [ln for ln in _opening_lines(text[:4000], 50) if ln.strip() and not _BANNER.match(ln)]
    return bool(lines) and len(lines) < 50 and all(shell_complained(ln) for ln in lines)


#: A heading the command echoed over each part of its output ("===== README.md =====",
#: "---docs mentioning false positives---"): its own words, no answer to anything.
_BANNER = re.compile(r"^\s*([=#*-])\1{2,}[^\n]*?([=#*-])\2{2,}\s*$")


def output_shows_failure(text: str) -> bool:
    """The output says its command failed: a failure line (`_FAILURE_LINE`) among the
    first three lines the command printed or its last `FAILURE_TAIL_LINES` lines, and no
    test summary saying nothing failed; or a coverage gate that failed the run, whatever
    the tests did."""
    lines = [ln for ln in ANSI.sub("", text[:20000]).splitlines() if ln.strip()]
    if len(text) > 20000:
        lines += [ln for ln in ANSI.sub("", text[-4000:]).splitlines() if ln.strip()]
    while lines and is_wrapper_line(lines[0]):
        lines.pop(0)  # Codex's "Chunk ID: …", "Process exited with code 0", "Output:"
    hook = next((n for n, ln in enumerate(lines) if _AGENT_HOOK_FAILED.match(ln)), None)
    if hook is not None:  # what a `claude` run inside printed after its own output
        lines = lines[:hook]
    read = "\n".join(lines[:3] + lines[3:][-FAILURE_TAIL_LINES:])
    if _COVERAGE_FAILED.search(read):
        return True
    return bool(_FAILURE_LINE.search(read)) and not _NOTHING_FAILED.search(read)


#: A program's usage text opening the output ("usage: git revert [--[no-]edit] …").
_USAGE_OPENS = re.compile(
    r"\A\s*usage: [\w./-]+ "
    # or after the one line that says what was wrong ("run or job ID required when not
    # running interactively", then gh's "Usage:  gh run view [<run-id>] [flags]")
    r"|\A\s*[^\n]{1,200}\n\s*usage: +[\w./-]+ ",
    re.IGNORECASE,
)
#: A command that asks for a usage text (`-h`, `--help`, `help`).
_ASKS_HELP = re.compile(r"(^|\s)(-h|--help|help|-\?)(\s|$)")


def _usage_unasked(call: EventView, text: str) -> bool:
    """A program answered with its usage text though no help was asked for: it refused
    its arguments (`git revert --no-edit b6443c1 -q 2>&1 | head -3`, its exit hidden by the
    pipe)."""
    return bool(_USAGE_OPENS.match(ANSI.sub("", text[:300]))) and not _ASKS_HELP.search(
        shell_command(call)
    )
