"""Error output → a stable signature, so the same failure counts once per kind.

Stripped: ANSI escapes, uuids, timestamps, hex hashes, paths, quoted identifiers,
line/column numbers and other numbers, and every sentence of the error line after its
first when that one has three words or more (a tool's later versions append hints:
"File does not exist. Note: your current working directory is …"). Kept: the tool name
and the error class (``ModuleNotFoundError``, ``ENOENT``, ``exit 127``, ``error[E0308]``,
``TS2345``).

An exit code alone does not tell failures apart once the line says what went wrong: the
same error message behind another exit code, or behind none because a pipe hid it
(``cmd 2>&1 | tail``), is the same failure. Such a signature is keyed without its exit
code; a named class stays in the key, and so does an exit code whose line is no error
message (the wrapper's ``Exit code N`` alone, a banner the output began with).
"""

from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import dataclass

from harvesters.base import CLIPPED_NOTE
from sleepd.mining.json_text import json_value

#: A terminal's colour and cursor codes (the errors package reads past them too).
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I)
_TIMESTAMP = re.compile(
    r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?\b"
    r"|\b\d{2}:\d{2}:\d{2}(\.\d+)?\b"
)
#: A hex run of six or more with a digit and a letter in it (a hash, an address, an id); a
#: run of digits alone is a number (`File content (101217 tokens)` had read as `<hex>`
#: tokens and `(25266 tokens)` as `<n>`, one failure as two patterns).
_HEX = re.compile(
    # (not a diagnostic's code that happens to be hex, "error CA1865:", which names the rule)
    r"\b(?<!error )(?<!warning )"
    r"(0x[0-9a-f]+|(?=[0-9a-f]{6,}\b)(?=[0-9a-f]*[a-f])[0-9a-f]*\d[0-9a-f]*)\b",
    re.I,
)
#: Extensions that make a bare word a file name where a file is named: before a colon
#: or a `(line,col)` (`main.go:12:3:`, `app.ts(12,5):`, `ls: API.md: No such file`,
#: "expected lines in CHANGELOG.md:"). A compiler, `ls` or `apply_patch` names a file in
#: the working folder without its folder, and each file would otherwise be a failure of
#: its own. A list, and only there, so that a dotted name that is no file
#: (`sqlite3.IntegrityError`, `res.json is not a function`, `github.com`) stays.
_FILE_EXTENSIONS = (
    "py|pyi|ipynb|js|mjs|cjs|jsx|ts|mts|cts|tsx|vue|svelte|go|rs|c|h|cc|cpp|cxx|hpp|hh|cu|o|so|"
    "a|dylib|dll|exe|java|kt|kts|scala|gradle|groovy|rb|php|cs|fs|swift|dart|lua|pl|pm|ex|exs|"
    "erl|hs|ml|clj|zig|nim|sql|sh|bash|zsh|fish|ps1|bat|cmd|md|mdx|rst|txt|adoc|tex|json|"
    "jsonl|yaml|yml|toml|ini|cfg|conf|lock|xml|html|htm|css|scss|sass|less|csv|tsv|log|"
    "proto|tf|mod|sum|jar|whl|gz|tgz|zip|tar|pdf|png|jpg|jpeg|gif|svg|wasm|pem|env"
)
_PATH = re.compile(
    r"(?:[A-Za-z]:\\|~/|\.{1,2}/|/)(?:[\w.@+-]+[/\\])*[\w.@+-]+"
    # a path under a hidden folder, named from the working folder (`.claude/settings.json`,
    # `.specify/memory`): whole, not a dot left in front of a `<path>`
    r"|(?<![\w.])\.[\w-]+[/\\](?:[\w.@+-]+[/\\])*[\w.@+-]+"
    # a relative path (`apps/web/src`, `docs/guide`): whole, not its first folder left in
    # front of a `<path>`
    r"|(?<![\w.@+/\\:-])[\w@+-][\w.@+-]*/(?:[\w.@+-]+/)*[\w.@+-]+"
    r"|\b[\w.-]+/(?:[\w.-]+/)*[\w.-]+\.\w{1,5}\b"
    # a relative Windows path to a file (`svg\window_test.go`, `cache\file_map_windows.go`)
    r"|(?<![\w.@+/\\:-])[\w@+-][\w.@+-]*\\(?:[\w.@+-]+\\)*[\w.@+-]+\.\w{1,5}\b"
    # a module path rooted at a host (`golang.org/x/tools/go/packages`): whole, not
    # the host left in front of a `<path>`
    r"|\b[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}(?:/[\w.@+-]+)+"
    rf"|(?<![\w./\\@-])[\w-]+(?:\.[\w-]+)*\.(?:{_FILE_EXTENSIONS})(?=:|\(\d)"
)
#: A quoted part. A quote right after a letter is an apostrophe ("can't open file 'x'"),
#: which opens nothing; a quoted Python list of strings (`Command '['cmake', '--build']'
#: returned …`) is one part, since its closing quotes follow letters too.
_QUOTED = re.compile(
    r"'\[(?:'[^'\n]*'(?:,\s*)?)+\]'"
    r"|(?<![^\W\d_])'[^'\n]{1,200}'|\"[^\"\n]{1,200}\"|`[^`\n]{1,200}`|‘[^’\n]{1,200}’"
)
_LINE_COL = re.compile(r"(:\d+)+\b|\bline \d+(, col(umn)? \d+)?", re.I)
#: A number, with the unit a duration or a size carries (`0.32ms`, `5s`, `12MB`, `40%`):
#: a test's timing must not make each run of one failure a pattern of its own.
_NUMBER = re.compile(r"\b\d+(\.\d+)?(?:[mµun]?s|min|[kmg]i?b|b|%|m|h)?(?=\W|$)", re.I)
_SPACE = re.compile(r"\s+")
_NUMBERS_RUN = re.compile(r"<n>(?:\s+<n>)+")
#: A duration written in two units (`gh pr checks`' "E2E Tests fail 3m20s …", "1h5m"): one
#: number, where `_NUMBER` reads a number with one unit.
_DURATION = re.compile(r"\b\d+h(?:\d+m)?(?:\d+(?:\.\d+)?s)?(?=\W|$)|\b\d+m\d+(?:\.\d+)?s(?=\W|$)")
_WORD = re.compile(r"[^\W\d_]{2,}")

#: Error codes named by an `E…` word: the operating system's errno names (ENOENT, EACCES,
#: EADDRINUSE; Linux's table, written out so that every machine of a team reads the same
#: classes, whatever its own C library names) and npm's own codes. Any other capitalised
#: word that starts with E ("EVAL", "EVERY", "EXPLAIN" in a document printed before the
#: failure) is no error class.
_ERROR_CODES = frozenset(
    {
        "E2BIG", "EACCES", "EADDRINUSE", "EADDRNOTAVAIL", "EADV", "EAFNOSUPPORT",
        "EAGAIN", "EALREADY", "EBADE", "EBADF", "EBADFD", "EBADMSG", "EBADR", "EBADRQC",
        "EBADSLT", "EBFONT", "EBUSY", "ECANCELED", "ECHILD", "ECHRNG", "ECOMM",
        "ECONNABORTED", "ECONNREFUSED", "ECONNRESET", "EDEADLOCK", "EDESTADDRREQ",
        "EDOM", "EDOTDOT", "EDQUOT", "EEXIST", "EFAULT", "EFBIG", "EHOSTDOWN",
        "EHOSTUNREACH", "EIDRM", "EILSEQ", "EINPROGRESS", "EINTR", "EINVAL", "EIO",
        "EISCONN", "EISDIR", "EISNAM", "EKEYEXPIRED", "EKEYREJECTED", "EKEYREVOKED",
        "EL2HLT", "EL2NSYNC", "EL3HLT", "EL3RST", "ELIBACC", "ELIBBAD", "ELIBEXEC",
        "ELIBMAX", "ELIBSCN", "ELNRNG", "ELOOP", "EMEDIUMTYPE", "EMFILE", "EMLINK",
        "EMSGSIZE", "EMULTIHOP", "ENAMETOOLONG", "ENAVAIL", "ENETDOWN", "ENETRESET",
        "ENETUNREACH", "ENFILE", "ENOANO", "ENOBUFS", "ENOCSI", "ENODATA", "ENODEV",
        "ENOENT", "ENOEXEC", "ENOKEY", "ENOLCK", "ENOLINK", "ENOMEDIUM", "ENOMEM",
        "ENOMSG", "ENONET", "ENOPKG", "ENOPROTOOPT", "ENOSPC", "ENOSR", "ENOSTR",
        "ENOSYS", "ENOTBLK", "ENOTCONN", "ENOTDIR", "ENOTEMPTY", "ENOTNAM",
        "ENOTRECOVERABLE", "ENOTSOCK", "ENOTSUP", "ENOTTY", "ENOTUNIQ", "ENXIO",
        "EOVERFLOW", "EOWNERDEAD", "EPERM", "EPFNOSUPPORT", "EPIPE", "EPROTO",
        "EPROTONOSUPPORT", "EPROTOTYPE", "ERANGE", "EREMCHG", "EREMOTE", "EREMOTEIO",
        "ERESTART", "ERFKILL", "EROFS", "ESHUTDOWN", "ESOCKTNOSUPPORT", "ESPIPE",
        "ESRCH", "ESRMNT", "ESTALE", "ESTRPIPE", "ETIME", "ETIMEDOUT", "ETOOMANYREFS",
        "ETXTBSY", "EUCLEAN", "EUNATCH", "EUSERS", "EXDEV", "EXFULL",
        # npm's
        "ERESOLVE", "EUSAGE", "EJSONPARSE", "ETARGET", "ENOVERSIONS", "EBADENGINE",
        "EINTEGRITY", "EPUBLISHCONFLICT", "ENEEDAUTH", "EOTP", "EINVALIDTAGNAME",
        "ENOLOCK", "EBADPLATFORM", "EAUTHUNKNOWN",
    }
)  # fmt: skip
#: An `E…` code where a tool names its code (`npm ERR! code ELIFECYCLE`, `code: 'EPIPE'`,
#: `errno: EMFILE`): a code there even when it is not on the list.
_CODE_NAMED = re.compile(r"\b(?:code|errno)\b[:=]?\s*['\"]?(E[A-Z]{3,}[A-Z0-9]*)\b")
_E_WORD = re.compile(r"\b(E[A-Z]{3,}[A-Z0-9]*)\b")
_RUSTC_CODE = re.compile(r"\berror\[(E\d{4})\]")
_NAMED_CLASS = re.compile(r"\b([A-Z][A-Za-z0-9]*(?:Error|Exception|Warning|Interrupt|Exit))\b")
_TYPESCRIPT_CODE = re.compile(r"\b(TS\d{4})\b")
_STOCK_CLASSES = (
    "command not found",
    "permission denied",
    "no such file or directory",
    "segmentation fault",
    "timed out",
    "killed",
)
_STOCK_PHRASE = re.compile(rf"\b({'|'.join(_STOCK_CLASSES)})\b", re.I)
_ERROR_LINE = re.compile(
    # npm's and pnpm's "Missing script: lint", and a test runner that found no test to run
    # (Jest's "No tests found, exiting with code 1", Vitest's "No test files found"), which
    # hold no other error word
    r"error|exception|fail|fatal|denied|not found|cannot|can't|unable|invalid|refused|panic|"
    r"missing script|no tests found|no test files found|not allowed",
    re.I,
)
#: Lines a tool's wrapper writes around any command's output (Claude Code's `Exit code N`,
#: Codex's exec headers): they say that a call failed, never what went wrong, so a
#: signature built on one would lump unrelated failures together.
_WRAPPER_LINE = re.compile(
    r"(exit code:? -?\d+|chunk id: \S+|wall time: .*|process exited with code -?\d+|"
    # the command Codex names over its output ("Command: /bin/zsh -lc 'git add README.md'")
    r"command: (?:\S*/)?(?:ba|z|da|k|fi)?sh -l?c .*|"
    # Codex code mode's header over a script's output ("Script completed", "Wall time 0.2
    # seconds"; "Script failed" and a bare "Script error:" over the error it threw)
    r"script completed|script failed|script error:|wall time [\d.]+ seconds|"
    r"original token count: \d+|output:|process running with session id \d+|"
    r"\[?exit (status|code):? -?\d+\]?|"
    # the status a command printed of itself (`…; echo "exit: $?"`)
    r"exit: -?\d+)",
    re.I,
)
#: Claude Code 1.0's whole result for a command that failed and printed nothing.
_BARE_ERROR = "Error"
#: The fields npm names in the block it prints under a failed script, beside its `code`
#: (`npm error path /app`, `npm error command sh -c jest`): read by `_RUNNER_VERDICT` as
#: a verdict and by `_NPM_BLOCK` as lines that never say what went wrong.
_NPM_SCRIPT_FIELDS = r"errno|path|command|location|workspace|signal"
#: A runner's verdict on the script, task or test run it ran: it says that something it
#: ran failed, never what, so the line naming the cause is the signature when there is
#: one (bun's `error: script "lint" exited with code 1`, mise's `[lint] ERROR task
#: failed`, pnpm's and npm's ELIFECYCLE, yarn's `error Command failed with exit code 1.`,
#: husky's `pre-commit script failed`, just's `Recipe `test` failed`, go-task's
#: `Failed to run task`, make's `*** [test] Error 2` (and its `*** Waiting for unfinished
#: jobs....` beside it; not make's own "*** No rule to make target 'x'.  Stop.", which is
#: the failure), turbo's `exited (1)`, GitHub
#: Actions' `Process completed with exit code 1`, go test's closing `FAIL`, cargo's
#: `due to 2 previous errors`, a test run's `3 failed` or `228 errors` count, eslint's
#: `✖ 3 problems (2 errors, 1 warning)`, ruff's and mypy's `Found 3 errors`).
_RUNNER_VERDICT = re.compile(
    r"\bscript\b.{0,80}\b(?:exited|failed)\b|\bfailed at the .{1,80} script\b"
    r"|\btask failed\b|\bfailed to run task\b|\brecipe\b.{0,80}\bfailed\b"
    r"|\bcommand failed\b|\bELIFECYCLE\b"
    rf"|^npm (?:ERR!|error) (?:code|{_NPM_SCRIPT_FIELDS})\b"
    r"|^g?make(?:\[\d+\])?: \*\*\* (?:\[|waiting for unfinished jobs)"
    r"|\bprocess completed with exit code\b"
    r"|\bexited \(-?\d+\)|\bexited with (?:exit )?(?:code|status)\b"
    r"|^FAIL(?:\s+\S+(?:\s+\[[^]]*\]|\s+[\d.]+s)?)?$|\bdue to \d+ previous errors?\b"
    r"|^(?:\W*|tests?:?\s+|test suites:\s+)\d+ (?:fail|failed|failing|failures?|errors?)\b"
    r"(?!\s*(?:to|when|because|in\b))"
    r"|\b\d+ passed, \d+ failed\b|^failed:\s+\S+#\S+$|\b\d+ problems? \(\d+ errors?\b"
    r"|^found \d+ errors?\b"
    # pytest's closing line when it ran nothing: a wrong path or a collection error above
    # it says why
    r"|\bno tests (?:collected|ran)\b",
    re.I,
)
#: The footer npm prints under every failure (npm 10's `npm error A complete log of this
#: run can be found in: …`, npm 8's log path on a line of its own, "This is probably not a
#: problem with npm", the hint to rerun with `--loglevel`): like a wrapper's line it says
#: nothing of what went wrong, and signing with it made every npm failure one pattern.
NPM_FOOTER = re.compile(
    r"npm (?:ERR!|error) +(?:a complete log of this run can be found in\b.*"
    r"|\S*[/\\]_logs[/\\]\S*debug\S*\.log|this is probably not a problem with npm\b.*"
    r"|you can rerun the command with .* to see the logs in your terminal|log files were not"
    r" written due to an error writing to the directory\b.*)",
    re.I,
)
#: A test runner's report of a test that passed: its name may hold "error" ("throws a
#: validation error for …"), and it is never what went wrong.
_PASS_LINE = re.compile(
    r"^(?:\(pass\)|[✓✔√]|PASS\b|ok\s)"
    # go test's line for a package without tests ("?   \tgit-sync/internal/x\t[no test files]")
    r"|^\?\s+\S+\s+\[no test files\]\s*$"
    # go test -v's line for a test that passed or was skipped, under its `=== RUN` line
    r"|^--- (?:PASS|SKIP): "
    # pre-commit's line for a hook that passed or had nothing to check
    r"|^\S.{0,80}?\.{4,}\s*(?:\([^)\n]{1,40}\))?\s*(?:Passed|Skipped)$",
    re.I,
)
#: A test runner's line for a test that started or passed (go test -v's "=== RUN
#: TestExtractUserContent_InvalidJSON", "--- PASS: …"): an error word in the test's name
#: says nothing of what failed, so such a line never sounds like an error.
_TEST_PROGRESS = re.compile(_PASS_LINE.pattern + r"|^=== (?:RUN|PAUSE|CONT|NAME)\s", re.I)
#: A script runner's echo of the command it is about to run (bun's, yarn's and pnpm's
#: "$ biome check --error-on-warnings"; npm's "> eslint . --max-warnings=0" under its
#: "> app@1.0.0 lint" header): the command, not a message, though a flag or a script's
#: name may hold "error". (Gradle's "> Compilation failed; …" is no echo: no header.)
_DOLLAR_ECHO = re.compile(r"^\$ [A-Za-z./][\w./@:+-]*(?: \S+)*$")
_NPM_HEADER = re.compile(r"^> (?:@[\w.-]+/)?[\w.-]+@\S+ [\w:.-]+(?: \S+)?$")
#: The tag a task runner puts before each line of a task's output, in brackets (mise's
#: `[lint:go] `); the patterns below that read past it are built on this one.
_BRACKETED_TAG = r"\[[\w:./@-]+\]\s+"
#: The name a monorepo runner puts before each line of a task's output (turbo's
#: `@scope/pkg:test: `, mise's `[lint:go] `): a verdict is read after it.
_TASK_PREFIX = re.compile(rf"^(?:{_BRACKETED_TAG}|[@\w./-]+:[\w:.-]+:\s+)")
#: Claude Code's wrappers around a refused call's message and around a warning given in
#: place of output: "error" in a tag is no clue, and neither tag says what went wrong.
_TOOL_USE_ERROR_TAG = re.compile(r"</?(tool_use_error|system-reminder)>")
#: A wrapper line after `normalize` (its numbers are `<n>`): when it is all there is, the
#: exit code is the clue.
_NORMALIZED_WRAPPER = re.compile(_WRAPPER_LINE.pattern.replace(r"\d+", "<n>"), re.I)
#: Where a line's first sentence ends: a stop, then space, then a capital letter.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
#: Fewer words than this in the first sentence, and the whole line is kept.
MIN_SENTENCE_WORDS = 3
MAX_SIGNATURE_CHARS = 200
#: How much of an error line `normalize` reads (ten signatures' worth).
NORMALIZE_CHARS = 2000


@dataclass(frozen=True, slots=True)
class Signature:
    tool_name: str | None
    error_class: str | None
    text: str

    @property
    def full(self) -> str:
        return f"{self.tool_name or '-'} | {self.error_class or '-'} | {self.text}"

    @property
    def digest(self) -> str:
        """What identifies the failure: `full`, without an exit code the text makes moot."""
        return pattern_digest(self.tool_name, self.error_class, self.text)


def keyed_class(error_class: str | None, text: str) -> str | None:
    """The error class as far as it tells failures apart: an exit code, a stock phrase
    or no class is dropped when the text says what went wrong, that is when it sounds
    like an error, holds a stock phrase or opens with a program's mark of a failure
    ("× Some warnings were emitted …", `_FAILED_MARK`; not a banner the output happened
    to start with, nor the wrapper's own line). A stock phrase is the class only when no exit
    code came with the output (a pipe hid it): `ls: cannot access …: No such file or
    directory` is one failure under `exit 2` and under "no such file or directory"."""
    if (
        error_class is not None
        and not error_class.startswith("exit ")
        and error_class not in _STOCK_CLASSES
    ):
        return error_class
    says = (
        _ERROR_LINE.search(text)
        or _STOCK_PHRASE.search(text)
        or _SAYS_WHAT_FAILED.search(text)
        or (_SPEAKS_IN_ITS_NAME.match(text) and not _SAID_NOTHING.search(text))
        or _FAILED_MARK.match(text)
    )
    if not says or _NORMALIZED_WRAPPER.fullmatch(text):
        return error_class
    return None


#: Words that say what went wrong without an error word ("Could not apply <hex>… fix
#: parser", zsh's "no matches found: …").
_SAYS_WHAT_FAILED = re.compile(r"\b(could not|couldn'?t|no matches found)\b", re.I)
#: A program or a file speaking in its own name, a runner's tag allowed before it: a
#: shell's or a tool's own message ("cat: illegal option -- A", "grep: option `--files' is
#: ambiguous") or a diagnostic at a place in a file ("<path>: <q> imported and not used",
#: a linter's "(gocritic)" after it). Such a line is the failure itself, whatever code the
#: program exited with, or none where a pipe hid it. A level word ("warning:", "info:") is
#: no program, and a name with a capital ("Running: …") is a banner's heading.
_SPEAKS_IN_ITS_NAME = re.compile(
    rf"^(?:{_BRACKETED_TAG})?"
    r"(?!(?:info|debug|trace|notice|note|hint|warn|warning|help):)"
    r"(?:<path>|[a-z][\w.+-]*)(?::<n>)*: \S"
)
#: What a silent failure's signature says after the program that ran ("rtk: printed
#: nothing"; `signature_of`).
PRINTED_NOTHING = "printed nothing"
PRINTED_ONLY_MATCHES = "printed only matches"
#: A silent failure's signature: what ran is all it says, and the exit code is what tells
#: such failures apart.
_SAID_NOTHING = re.compile(rf": (?:{PRINTED_NOTHING}|{PRINTED_ONLY_MATCHES})$")


#: The tools that run a shell command: Claude Code's `Bash` (and `PowerShell`, beside it on
#: Windows), and Codex's, whose name changed from version to version (`shell`,
#: `local_shell`, `shell_command`, `exec_command`). A failure run through any of them is
#: one failure.
SHELL_TOOLS = frozenset(
    {"bash", "powershell", "shell", "exec_command", "local_shell", "shell_command"}
)


def is_shell_tool(name: str | None) -> bool:
    return (name or "").lower() in SHELL_TOOLS


#: Codex's patch tool; older Codex versions ran it as a shell command, and a failed
#: patch is its failure whichever way it ran.
PATCH_TOOL = "apply_patch"

#: Claude Code's tools that write a file (lower-cased): one failure, such as writing a file
#: not read first ("File has not been read yet. Read it first before writing to it."), is
#: the same mistake whichever of them made it.
EDIT_TOOLS = frozenset({"edit", "multiedit", "write", "notebookedit"})

#: Claude Code's tools that search files (lower-cased): both run its own ripgrep, and one
#: failure, a path that does not exist or ripgrep that would not start ("ENOENT: no such
#: file or directory, posix_spawn …"), is the same whichever of them met it.
SEARCH_TOOLS = frozenset({"grep", "glob"})

#: Claude Code's tools that it renamed (the old name lower-cased → the name now): a failure
#: under either name is one tool's, in a history that spans the change. Its subagent tool
#: `Task` is `Agent` since 2.1.6x, its read of a background command `BashOutput` is
#: `TaskOutput` since 2.0.7x, and `KillShell` is `TaskStop` since 2.1.2x.
RENAMED_TOOLS = {"task": "Agent", "bashoutput": "TaskOutput", "killshell": "TaskStop"}


#: Codex's code mode (Codex Desktop): a script whose `tools.exec_command` runs commands and
#: whose `tools.apply_patch` patches files. Its failures are the shell's, or the patch
#: tool's when a patch did not apply (`PATCHED_LINES_MISSING`), as if those tools had
#: failed on their own.
CODE_MODE_TOOL = "exec"
#: A patch's failure as signed, whichever way the patch ran.
PATCHED_LINES_MISSING = "Failed to find expected lines in <path>:"


#: Codex's poll of a command that runs on (unified exec): what it returns is that command's
#: output and exit, so a failure it shows is the command's, as if it had ended at once.
POLL_TOOL = "write_stdin"


def tool_key(tool_name: str | None) -> str | None:
    """The tool as far as it tells failures apart: every shell tool, Codex's poll of a
    command still running and its code-mode script are "shell"; every tool that writes a
    file "edit"; every tool that searches files "search"; a tool Claude Code renamed is
    known by its name now."""
    if is_shell_tool(tool_name) or tool_name in (POLL_TOOL, CODE_MODE_TOOL):
        return "shell"
    lowered = (tool_name or "").lower()
    if lowered in EDIT_TOOLS:
        return "edit"
    if lowered in SEARCH_TOOLS:
        return "search"
    return RENAMED_TOOLS.get(lowered, tool_name)


#: The Codex tool whose running commands `POLL_TOOL` polls (unified exec).
POLLED_SHELL = "exec_command"


def tool_label(tool_name: str | None) -> str | None:
    """The tool a pattern is shown under: a pattern of a family of tools (those that write
    a file, those that search) holds the failures of all of them, so it is shown as theirs
    ("Edit/Write", "Grep/Glob"), not as the one that failed first; a failure first met
    through a poll is the polled command's, so it is shown under the tool that ran it, not
    under the poll a person never asked for; a tool Claude Code renamed is shown by its name
    now."""
    if tool_name == POLL_TOOL:
        return POLLED_SHELL
    family = tool_key(tool_name)
    if family == "edit":
        return "Edit/Write"
    if family == "search":
        return "Grep/Glob"
    return RENAMED_TOOLS.get((tool_name or "").lower(), tool_name)


def pattern_digest(tool_name: str | None, error_class: str | None, text: str) -> str:
    # a code-mode script's patch that did not apply is the patch tool's failure
    keyed = (
        PATCH_TOOL if tool_name == CODE_MODE_TOOL and text == PATCHED_LINES_MISSING else tool_name
    )
    key = f"{tool_key(keyed) or '-'} | {keyed_class(error_class, text) or '-'} | {text}"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def first_sentence(text: str) -> str:
    """The line up to its first sentence's end, when that sentence says enough on its own
    (a bare "Error." or "Build failed." before the details is no failure's name)."""
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    return first if len(first.split()) >= MIN_SENTENCE_WORDS else text


def _error_code(text: str) -> str | None:
    """The first errno-like code in `text` (see `_ERROR_CODES`), or None."""
    for match in _E_WORD.finditer(text):
        if match.group(1) in _ERROR_CODES:
            return match.group(1)
    named = _CODE_NAMED.search(text)
    return named.group(1) if named else None


def error_class(text: str, exit_code: int | None = None) -> str | None:
    """The kind of error: a named class first (rustc's code, `…Error`, an errno-like code,
    TypeScript's code), then the exit code, then a stock phrase."""
    rustc = _RUSTC_CODE.search(text)
    if rustc:
        return f"error[{rustc.group(1)}]"
    named = _NAMED_CLASS.search(text)
    if named:
        return named.group(1)
    code = _error_code(text)
    if code:
        return code
    typescript = _TYPESCRIPT_CODE.search(text)
    if typescript:
        return typescript.group(1)
    if exit_code not in (None, 0):
        return f"exit {exit_code}"
    match = _STOCK_PHRASE.search(text)
    return match.group(1).lower() if match else None


#: Where a shell itself speaks, before what it says: bash's and sh's `/bin/bash: line 1:`,
#: `sh: 1:`, `bash: -c: line 0:`, zsh's `zsh:1:`, `zsh:cd:1:` (the builtin that failed),
#: Claude Code's `eval` as `(eval):1:`, and a script the shell runs (`./deploy.sh: line 3:`).
#: The program, the script and the line number tell no failure apart.
_SHELL_SPEAKS = (
    r"(?:(?:\S*/)?(?:ba|z|da|k|a)?sh|\S+\.(?:ba|z)?sh|\(eval\))(?::(?P<builtin>[A-Za-z_]\w*|\.))?"
    r"(?::\s*-c)?(?::\s*(?:line\s+)?\d+)?:\s*"
)
_SHELL_PREFIX = r"^\s*" + _SHELL_SPEAKS
_SHELL_LINE = re.compile(_SHELL_PREFIX)

#: A shell's "no such program", as each shell words it: one failure whichever shell ran it
#: (`/bin/bash: line 1: go: command not found`, `zsh: command not found: python`, fish,
#: PowerShell, cmd.exe).
_NOT_FOUND = re.compile(
    rf"^\s*(?:{_SHELL_SPEAKS}(?:(?P<a>\S+): (?:command )?not found|command not found: (?P<b>\S+))"
    r"|fish: Unknown command:? (?P<c>\S+)"
    r"|(?:\S+ : )?The term '(?P<d>[^']+)' is not recognized as (?:the )?name of a cmdlet.*"
    r"|'(?P<e>[^']+)' is not recognized as an internal or external command.*)\s*$",
    re.IGNORECASE,
)

#: What a shell says of a path it was given. Not zsh's "no matches found: GLOB": the
#: glob is what the agent asked for, and its words tell a quoting slip (`repo:*` in a
#: search query) from a look for files that are not there (`phases/14-*/`).
_SHELL_PATH_TROUBLE = (
    r"no such file or directory|permission denied|operation not permitted|not a directory|"
    r"is a directory|file exists"
)
#: A shell's message about a path, as each shell words it: bash and sh name the path
#: first (`/bin/bash: line 1: cd: build: No such file or directory`, `bash: ./run.sh:
#: Permission denied`), zsh after it (`zsh:cd:1: no such file or directory: build`,
#: `(eval):1: permission denied: ./run.sh`), dash in its own words (`sh: 1: cd: can't cd
#: to build`). The path is what changes from call to call, so the folder an agent
#: wrongly took for there is no failure of its own: one "cd into a missing folder",
#: whichever folder and whichever shell.
_SHELL_SAYS_PATH = re.compile(
    _SHELL_PREFIX
    # the path bash names first is one word, or words holding a slash, a backslash or a
    # dot: a message the shell gives a reason for ("can't create temp file for here
    # document: operation not permitted") stays as it is
    + r"(?:(?:(?P<b1>cd|source|\.|pushd|exec): )?"
    r"(?P<p1>(?:[A-Za-z]:)?(?:[^:\s]+|(?=[^:\n]*[/\\.])[^:\n]+)): "
    rf"(?P<m1>{_SHELL_PATH_TROUBLE})|(?P<m2>{_SHELL_PATH_TROUBLE}): (?P<p2>.+)"
    r"|(?P<b3>cd): (?P<m3>can't cd to) (?P<p3>.+))\s*$",
    re.IGNORECASE,
)


def _shell_words(line: str) -> str:
    """A line the shell itself printed, in one wording whichever shell printed it: `sh:`,
    the builtin that failed, then what went wrong (and `<path>` for the path it names)."""
    prefix = _SHELL_LINE.match(line)
    if prefix is None:
        return line  # most lines: no shell prefix, so no shell message about a path either
    says = _SHELL_SAYS_PATH.match(line)
    if says:
        builtin = says["builtin"] or says["b1"] or says["b3"]
        trouble = (says["m1"] or says["m2"] or says["m3"]).lower()
        mark = " " if says["m3"] else ": "
        return f"sh: {builtin + ': ' if builtin else ''}{trouble}{mark}<path>"
    builtin = prefix["builtin"]
    return f"sh: {builtin + ': ' if builtin else ''}{line[prefix.end() :]}"


#: The answers a question offers (`[y/N]`, `(yes/no)`), and what stands for their slash
#: while paths are replaced (a character of Unicode's private use area).
_ANSWER_OPTIONS = re.compile(r"[\[(](?:y/n|yes/no)[\])]", re.I)
_SLASH_KEPT = "\ue000"


def _slashes_kept(found: re.Match[str]) -> str:
    """The matched text with its slashes hidden from the path pattern."""
    return found[0].replace("/", _SLASH_KEPT)


#: A Go subtest named in go test's verdict on it (`--- FAIL: TestHooks/auto-commit (0.45s)`,
#: gotestsum's `=== FAIL: ./cli TestHooks/auto-commit`): a test's name, whose slashes
#: part it from its parent, not a path; read as one, every subtest's failure was one.
_GO_SUBTEST = re.compile(
    r"(?<=\b(?:FAIL|PASS|SKIP): )(?:\S+ )?(?:Test|Benchmark|Fuzz|Example)\w*(?:/[^\s()]+)+"
)
#: The package go test names in its verdict on it (`FAIL\tentire.io/cli/cmd/entire/cli
#: \t2.771s`, `FAIL\tgithub.com/x/y [build failed]`): an import path, which says where the
#: failure is and holds nothing volatile; read as a path, every package's failure was one
#: (a run cut by `tail` may keep only that line).
_GO_PACKAGE = re.compile(
    r"(?<=^FAIL\t)[\w.-]+(?:/[\w.~-]+)+(?=\s+(?:\d+(?:\.\d+)?s|\[(?:build|setup) failed\]))"
)


#: The project MSBuild names after each diagnostic ("… error CS0103: … [C:\\x\\NumWordify.csproj
#: ::TargetFramework=net8.0]"): one failure per project and target framework otherwise.
_MSBUILD_PROJECT = re.compile(r"\s+\[[^\[\]\n]+\.(?:cs|vb|fs|vcx|sql)proj(?:::[^\]\n]*)?\]\s*$")


def normalize(line: str) -> str:
    """One error line with every volatile part replaced by a placeholder.

    Only the line's first `NORMALIZE_CHARS` are read: the signature keeps its first
    `MAX_SIGNATURE_CHARS`, and the path patterns cost time that grows with the square of
    a line without spaces (a minified bundle printed in a build's failure)."""
    line = _PYTEST_MARK.sub("", line[:NORMALIZE_CHARS], count=1)
    line = _TASK_TAG.sub("", line, count=1)
    missing = _NOT_FOUND.match(line)
    if missing:
        program = next(missing[name] for name in "abcde" if missing[name])
        line = f"command not found: {program.rsplit('/', 1)[-1]}"
    else:
        line = _shell_words(line)
    text = _PATCH_WORDING.sub("", ANSI.sub("", line), count=1)
    text = _MSBUILD_PROJECT.sub("", text)
    text = _UUID.sub("<uuid>", text)
    text = _TIMESTAMP.sub("<ts>", text)
    text = _QUOTED.sub("<q>", text)
    # the answers a question offers (`[y/N]`) are no path
    text = _ANSWER_OPTIONS.sub(_slashes_kept, text)
    # nor is a Go subtest's name (`--- FAIL: TestRewind/manual-commit (0.02s)`), nor the
    # package go test names in its verdict
    text = _GO_SUBTEST.sub(_slashes_kept, text)
    text = _GO_PACKAGE.sub(_slashes_kept, text)
    text = _PATH.sub("<path>", text).replace(_SLASH_KEPT, "/")
    text = _LINE_COL.sub("", text)
    text = _HEX.sub("<hex>", text)
    text = _DURATION.sub("<n>", text)
    text = _NUMBER.sub("<n>", text)
    text = _NUMBERS_RUN.sub("<n>", text)  # "2m 0.0s", "1h 5m": one duration
    text = _REBASE_STOPPED.sub(REBASE_STOPPED, text)
    text = _TOOL_TIME_LIMIT.sub("command timed out after <n>", text)
    text = _GNU_CANNOT.sub(r"\1: <path>:", text)
    text = _MISSING_OPERAND.sub(r"\1: <path>: \2", text)
    text = _WORKING_FOLDER_NOTE.sub("", text)
    text = _RELAYED_BY_TYPECHECK.sub("", text)
    text = _PATH_MISSING.sub(r"\1: <path>", text)
    text = _ERRNO_OPERAND.sub(r"\1", text)
    text = _OTHER_COUNTS.sub(r"\1", text)
    text = _RULE_ENDS.sub("", text)
    return _SPACE.sub(" ", text).strip()[:MAX_SIGNATURE_CHARS]


#: The rule a test runner draws on both sides of its closing line ("===== no tests
#: collected (205 deselected) in 0.39s =====").
_RULE_ENDS = re.compile(r"^\s*[=_*#-]{3,}\s+|\s+[=_*#-]{3,}\s*$")


#: The counts a test run prints after its failures (`Tests: 20 failed, 619 passed, 639
#: total`, `… 5 skipped, 472 passed …`): which other kinds the run had tells no failure
#: apart, so a run seen only through its counts is one pattern.
_OTHER_COUNTS = re.compile(
    r"(<n> (?:failed|failing|failures?|errors?))"
    r"(?:\s*,\s*<n> (?:passed|skipped|todo|pending|deselected|xfailed|xpassed|warnings?|total"
    r"|of <n> total))+"
)


#: pytest's mark in front of each line of a failure's explanation ("E       AssertionError:
#: …"): the same error raised outside a test has none.
_PYTEST_MARK = re.compile(r"^E {2,}(?=\S)")
#: The tag a task runner puts before each line of a task's output (mise's `[lint:go] `, a
#: log's `[stderr] `, Playwright's project, `[chromium] `): which task printed the line, not
#: what went wrong, so the same error printed by a task and by the program run alone is one
#: failure. The runner's own verdict on the task (`[lint] ERROR task failed`) keeps it: the
#: task's name is all that line says.
_TASK_TAG = re.compile(rf"^{_BRACKETED_TAG}(?:›\s+)?(?!(?:ERROR|WARN)\b)")
#: How Codex words a patch whose context is not in the file, by version: "apply_patch
#: verification failed: Failed to find expected lines in x:" from its own tool, "error:
#: Failed to find expected lines in x:" when it ran the patch through the shell. One
#: failure: the wording before its words is dropped.
_PATCH_WORDING = re.compile(
    r"^\s*(?:apply_patch verification failed: |error: )(?=failed to find expected lines\b)",
    re.IGNORECASE,
)
#: Node's errno message ends with the system call and, in newer versions, the path it was
#: given ("EISDIR: illegal operation on a directory, read" and "…, read '/src'"): the path
#: tells no failure apart, and Claude Code's Read gives both forms by version.
_ERRNO_OPERAND = re.compile(r"^(E[A-Z]{3,}: [^,]+, \w+) <q>$")
#: GNU coreutils' words for a path they could not reach (`ls: cannot access 'x': No such
#: file or directory`, `cp: cannot stat 'x': …`), once the quoted path is `<q>`: macOS's
#: BSD tools name the path alone (`ls: x: No such file or directory`), and the failure is
#: the same on both machines of a team.
_GNU_CANNOT = re.compile(
    r"^(?!(?:error|fatal|warning)\b)([\w.-]+): cannot (?:access|stat|open) <q>:"
)
#: Git's word that a rebase or a cherry-pick stopped on a commit it could not apply, said
#: twice ("error: could not apply 27a33e9... Harden OAuth", and last, "Could not apply
#: 27a33e9... Harden OAuth"): one failure, whichever line an output cut to its end kept and
#: whichever commit it was (the subject tells the conflict of one commit from another's no
#: more than a test's data tells one failed run from another).
_REBASE_STOPPED = re.compile(r"^(?:error: )?could not apply <(?:hex|n)>\.\.\.(?:\s.*)?$", re.I)
REBASE_STOPPED = "error: could not apply <hex>..."
#: A program's word that a path it was given is not there or not of the kind it wanted,
#: the path named bare (`rg: tests: No such file or directory (os error 2)`, `grep: src: …`):
#: a name without a slash is as much a path as one with, and "rg: tests" stood beside "rg:
#: <path>" as another failure.
_MISSING_OPERAND = re.compile(
    r"^(?!(?:error|fatal|warning)\b)([\w.-]+): (?!<)[^\s:<>]+: "
    r"(No such file or directory|Not a directory|Is a directory|Permission denied)\b"
)
#: The note later Claude Code versions add to a tool's refusal of a path ("Path does not
#: exist: /x/src. Note: your current working directory is /x/app."), once its paths are
#: `<path>`: the same refusal, with or without it.
_WORKING_FOLDER_NOTE = re.compile(r"\s+Note: your current working directory is <path>\.?$")
#: golangci-lint's name for the compiler's own errors it relays ("<file>:5:2: "os"
#: imported and not used (typecheck)"): the same error the compiler reports without it,
#: where another linter's name says which rule found something.
_RELAYED_BY_TYPECHECK = re.compile(r" \(typecheck\)$")
#: Claude Code's Grep and Glob refusing a path that is not there, whatever the path looks
#: like (".golangci.yml", "src/app/[locale]/(dashboard)/page.tsx").
_PATH_MISSING = re.compile(r"^(Path does not exist): (?!<path>$).+$")
#: An agent's note that it stopped a command at its time limit, once its numbers are
#: `<n>`: Claude Code's "Command timed out after 2m 0.0s", Codex's "command timed out
#: after 10031 milliseconds" and an old Codex's bare "command timed out" are one failure, a
#: command run past the tool's limit.
_TOOL_TIME_LIMIT = re.compile(
    r"^command timed out(?: after <n>(?:\s+(?:milliseconds|seconds|minutes|msecs?|secs?|mins?))?"
    r"|\s*$)",
    re.IGNORECASE,
)
#: Claude Code's note that it stopped a command at its time limit, written in front of
#: the command's first line of output ("Command timed out after 2m 0.0s (node:38089) …").
_TIMED_OUT_PREFIX = re.compile(
    r"^(\s*Command timed out after (?:\d+h )?(?:\d+m )?[\d.]+m?s)(?:\s+|$)"
)
#: A runtime's or tool's warning, printed beside the failure but not it (node's
#: `(node:1) ExperimentalWarning: …` and its `(Use `node --trace-warnings …`)` hint,
#: Python's `DeprecationWarning`, `npm WARN`, a `warning:` line, a structured log's
#: `level=warning`).
_WARNING_LINE = re.compile(
    r"(?-i:\b[A-Z]\w*Warning\b)|^\W*(?:warn(?:ing)?\b|npm warn\b)|node --trace-warnings"
    r"|\blevel=warn(?:ing)?\b",
    re.I,
)


#: An MCP server's result wrapped in JSON (`{"result": "…"}`, as Serena returns it).
_MCP_RESULT = re.compile(r'\A\s*\{\s*"result"\s*:\s*"')


def _mcp_result(text: str) -> str:
    """The text an MCP server's `{"result": "…"}` wraps; `text` itself otherwise. Signed
    as JSON, every such error was one signature, `{<q>:<q>}`."""
    if not _MCP_RESULT.match(text):
        return text
    data = json_value(text)
    result = data.get("result") if isinstance(data, dict) and len(data) == 1 else None
    return result if isinstance(result, str) else text


def _printed_lines(text: str) -> list[str]:
    """The output's non-blank lines as a terminal showed them (no colour codes, no
    Claude Code tags, a time-limit note on a line of its own, an MCP server's JSON
    wrapper and an old Codex's sandbox note taken off)."""
    plain = _TOOL_USE_ERROR_TAG.sub("", ANSI.sub("", _mcp_result(_out_of_sandbox_note(text))))
    plain = _PATCH_LINES_LISTED.sub(_patch_failure_unlisted, plain, count=1)
    plain = _TIMED_OUT_PREFIX.sub(r"\1\n", plain, count=1)
    return [part for ln in plain.splitlines() if ln.strip() for part in _apart_from_json(ln)]


#: A program's own line glued to the JSON printed before it: `gh api` prints an API's answer
#: with no newline at its end, then its own word on the failure ('{"data":{"repository":null},
#: "errors":[…]}gh: Could not resolve to a Repository with the name …', or the closing
#: brace of an answer printed over lines: "}gh: Not Found (HTTP 404)"). Read apart, the
#: program's line says what failed; glued, the answer's quoted keys signed it, one
#: signature for every failure of every such call. (A brace inside a line of code, "Foo{…}
#: value", is followed by a space.)
_GLUED_TO_JSON = re.compile(r"^([{\[].*[}\]]|[}\]])([A-Za-z][\w.-]*: \S.*)$")


def _apart_from_json(line: str) -> list[str]:
    glued = _GLUED_TO_JSON.match(line)
    return [glued[1], glued[2]] if glued else [line]


#: The note Codex before its unified exec put around a command that failed in its sandbox
#: ("failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit
#: code: 1, stdout: …, stderr: …", "failed in sandbox None with execution error: command timed
#: out", "failed in sandbox: sandbox error: command was killed by a signal"): the sandbox's
#: name and the note's words tell no failure apart, what the command printed does.
_SANDBOX_NOTE = re.compile(
    r"\A\s*failed in sandbox(?: \w+)?(?: with execution error)?: (?:sandbox error: )?"
)
_SANDBOX_DENIED = re.compile(r"\Asandbox denied exec error, exit code: -?\d+, stdout: ")
#: The same note holding the output as Rust prints it for debugging ("Denied { output:
#: ExecToolCallOutput { exit_code: 128, stdout: StreamOutput { text: "", … }, stderr:
#: StreamOutput { text: "fatal: cannot lock ref …\\n", … }, … } }").
_DEBUG_STREAM = re.compile(r'\b(stdout|stderr): StreamOutput \{ text: "((?:[^"\\]|\\.)*)"')
_DEBUG_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]{1,6}\}|.)")
#: What a Rust debug string's one-letter escapes stand for (`\t` a tab: go test's
#: "FAIL\tgithub.com/…\t0.33s" had read as one word, "FAILtgithub.com/…t0.33s").
_DEBUG_LETTERS = {"n": "\n", "t": "\t", "r": "\r", "0": ""}


#: Codex before its own patch tool listed the lines it looked for, on the failure's line
#: ("error: Failed to find expected lines ["    # Optional analysis", ""] in /src/gen.py"),
#: one list a patch, often longer than what is read of the output: the same failure as the
#: later "Failed to find expected lines in /src/gen.py:", and the source in the list names
#: no error class ("SystemExit", "RuntimeError").
_PATCH_LINES_LISTED = re.compile(
    r"^(\s*(?:error: )?failed to find expected lines) \[[^\n]*?(?:\] (in \S+?):?[^\S\n]*$|$)",
    re.IGNORECASE | re.MULTILINE,
)


def _patch_failure_unlisted(found: re.Match[str]) -> str:
    return f"{found[1]} {found[2]}:" if found[2] else f"{found[1]} in <path>:"


#: How later Codex versions open the result of a call they did not run, or that failed in
#: their sandbox: the tool and, mostly, the command ("exec_command failed for `/bin/zsh -lc
#: 'git add a.go'`: "), then what stopped it.
CODEX_CALL_FAILED = r"\w+ failed(?: for `[^`\n]*`)?: "
#: The same failure as later Codex versions write it, the note inside the message of a
#: process it could not create ("exec_command failed for `/bin/zsh -lc 'git add a.go'`:
#: CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code:
#: 128, … stderr: StreamOutput { text: \"fatal: Unable to create …\\n\", … }"), or a
#: message of its own ("…: SandboxDenied { message: "go: downloading …\ngo: … imports …"").
_IN_A_MESSAGE = re.compile(
    r"\A\s*" + CODEX_CALL_FAILED + r"(?P<kind>CreateProcess|SandboxDenied) \{ message: "
    r'"(?P<message>(?:[^"\\]|\\.)*)'
)


def _unescaped(text: str) -> str:
    """One level of a Rust debug string's escapes undone (`\\n` a line break, `\\t` a tab,
    `\\"` a quote, `\\u{1b}` the character it names)."""
    return _DEBUG_ESCAPE.sub(_unescape_one, text)


def _unescape_one(found: re.Match[str]) -> str:
    escaped = found[1]
    if escaped.startswith("u{"):
        # (no NUL, other control a terminal does not read, or half of a surrogate pair: a
        # store's text holds none)
        code = int(escaped[2:-1], 16)
        kept = (code >= 0x20 or code in (9, 10, 13, 27)) and not 0xD800 <= code < 0xE000
        return chr(code) if kept and code <= 0x10FFFF else ""
    return _DEBUG_LETTERS.get(escaped, escaped)


def _out_of_sandbox_note(text: str) -> str:
    """What the command printed, out of an old Codex's sandbox note (`_SANDBOX_NOTE`):
    its stdout then its stderr, or the note's own reason ("command timed out"); and out of
    a later one's message (`_IN_A_MESSAGE`)."""
    wrapped = _IN_A_MESSAGE.match(text)
    if wrapped is not None:
        message = _unescaped(wrapped["message"])
        if wrapped["kind"] == "SandboxDenied":
            return message
        if message.startswith("Codex(Sandbox(Denied {"):
            # the old note's form inside: read as the old note is
            text = "failed in sandbox: " + message.removeprefix("Codex(Sandbox(")
    note = _SANDBOX_NOTE.match(text)
    if note is None:
        return text
    rest = text[note.end() :]
    denied = _SANDBOX_DENIED.match(rest)
    if denied is not None:
        body = rest[denied.end() :]
        out, said, err = body.rpartition(", stderr: ")
        return f"{out}\n{err}" if said else body
    if rest.startswith("Denied {"):
        streams: dict[str, str] = {}
        for name, escaped in _DEBUG_STREAM.findall(rest):
            streams.setdefault(name, _unescaped(escaped))
        printed = "\n".join(streams.get(name, "") for name in ("stdout", "stderr")).strip()
        return printed or rest
    return rest


#: A package manager's or a build's progress line ("go: downloading x v1.2.0", pip's
#: "Collecting x", cargo's "Compiling x v0.1.0", npm's "added 12 packages"): what it was
#: doing, never what went wrong.
_PROGRESS_LINE = re.compile(
    # a build's step count in front (SwiftPM's and ninja's `[20/24] Compiling Resting
    # RestingError.swift`: a file's name is no error class)
    r"^(?:\[\d+/\d+\]\s+)?"
    r"(?:go: (?:downloading|finding module|found|added|upgraded|downgraded|extracting)\b"
    r"|(?:Collecting|Downloading|Downloaded|Compiling|Fetching|Resolving|Installing|"
    r"Requirement already satisfied|Using cached|Obtaining|Preparing metadata|Building wheel|"
    r"Updating crates\.io index|Locking|Checking) \S"
    r"|added \d+ packages?\b"
    # go test -v's line as a test starts, pauses or goes on: it names the test, whose name
    # may hold "error" (`=== RUN   TestQuery/returns_error_for_missing_file`)
    r"|=== (?:RUN|PAUSE|CONT|NAME)\s)"
)


def _without_progress(lines: list[str]) -> list[str]:
    """The lines that are not a progress line, when any are."""
    kept = [line for line in lines if not _PROGRESS_LINE.match(line)]
    return kept or lines


def _without_warnings(lines: list[str]) -> list[str]:
    """The lines that are not a warning, when one of them says what went wrong: a
    warning printed on every run (node's experimental-feature notice) must not sign every
    failure it accompanies; with no other clue, a warning is still one."""
    kept = [line for line in lines if not _WARNING_LINE.search(line)]
    if any(
        (_sounds_like_error(line) or _TIMED_OUT_PREFIX.match(line)) and not _not_a_cause(line)
        for line in kept
    ):
        return kept
    return lines


#: A compiler's excerpt of the source under a diagnostic (gcc's, clang's and rustc's
#: `  229 | vsla_error_t f(int device_id) {` and the `      |   ~~~~^~~~` under it; Jest's
#: and Babel's code frame, `> 652 |   throw new Error(` at the line that threw): the code
#: it quotes may hold any word ("error" in a type's name), and it never says what went
#: wrong.
_SOURCE_EXCERPT = re.compile(
    r"(?:>\s*)?\d+ \|(?: .*)?|\|(?: +[~^][~^\s]*(?:\s.*)?)?"
    # a numbered listing of source printed after the run (`grep -n -A`, `sed -n … | cat -n`:
    # "182-        Assert.Throws<ArgumentException>(", "170:    public void …"), its code
    # indented past the number
    r"|\d+[:-](?:\t| {2,})\S.*"
)
#: A compiler's note or hint under a diagnostic (gcc's and clang's `x.c:459:14: note:
#: previous definition of 'f' with type 'vsla_error_t(…)'`, mypy's `x.py:3: note: …`,
#: rustc's `= note: this error originates in the macro …` and `help: …`): it points at
#: what the diagnostic above it is about, and a type or a macro it names may hold "error",
#: but the diagnostic is the failure. Git's advice under its verdict reads the same ("hint:
#: To abort and get back to the state before "git rebase", run …" over "Could not apply
#: 8d07169… fix parser").
_COMPILER_NOTE = re.compile(r"^(?:[^\s:]+:\d+(?::\d+)?:\s*|=\s+)?(?:note|help|remark|hint):")


def _without_continuations(printed: list[str]) -> list[str]:
    """The printed lines but the indented ones that go on from a diagnostic above them
    (`_DIAGNOSTIC`): what a compiler adds under it (Go's `cmd/x_test.go:42:18: not enough
    arguments in call to s.Scan`, then `\thave ()` and `\twant (string, func(line
    json.RawMessage) error)`) may hold "error" as a type's name and never says more than
    the diagnostic."""
    kept: list[str] = []
    under_diagnostic = False
    for line in printed:
        if under_diagnostic and line[:1] in (" ", "\t") and line.strip():
            continue
        under_diagnostic = bool(_DIAGNOSTIC.match(line))
        kept.append(line)
    return kept


#: Windows PowerShell's error record: the message (after the command that spoke, `Get-Acl
#: : `, or under the source excerpt for a parse error), `At line:1 char:1`, the excerpt and
#: its `+ ~~~~` marker, then `+ CategoryInfo : ObjectNotFound: (Get-Acl:String) [],
#: CommandNotFoundException` and `+ FullyQualifiedErrorId : …`, each wrapped at the
#: console's width.
_PS_AT = re.compile(r"^At (?:line:\d+|\S.*:\d+) char:\d+$")
_PS_CATEGORY = re.compile(r"^\+ CategoryInfo\s+:")
_PS_ERROR_ID = re.compile(r"^\+ FullyQualifiedErrorId\s+:")
_PS_EXCERPT = re.compile(r"^\+(?:\s|$)")
#: Who spoke before the message: a cmdlet, a program PowerShell ran (`gpg.exe : gpg: no
#: valid OpenPGP data found.`) and what it was asked about (`Resolve-DnsName : github.com :
#: …`).
_PS_SPEAKER = re.compile(r"^\S+ : ")
_PS_EXCEPTION = re.compile(r",\s*([\w.]+)\s*$")
#: How far above its CategoryInfo line a record's `At line:` line may stand, and over how
#: many lines above that a message wraps.
_PS_RECORD_LINES = 16
_PS_MESSAGE_LINES = 4


def _ps_message_start(lines: list[str], start: int, at: int) -> int:
    """Where the message over a record's `At line:` line starts: at the line naming who
    spoke (`Get-Acl : The 'Get-Acl' command was found …`, wrapped over the lines under it),
    else on the line right above (a script's `throw`): what the command printed before
    it failed is no part of the message."""
    for first in range(at - 1, max(start, at - _PS_MESSAGE_LINES) - 1, -1):
        if not lines[first] or _WRAPPER_LINE.fullmatch(lines[first]):
            break
        if _PS_SPEAKER.match(lines[first]):
            return first
    return max(start, at - 1)


def _powershell_records(printed: list[str]) -> list[str]:
    """The printed lines with each PowerShell error record read as one line, its exception
    then its message (`CommandNotFoundException: The term 'Get-WebAuthnSetting' is not
    recognized as the name of a cmdlet, …`), as a traceback's last line reads. The record's
    own lines name the command, the target and the console's wrapping, so signed by them
    every cmdlet and every target was a failure of its own."""
    if not any(_PS_CATEGORY.match(line.strip()) for line in printed):
        return printed
    lines = [line.strip() for line in printed]
    out: list[str] = []
    start = 0
    for number, line in enumerate(lines):
        if number < start or not _PS_CATEGORY.match(line):
            continue
        window = range(number - 1, max(start, number - _PS_RECORD_LINES) - 1, -1)
        at = next((n for n in window if _PS_AT.match(lines[n])), None)
        if at is None:
            continue
        end = number + 1
        while end < len(lines) and lines[end] and not _PS_ERROR_ID.match(lines[end]):
            end += 1
        # the console wraps a field at its width, inside a word (`WebExc` over `eption`)
        category = "".join(lines[number:end])
        if end < len(lines) and _PS_ERROR_ID.match(lines[end]):
            end += 1
            # the identifier's wrapped rest, indented under it
            while end < len(printed) and printed[end][:1] in (" ", "\t") and lines[end]:
                end += 1
        below = [ln for ln in lines[at + 1 : number] if not _PS_EXCERPT.match(ln)]
        first = at if below else _ps_message_start(lines, start, at)
        message = " ".join(below or lines[first:at])
        for _ in range(2):
            message = _PS_SPEAKER.sub("", message, count=1)
        exception = _PS_EXCEPTION.search(category)
        out.extend(printed[start:first])
        out.append(f"{exception[1]}: {message}" if exception else message)
        start = end
    out.extend(printed[start:])
    return out


#: Where a tool starts echoing the agent's own input back (Claude Code's Edit: "String to
#: replace not found in file." then `String: <old_string>`; Codex's apply_patch: "Failed
#: to find expected lines in <path>:" then the patch's lines): the code echoed is what the
#: agent sent, not what went wrong, though it may hold "error" or "FAIL".
_ECHO_AFTER = re.compile(r"(?:string to replace\b|failed to find expected lines in \S.*:$)", re.I)
_ECHO_START = re.compile(r"\s*String:")


def _without_echo(printed: list[str]) -> list[str]:
    """The printed lines up to where a tool echoes the agent's input back."""
    for number, line in enumerate(printed):
        if _ECHO_AFTER.search(line):
            if "failed to find expected lines" in line.lower():
                return printed[: number + 1]
            rest = printed[number + 1 :]
            start = next((n for n, ln in enumerate(rest) if _ECHO_START.match(ln)), None)
            return printed if start is None else printed[: number + 1 + start]
    return printed


def _lines(printed: list[str]) -> tuple[list[str], list[str]]:
    """The printed lines a signature may come from, and those of them that sound like
    an error: a tool's wrapper lines, a runner's verdicts and passed tests are passed
    over when another line sounds like an error; a compiler's excerpt of the source and
    the agent's input a tool echoes back are never read."""
    every = [
        ln.strip() for ln in _without_continuations(_powershell_records(_without_echo(printed)))
    ]
    kept = [
        ln
        for ln in _without_session_header(every)
        if not (_said_nothing(ln) or _JSON_OPENER.fullmatch(ln))
    ]
    # npm's block names the script that failed: it signs only when no other line sounds
    # like an error (an output cut to its last lines may hold nothing else)
    lines = [ln for ln in kept if not _NPM_BLOCK.fullmatch(ln)]
    if len(lines) < len(kept) and not any(_sounds_like_error(ln) for ln in lines):
        lines = kept
    lines = lines or every
    quoted = (
        _quoted_source(every)
        | _go_stack(every)
        | _help_after_error(every)
        | _advice_after_error(every)
        | _passing_test_runs(every)
    )
    lines = [
        ln
        for ln in lines
        if not (_SOURCE_EXCERPT.fullmatch(ln) or _COMPILER_NOTE.match(ln) or ln in quoted)
    ] or lines
    lines = _without_warnings(_without_progress(lines))
    causes: list[str] = []
    erring: list[str] = []
    errors: list[str] = []
    echoes = _runner_echoes(every)
    for line in lines:
        cause = not _not_a_cause(line)
        if cause:
            causes.append(line)
        # npm starts each line with "npm error": a cause is read by its own words, and
        # the prefix alone (npm 10 prints it between paragraphs) says nothing
        said = _NPM_PREFIX.sub("", line)
        if (
            _sounds_like_error(line)
            and said
            and not _TEST_PROGRESS.match(line)
            and line not in echoes
        ):
            erring.append(line)
            if cause and _sounds_like_error(said):
                errors.append(line)
    if not errors and erring and all(_NPM_PREFIX.match(line) for line in erring):
        # npm's own block, and no line of it names an error in its own words: npm opens
        # with what went wrong ("npm error code E404", "npm error 404 No match found for
        # version 4.40.1") and goes on about it ("… is not in this registry.", "Note that
        # you can also install from a tarball …"), so its first line signs
        return lines, erring[:1]
    return (causes, errors) if errors else (lines, erring)


#: A caret under a quoted line of source, alone or with a word ("^", "~~~^~~", "^--- error
#: here", "error here ---^"): it points where the line above went wrong, never says what.
_CARET = re.compile(
    r"[~^]+(?:\s+[~^]+)*|\^-{2,}\s*error here\b.*|.*\berror here\s*-{2,}\^", re.IGNORECASE
)


#: The header Go prints over a goroutine's stack when it panics ("goroutine 35 [running]:"),
#: and the two lines of each frame under it: the call ("panic({0x1052f6180?, …})",
#: "entire.io/cli/….(*GitStore).ListCommitted(0x0, …)") and its place
#: ("/usr/local/go/src/runtime/panic.go:783 +0x120").
_GOROUTINE = re.compile(r"goroutine \d+ \[[^\]\n]{1,60}\]:")
_GO_FRAME = re.compile(r"[\w.*/()\[\]-]+\(.{0,400}\)|\S+\.go:\d+(?: \+0x[0-9a-f]+)?")


def _go_stack(every: list[str]) -> set[str]:
    """The frames of the stacks a Go panic prints: its `panic: …` line above them says
    what went wrong, while a frame holds "panic" in its function's or its file's name (the
    runtime's `panic(…)`, `runtime/panic.go:783`)."""
    frames: set[str] = set()
    inside = False
    for line in every:
        if _GOROUTINE.fullmatch(line):
            inside = True
        elif inside and _GO_FRAME.fullmatch(line):
            frames.add(line)
        else:
            inside = False
    return frames


#: The head of the help a command prints under its own error ("Usage:", "usage: git …").
_USAGE_HEAD = re.compile(r"usage:(?:\s.*)?", re.IGNORECASE)


def _help_after_error(every: list[str]) -> set[str]:
    """The help a command prints after its own error line ("Error: unknown flag:
    --short", then "Usage:" and every flag, one of them "-q, --quiet  Suppress
    non-essential output (errors only)"): the error says what went wrong, the help never
    does, whatever words its flags hold."""
    for at, line in enumerate(every):
        if _USAGE_HEAD.fullmatch(line):
            if any(_sounds_like_error(before) for before in every[:at]):
                # (argparse prints its error after the usage: "prog: error: …" stays)
                return {ln for ln in every[at + 1 :] if not _OPENS_AS_ERROR.match(ln)}
            return set()
    return set()


_OPENS_AS_ERROR = re.compile(r"(?:[\w./-]+: )?(?:error|fatal)\b", re.IGNORECASE)


#: A program's last words as it dies (git's "fatal: Unable to create '…/.git/index.lock':
#: File exists."): what it prints after them, to the end of the output, is advice.
_FATAL_OPENING = re.compile(r"(?:[\w./-]+: )?fatal: \S", re.IGNORECASE)
#: A line another program speaks in, or another failure line.
_SPEAKS_FOR_ITSELF = re.compile(
    r"[\w./-]+(?::\d+)*: \S|(?:error|fatal)(?:\[\w+\])?: \S", re.IGNORECASE
)
#: The most lines of advice read under a `fatal:` line.
_ADVICE_LINES = 8


def _advice_after_error(every: list[str]) -> set[str]:
    """The paragraph a program prints after its `fatal:` line when they end the output:
    git's "Another git process seems to be running in this repository, … Please make sure
    all processes / are terminated then try again. If it still fails, …", wrapped at the
    terminal's width. It advises, and a piece of it ("If it still fails") is no
    signature. A `fatal:` line a run logged on its way (a test's git call) is not the end
    of the output, and a line another program speaks in is not advice."""
    lines = [line for line in every if line]
    for at in range(max(0, len(lines) - _ADVICE_LINES - 1), len(lines)):
        if _FATAL_OPENING.match(lines[at]):
            after = lines[at + 1 :]
            if after and not any(_SPEAKS_FOR_ITSELF.match(line) for line in after):
                return set(after)
            return set()
    return set()


#: The tag a task runner puts before each line of a task's output (mise's `[lint:go] `), and
#: go vet's name before a diagnostic of a package that does not compile ("vet:
#: internal/gitproto/push_test.go:150:17: not enough arguments in call to PushPack", under
#: the package's "# entire.io/…/gitproto" header).
_RUNNER_TAG = re.compile(rf"^{_BRACKETED_TAG}|^vet(?:\.exe)?: (?=\S+:\d+:\d+: )")


def _quoted_source(every: list[str]) -> set[str]:
    """The lines a compiler, a linter or a database quotes from the source with a caret
    under them (golangci-lint's `func Get(name string) (Strategy, error) {` over `^`,
    SQLite's statement over `error here ---^`), and the carets: the diagnostic above them
    says what went wrong, and a quoted line may hold any word ("error" as a Go type). A
    runner's task prefix (`[lint:go] `) is read past."""
    bare = [_RUNNER_TAG.sub("", line) for line in every]
    quoted: set[str] = set()
    for at, line in enumerate(bare):
        if at and _CARET.fullmatch(line):
            quoted.update((every[at - 1], every[at]))
    return quoted


#: Where a test runner starts a run (bun's "bun test v1.3.5 (1e86cebd)", pytest's "=====
#: test session starts =====") and where it sums one up that nothing failed in (bun's
#: " 0 fail", pytest's "===== 12 passed in 0.31s =====").
_TEST_RUN_START = re.compile(r"^bun test v\d|^=+ test session starts =+$")
_PYTEST_SUM = re.compile(r"=+ ([^=\n]+) =+")
_PASSED = re.compile(r"\bpassed\b")
_FAILED_OR_ERRORS = re.compile(r"\b(?:failed|errors?)\b")


def _sums_up_clean(line: str) -> bool:
    """bun's " 0 fail", or pytest's closing sum with passed tests and none failed."""
    if line == "0 fail":
        return True
    found = _PYTEST_SUM.fullmatch(line) if line.startswith("=") else None
    return bool(found and _PASSED.search(found[1]) and not _FAILED_OR_ERRORS.search(found[1]))


def _passing_test_runs(every: list[str]) -> set[str]:
    """The lines of a test run that ended with nothing failed: what the tests logged as
    they passed ("error: Database connection failed" from a test of that very failure),
    never what failed in the command that ran them (the commit a pre-commit hook then
    found empty)."""
    logged: set[str] = set()
    start: int | None = None
    for at, line in enumerate(every):
        if _TEST_RUN_START.match(line):
            start = at
        elif start is not None and _sums_up_clean(line):
            logged.update(every[start:at])
            start = None
    return logged


#: A line of JSON that only opens an object or a list under a key (`"error": {`): its key
#: may be any word, "error" among them, and it says nothing of what went wrong.
_JSON_OPENER = re.compile(r'\s*"[^"\n]{1,80}"\s*:\s*[\[{]\s*')


#: git's words for an empty commit are the failure only when nothing else failed: under a
#: test run's failure they close the status `git stash pop` prints after it (`git stash
#: push f && go test … | tail -20; git stash pop`), the worktree's state, not its cause.
_EMPTY_COMMIT = ("no changes added to commit", "nothing to commit", "nothing added to commit")


#: `_ERROR_LINE`'s words: looked for as substrings of the lowercased line, which is what
#: the pattern matches and several times faster than it on a log's many lines. The words
#: after them only choose the line that signs a failure: `_ERROR_LINE` also keys a pattern
#: (`keyed_class`), and its words stay those the stored keys were made with (migration
#: 0011). pytest's "no tests collected (205 deselected)" and "no tests ran" (read as its
#: verdict, `_RUNNER_VERDICT`), and git's refusal to make an empty commit ("no changes
#: added to commit (use "git add" …)", "nothing to commit, working tree clean") under a
#: status that holds no error word.
_ERROR_WORDS = (
    *_ERROR_LINE.pattern.replace("\\'", "'").split("|"),
    "no tests collected",
    "no tests ran",
    *_EMPTY_COMMIT,
)


#: A linter's finding, named by its rule's code (ruff's and flake8's `F401 [*] `os`
#: imported but unused`, after a `path:line:col:` or on a line of its own): it says what
#: went wrong though no error word is in it.
_LINT_FINDING = re.compile(r"(?:^|:\d+(?::\d+)?:\s*)[A-Z]{1,4}\d{2,4}(?: \[\*\])? [`'\w]")
#: A compiler's diagnostic at a place in a file (`components/graph_view.go:4:2: "fmt"
#: imported and not used`): Go's hold no error word, yet each says what went wrong, so
#: with no line that sounds like an error the first of them signs the failure (not the
#: `# package` header over them).
_DIAGNOSTIC = re.compile(r"[\w./\\@~+-]+\.\w+:\d+:\d+: \S")
#: A linter's finding at a line with no column, named by the linter at its end
#: (golangci-lint's dupl: `x_test.go:2468: 2468-2517 lines are duplicate of `y.go:146-191`
#: (dupl)`): a diagnostic as the one above is.
_LINTER_FINDING = re.compile(r"[\w./\\@~+-]+\.\w+:\d+: \S.*\([a-z][\w-]*\)\s*$")


#: npm 10 starts every line of a failure with "npm error" (npm 8 with "npm ERR!").
_NPM_PREFIX = re.compile(r"^npm (?:ERR!|error)(?:\s+|$)", re.I)


#: Where an output was cut: Codex's note in front of it, Claude Code's where it cut the
#: middle out (`... [133174 characters truncated] ...`), the harvester's under a text it
#: stored only the head of, and mining's own where it reads a long text's head and tail
#: (`loading.CUT_MARK`, a line of its own).
_CUT_NOTE = re.compile(
    r"Total output lines: \d+|(?:\.\.\.\s*)?\[\d+ characters truncated\](?:\s*\.\.\.)?|…|"
    r"Warning: truncated output \(original token count: \d+\)|"
    + re.escape(CLIPPED_NOTE).replace(r"\{\}", r"\d+")
)


#: A banner a tool prints over its output whatever happened (ESLint's over every crash,
#: "Oops! Something went wrong! :(" and its version): what is under it says what went
#: wrong.
_BANNER = re.compile(
    r"oops! something went wrong! :\(|eslint: v?\d+(?:\.\d+)+",
    re.I,
)
#: pytest's session header: a rule saying "test session starts", then the platform,
#: folders, plugins and each plugin's own settings, up to what it collected.
_SESSION_STARTS = re.compile(r"=+ test session starts =+", re.I)
_COLLECTED = re.compile(r"collect(?:ing|ed)\b", re.I)
#: How far down a session header's collection line may come.
_SESSION_HEADER_LINES = 20


def _without_session_header(lines: list[str]) -> list[str]:
    """The lines outside pytest's session header (printed by every run, so never what
    went wrong) up to its collection line, when that line is near (an output cut inside
    the header keeps it: nothing else is left to say anything)."""
    for start, line in enumerate(lines):
        if not _SESSION_STARTS.fullmatch(line):
            continue
        window = lines[start + 1 : start + 1 + _SESSION_HEADER_LINES]
        end = next((n for n, ln in enumerate(window) if _COLLECTED.match(ln)), None)
        return lines if end is None else lines[:start] + lines[start + 1 + end :]
    return lines


#: The block npm prints under any script that failed (its exit code, path, workspace,
#: location and the command it ran, "Lifecycle script `test` failed with error:"; not an
#: error code such as `code ERESOLVE`, which names what went wrong): it names the
#: script, never what went wrong in it, so the script's own lines sign the failure (a test
#: run seen through `| tail` is its runner's counts with or without npm's block) whenever
#: one of them sounds like an error.
_NPM_BLOCK = re.compile(
    rf"npm (?:ERR!|error) +(?:code -?\d+|(?:{_NPM_SCRIPT_FIELDS})\b.*"
    r"|lifecycle script .* failed with error:?|failed at the .* script\b.*)",
    re.I,
)


def _runner_echoes(every: list[str]) -> set[str]:
    """The commands a script runner echoed before running them (`_DOLLAR_ECHO`)."""
    echoes = {line for line in every if line.startswith("$ ") and _DOLLAR_ECHO.match(line)}
    for before, line in itertools.pairwise(every):
        if line.startswith("> ") and _NPM_HEADER.match(before):
            echoes.add(line)
    return echoes


def _said_nothing(line: str) -> bool:
    """A wrapper's line, Codex's count of the lines of a cut output, npm's footer or a
    tool's banner: in any such output, so never what went wrong."""
    return bool(
        _WRAPPER_LINE.fullmatch(line)
        or _CUT_NOTE.fullmatch(line)
        or NPM_FOOTER.fullmatch(line)
        or _BANNER.fullmatch(line)
    )


#: A check's line marked as failed ("❌ History Directory: Missing: …", "✗ lint"): a
#: health check or a checklist says what went wrong after the mark, in words of its own.
_FAILED_MARK = re.compile(r"^(?:[❌✗✘🔴⛔]\s*|× )\S")


def _sounds_like_error(line: str) -> bool:
    low = line.lower()
    return (
        any(word in low for word in _ERROR_WORDS)
        or bool(_LINT_FINDING.search(line))
        or bool(_FAILED_MARK.match(line))
    )


#: Every runner verdict and passed-test report holds one of these (lowercased); a line
#: with none is a cause candidate without running the patterns (most lines of a log).
_NOT_A_CAUSE_HINTS = (
    "exit",
    "fail",
    "error",
    "err!",
    "elifecycle",
    "***",
    "problem",
    "pass",
    "skip",
    "no tests",
    "report",
    "check",
    "see",
    "for more",
    "run with",
    "ok",
    "✓",
    "✔",
    "√",
)


#: Where to look or whom to tell, printed under a failure ("Report core guarantee failures
#: at: …", "Check failed tests above.", "See the log for details", "For more information
#: …"): advice about the failure, never the failure.
_ADVICE = re.compile(
    r"^\W*(?:please\s+)?report\b.{0,80}\b(?:at|to|here)\W*$"
    r"|\bcheck (?:the )?(?:failed|failing|errors?)\b.{0,40}\b(?:above|below)\b"
    r"|^\W*(?:see|check)\b.{0,80}\bfor (?:more )?(?:details|info(?:rmation)?)\b"
    r"|^\W*for more (?:details|info(?:rmation)?)\b"
    # how to see more of it (mise's "Run with --verbose or MISE_VERBOSE=1 for more
    # information", Rust's "note: run with `RUST_BACKTRACE=1` …")
    r"|^(?:[\w.-]+ (?:error|ERROR) )?\W*(?:re)?run with\b.{0,80}\b(?:for more|to (?:see|display))\b"
    # and the version it prints among them ("mise ERROR Version: 2026.6.13 macos-arm64")
    r"|^[\w.-]+ (?:error|ERROR) version: \S+",
    re.I,
)


def _not_a_cause(line: str) -> bool:
    low = line.lower()
    if not any(hint in low for hint in _NOT_A_CAUSE_HINTS):
        return False
    line = _TASK_PREFIX.sub("", line)
    return bool(
        _RUNNER_VERDICT.search(line)
        or _PASS_LINE.match(line)
        or _ADVICE.search(line)
        or _STOPPED_COUNTING.match(line)
    )


#: A compiler's note that it stopped listing errors, at the place of the last one it
#: listed (Go's `reset_test.go:146:8: too many errors`): the errors above it say what went
#: wrong, and as the only line that holds the word "error" it had signed every build that
#: failed with more than ten.
_STOPPED_COUNTING = re.compile(
    r"^(?:\S+:\d+(?::\d+)?: )?too many errors(?: \(typecheck\))?$", re.IGNORECASE
)


def key_line(text: str, klass: str | None) -> str:
    """The line that says what went wrong: the one naming the error class, else the
    last line that sounds like an error (one of two words or more before a lone word),
    else the first non-empty line; lines a tool's wrapper adds to every output, and a
    runner's verdict on what it ran, are passed over unless there is nothing else."""
    printed = _printed_lines(text)
    whole = _read_whole(printed)
    return whole if whole is not None else _key_line_of(*_lines(printed), klass)


def _read_whole(printed: list[str]) -> str | None:
    """What an output says as a whole, before any line of it is weighed: the tool's
    time-limit note opening it, a hook's message refusing the call, an API's error object
    that is all of it, or the message in a CLI's error panel."""
    readings = (
        _stopped_at_time_limit,
        _hook_message,
        _json_error,
        _json_error_below,
        _panel_error,
        _numbered_causes,
    )
    for reading in readings:
        found = reading(printed)
        if found is not None:
            return found
    return None


#: Claude Code's header over what a hook said when it stopped or failed a call
#: ("PreToolUse:Write hook error: [python3 …/security_reminder_hook.py]: ⚠️ Security
#: Warning: Using child_process.exec() can lead to command injection …", "PreToolUse:Bash
#: hook error: […]: HOOK_BLOCKED: Commit must follow …").
_HOOK_HEADER = re.compile(
    r"^\s*(?:Pre|Post)ToolUse(?:Failure)?(?::[\w.-]+)? hook (?:blocking )?error\b", re.IGNORECASE
)


def _hook_message(printed: list[str]) -> str | None:
    """The hook's first line when a hook's message is the output: what it refused and why;
    the lines under it are its advice ("- Provides proper error handling"), whose words
    would sign any hook's refusal alike. The command that ran the hook (in brackets) is
    left out: quoted one way or another, it names the same hook."""
    first = printed[0].strip() if printed else ""
    header = _HOOK_HEADER.match(first)
    if header is None:
        return None
    return first[: header.end()] + _HOOK_COMMAND.sub("", first[header.end() :], count=1)


#: The command a hook header names before the hook's message (": [python3 …/hook.py]: ").
_HOOK_COMMAND = re.compile(r"^:\s*\[[^\]\n]{0,500}\]")


#: A panel's top border titled as an error, as rich draws it for typer and click-rich
#: CLIs ("╭─ Error ─────╮"), and a line inside a panel ("│ No such command 'info'.  │").
_ERROR_PANEL_TOP = re.compile(r"^\s*[╭┌┏╔][─━═]+\s*Error\s*[─━═]*[╮┐┓╗]\s*$", re.IGNORECASE)
_PANEL_LINE = re.compile(r"^\s*[│┃║]\s?(.*?)\s*[│┃║]\s*$")


def _panel_error(printed: list[str]) -> str | None:
    """The message inside a CLI's error panel (its first line): the panel's border, whose
    only word is "Error", says that the command failed, never what went wrong."""
    for at, line in enumerate(printed[:-1]):
        if _ERROR_PANEL_TOP.match(line):
            inside = _PANEL_LINE.match(printed[at + 1])
            if inside and inside.group(1).strip():
                return inside.group(1).strip()
    return None


#: A question that waits for an answer (`Publish the draft now? [y/N]`, `Proceed
#: (y/n)?`): a command run with no terminal fails at it when its input closes.
_ANSWER_PROMPT = re.compile(_ANSWER_OPTIONS.pattern + r"\s*[?:]?\s*$", re.I)


def _empty_commit(line: str) -> bool:
    low = line.lower()
    return any(words in low for words in _EMPTY_COMMIT)


#: golangci-lint's closing count ("3 issues:") and its lines by linter ("* errcheck: 2").
_LINT_COUNT = re.compile(r"^\s*[1-9]\d* issues?:\s*$")
_LINT_COUNTED = re.compile(r"^\s*\* [\w-]+: \d+\s*$")


def _key_line_of(lines: list[str], errors: list[str], klass: str | None) -> str:
    if not lines:
        return ""
    if klass:
        bare = klass.removeprefix("error[").removesuffix("]")
        # the line the class opens ("AttributeError: 'X' object has no attribute 'y'",
        # pytest's "E   AttributeError: …") before a line of code that names it (a
        # traceback quotes `raise AttributeError(` above it)
        opens = re.compile(rf"^\W*(?:E\s+)?[\w.]*{re.escape(bare)}\b", re.I)
        named = [line for line in lines if bare.lower() in line.lower()]
        for line in named:
            if opens.match(line):
                return line
        if named:
            return named[0]
    # a lone word ("Error", a `:error` value printed in a type) says less than a sentence,
    # and a bare path ("/logs/error.log") says nothing once normalized
    worded = [line for line in errors if len(_WORD.findall(line)) >= 2] or errors
    if worded and _only_placeholders(worded[-1]):  # (read only where it could sign)
        worded = [line for line in worded if not _only_placeholders(line)] or worded
    causes = [line for line in worded if not _not_a_cause(line)]
    if any(not _empty_commit(line) for line in causes):
        worded = [line for line in worded if not _empty_commit(line)]
    if causes:  # one of them is still in `worded`
        return worded[-1]
    # a command left waiting on a question its closed input never answered
    if _ANSWER_PROMPT.search(lines[-1]):
        return lines[-1]
    # a diagnostic says what went wrong where a runner's verdict over it (go test's `FAIL
    # ./cmd [build failed]`) only says that something did
    diagnostic = next(
        (
            line
            for line in lines
            if (
                _DIAGNOSTIC.match(untagged := _RUNNER_TAG.sub("", line))
                or _LINTER_FINDING.match(untagged)
            )
            and not _STOPPED_COUNTING.match(untagged)
        ),
        None,
    )
    if diagnostic is not None:
        return diagnostic
    if worded:
        return worded[-1]
    # golangci-lint's count by linter, when a `| tail` cut its findings off ("1 issues:"
    # over "* nolintlint: 1"): which linter found something is all the output still says
    count = next((at for at, line in enumerate(lines) if _LINT_COUNT.match(line)), None)
    if count is not None and count + 1 < len(lines) and _LINT_COUNTED.match(lines[count + 1]):
        return lines[count + 1]
    # a rule of dashes or equals signs under a test report says nothing, and neither does
    # a check that passed ("gitleaks....Passed" over pre-commit's "bug: pre-commit's script
    # is installed in migration mode") nor advice where to report it
    # (nor a bare path: `pwd`'s answer above zsh's "(eval):1: no matches found: …")
    worded_lines = [line for line in lines if _WORD.search(line)]
    return next(
        (line for line in worded_lines if not _not_a_cause(line) and not _only_placeholders(line)),
        next(
            (line for line in worded_lines if not _not_a_cause(line)),
            worded_lines[0] if worded_lines else lines[0],
        ),
    )


#: A word on its own between spaces, with a letter no hex digit is ("error", "failed:"):
#: normalizing keeps it.
#: (A word inside quotes is no such word: normalizing makes the quoted whole `<q>`.)
_QUOTE_CHARS = frozenset("\"'`‘’“”")
_PLAIN_WORD = re.compile(r"(?:^|\s)(?=[A-Za-z]*[g-zG-Z])[A-Za-z]{2,}[,.:;!?]?(?=\s|$)")
#: What normalizing leaves of a value it stands in for (`normalize`).
_PLACEHOLDER = re.compile(r"<(?:path|n|q|hex|ts|uuid)>")


def _only_placeholders(line: str) -> bool:
    """Whether a line is all value and no words once read as it would sign (an API error
    object by its message, `_with_json_read`) and normalized: a bare path, a number, a hash
    ("/Users/me/app/cli", "FAIL\tgithub.com/x/y\t0.33s" read as one word)."""
    if not _QUOTE_CHARS.intersection(line) and _PLAIN_WORD.search(line):
        return False  # (most lines: a word normalizing keeps, read without normalizing)
    read = _with_logfmt_read(_with_json_read(line))
    return not _WORD.search(_PLACEHOLDER.sub(" ", normalize(read)))


#: The example a pattern keeps: its key line, a line before it and a few after it.
EXAMPLE_BEFORE, EXAMPLE_AFTER, EXAMPLE_CHARS = 1, 4, 1000


#: Programs that search files: what they print, line by line, are the matches.
SEARCH_PROGRAMS = frozenset({"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack"})
#: A search's match over several files: numbered, as `grep -n` and `rg -n` print it
#: (`docs/api.md:81:### FND-005: Health, Logging, Error Model`; a context line has `-` for
#: its second `:`), or not, as `grep -r` and `rg` print it when their output is no terminal
#: (`deploy/verify.sh:if [ $FAILED -eq 0 ]; then`): a file's name, with its extension, before
#: the first colon. The program's own lines name it first (`rg: specs/: No such file …`).
_MATCH_LINE = re.compile(r"^[^\s:]+[:-]\d+[:-]|^[^:\n]*?\.[A-Za-z0-9]{1,8}:")
#: A line the shell wrote about the command line it was handed ("zsh:1: parse error near
#: `)'", "(eval):1: no matches found: CHANGELOG*", "/bin/bash: line 1: rg: command not
#: found"): shaped like a numbered match, and the failure itself.
_SHELLS_OWN = re.compile(r"^\s*(?:(?:/[\w/]+/)?(?:ba|z|da|k|fi)?sh|\(eval\))(?::[\w-]+)?:")


def without_matches(text: str, program: str) -> str:
    """A search's output without its matches: when a search fails (a missing path, a bad
    pattern), the code or prose it found may hold any word ("Error Model",
    `err.message = translatedErrorMessage;`) and never says what went wrong. What is left
    may be nothing but the tool's wrapper, when the program's own words were cut out of a
    long output: the failure is then signed as a search that printed only matches."""
    if program not in SEARCH_PROGRAMS:
        return text
    return "\n".join(
        line for line in text.splitlines() if not _MATCH_LINE.match(line) or _SHELLS_OWN.match(line)
    )


def example_of(
    text: str, exit_code: int | None = None, *, program: str = "", piped: bool = False
) -> str:
    """The lines around the one that signs the failure, as they were printed.

    An output's head is often a screen of progress or code before the error (a linter's
    listing, a test runner's passing tests), so the example a person reads in `sleepd
    patterns` starts just before the line the signature came from. A search's matches
    are passed over as `signature_of` passes them over (`program`, `piped` as there); when
    they are all it printed, the example is the output's head. A command stopped at a time
    limit with no note of it shows its last lines: what it was doing when it was stopped.
    """
    searched = text if piped else without_matches(text, program)
    if is_silent(searched) and not is_silent(text):
        return text.strip()[:EXAMPLE_CHARS]
    printed = _printed_lines(searched)
    # a wrapper's lines (`Exit code 1`, Codex's `Original token count: 0`) say nothing
    lines = [ln for ln in printed if not _said_nothing(ln.strip())] or printed
    if _stopped_unannounced(text, exit_code):
        tail = lines[-(EXAMPLE_BEFORE + EXAMPLE_AFTER + 1) :]
        return "\n".join(ln.rstrip() for ln in tail)[-EXAMPLE_CHARS:]
    _, key = _analysed(printed, exit_code)
    at = next((n for n, ln in enumerate(lines) if ln.strip() == key), None) if key else None
    if at is None:
        return text.strip()[:EXAMPLE_CHARS]
    window = lines[max(0, at - EXAMPLE_BEFORE) : at + EXAMPLE_AFTER + 1]
    return "\n".join(ln.rstrip() for ln in window)[:EXAMPLE_CHARS]


#: Jest's header over each failed test (`● Suite › case`) and over a suite that could not
#: run (`● Test suite failed to run`); not its `● Console` section.
_JEST_FAILURE = re.compile(r"\s*● (?!Console\s*$)\S")
#: A line only a Jest run prints: a test file's verdict or the closing counts. Other
#: programs put `●` before a line too (`systemctl status`'s unit header).
_JEST_RUN = re.compile(r"\s*(?:(?:FAIL|PASS)\s+\S+\.(?:test|spec)\.\w+|Test Suites:\s|Tests:\s+\d)")


def _jest_message(printed: list[str]) -> str | None:
    """The first failed test's message in a Jest run: the line under its header. A run's
    closing counts (`Test Suites: 6 failed, 16 passed, 22 total`) and its tree of test
    names say that tests failed; the message says what went wrong."""
    # most outputs hold no bullet at all: a substring test passes them over
    headers = [n for n, line in enumerate(printed) if "●" in line and _JEST_FAILURE.match(line)]
    if not headers or not any(_JEST_RUN.match(line) for line in printed):
        return None
    for number in headers:
        for after in printed[number + 1 :]:
            after = after.strip()
            if _JEST_FAILURE.match(after) or _CUT_NOTE.fullmatch(after):
                break  # the next header, or the message was cut out of the output
            if not (_SOURCE_EXCERPT.fullmatch(after) or _said_nothing(after)):
                return after
    return None


#: A failed test as `bun test` marks it ("(fail) parser > reads an empty file [0.27ms]"),
#: and a line only a bun test run prints: its closing counts.
_BUN_FAILED_TEST = re.compile(r"\s*\(fail\) \S.*")
_BUN_RUN = re.compile(r"\s*(?:\d+ fail|Ran \d+ tests? across \d+ files?\..*)\s*")
#: bun's heading over an error it met outside any test (a test file that could not load).
_BUN_UNHANDLED = "# Unhandled error between tests"
#: A bun run's count of its failed tests, when there are any (" 3 fail").
_BUN_FAILURES = re.compile(r"\s*[1-9]\d* fail\s*")


def _bun_failed_test(printed: list[str]) -> str | None:
    """The first failed test of a `bun test` run, by its name. Bun prints what passing
    tests logged in the same form as a failure's report ("error: Database connection
    failed" from a test of the error path, with its source line and stack), and run by an
    agent it prints no mark for a passing test, so no error line can be told to be a
    failure's; the mark can, and the same test failing again is the same failure."""
    if not any(_BUN_RUN.fullmatch(line) for line in printed):
        return None
    for line in printed:
        if "(fail)" in line and _BUN_FAILED_TEST.fullmatch(line):
            return line.strip()
    # an error bun reports between tests (a test file that could not load: "error: Cannot
    # find module '@testing-library/react' from '…'"), under its own heading
    for at, line in enumerate(printed):
        if line.strip() == _BUN_UNHANDLED:
            said = next((ln for ln in printed[at + 1 : at + 6] if _sounds_like_error(ln)), None)
            if said is not None:
                return said.strip()
    # a run cut to its end (`bun test 2>&1 | tail -50`) that counts failures but names no
    # failed test: its count is all it says of them, and a test's logged error above it
    # would name a test that passed; unless a line after the run says what went wrong
    count = next((at for at, line in enumerate(printed) if _BUN_FAILURES.fullmatch(line)), None)
    if count is None:
        return None
    after = printed[count + 1 :]
    if any(_sounds_like_error(line) and not _not_a_cause(line.strip()) for line in after):
        return None
    return printed[count].strip()


#: Rust's test harness (libtest, `cargo test`): a failed test as it marks one ("test
#: config::tests::union ... FAILED", "config::tests::union --- FAILED" in its terse form)
#: and heads its output ("---- config::tests::union stdout ----"), and the lines only a run
#: of it prints: its opening count, a failed run's summary and cargo's word that the tests
#: failed.
_LIBTEST_FAILED_TEST = re.compile(
    r"\s*(?:test (?P<a>\S+) \.\.\. FAILED|(?P<b>\S+) --- FAILED|---- (?P<c>\S+) stdout ----)\s*"
)
_LIBTEST_RUN = re.compile(
    r"\s*(?:running \d+ tests?|test result: FAILED\. .*|error: test failed, to rerun pass .*)",
    re.I,
)


def _libtest_failed_test(printed: list[str]) -> str | None:
    """The first failed test of a Rust test run, by its name. Under a failed test the
    harness prints its panic, and for an `assert_eq!` that is the same words for every test
    ("assertion `left == right` failed"); cargo closes with the same verdict for every
    failed run ("error: test failed, to rerun pass `--bin mise`"), which a tail may leave
    alone. The test's name tells failures apart, and the same test failing again is the
    same failure, as go test's "--- FAIL: TestX" is."""
    if not any(_LIBTEST_RUN.fullmatch(line) for line in printed):
        return None
    for line in printed:
        if "FAILED" not in line and "----" not in line:
            continue
        failed = _LIBTEST_FAILED_TEST.fullmatch(line)
        if failed is not None:
            return f"test {failed['a'] or failed['b'] or failed['c']} FAILED"
    return None


#: Playwright's pointer to a failed test's attachment, the same words for every test.
_ATTACHMENT_POINTER = re.compile(r"Error Context: \S+")
#: Playwright's closing list of failed tests: the count ("  1 failed"), then each test as
#: "[project] › file:line:col › suite › title".
_PLAYWRIGHT_FAILED = re.compile(r"\s*[1-9]\d* failed\s*")
_PLAYWRIGHT_TEST = re.compile(r"\s*\[[^\]\n]{1,40}\] › \S+:\d+:\d+ › \S.*")


def _playwright_failed_test(printed: list[str]) -> str | None:
    """The first test Playwright lists as failed at the end of its run. Each failure's
    report ends with pointers to its attachments ("Error Context: test-results/…/error-
    context.md", a trace's path and how to show it), which may be all a cut output (`|
    tail`) keeps of it, and they read the same for every test: the list names the test."""
    for number, line in enumerate(printed[:-1]):
        if "failed" in line and _PLAYWRIGHT_FAILED.fullmatch(line):
            following = printed[number + 1]
            if _PLAYWRIGHT_TEST.fullmatch(following):
                return following.strip()
    return None


def _analysed(printed: list[str], exit_code: int | None) -> tuple[str | None, str]:
    """The error class and the key line of one output's printed lines."""
    jest = _jest_message(printed)
    if jest is not None:
        return error_class(jest, exit_code), jest
    bun = _bun_failed_test(printed)
    if bun is not None:
        return error_class(bun, exit_code), bun
    libtest = _libtest_failed_test(printed)
    if libtest is not None:
        return error_class(libtest, exit_code), libtest
    whole = _read_whole(printed)
    if whole is not None:
        return error_class(whole, exit_code), whole
    lines, errors = _lines(printed)
    if any(
        line[:1] not in (" ", "\t") and _LINTER_FINDING.match(_RUNNER_TAG.sub("", line))
        for line in printed
    ):
        # the source a linter quotes under its finding, indented ("\t\tt.Fatalf(…)" under
        # dupl's "x_test.go:17: 17-67 lines are duplicate of …"), is the code it found, not
        # what went wrong, whatever words that code holds (a finding is printed at the
        # line's start; a test's log line of that shape is indented under its test)
        quoted = {line.strip() for line in printed if line[:1] in (" ", "\t")}
        errors = [line for line in errors if line not in quoted]
    # the class is read where the cause is: ELIFECYCLE names pnpm's verdict, not a failure
    klass = error_class("\n".join(lines), exit_code)
    line = _key_line_of(lines, errors, klass)
    if _ATTACHMENT_POINTER.fullmatch(line):
        # the failure's own report was cut off, and only its attachments are left
        playwright = _playwright_failed_test(printed)
        if playwright is not None:
            return error_class(playwright, exit_code), playwright
    testify = _testify_failed_test(printed, line)
    if testify is not None:
        return klass, testify
    return klass, _with_logfmt_read(_with_json_read(line))


#: testify's report of a failed assertion in a Go test, a block of fields under go test's
#: "--- FAIL: TestX (0.00s)": "Error Trace: x_test.go:340", "Error: Not equal:", then the
#: values, "Test: TestX". Its "Error:" field names the assertion, the same words for every
#: test that checks with it.
_TESTIFY_ERROR = re.compile(r"\s*Error:\s+\S.*")
_TESTIFY_TEST = re.compile(r"\s*Test:\s+(\S+)\s*")
_GO_FAILED_TEST = re.compile(r"\s*--- FAIL: (\S+) \(.*")


def _testify_failed_test(printed: list[str], line: str) -> str | None:
    """go test's line for the failed test a testify block reports on, when the block's
    "Error:" field would sign the output ("Error: Not equal:" had signed eight failures of
    four tests as one): the test's name tells them apart, as it does for a failure go test
    reports with its own words. The block's own "Test:" field names the test; else it is
    the failed test go test named last above the block."""
    if not _TESTIFY_ERROR.fullmatch(line) or not any("Error Trace:" in ln for ln in printed):
        return None
    failed: dict[str, str] = {}
    for ln in printed:
        marked = _GO_FAILED_TEST.fullmatch(ln)
        if marked is not None:
            failed.setdefault(marked[1], ln.strip())
    at = max((i for i, ln in enumerate(printed) if line.strip() in ln), default=None)
    if not failed or at is None:
        return None
    for ln in printed[at + 1 :]:
        if "Error Trace:" in ln:
            break  # the next block
        named = _TESTIFY_TEST.fullmatch(ln)
        if named is not None and named[1] in failed:
            return failed[named[1]]
    above = (ln.strip() for ln in reversed(printed[:at]) if _GO_FAILED_TEST.fullmatch(ln))
    return next(above, None)


#: A logfmt line at error level with its message quoted (golangci-lint's `level=error
#: msg="Running error: context loading failed: no go files to analyze"`).
_LOGFMT_MESSAGE = re.compile(r'\b(level=(?:error|fatal|panic) msg=)"((?:[^"\\]|\\.)*)"')


def _with_logfmt_read(line: str) -> str:
    """The line with its logfmt message unquoted: quoted, it is `<q>` once normalised, and
    every failure the program logs would be one signature."""
    return _LOGFMT_MESSAGE.sub(lambda m: m[1] + re.sub(r"\\(.)", r"\1", m[2]), line, count=1)


def _with_json_read(line: str) -> str:
    """The line with the API error object it ends in read by its message and status, as
    when the object is all of an output: on a line of its own under the client's (`gh: Not
    Found (HTTP 404)` over GitHub's `{"message":"Not Found",…}`) or after the client's
    words (`Streamable HTTP error: Error POSTing to endpoint: {"error": {"code": "504",
    "message": …}}`), where its quoted strings, all `<q>` once normalised, told no two
    failures apart."""
    brace = line.find("{")
    if brace < 0 or not line.endswith("}"):
        return line
    read = _json_error([line[brace:]])
    return line if read is None else line[:brace] + read


#: A tool's note, opening an output, that it stopped the command at its time limit
#: (Codex's "command timed out after 10128 milliseconds", Claude Code's "Command timed out
#: after 2m 0.0s").
_STOPPED_AT_LIMIT = re.compile(r"command timed out(?: after \d|\s*$)", re.IGNORECASE)


def _stopped_at_time_limit(printed: list[str]) -> str | None:
    """The tool's time-limit note when the output opens with it: what the command had
    printed before it was stopped is no failure of its own (a directory listing with a
    file named `TYPESCRIPT_ERRORS_REPORT.md` in it), the stop is."""
    first = next((ln.strip() for ln in printed if ln.strip() and not _said_nothing(ln.strip())), "")
    return first if _STOPPED_AT_LIMIT.match(first) else None


#: The longest JSON answer read as an API's error object.
_JSON_ERROR_CHARS = 4000


def _json_error(printed: list[str]) -> str | None:
    """An API's error object as the whole output (GitHub's `{"message": "Not Found",
    "documentation_url": …, "status": "404"}`, `{"error": {"message": …, "code": 401}}`):
    its message and status, which a line of quoted JSON, once its strings are `<q>`, no
    longer tells apart."""
    body = "\n".join(ln for ln in printed if not _said_nothing(ln.strip())).strip()
    if not (body.startswith("{") and body.endswith("}")) or len(body) > _JSON_ERROR_CHARS:
        return None
    data = json_value(body)
    if not isinstance(data, dict):
        return None
    inner = data.get("error")
    errors = data.get("errors")
    if inner is None and isinstance(errors, list) and errors and isinstance(errors[0], dict):
        # a GraphQL API's errors ('{"errors":[{"type":"NOT_FOUND","message":"Could not
        # resolve to a Repository …"}]}', beside "data" or alone): the first one's message
        inner = errors[0]
    found = inner if isinstance(inner, dict) else data
    message = found.get("message")
    if not isinstance(message, str) or not message.strip():
        message = inner if isinstance(inner, str) else None
    if not message:
        return None
    status = found.get("status", found.get("code", data.get("status", data.get("code"))))
    said = " ".join(message.split())[:MAX_SIGNATURE_CHARS]
    return f"{said} (status {status})" if isinstance(status, (str, int)) and status else said


#: A Rust program's report as color-eyre and anyhow print it: "Error:" alone on its line,
#: then its causes numbered ("   0: Setting [shorthands_file] is not set").
_BARE_ERROR_HEAD = re.compile(r"\s*Error:\s*")
_FIRST_CAUSE = re.compile(r"\s*0: (\S.*)")


def _numbered_causes(printed: list[str]) -> str | None:
    """The first cause under a bare "Error:" line: the line alone says nothing, and the
    "Location:" and "Version:" blocks under the causes say where, not what."""
    lines = [ln for ln in printed if not _said_nothing(ln.strip())]
    for at, line in enumerate(lines[:-1]):
        if _BARE_ERROR_HEAD.fullmatch(line):
            cause = _FIRST_CAUSE.fullmatch(lines[at + 1])
            return f"Error: {cause[1].strip()}" if cause else None
    return None


def _json_error_below(printed: list[str]) -> str | None:
    """An API's error object printed over several lines at the end of an output, under its
    client's words (`gh: Not Found (HTTP 404)`, then GitHub's object pretty-printed): read
    as when it is the whole output. Line by line, its `"message": "Not Found",` had signed
    it, as `<q>: <q>,`, one pattern for every such object."""
    body = [ln for ln in printed if not _said_nothing(ln.strip())]
    if not body or body[-1].strip() != "}":
        return None
    size = 0
    for at in range(len(body) - 1, 0, -1):
        size += len(body[at]) + 1
        if size > _JSON_ERROR_CHARS:
            return None
        if body[at].strip() == "{":
            return _json_error(body[at:])
    return None


def is_wrapper_line(line: str) -> bool:
    """A line the tool's wrapper wrote around the output (`Exit code 1`, Codex's `Chunk
    ID: …` header), not one the command printed."""
    return bool(_WRAPPER_LINE.fullmatch(line.strip()))


def is_cut_note(line: str) -> bool:
    """A note that the output was cut where it stood (Codex's "Total output lines: 1020",
    Claude Code's "... [133174 characters truncated] ..."), not a line the command printed."""
    return bool(_CUT_NOTE.fullmatch(line.strip()))


def is_silent(printed: list[str] | str) -> bool:
    """No line but its wrapper's (an output, or its printed lines), and the note of where
    the wrapper cut it (what is left of a search's output cut to its matches)."""
    lines = _printed_lines(printed) if isinstance(printed, str) else printed
    if [line.strip() for line in lines] == [_BARE_ERROR]:
        return True
    return all(_WRAPPER_LINE.fullmatch(ln.strip()) or is_cut_note(ln) for ln in lines)


def signature_of(
    text: str,
    tool_name: str | None,
    exit_code: int | None = None,
    *,
    program: str = "",
    piped: bool = False,
) -> Signature:
    """`program`: what the failed command ran (`errors.program_of`); `piped`: it read what
    another program printed (`errors.reads_a_pipe`). A search's matches in files never sign
    its failure (`without_matches`), while the lines a search let through a pipe are that
    program's own (`npm run build 2>&1 | grep error`); an output with no line but its wrapper's
    (`Exit code 1`, Codex's `Chunk ID: …` header) is signed by the program, so silent
    failures of different programs stay apart. A command stopped at a time limit is signed
    by the stop, whatever it printed before it (`_stopped_unannounced`)."""
    if _stopped_unannounced(text, exit_code):
        klass = error_class(TIME_LIMIT_SIGNATURE, exit_code)
        return Signature(tool_name, klass, TIME_LIMIT_SIGNATURE)
    searched = text if piped else without_matches(text, program)
    printed = _printed_lines(searched)
    if is_silent(printed):
        matched = searched != text and not is_silent(text)
        said = PRINTED_ONLY_MATCHES if matched else PRINTED_NOTHING
        return Signature(
            tool_name, error_class("", exit_code), f"{program}: {said}" if program else said
        )
    klass, line = _analysed(printed, exit_code)
    return Signature(tool_name=tool_name, error_class=klass, text=first_sentence(normalize(line)))


#: The exit status of a command stopped at its time limit: GNU `timeout`'s, and Codex's
#: for a command it stopped at the call's `timeout_ms` (some versions write no note of it).
TIME_LIMIT_EXIT = 124
#: The signature of a command stopped at a time limit, as the tools' notes of it read once
#: their numbers are `<n>` (`_TOOL_TIME_LIMIT`): one failure, however the stop was told.
TIME_LIMIT_SIGNATURE = "command timed out after <n>"
#: xargs's own exit 124, which says that a command it ran exited 255, not that time ran out.
_XARGS_CHILD_255 = re.compile(r"^xargs: .*\bstatus 255\b", re.MULTILINE)


def _stopped_unannounced(text: str, exit_code: int | None) -> bool:
    """The command exited 124, stopped at a time limit, and no note of the tool's opens the
    output to say so (when one does, the note signs it: `_read_whole`): `git push` left
    waiting on a credential prompt until Codex stopped it, printing nothing; a test run
    that passed and never exited, its last words "❌ Failed: 0". What it printed before the
    stop is no failure of its own, as under a note."""
    return (
        exit_code == TIME_LIMIT_EXIT
        and not _XARGS_CHILD_255.search(text)
        and _stopped_at_time_limit(_printed_lines(text)) is None
    )
