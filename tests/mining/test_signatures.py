"""Error output → stable signatures."""

from __future__ import annotations

import re
from typing import Any

import pytest

from sleepd.mining.signatures import (
    error_class,
    example_of,
    normalize,
    signature_of,
    tool_label,
    without_matches,
)
from tests.mining.history_lines import STASHED_RED_STEP


def test_volatile_parts_are_stripped_and_the_class_kept() -> None:
    a = signature_of(
        'Traceback (most recent call last):\n  File "/home/a/x.py", line 3\n'
        "ModuleNotFoundError: No module named 'requests'",
        "Bash",
        1,
    )
    b = signature_of(
        'Traceback (most recent call last):\n  File "/srv/y.py", line 99\n'
        "ModuleNotFoundError: No module named 'numpy'",
        "Bash",
        1,
    )
    assert a.digest == b.digest
    assert a.error_class == "ModuleNotFoundError" and a.tool_name == "Bash"
    assert "requests" not in a.full


def test_tool_name_separates_signatures() -> None:
    text = "Error: ENOENT: no such file or directory, open '/x/a.ts'"
    assert signature_of(text, "Read").digest != signature_of(text, "Bash").digest


def test_error_classes() -> None:
    assert error_class("bash: foo: command not found", 127) == "exit 127"
    assert error_class("error[E0308]: mismatched types") == "error[E0308]"
    assert error_class("Error: ENOENT: no such file") == "ENOENT"
    assert error_class("src/a.ts(3,4): error TS2345: Argument") == "TS2345"
    assert error_class("something odd", 3) == "exit 3"
    assert error_class("permission denied") == "permission denied"


def test_normalize_placeholders() -> None:
    line = (
        "fatal: 3f2a9bc1d at 2026-01-02T10:11:12Z id 123e4567-e89b-12d3-a456-426614174000 "
        "in src/app/main.py:12:4 took 35 ms `foo`"
    )
    out = normalize(line)
    for gone in ("3f2a9bc1d", "2026", "123e4567", "main.py", ":12", "35", "foo"):
        assert gone not in out
    for kept in ("<hex>", "<ts>", "<uuid>", "<path>", "<n>", "<q>"):
        assert kept in out


def test_a_wrappers_header_is_never_the_signature() -> None:
    """Real results from public sessions: Claude Code's `Exit code N` and Codex's exec
    headers precede any command's output; two unrelated failures behind the same header
    are two signatures, and the same failure behind either header reads the same."""
    docker = signature_of(
        "Exit code 1\n\nThe command 'docker' could not be found in this WSL 2 distro.\n"
        "We recommend to activate the WSL integration in Docker Desktop settings.",
        "Bash",
        1,
    )
    login = signature_of("Exit code 1\ndispatch requires login — run `entire login`", "Bash", 1)
    codex_login = signature_of(
        "Chunk ID: 386b67\nProcess exited with code 1\nOriginal token count: 12\n"
        "dispatch requires login — run `entire login`",
        "Bash",
        1,
    )
    assert docker.digest != login.digest
    assert "docker" not in docker.text and "could not be found" in docker.text
    assert login.text == codex_login.text == "dispatch requires login — run <q>"
    # nothing else: what ran is the clue (wild sample 4: `command -v beads`, `git config
    # --get core.hooksPath` and `gh run view … --job` had all been "Chunk ID: <hex>")
    assert signature_of("Exit code 1", "Bash", 1).text == "printed nothing"
    codex_silent = "Chunk ID: a35931\nWall time: 0.0000 seconds\nProcess exited with code 1\n"
    codex_silent += "Original token count: 0\nOutput:\n"
    gh = signature_of(codex_silent, "exec_command", 1, program="gh")
    assert (gh.text, gh.error_class) == ("gh: printed nothing", "exit 1")
    assert gh.digest != signature_of(codex_silent, "exec_command", 1, program="psql").digest
    assert gh.text == signature_of("Exit code 1", "exec_command", 1, program="gh").text
    # Claude Code 1.0 wrote a bare "Error" as the whole result of such a command (real
    # sessions not in the repository: six of them had become one pattern, "Error")
    cmake = signature_of("Error", "Bash", program="cmake")
    assert cmake.text == "cmake: printed nothing"
    assert cmake.digest != signature_of("Error", "Bash", program="make").digest
    assert signature_of("Error: ENOENT, no such file", "Bash").text != "printed nothing"


def test_a_refused_calls_tag_is_no_clue() -> None:
    """Claude Code's `<tool_use_error>` message is its first line; an echoed string
    after it ending in the closing tag is not what went wrong."""
    sig = signature_of(
        "<tool_use_error>Found 2 matches of the string to replace, but replace_all is "
        "false. To replace all occurrences, set replace_all to true.\nString:   }\n"
        "}</tool_use_error>",
        "Edit",
    )
    assert sig.text.startswith("Found <n> matches of the string to replace")


def test_a_message_is_one_failure_behind_any_exit_code_or_none() -> None:
    """Real results (PackmindHub/context-evaluator): the same command run bare and
    piped through `tail` (which hides its exit code) fails with the same message; it is
    one failure, not two. A result with nothing but the wrapper's `Exit code N` keeps
    its code apart, and a named class still separates."""
    message = (
        "error: unrecognized subcommand 'bun'\n\nUsage: rtk [OPTIONS] <COMMAND>\n\n"
        "For more information, try '--help'."
    )
    bare = signature_of("Exit code 2\n" + message, "Bash", 2)
    piped = signature_of(message, "Bash")
    other_code = signature_of("Exit code 1\n" + message, "Bash", 1)
    assert bare.error_class == "exit 2" and piped.error_class is None
    assert bare.digest == piped.digest == other_code.digest
    assert signature_of("Exit code 7", "Bash", 7).digest != (
        signature_of("Exit code 2", "Bash", 2).digest
    )
    assert signature_of(message, "Read").digest != piped.digest
    # Real (Safecast/safecast-map-MCP): output that opens with a remote host's banner
    # and holds no error line; the exit code is all that tells these failures apart.
    banner = "Exit code {}\nUbuntu 24.04.4 LTS\n[2]+  Done   curl -X POST https://x/chat"
    assert signature_of(banner.format(144), "Bash", 144).digest != (
        signature_of(banner.format(1), "Bash", 1).digest
    )
    named = signature_of("ModuleNotFoundError: No module named 'x'", "Bash", 1)
    other = signature_of("ImportError: No module named 'x'", "Bash", 1)
    assert named.digest != other.digest


def test_a_hint_after_the_first_sentence_is_the_same_failure() -> None:
    """Real results of Claude Code's Read tool across versions: a later version appends
    a hint to the same refusal."""
    plain = signature_of("<tool_use_error>File does not exist.</tool_use_error>", "Read")
    hinted = signature_of(
        "File does not exist. Note: your current working directory is /Users/a/proj.", "Read"
    )
    old = signature_of(
        "File content (34974 tokens) exceeds maximum allowed tokens (25000). Please use "
        "offset and limit parameters to read specific portions of the file, or use the "
        "GrepTool to search for specific content.",
        "Read",
    )
    new = signature_of(
        "File content (14572 tokens) exceeds maximum allowed tokens (10000). Use offset and "
        "limit parameters to read specific portions of the file, or search for specific "
        "content instead of reading the whole file.",
        "Read",
    )
    assert plain.digest == hinted.digest and plain.text == "File does not exist."
    assert old.digest == new.digest
    # A stop inside a name or a number is no sentence's end.
    version = signature_of("error: node v18.2.0 is too old, need v20.1 or newer", "Bash", 1)
    assert version.text.endswith("or newer")
    assert signature_of("Error: Cannot find module. Require stack", "Bash", 1).digest != (
        signature_of("Error: Cannot find file. Require stack", "Bash", 1).digest
    )
    # A first sentence too short to name a failure keeps the rest of the line.
    assert signature_of("Build failed. Missing key NAME", "Bash", 1).digest != (
        signature_of("Build failed. Port in use", "Bash", 1).digest
    )


def _revision(name: str) -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "migrations" / "versions" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_re_keying_migrations_key_a_stored_pattern_as_mining_keys_the_error() -> None:
    """Migrations 0010 to 0020 re-key stored patterns with their own copies of the
    rules; on every tool error a person labelled in the real sessions (and a few hostile
    shapes), under each shell tool's name and others, the key they give a pattern stored
    under 0009 is the key mining gives the error now."""

    m0010, m0011 = _revision("0010_pattern_keys"), _revision("0011_shell_pattern_keys")
    m0012 = _revision("0012_patch_pattern_keys")
    m0013 = _revision("0013_powershell_pattern_keys")
    m0014 = _revision("0014_tool_family_pattern_keys")
    m0015 = _revision("0015_old_codex_pattern_keys")
    m0016 = _revision("0016_code_mode_pattern_keys")
    m0017 = _revision("0017_speaking_line_pattern_keys")
    m0018 = _revision("0018_search_tool_pattern_keys")
    m0019 = _revision("0019_renamed_tool_pattern_keys")
    m0020 = _revision("0020_failure_mark_pattern_keys")
    from sleepd.mining.signatures import key_line

    texts = _labelled_tool_errors()
    texts += ["", "Exit code 1", "A. B. C.", "x | y | z. Q", "error | exit 1 | - | Foo. Bar"]
    texts += ["Build failed. Port in use", "Error. Cannot connect", "one two three. Four"]
    texts += ["cat: illegal option -- A", 'main.go:3:2: "os" imported and not used']
    texts += ["Could not apply 1a2b3c4... fix", "warning: x y z", "Running: tests now"]
    texts += ["[lint:go] a.go:1:1: string `x` has 3 occurrences (goconst)"]
    texts += ["zsh: no matches found: *.md", "info: syncing channel updates"]
    texts += ["rg: tests: No such file or directory (os error 2)", "cat: dist: Is a directory"]
    texts += ["Could not apply 051bc95... # sem: x", "error: could not apply 27a33e9... # y"]
    texts += ["Path does not exist: /x/src. Note: your current working directory is /x/app."]
    texts += ["Path does not exist: .golangci.yml", "Path does not exist: a/[id]/(x)/p.tsx"]
    texts += ['a.go:5:2: "os" imported and not used (typecheck)', "a.go:1:1: x (errcheck)"]
    texts += ["[lint:go] a.go:1:1: Error return value is not checked (errcheck)"]
    texts += ["[test:ci] --- FAIL: TestSearch (0.01s)", "[lint] ERROR task failed"]
    texts += ["E2E Tests fail 3m20s https://github.com/o/r/actions/runs/1", "took 1h5m3s 2s"]
    texts += [
        "[stderr] ls: cannot access 'x': No such file or directory",
        "[x] rg: t: Is a directory",
    ]
    assert len(texts) > 200
    for text in texts:
        for tool, code in (
            ("Bash", 1),
            ("PowerShell", 1),
            ("shell_command", 2),
            ("exec_command", None),
            ("Read", None),
            ("Edit", None),
            ("Write", None),
            ("MultiEdit", None),
            ("write_stdin", 2),
            ("exec", None),
            ("Grep", None),
            ("Glob", None),
            ("Task", None),
            ("Agent", None),
            ("BashOutput", None),
            ("KillShell", None),
            (None, None),
            ("a | b", 2),
        ):
            sig = signature_of(text, tool, code)
            if sig.text.endswith("printed nothing"):
                continue  # signed by what ran since 0010 (docs/mining.md): a new key
            if re.search(r"(?m)^[{\[}\]].*[}\]][A-Za-z][\w.-]*: ", text):
                continue  # read apart from the JSON before it since stop 78: a new key
            stored = f"{tool or '-'} | {sig.error_class or '-'} | "
            stored += _as_0011_normalized(key_line(text, sig.error_class))
            _, signature = m0010.pattern_key(tool, sig.error_class, stored)
            _, signature = m0011.pattern_key(tool, sig.error_class, signature)
            _, signature = m0012.pattern_key(tool, sig.error_class, signature)
            _, signature = m0013.pattern_key(tool, sig.error_class, signature)
            _, signature = m0014.pattern_key(tool, sig.error_class, signature)
            _, signature = m0015.pattern_key(tool, sig.error_class, signature)
            _, signature = m0016.pattern_key(tool, sig.error_class, signature)
            _, signature = m0017.pattern_key(tool, sig.error_class, signature)
            _, signature = m0018.pattern_key(tool, sig.error_class, signature)
            _, signature = m0019.pattern_key(tool, sig.error_class, signature)
            digest, signature = m0020.pattern_key(tool, sig.error_class, signature)
            assert (digest, signature) == (sig.digest, sig.full), text


def test_the_re_keying_migrations_since_0017_key_a_pattern_signed_since_as_mining_does() -> None:
    """A store at 0017 holds signatures signed as 0017 signs: re-signed by it, or signed by
    mining since. The revisions after it change only keys: on every labelled tool error, a
    pattern mining signed now and stored at 0017 is keyed by them as mining keys it. A log's
    time stamp, then a component's tag (PackmindHub/context-evaluator's history): mining
    leaves the first out, and a revision that re-signed again would leave out the second."""
    m0018 = _revision("0018_search_tool_pattern_keys")
    m0019 = _revision("0019_renamed_tool_pattern_keys")
    m0020 = _revision("0020_failure_mark_pattern_keys")
    texts = _labelled_tool_errors()
    texts += ["[13:38:39.176] [ConcurrencyLimiter] Task 1 failed: 101 | \t\t});"]
    texts += ["[lint:go] a.go:1:1: x (errcheck)", "ENOENT: no such file or directory, posix_spawn"]
    # a line a program marks as failed (PackmindHub/context-evaluator's biome, a checklist)
    texts += ["  × Some warnings were emitted while running checks.", "✗ Metadata branch not found"]
    texts += ["❌ License check task not found"]
    for text in texts:
        for tool, code in (("Bash", 1), ("exec_command", None), ("Grep", None), ("Task", None)):
            sig = signature_of(text, tool, code)
            _, signature = m0018.pattern_key(tool, sig.error_class, sig.full)
            _, signature = m0019.pattern_key(tool, sig.error_class, signature)
            digest, signature = m0020.pattern_key(tool, sig.error_class, signature)
            assert (digest, signature) == (sig.digest, sig.full), text


def _labelled_tool_errors() -> list[str]:
    """The text of every tool error a person labelled in the real sessions."""
    import tomllib
    from pathlib import Path

    labels = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "real_sessions" / "labels"
    return [
        str(error["text"])
        for label in labels.rglob("*.toml")
        for error in tomllib.loads(label.read_text()).get("tool_errors", [])
    ]


def _as_0011_normalized(line: str) -> str:
    """A line normalized as mining did before 0012, which kept a failed patch's wording."""
    wording = re.match(r"\s*(apply_patch verification failed: |error: )", line)
    kept = wording.group(1) if wording else ""
    normalized = normalize(line)
    return normalized if normalized.startswith(kept.strip()) else kept + normalized


def test_a_failed_patch_is_one_failure_however_codex_words_it() -> None:
    """Codex's own apply_patch tool and the shell that ran patches before it word the same
    failure differently (MoonLadderStudios/MoonMind and hindermath/OpenPrintKit sessions
    of the labelled set): one signature, one key."""
    own = "apply_patch verification failed: Failed to find expected lines in /w/a.md:\n# A"
    shell = "error: Failed to find expected lines in /w/specs/tasks.md:\n- [ ] T1"
    a, b = signature_of(own, "apply_patch"), signature_of(shell, "apply_patch", 1)
    assert a.text == b.text == "Failed to find expected lines in <path>:"
    assert a.digest == b.digest
    # another failure that opens with "error:" keeps its words
    assert signature_of("error: patch failed: a.py:3", "apply_patch").text.startswith("error:")


def test_a_warning_in_place_of_output_is_signed_by_its_words() -> None:
    """Claude Code's Read past the end of a file (real, shunkakinoki/dotfiles): the
    signature is the warning's first sentence, whatever the offset, without the tag."""
    text = (
        "<system-reminder>Warning: the file exists but is shorter than the provided offset "
        "({}). The file has {} lines.</system-reminder>"
    )
    a, b = signature_of(text.format(107, 52), "Read"), signature_of(text.format(4000, 75), "Read")
    assert a.digest == b.digest
    assert a.text == "Warning: the file exists but is shorter than the provided offset (<n>)."


# --- a runner's verdict names no failure ---------------------------------------------
# Outputs quoted (shortened) from public sessions of the wild sample not in the repository
# (obsessiondb/chkit: bun, turbo and biome; entireio/cli: mise and go; melagiri/
# code-insights: pnpm and vitest), where the verdict lines had been the top patterns.

BUN_LINT = (
    "Checked 286 files in 106ms. No fixes applied.\nFound 1 error.\n"
    "check ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n\n"
    "  × Some errors were emitted while running checks.\n\n\n"
    'error: script "lint" exited with code 1'
)
BUN_DB = 'error: Database connection failed\nerror: script "migrate" exited with code 1'
MISE_BUILD = (
    "Exit code 1\n[test:integration] $ go test -tags=integration ./cmd/entire/cli/…\n"
    "cmd/entire/cli/integration_test/testenv.go:267:13: cannot use config.NewConfig() (value "
    'of type *"github.com/go-git/go-git/v5/config".Config) as *"github.com/go-git/go-git/v5/'
    'plumbing/format/config".Config value in assignment\n'
    "[test:integration] ERROR task failed\n\n"
    "FAIL\tentire.io/cli/cmd/entire/cli/integration_test [build failed]\nFAIL"
)
PNPM_MISSING = (
    "Exit code 1\n\n> code-insights-workspace@ test:coverage /Users/m/code-insights\n"
    "> vitest run --coverage\n\n"
    "\x1b[31m\x1b[7m\x1b[31m MISSING DEPENDENCY \x1b[31m\x1b[27m Cannot find dependency "
    "'@vitest/coverage-v8'\n\n\x1b[39m ELIFECYCLE  Command failed with exit code 1."
)


def test_the_line_naming_the_cause_signs_a_failure_a_runner_reports() -> None:
    assert signature_of(BUN_LINT, "Bash").text == (
        "× Some errors were emitted while running checks."
    )
    assert signature_of(BUN_DB, "Bash").text == "error: Database connection failed"
    assert signature_of(MISE_BUILD, "Bash", 1).text.startswith("<path>: cannot use config.")
    missing = signature_of(PNPM_MISSING, "Bash", 1)
    assert missing.text == "MISSING DEPENDENCY Cannot find dependency <q>"
    assert missing.error_class != "ELIFECYCLE"  # pnpm's verdict is no error class
    # one runner, one verdict, two failures: two patterns
    assert len({signature_of(t, "Bash").digest for t in (BUN_LINT, BUN_DB)}) == 2


@pytest.mark.parametrize(
    "verdict",
    [
        'error: script "lint" exited with code 1',
        "[lint:go] ERROR task failed",
        " ELIFECYCLE  Command failed with exit code 1.",
        "error Command failed with exit code 1.",
        "husky - pre-commit script failed (code 1)",
        "error: Recipe `test` failed on line 12 with exit code 1",
        'task: Failed to run task "lint": exit status 1',
        "make: *** [Makefile:12: test] Error 2",
        "make[1]: *** [all] Error 2",
        "Error: Process completed with exit code 1.",
        '@chkit/cli:test: error: script "test" exited with code 1',
        "FAIL",
        "error: could not compile `sleepd` (lib) due to 2 previous errors",
        "npm error code 1",
        "npm ERR! code ELIFECYCLE",
        "228 errors",
        "✖ 3 problems (2 errors, 1 warning)",
    ],
)
def test_a_verdict_gives_way_to_the_cause_and_stands_when_alone(verdict: str) -> None:
    cause = "TypeError: fetchUser is not a function"
    sig = signature_of(f"{cause}\n{verdict}", "Bash", 1)
    assert (sig.error_class, sig.text) == ("TypeError", cause)
    alone = signature_of(f"running tests\n{verdict}", "Bash", 1)
    assert alone.text == normalize(verdict.strip())


#: npm's failures as npm 10 and npm 8 print them (real shapes: a Codex session's `npx`
#: that found no executable, a node-gyp build, a package not in the registry, a missing
#: package.json): each ends with
#: the same footer, which must not make them one pattern.
NPM_FAILURES = (
    "npm error could not determine executable to run\n"
    "npm error A complete log of this run can be found in: "
    "/home/arnaud/.npm/_logs/2025-10-06T09_52_37_146Z-debug-0.log",
    "npm error gyp ERR! not ok\nnpm error A complete log of this run can be found in: "
    "/home/runner/.npm/_logs/2026-01-11T12_20_37_770Z-debug-0.log",
    "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/left-padx"
    " - Not found\nnpm error 404\nnpm error 404  'left-padx@*' is not in this registry.\n"
    "npm error 404\nnpm error 404 Note that you can also install from a\n"
    "npm error 404 tarball, folder, http url, or git url.\n"
    "npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log",
    "npm ERR! code ENOENT\nnpm ERR! syscall open\nnpm ERR! path /app/package.json\n"
    "npm ERR! errno -2\nnpm ERR! enoent ENOENT: no such file or directory, open "
    "'/app/package.json'\nnpm ERR! enoent This is related to npm not being able to find a "
    "file.\n\nnpm ERR! A complete log of this run can be found in:\n"
    "npm ERR!     /root/.npm/_logs/2023-05-01T10_00_00_000Z-debug-0.log",
)


def test_npms_footer_never_signs_a_failure() -> None:
    signatures = [signature_of(text, "Bash", 1).text for text in NPM_FAILURES]
    assert len(set(signatures)) == len(NPM_FAILURES)
    assert not any("complete log" in s or "_logs" in s for s in signatures), signatures
    assert signatures[0] == "npm error could not determine executable to run"
    # npm 10 starts every line with "npm error": the line's own words decide
    assert "Not Found - GET" in signatures[2]
    assert "ENOENT" in signatures[3]


def test_turbo_prefixed_lines_and_passed_tests_are_read_as_such() -> None:
    text = (
        "chkit:test: (pass) planner v1 > planDiff throws typed validation error for invalid "
        "schema [0.41ms]\n"
        "chkit:test: (fail) doppler env e2e > runs additive second migration cycle [812.73ms]\n"
        "chkit:test:  12 pass\nchkit:test:  1 fail\n"
        'chkit:test: error: script "test" exited with code 1'
    )
    assert signature_of(text, "Bash", 1).text == (
        "chkit:test: (fail) doppler env e2e > runs additive second migration cycle [<n>]"
    )


def test_the_time_a_failing_test_took_is_not_part_of_its_signature() -> None:
    runs = [
        f"(fail) GET /api/history > should respect limit parameter [{ms}ms]"
        for ms in ("0.30", "0.32", "12")
    ]
    assert len({signature_of(r, "Bash", 1).digest for r in runs}) == 1
    assert normalize("took 5s, 12MB, 40% done") == "took <n>, <n>, <n> done"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[lint] ERROR task failed", None),
        ("EXPECTED value differs", None),
        ("Error: ENOENT: no such file or directory", "ENOENT"),
        ("npm ERR! code ERESOLVE", "ERESOLVE"),
    ],
)
def test_an_errno_class_is_an_errno_not_a_capital_word(text: str, expected: str | None) -> None:
    assert error_class(text) == expected


def test_a_count_of_failures_to_do_something_is_not_a_verdict() -> None:
    text = "3 failed to connect: connection refused by 10.0.0.2\nsummary: see above"
    assert signature_of(text, "Bash", 1).text.startswith("<n> failed to connect")


def test_a_lone_word_gives_way_to_a_sentence() -> None:
    # a pre-commit hook's dialyzer report (real, marot/spotter): the last line holding
    # "error" is a type printed by the checker
    text = (
        "Pre-commit validation failed:\\n\\n[DIALYZER]\nTotal errors: 3, Skipped: 0\n"
        "lib/spotter_web/controllers/otel_trace_helpers.ex:57:13:pattern_match\n"
        "The pattern can never match the type.\n\nPattern:\n{:ok, _trace_id}\n\nType:\n:error\n"
    )
    assert signature_of(text, "Bash", 1).text == "Total errors: <n>, Skipped: <n>"
    assert signature_of("building\nError\n", "Bash", 1).text == "Error"


def test_a_patterns_example_is_the_lines_around_its_key_line() -> None:

    listing = "\n".join(f"   {n} │ <span>row {n}</span>" for n in range(40))
    text = (
        f"{listing}\n\n/app/src/routes/history.ts\n"
        "  12:5  error  Unexpected any. Specify a different type  no-explicit-any\n\n"
        "✖ 1 problem (1 error, 0 warnings)\n\n"
        'error: script "lint" exited with code 1'
    )
    example = example_of(text, 1)
    assert example.splitlines()[:2] == [
        "/app/src/routes/history.ts",
        "  12:5  error  Unexpected any. Specify a different type  no-explicit-any",
    ]
    assert "row 3" not in example
    # no line to center on: the output's head
    assert example_of("all good here\nnothing to see", 1) == "all good here\nnothing to see"


def test_an_example_leaves_out_the_wrappers_lines() -> None:
    """Wild sample 5: examples opened with Codex's `Original token count: 0` and Claude
    Code's `Exit code 1`, which say nothing about the failure."""
    codex = (
        "Chunk ID: 1c355d\nWall time: 3.0321 seconds\nProcess exited with code 1\n"
        "Original token count: 42\nOutput:\nerror: unknown flag: --no-pager\n"
        "Usage: entire explain [flags]"
    )
    assert example_of(codex, 1) == "error: unknown flag: --no-pager\nUsage: entire explain [flags]"
    claude = "Exit code 127\n/bin/bash: line 1: go: command not found"
    assert example_of(claude, 127) == "/bin/bash: line 1: go: command not found"
    assert example_of("Exit code 1", 1) == "Exit code 1"  # nothing else to show


@pytest.mark.parametrize(
    "line",
    [
        "/bin/bash: line 1: python: command not found",
        "zsh: command not found: python",
        "sh: 1: python: not found",
        "bash: -c: line 0: python: command not found",
        # a script the shell runs speaks as the shell does (the shared corpus's spec-kit
        # scripts, saved with Windows line ends: `common.sh: line 3: $'\r': command not found`)
        "/mnt/d/proj/.specify/scripts/bash/common.sh: line 3: python: command not found",
        "python : The term 'python' is not recognized as the name of a cmdlet, function",
        "'python' is not recognized as an internal or external command,",
    ],
)
def test_a_missing_program_is_one_failure_whichever_shell_reports_it(line: str) -> None:
    # wild sample 5 (not in the repository): python-not-found was two patterns, zsh and bash
    assert signature_of(f"Exit code 127\n{line}", "Bash", 127).text == "command not found: python"


@pytest.mark.parametrize(
    "line",
    [
        # Durban-Designer/vsla's sessions (not in the repository): bash names the folder first
        "/bin/bash: line 1: cd: build: No such file or directory",
        "/bin/bash: line 1: cd: bench: No such file or directory",
        # the labelled set (dougnukem/orpheus): zsh under Claude Code's eval names it last
        "(eval):cd:1: no such file or directory: test",
        "zsh:cd:1: no such file or directory: apps/web",
        "bash: cd: C:\\Program Files\\tool: No such file or directory",
    ],
)
def test_cd_into_a_missing_folder_is_one_failure_whichever_folder_and_shell(line: str) -> None:
    # across every real session on this machine these had been seven patterns
    sig = signature_of(f"Exit code 1\n{line}", "Bash", 1)
    assert sig.text == "sh: cd: no such file or directory: <path>"
    assert sig.digest == signature_of(line, "Bash").digest  # a pipe hid the exit code


def test_a_glob_that_matched_nothing_keeps_its_glob_whichever_zsh_said_it() -> None:
    # the labelled set (ClusterCockpit/cc-backend, FSM1/cipher-box): zsh under Claude Code's
    # eval and zsh run by Codex word it alike; the glob tells a quoting slip (`repo:*` in a
    # search query, labelled root) from a look for folders that are not there (one of
    # which a person labelled benign, an existence probe whose "no" was the answer)
    under_eval = signature_of("Exit code 1\n(eval):1: no matches found: repo:*", "Bash", 1)
    by_codex = signature_of("zsh:1: no matches found: repo:*", "shell_command", 1)
    assert under_eval.text == by_codex.text == "sh: no matches found: repo:*"
    assert under_eval.digest == by_codex.digest
    probe = signature_of("(eval):1: no matches found: /Users/m/c/.planning/phases/14-*/", "Bash", 1)
    assert probe.text == "sh: no matches found: <path>*/"
    assert probe.digest != under_eval.digest


def test_what_a_shell_says_reads_alike_whichever_shell_said_it() -> None:
    same = {
        normalize(line)
        for line in (
            "bash: ./run.sh: Permission denied",
            "/bin/sh: 1: ./run.sh: Permission denied",
            "zsh:1: permission denied: ./run.sh",
        )
    }
    assert same == {"sh: permission denied: <path>"}
    # a script's own lines, as bash prints them (vsla's benchmark script; Homebrew's
    # shellenv.sh in a sandboxed Codex run): the script is no part of the failure
    assert normalize("./bench/run.sh: line 13: ./vsla_bench: No such file or directory") == (
        "sh: no such file or directory: <path>"
    )
    brew = "/opt/homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted"
    assert normalize(brew) == "sh: operation not permitted: <path>"
    assert normalize(".specify/scripts/bash/setup-plan.sh: line 2: $'\\r': command not found") == (
        normalize("/bin/bash: line 2: $'\\r': command not found")
    )
    assert normalize("bash: -c: line 0: syntax error near unexpected token `('") == (
        "sh: syntax error near unexpected token `('"
    )
    assert normalize("(eval):1: command not found: npx") == "command not found: npx"
    assert normalize("sh: 1: cd: can't cd to build") == "sh: cd: can't cd to <path>"
    # a program's own words about a file, and words that only start like a shell's, stay
    assert normalize("ls: API.md: No such file or directory") == (
        "ls: <path>: No such file or directory"
    )
    assert normalize("ssh: connect to host example.com port 22: Connection refused") == (
        "ssh: connect to host example.com port <n>: Connection refused"
    )
    assert normalize("fish: Unknown command: zsh") == "command not found: zsh"


# wild sample 25 (not in the repository, kiliman/claude-transcript): node prints its
# experimental-feature warning before every run's output, whatever then fails
NODE_WARNING = (
    "(node:31952) ExperimentalWarning: Type Stripping is an experimental feature and might "
    "change at any time\n(Use `node --trace-warnings ...` to show where the warning was created)\n"
)


@pytest.mark.parametrize(
    ("output", "klass", "says"),
    [
        (
            NODE_WARNING + "file:///p/index.ts:26\n    this.logger = createLogger();\n\n"
            "TypeError: createLogger is not a function\n    at new Service (file:///p/index.ts:26:19)",
            "TypeError",
            "createLogger is not a function",
        ),
        (
            NODE_WARNING + "node:events:485\n      throw er;\n\n"
            "Error: listen EADDRINUSE: address already in use :::8080",
            "EADDRINUSE",
            "address already in use",
        ),
        (
            NODE_WARNING + "info: Starting Data Capture Service...\n"
            "error: Failed to start service: Class constructors cannot be invoked without 'new'",
            None,
            "Failed to start service",
        ),
    ],
)
def test_a_warning_printed_beside_a_failure_does_not_sign_it(
    output: str, klass: str | None, says: str
) -> None:
    signature = signature_of(output, "Bash")
    assert signature.error_class == klass
    assert says in signature.text and "Warning" not in signature.full


def test_the_failures_behind_one_warning_stay_apart() -> None:
    first = signature_of(NODE_WARNING + "TypeError: createLogger is not a function", "Bash")
    second = signature_of(NODE_WARNING + "Error: listen EADDRINUSE: address in use", "Bash")
    assert first.digest != second.digest


def test_a_warning_with_no_other_clue_still_signs() -> None:
    signature = signature_of(
        "DeprecationWarning: the imp module is deprecated\nExit code 1", "Bash"
    )
    assert signature.error_class == "DeprecationWarning"


def test_a_command_stopped_at_its_time_limit_is_signed_by_the_time_limit() -> None:
    # Claude Code writes its note in front of the command's first line of output
    long = signature_of("Command timed out after 2m 0.0s " + NODE_WARNING + "info: up", "Bash")
    short = signature_of("Command timed out after 5s Chart server running at :8080", "Bash")
    assert long.error_class == short.error_class == "timed out"
    assert long.digest == short.digest and long.text == "command timed out after <n>"
    assert example_of("Command timed out after 5s Chart server running").startswith(
        "Command timed out after 5s\nChart server running"
    )
    # Codex's words for the same limit (every real session on this machine, not in the
    # repository: 11 of them beside Claude Code's 15), under its shell tool and exit 124
    codex = signature_of(
        "command timed out after 10031 milliseconds\nCompiling bytes v1.11.0", "shell_command", 124
    )
    assert codex.digest == short.digest


def test_a_rule_of_dashes_is_no_signature() -> None:
    # wild sample 25 (Ogekuri/G): unittest with nothing to run, exit 5
    output = "-" * 70 + "\nRan 0 tests in 0.000s\n\nNO TESTS RAN"
    # the runner's own word that it ran nothing signs it (its count did, before "no tests
    # ran" was read as such)
    assert signature_of(output, "shell_command", 5).text == "NO TESTS RAN"


def test_a_function_named_for_warnings_is_no_warning() -> None:
    assert signature_of("logWarning('x');\nError: boom happened here", "Bash").text.startswith(
        "Error: boom"
    )


def test_a_linters_finding_signs_its_failure_not_its_count() -> None:
    # wild sample 23 (not in the repository): ruff's findings, then its count
    unused = (
        "F401 [*] `time` imported but unused\n  --> wfc/review/orchestrator.py:228:28\n"
        "help: Remove unused import: `time`\n\nFound 1 error.\n"
        "[*] 1 fixable with the `--fix` option."
    )
    assigned = (
        "wfc/review/orchestrator.py:171:9: F841 Local variable `start_time` is assigned to but "
        "never used\nFound 1 error."
    )
    assert signature_of(unused, "Bash", 1).text == "F401 [*] <q> imported but unused"
    assert "F841 Local variable <q> is assigned to but never used" in (
        signature_of(assigned, "Bash", 1).text
    )
    assert signature_of("Found 2 errors.", "Bash", 1).text == "Found <n> errors."  # alone


def test_a_progress_line_never_signs_a_failure_another_line_names() -> None:
    # wild sample 26 (not in the repository): `go generate` after `go get`, exit 1
    output = (
        "go: downloading golang.org/x/tools v0.37.0\ngo: downloading golang.org/x/mod v0.28.0\n"
        "../../.cache/go-mod/golang.org/x/tools@v0.37.0/go/packages/packages.go:28:2: missing "
        "go.sum entry for module providing package golang.org/x/sync/errgroup\n"
        'internal/ent/generate.go:3: running "go": exit status 1\n'
    )
    assert "missing go.sum entry" in signature_of(output, "shell", 1).text
    pip = (
        "Collecting requests\n  Downloading requests-2.32.0.tar.gz\nERROR: No matching distribution"
    )
    assert signature_of(pip, "Bash", 1).text.startswith("ERROR: No matching distribution")
    only = "go: downloading golang.org/x/sync v0.7.0\n"  # nothing else: it still signs
    assert signature_of(only, "shell", 1).text.startswith("go: downloading")


#: Real shapes from sessions of wild samples 22-27 (each had been signed by a line of
#: code): gcc's excerpt of the source under its diagnostic, Claude Code's Edit echoing
#: the string it was given, Codex's apply_patch echoing the patch, Go's package header.
GCC_EXCERPT = (
    "/home/k/vsla/src/vsla_gpu.c:229:43: error: 'vsla_gpu_t' has no member named 'ctx'\n"
    "  229 | vsla_error_t vsla_gpu_get_device_info(int device_id, char* name) {\n"
    "      |                                       ~~~~^~~~~~~~~\n"
    "make[1]: *** [CMakeFiles/Makefile2:85: CMakeFiles/vsla_static.dir/all] Error 2"
)
TY_EXCERPT = (
    "error[call-non-callable]: Object of type `None` is not callable\n"
    "  --> src/app.py:12:9\n   |\n11 | try:\n12 |     handler()\n   |     ^^^^^^^^^\n"
    "13 | except PermissionError:\n   |"
)
EDIT_ECHO = (
    "<tool_use_error>String to replace not found in file.\n"
    "String:     } catch (error) {\n"
    "      this.logger.error('Failed to start service:', error.message);\n"
    "    }</tool_use_error>"
)
EDIT_MANY_ECHO = (
    "<tool_use_error>Found 2 matches of the string to replace, but replace_all is false. "
    "To replace all occurrences, set replace_all to true.\n"
    "String:     return VSLA_ERROR_INVALID_ARGUMENT;</tool_use_error>"
)
PATCH_ECHO = (
    "apply_patch verification failed: Failed to find expected lines in "
    "/home/a/lms/internal/http/handlers.go:\n"
    "    if err := json.NewDecoder(r.Body).Decode(&req); err != nil {\n"
    '        respondError(w, http.StatusBadRequest, "payload invalide")\n        return\n    }'
)
GO_HEADER = (
    "# github.com/charmbracelet/bubbletea-app-template/components\n"
    'components/graph_view.go:4:2: "fmt" imported and not used'
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (GCC_EXCERPT, "<path>: error: <q> has no member named <q>"),
        (TY_EXCERPT, "error[call-non-callable]: Object of type <q> is not callable"),
        (EDIT_ECHO, "String to replace not found in file."),
        (EDIT_MANY_ECHO, "Found <n> matches of the string to replace, but replace_all is false."),
        (PATCH_ECHO, "Failed to find expected lines in <path>:"),
        (GO_HEADER, "<path>: <q> imported and not used"),
    ],
)
def test_code_a_tool_quotes_or_echoes_never_signs_its_failure(text: str, expected: str) -> None:
    sig = signature_of(text, "Bash", 1)
    assert sig.text == expected
    assert sig.error_class in (None, "exit 1")  # no class read off a name in the code


def test_a_markdown_table_is_not_a_source_excerpt() -> None:
    text = "| Error | Likely Cause | Fix |\n|---|---|---|\n| E1 | config | reload |"
    assert signature_of(text, "Bash", 1).text == "| Error | Likely Cause | Fix |"


def test_codexs_count_of_a_cut_outputs_lines_and_a_logged_warning_sign_nothing() -> None:
    text = (
        "Total output lines: 246\n"
        'time="2025-10-06T11:12:36+02:00" level=warning msg="the attribute `version` is '
        'obsolete"\n minio Pulling\nError response from daemon: pull access denied for minio'
    )
    assert signature_of(text, "shell", 1).text == (
        "Error response from daemon: pull access denied for minio"
    )


def test_a_failed_searchs_matches_never_sign_it() -> None:
    # wild sample 28 (not in the repository): `rg -n` that found matches and failed on a
    # path it could not read; the matches hold "Error"
    output = (
        "requirements/spec-kit-seed.md:79:- `FND-001`\n"
        "requirements/spec-kit-seed.md:81:### FND-005: Health, Logging, Error Model, Metrics\n"
        "requirements/spec-kit-seed.md-82-context line with an error in it\n"
        "rg: specs/: No such file or directory (os error 2)"
    )
    assert signature_of(output, "exec_command", 2, program="rg").text == (
        "rg: <path>: No such file or directory (os error <n>)"
    )
    # only a search's output is read so; a compiler's diagnostics are its failure
    assert without_matches(output, "gcc") == output


def test_a_searchs_unnumbered_matches_never_sign_it() -> None:
    # a real Codex rollout (7567491/Feishu_ClaudeCode, GPL-3.0, not in the repository):
    # `rg "AI" feicc` exited 2 after 5,636 lines, Codex cut the middle out, and what was
    # left were matches printed without line numbers, one of them a script's
    # `if [ $FAILED -eq 0 ]; then`, which signed the failure
    output = (
        "Exit code: 2\nWall time: 0.4 seconds\nTotal output lines: 5636\nOutput:\n"
        "feicc/group-oc/plan.md:### Phase 3: AI 决策（预计 2-3 天）\n"
        'feicc/group-oc/PR/verify_deployment.sh:echo -e "失败: ${RED}$FAILED${NC}"\n'
        "feicc/group-oc/PR/verify_deployment.sh:if [ $FAILED -eq 0 ]; then\n"
        "feicc/group-oc/kimi/blog/用Claude Code编写案例-1.md:AI不会取代程序员"
    )
    sig = signature_of(output, "shell_command", 2, program="rg")
    assert sig.text == "rg: printed only matches"
    # the example is the output's head, not a window round a match
    assert example_of(output, 2, program="rg").startswith("Exit code: 2\nWall time")
    # the program's own words, when they are there, sign it among unnumbered matches
    own = output + "\nrg: feicc/secret: Permission denied (os error 13)"
    assert signature_of(own, "shell_command", 2, program="rg").text == (
        "rg: <path>: Permission denied (os error <n>)"
    )
    # the shell's own complaint about the line is no match: it signs the failure
    for said, signed in (
        ("zsh:1: parse error near `)'", "sh: parse error near `)'"),
        ("(eval):1: no matches found: CHANGELOG*", "sh: no matches found: CHANGELOG*"),
    ):
        shell = f"Exit code: 1\nWall time: 0.1 seconds\nOutput:\n{said}\n"
        assert signature_of(shell, "shell_command", 1, program="rg").text == signed
    # a search that printed nothing at all is still one that printed nothing
    silent = "Exit code: 2\nWall time: 0.1 seconds\nOutput:\n"
    assert signature_of(silent, "shell_command", 2, program="rg").text == "rg: printed nothing"
    # a program that does not search is read as before: its `file.ext:` lines are its own
    failed = "Exit code: 1\nOutput:\nsrc/app.py:3: DeprecationWarning: old\nfoo.c: error: bad"
    assert without_matches(failed, "python") == failed


def test_a_command_stopped_at_a_time_limit_is_signed_by_the_stop() -> None:
    # a real Codex rollout (7567491/Feishu_ClaudeCode, not in the repository): a Codex
    # version that wrote no note of the stop; `git push` waited on a credential prompt
    # until its `timeout_ms` ran out, and a test run passed and never exited
    noted = (
        "Exit code: 124\nWall time: 13.6 seconds\nOutput:\n"
        "command timed out after 13579 milliseconds\n"
    )
    silent = "Exit code: 124\nWall time: 120 seconds\nOutput:\n"
    passed = (
        "Exit code: 124\nWall time: 120 seconds\nOutput:\n\n> app@1.0.0 test:feishu\n"
        "> node test/feishu/test-integration.js\n\n✅ Passed: 35\n❌ Failed: 0\n"
        "📈 Success Rate: 100.0%\n🎉 All tests passed! Feishu bot is ready to use."
    )
    traced = (
        "Exit code: 124\nWall time: 240 seconds\nOutput:\n"
        "05:45:58.664249 git.c:455               trace: built-in: git push origin main\n"
        "05:45:58.666640 run-command.c:668       trace: run_command: git remote-https origin"
    )
    want = signature_of(noted, "shell_command", 124, program="")
    assert want.text == "command timed out after <n>"
    for output, program in ((silent, "git"), (passed, "npm"), (traced, "git")):
        assert signature_of(output, "shell_command", 124, program=program) == want
    # the example shows what it was doing when it was stopped
    assert example_of(passed, 124, program="npm").endswith("Feishu bot is ready to use.")
    # GNU timeout's 124 under Claude Code's wrapper is the same stop
    assert signature_of("Exit code 124", "Bash", 124, program="pytest").text == want.text
    # xargs exits 124 when a command it ran exited 255: that is no time limit
    xargs = "Exit code: 124\nOutput:\nxargs: ssh: exited with status 255; aborting\n"
    assert signature_of(xargs, "shell_command", 124, program="xargs").text != want.text
    # and another exit status with the same output is read from its lines
    assert signature_of(silent.replace("124", "1"), "shell_command", 1, program="git").text == (
        "git: printed nothing"
    )


def test_a_builds_numbered_progress_line_is_no_error_class() -> None:
    # wild sample 28 (not in the repository): SwiftPM's steps before its error
    text = (
        "[20/24] Compiling Resting RestingError.swift\n"
        "[21/24] Compiling Resting RestClient.swift\n"
        "/Users/u/Resting/Sources/Resting/Client/RestClient+Combine.swift:38:24: error: "
        "passing closure as a 'sending' parameter risks causing data races"
    )
    sig = signature_of(text, "write_stdin", 1)
    assert sig.error_class != "RestingError"
    assert "passing closure as a <q> parameter" in sig.text


def test_the_line_a_class_opens_signs_a_traceback_not_the_code_quoting_it() -> None:
    # wild sample 29 (not in the repository): the traceback quotes `raise AttributeError(`
    # above the line that says what went wrong
    text = (
        "Traceback (most recent call last):\n"
        '  File "/app/models.py", line 41, in __getattr__\n'
        "    raise AttributeError(\n"
        "AttributeError: 'Regulation' object has no attribute 'source'"
    )
    sig = signature_of(text, "Bash", 1)
    assert sig.error_class == "AttributeError"
    assert sig.text == "AttributeError: <q> object has no attribute <q>"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a document or a listing printed before the failure (real shapes, wild samples)
        ("av-bv4 open 2 epic EPIC: Braintrust-style SDK DX\nexit status 1", None),
        ("README.md:EVAL.ts tests can assert on the files the agent produced", None),
        ("PID COMM ELAPSED\n4121 node 01:02", None),
        # the operating system's and npm's codes
        ("Error: listen EADDRINUSE: address already in use :::3000", "EADDRINUSE"),
        ("npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree", "ERESOLVE"),
        ("{ code: 'EPIPEX', syscall: 'write' }", "EPIPEX"),  # named as a code: a code
    ],
)
def test_only_an_error_code_is_read_as_an_errno_class(text: str, expected: str | None) -> None:
    assert error_class(text) == expected


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # gcc on two files of one folder (real, a CUDA project's session)
        (
            "test_gpu_minimal.c: In function 'main':\n"
            "test_gpu_minimal.c:12:5: error: stray '\\302' in program",
            "test_gpu_tensor.c:40:1: error: stray '\\302' in program",
        ),
        ("ls: API.md: No such file or directory", "ls: package.json: No such file or directory"),
        (
            "cc1: fatal error: test_conv_manual.c: No such file or directory",
            "cc1: fatal error: gpu_head_to_head.c: No such file or directory",
        ),
        # Codex's patch tool names a file of the working folder without a folder
        (
            "Failed to find expected lines in CHANGELOG.md:\n- Converters (import):",
            "Failed to find expected lines in opk/ui/pdl_editor.py:\n    def _add_aux(self):",
        ),
        ("main.go:12:3: undefined: foo", "internal/server.go:40:9: undefined: foo"),
        (
            "app.ts(12,5): error TS2304: Cannot find name 'x'.",
            "src/b.ts(1,1): error TS2304: Cannot find name 'y'.",
        ),
        # a Go module path starts with its host
        (
            "go: module entgo.io/ent/dialect found, but does not contain package entgo.io/ent/x",
            "go: module github.com/a/b found, but does not contain package github.com/a/b/c",
        ),
        # a quoted Python list: its closing quotes follow letters
        (
            "subprocess.CalledProcessError: Command '['cmake', '--build', '.', '-j32']' "
            "returned non-zero exit status 2.",
            "subprocess.CalledProcessError: Command '['make', 'all']' returned non-zero exit "
            "status 2.",
        ),
    ],
)
def test_a_file_or_module_named_in_the_error_does_not_split_the_failure(
    first: str, second: str
) -> None:
    assert signature_of(first, "Bash", 1).digest == signature_of(second, "Bash", 1).digest


def test_a_dotted_name_that_is_no_file_is_kept() -> None:
    """Only a name with a file's extension, where a file is named (before a colon or a
    `(line,col)`), is a path: a method, a module's class or a host stays in the key."""
    assert signature_of("TypeError: res.json is not a function", "Bash", 1).text == (
        "TypeError: res.json is not a function"
    )
    text = "sqlite3.IntegrityError: NOT NULL constraint failed: job_offers.url"
    assert signature_of(text, "Bash", 1).text == text
    assert signature_of("Could not resolve host: github.com", "Bash", 128).text == (
        "Could not resolve host: github.com"
    )


def test_an_apostrophe_opens_no_quote() -> None:
    """Real: `python3: can't open file '…': [Errno 2]` had read as a quote from the
    apostrophe to the path's opening quote ("can<q>…")."""
    sig = signature_of(
        "python3: can't open file '/Users/a/x.py': [Errno 2] No such file or directory",
        "Bash",
        2,
    )
    assert sig.text == "python3: can't open file <q>: [Errno <n>] No such file or directory"


def test_each_shell_tool_keys_a_failure_alike_and_other_tools_apart() -> None:
    text = "ModuleNotFoundError: No module named 'pybind11'"
    digests = {signature_of(text, tool, 1).digest for tool in ("Bash", "shell", "exec_command")}
    assert len(digests) == 1
    assert signature_of(text, "Read", 1).digest not in digests
    assert signature_of(text, "shell_command", 1).full.startswith("shell_command | ")


def test_claude_codes_search_tools_key_one_failure_alike_and_show_it_as_theirs() -> None:
    """Real (entireio/cli's history, outside the repository): Claude Code's own ripgrep
    would not start, 7 times under Grep and 4 under Glob, two patterns of one failure; a
    path that does not exist is refused alike by both. Read stays apart."""
    spawn = "ENOENT: no such file or directory, posix_spawn '/x/vendor/ripgrep/arm64-darwin/rg'"
    missing = "Path does not exist: src/app/[locale]/page.tsx"
    for text in (spawn, missing):
        grep, glob = signature_of(text, "Grep"), signature_of(text, "Glob")
        assert grep.digest == glob.digest
        assert grep.full.startswith("Grep | ") and glob.full.startswith("Glob | ")
        assert signature_of(text, "Read").digest != grep.digest
    assert tool_label("Grep") == tool_label("Glob") == "Grep/Glob"
    assert tool_label("Read") == "Read" and tool_label("grep_search") == "grep_search"


def test_a_tool_claude_code_renamed_keys_one_failure_under_either_name() -> None:
    """Real (two histories outside the repository): "Agent type 'x' not found." under
    `Task` (Claude Code 2.1.5x, entireio/cli) and under `Agent` (2.1.6x and later, a
    code-insights history); `BashOutput` became `TaskOutput`, `KillShell` `TaskStop`."""
    text = "Agent type 'superpowers:receiving-code-review' not found. Available agents: Bash"
    assert signature_of(text, "Task").digest == signature_of(text, "Agent").digest
    assert tool_label("Task") == "Agent" and tool_label("BashOutput") == "TaskOutput"
    assert tool_label("KillShell") == "TaskStop" and tool_label("TaskCreate") == "TaskCreate"
    gone = "Shell 1a2b not found"
    assert signature_of(gone, "KillShell").digest == signature_of(gone, "TaskStop").digest
    assert signature_of(text, "TaskCreate").digest != signature_of(text, "Agent").digest


@pytest.mark.parametrize(
    "glued",
    [
        # FSM1/cipher-box's history (outside the repository): `gh api graphql` with a
        # repository name that is wrong, and with a field argument GitHub does not take
        '{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","path":["repository"],'
        '"locations":[{"line":3,"column":3}],"message":"Could not resolve to a Repository with '
        "the name 'cipherbox-official/cipher-box'.\"}]}gh: Could not resolve to a Repository "
        "with the name 'cipherbox-official/cipher-box'.",
        '{"errors":[{"path":["query","repository"],"extensions":{"code":"argumentNotAccepted"},'
        "\"message\":\"Field 'body' doesn't accept argument 'truncate'\"}]}gh: Field 'body' "
        "doesn't accept argument 'truncate'",
        # JanDeDobbeleer/oh-my-posh's history: an answer printed over lines, its closing brace
        # glued to gh's word
        '{\n  "message": "Not Found",\n  "documentation_url": "https://docs.github.com/rest",\n'
        '  "status": "404"\n}gh: Not Found (HTTP 404)',
    ],
)
def test_a_programs_line_glued_to_the_json_before_it_reads_as_on_its_own(glued: str) -> None:
    """`gh api` prints the API's answer with no newline at its end, then its own word on
    the failure: glued, the answer's quoted keys had signed it (`{<q>:{<q>:null},…}gh: …`)."""
    apart = glued.replace("}gh: ", "}\ngh: ")
    assert apart != glued
    assert signature_of(glued, "Bash", 1).full == signature_of(apart, "Bash", 1).full
    assert "<q>:" not in signature_of(glued, "Bash", 1).text


#: jdx/mise's Codex history (outside the repository): `cargo test` of one failing test,
#: as Codex's shell returned it, and its tail as `| tail -3` leaves it.
CARGO_TEST_FAILED = """Chunk ID: 4a2bde
Wall time: 13.5899 seconds
Process exited with code 101
Output:

running 6 tests
config::tests::test_monorepo_union_tool_request_set_preserves_matching_tools --- FAILED
.....
failures:

---- config::tests::test_monorepo_union_tool_request_set_preserves_matching_tools stdout ----

thread 'config::tests::test_monorepo_union_tool_request_set_preserves_matching_tools' (15690707) \
panicked at src/config/mod.rs:3633:9:
assertion `left == right` failed
  left: []
 right: ["1", "2"]
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    config::tests::test_monorepo_union_tool_request_set_preserves_matching_tools

test result: FAILED. 5 passed; 1 failed; 0 ignored; 0 measured; 1476 filtered out; finished in 0.04s

error: test failed, to rerun pass `--bin mise`
"""


def test_a_rust_test_run_is_signed_by_the_test_that_failed() -> None:
    """cargo's closing verdict ("error: test failed, to rerun pass <q>") is the same for
    every failed run, and `assert_eq!`'s panic the same for every test: 24 runs of a dozen
    different tests had been one pattern in jdx/mise's history. The failed test's name
    signs, whichever way libtest printed it; a run cut to cargo's verdict keeps it."""
    name = "config::tests::test_monorepo_union_tool_request_set_preserves_matching_tools"
    sig = signature_of(CARGO_TEST_FAILED, "exec_command", 101)
    assert sig.text == f"test {name} FAILED"
    # the same test failing, behind a pipe with no exit code, is the same failure
    assert signature_of(CARGO_TEST_FAILED, "exec_command").digest == sig.digest
    verbose = CARGO_TEST_FAILED.replace(f"{name} --- FAILED", f"test {name} ... FAILED")
    assert signature_of(verbose, "Bash", 101).text == sig.text
    head_cut = "running 2 tests\ntest a::b ... ok\ntest a::c ... FAILED\n"
    assert signature_of(head_cut, "Bash", 101).text == "test a::c FAILED"
    other = CARGO_TEST_FAILED.replace("test_monorepo_union", "test_other")
    assert signature_of(other, "exec_command", 101).digest != sig.digest
    tail = "test result: FAILED. 5 passed; 1 failed\n\nerror: test failed, to rerun pass `--lib`"
    assert signature_of(tail, "Bash", 101).text == "error: test failed, to rerun pass <q>"
    # libtest's words in another program's output name no test
    assert "FAILED" not in signature_of("---- a stdout ----\nerror: boom", "Bash", 1).text


#: JanDeDobbeleer/oh-my-posh's history (outside the repository): go test of two packages,
#: each failure told by testify's block.
TESTIFY_FAILED = """--- FAIL: TestWriteGradientRendering (0.00s)
    writer_gradient_test.go:114:
        \tError Trace:\tD:/oh-my-posh/src/terminal/writer_gradient_test.go:114
        \tError:      \tNot equal:
        \t            \texpected: "\\x1b[37ma\\x1b[0m"
        \t            \tactual  : "\\x1b[37mab\\x1b[0m"
        \tTest:       \tTestWriteGradientRendering
        \tMessages:   \tsingle-stop gradient auto-shades across cells
FAIL
FAIL\tgithub.com/jandedobbeleer/oh-my-posh/src/terminal\t0.183s
--- FAIL: TestGetPowerlineColorPaletteReferencedStop (0.00s)
    palette_test.go:51:
        \tError Trace:\tD:/oh-my-posh/src/config/palette_test.go:51
        \tError:      \tShould not be: "transparent"
FAIL
FAIL\tgithub.com/jandedobbeleer/oh-my-posh/src/config\t0.2s
"""


def test_a_go_test_failure_told_by_testify_is_signed_by_its_test() -> None:
    """testify's "Error:" field names the assertion, the same words for every test that
    checks with it: "Error: Not equal:" had signed eight failures of four tests as one
    pattern. The test the block reports on signs, by go test's own line for it: the
    block's "Test:" field, else the failed test go test named last above the block."""
    sig = signature_of(TESTIFY_FAILED, "Bash", 1)
    assert sig.text == "FAIL: TestGetPowerlineColorPaletteReferencedStop (<n>)"
    first = TESTIFY_FAILED.split("FAIL\tgithub.com/jandedobbeleer/oh-my-posh/src/terminal")[0]
    assert signature_of(first, "Bash", 1).text == "FAIL: TestWriteGradientRendering (<n>)"
    # the same test failing with go test's words only is the same failure
    own = "--- FAIL: TestWriteGradientRendering (0.01s)\nFAIL\nFAIL\tx/terminal\t0.1s"
    assert signature_of(own, "Bash", 1).digest == signature_of(first, "Bash", 1).digest
    # an "Error:" line with no testify block is read as before
    plain = "--- FAIL: TestA (0.00s)\n    a_test.go:3: x\nError: Not equal:"
    assert signature_of(plain, "Bash", 1).text == "Error: Not equal:"


#: PackmindHub/context-evaluator's history (Apache-2.0, outside the repository): the lint
#: script behind a pipe to `head`, cut before biome's closing verdict.
BIOME_FORMAT_CUT = """$ biome check --error-on-warnings
 at frontend/src/App.tsx format ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━

  × Formatter would have printed the following content:

    1855 1855 │   className="flex items-center gap-1.5 text-slate-400"
    1856 1856 │   >
"""


def test_a_runners_echo_of_the_command_it_runs_is_no_error() -> None:
    """bun, yarn and pnpm echo each script's command before running it ("$ biome check
    --error-on-warnings"), npm under its header ("> eslint . --max-warnings=0"): a flag
    named for errors had made the echo the only line that sounded like one, and it had
    signed five failures of a lint script. What the program said signs: here biome's
    mark of an error, "×", as failed results already read it."""
    sig = signature_of(BIOME_FORMAT_CUT, "Bash", 1)
    assert sig.text == "× Formatter would have printed the following content:"
    npm = "> app@1.0.0 lint\n> eslint . --max-warnings-errors\n\n/a.ts\n  3:1  error  x  no-undef"
    assert "no-undef" in signature_of(npm, "Bash", 1).text
    # biome's closing verdict still signs a whole run
    verdict = "  × Some errors were emitted while running checks."
    whole = f"{BIOME_FORMAT_CUT}\ncheck ━━━━━━━\n\n{verdict}\n"
    assert signature_of(whole, "Bash", 1).text == "× Some errors were emitted while running checks."
    # Gradle's "> …" under "What went wrong" is its message, no echo
    gradle = (
        "* What went wrong:\nExecution failed for task ':app:compileJava'.\n"
        "> Compilation failed; see the compiler error output for details."
    )
    assert signature_of(gradle, "Bash", 1).text.startswith("> Compilation failed")


#: PackmindHub/context-evaluator's history: `git commit` whose pre-commit hook ran the tests,
#: biome and tsc, all of which passed, before git found nothing staged.
HOOK_PASSED_COMMIT_EMPTY = """Exit code 1
$ bun test src/
bun test v1.3.5 (1e86cebd)

src/api/routes/evaluation.test.ts:
[EvaluationRoutes] Error in POST /api/evaluate: 312 | \t\t\texpect(response2.status).toBe(202);
                              ^
error: Database connection failed

 1319 pass
 0 fail
 2884 expect() calls
Ran 1319 tests across 60 files. [1146.00ms]
$ biome check --error-on-warnings
Checked 290 files in 120ms. No fixes applied.
$ tsc --noEmit
On branch main
Changes not staged for commit:
\tmodified:   src/shared/providers/codex-provider.ts

no changes added to commit (use "git add" and/or "git commit -a")
"""


def test_what_a_passing_test_run_logged_is_not_what_failed() -> None:
    """A test of a failure path logs that failure as it passes: the run's own sum says
    nothing failed in it, so the commit that found nothing staged signs (five hook runs
    had been signed by the tests' logs or the hook's echo of biome's command)."""
    sig = signature_of(HOOK_PASSED_COMMIT_EMPTY, "Bash", 1)
    assert sig.text.startswith("no changes added to commit")
    # a run that failed is read as one: cut to its count, by its count (below)
    failed = HOOK_PASSED_COMMIT_EMPTY.replace(" 0 fail", " 1 fail").split("$ biome")[0]
    assert signature_of(failed, "Bash", 1).text == "<n> fail"
    # pytest's clean sum closes a run as bun's does
    pytest_run = (
        "error: pathspec 'x' did not match any file(s) known to git\n"
        "============================= test session starts ==============================\n"
        "ERROR root:app.py:12 connection refused (expected in this test)\n"
        "============================== 3 passed in 0.12s ==============================="
    )
    assert signature_of(pytest_run, "Bash", 1).text.startswith("error: pathspec")


def test_a_brace_inside_a_line_of_code_splits_nothing() -> None:
    line = "cmd/a.go:3:2: cannot use gitsync.RefRejectedError{…} (value of struct type x): y"
    assert signature_of(line, "Bash", 1).text.endswith(
        "RefRejectedError{…} (value of struct type x): y"
    )
    assert signature_of('[{"a": 1}]jq: error: x', "Bash", 5).text == "jq: error: x"


def test_a_failure_keys_alike_with_its_exit_code_or_with_a_pipe_hiding_it() -> None:
    """Real (sessions on this machine): `ls: cannot access …` with its exit code 2, and
    behind a pipe with none, when a stock phrase of the text ("no such file or
    directory") had become its class and the key kept it: two patterns of one failure."""
    text = "ls: cannot access 'build/': No such file or directory"
    with_code, piped = signature_of(text, "Bash", 2), signature_of(text, "Bash", None)
    assert (with_code.error_class, piped.error_class) == ("exit 2", "no such file or directory")
    assert with_code.digest == piped.digest
    text = "ls: build: No such file or directory"  # no error word but the phrase
    assert signature_of(text, "Bash", 1).digest == signature_of(text, "Bash", None).digest
    # where the line names no error, the class is all there is, and it stays in the key
    banner = "Welcome to Ubuntu 24.04.4 LTS"
    assert signature_of(banner, "Bash", 144).digest != signature_of(banner, "Bash", 1).digest


@pytest.mark.parametrize(
    ("text", "code", "other_code"),
    [
        # real lines of histories outside the repository, each stored as two patterns:
        # BSD cat's own message, under `exit 1` and behind a pipe (PackmindHub/
        # context-evaluator, 2 + 10), zsh's unmatched glob (FSM1/cipher-box)
        ("cat: illegal option -- A\nusage: cat [-belnstuv] [file ...]", 1, None),
        ("(eval):1: no matches found: docs/*.md", 1, None),
        # a compiler's and a linter's diagnostics at a place in a file (entireio/cli),
        # a task runner's tag before one, and GNU grep's complaint under 1 and 2
        ('cmd/x.go:12:3: "os" imported and not used', 1, None),
        ("a.go:9:2: appendAssign: append result not assigned to the same slice (gocritic)", 1, 2),
        ("[lint:go] a.go:1:1: string `x` has 3 occurrences, make it a constant (goconst)", 1, None),
        ("grep: option `--files' is ambiguous; possibilities: '--files-with-matches'", 2, 1),
        # git's verdict under its advice, no error word in it
        ("hint: Disable this message\nCould not apply 8d07169... fix parser", 1, None),
    ],
)
def test_a_line_that_names_the_failure_keys_it_whatever_the_exit_code(
    text: str, code: int, other_code: int | None
) -> None:
    """A program or a file speaking in its own name ("cat: …", "<file>:12:3: …") says what
    went wrong, error word or not: the code it exited with, or none where a pipe hid it,
    makes no second failure of it."""
    with_code = signature_of(text, "Bash", code)
    assert with_code.error_class == f"exit {code}"
    assert with_code.digest == signature_of(text, "Bash", other_code).digest
    assert with_code.digest == signature_of(text, "exec_command", code).digest


def test_gits_advice_never_signs_the_rebase_it_stopped() -> None:
    """Real (entireio/entire-graph, outside the repository): a rebase stopped on a conflict,
    its output cut to the last lines; git's `hint:` lines advise, "Could not apply …" is the
    failure, one pattern however many commits it stopped on, as when the output kept git's
    "error: could not apply <hex>… <subject>" (stop 76 had left the advice signing)."""
    text = (
        'hint: To abort and get back to the state before "git rebase", run "git rebase '
        '--abort".\nhint: Disable this message with "git config set advice.mergeConflict '
        'false"\nCould not apply 051bc95... # sem(csharp): infer receiver types'
    )
    sig = signature_of(text, "Bash", 1, program="git")
    assert sig.text == "error: could not apply <hex>..."
    # one failure whichever commit stopped it, and whichever of git's two lines kept it
    other = text.replace("051bc95... # sem(csharp): infer receiver types", "8d07169... # vendor")
    assert signature_of(other, "Bash", 1, program="git").digest == sig.digest
    whole = "Auto-merging a.go\nerror: could not apply 27a33e9... Harden OAuth\nhint: Resolve"
    assert signature_of(whole, "Bash", 1, program="git").digest == sig.digest
    digits = "error: could not apply 1234567... improved multi session support"
    assert signature_of(digits, "Bash", 1).digest == sig.digest  # a hash of digits alone
    assert signature_of("error: could not apply patch", "Bash", 1).text == (
        "error: could not apply patch"
    )


def test_a_line_that_names_no_failure_keeps_its_exit_code_in_the_key() -> None:
    """A silent failure signed by what ran, a banner's heading, and a level word are no
    program speaking: the exit code is what tells those failures apart."""
    for text in ("", "Running: the test suite now", "warning: LF will be replaced by CRLF"):
        assert signature_of(text, "Bash", 1, program="rtk").digest != (
            signature_of(text, "Bash", 2, program="rtk").digest
        ), text
    assert signature_of("", "Bash", 1, program="rtk").text == "rtk: printed nothing"


@pytest.mark.parametrize(
    "line",
    [
        # every real session on this machine (not in the repository): GNU ls on Linux and
        # BSD ls on macOS, for one missing folder
        "ls: cannot access '/root/.ssh/': No such file or directory",
        "ls: /Users/jessitron/code/agents-observe/node_modules/.bin/tsx: No such file or directory",
        # a folder under a hidden one, or any relative path, named from the working folder
        "ls: .specify/memory: No such file or directory",
        "ls: apps/web/src: No such file or directory",
        "ls: packages/core: No such file or directory",
    ],
)
def test_a_missing_path_is_one_failure_on_linux_and_macos(line: str) -> None:
    assert normalize(line) == "ls: <path>: No such file or directory"


def test_a_tools_refusal_of_a_path_is_one_failure_with_or_without_its_note() -> None:
    """Real results of Claude Code's Grep in five histories outside the repository (FSM1/
    cipher-box, melagiri/code-insights, entireio/git-sync, oh-my-posh, …): later versions
    add where the working folder is, and the refusal stood as two patterns; a path with
    brackets or no slash was a third."""
    plain = signature_of(
        "<tool_use_error>Path does not exist: /Users/a/cli/cmd</tool_use_error>", "Grep"
    )
    noted = signature_of(
        "Path does not exist: /Users/a/cli/src. Note: your current working directory is "
        "/Users/a/cli.",
        "Grep",
    )
    bare = signature_of("Path does not exist: .golangci.yml", "Grep")
    bracketed = signature_of("Path does not exist: src/app/[locale]/(dashboard)/page.tsx", "Grep")
    assert plain.text == "Path does not exist: <path>"
    assert plain.digest == noted.digest == bare.digest == bracketed.digest
    # the Read tool's refusal keeps its own words, the note left out as before
    read = signature_of(
        "File does not exist. Note: your current working directory is /Users/a/cli.", "Read"
    )
    assert read.text == "File does not exist."


def test_a_compilers_error_is_one_failure_whether_or_not_golangci_lint_relayed_it() -> None:
    """entireio/cli's and git-sync's histories (outside the repository): golangci-lint
    relays the compiler's errors with "(typecheck)" after them, and "<q> imported and not
    used" stood as 11 + 1, "undefined: errors" as 1 + 2; another linter's name stays."""
    relayed = signature_of('cmd/x.go:5:2: "os" imported and not used (typecheck)', "Bash", 1)
    compiled = signature_of('cmd/y.go:7:2: "fmt" imported and not used', "Bash", 1)
    assert relayed.text == "<path>: <q> imported and not used"
    assert relayed.digest == compiled.digest
    linted = signature_of("a.go:3:1: Error return value is not checked (errcheck)", "Bash", 1)
    assert linted.text.endswith("(errcheck)")


def test_a_line_is_one_failure_whether_a_task_runner_printed_it_or_not() -> None:
    """entireio/cli's and git-sync's histories (outside the repository): golangci-lint run
    by mise's `lint:go` task prints each finding under "[lint:go] ", and the same finding
    run alone stood as another pattern (17 such pairs in three histories). The runner's
    own verdict keeps its task's name, which is all it says."""
    finding = "cmd/a.go:3:1: Error return value of `os.Remove` is not checked (errcheck)"
    tagged = signature_of("Exit code 1\n[lint:go] " + finding, "Bash", 1)
    assert tagged.digest == signature_of(finding, "Bash", 1).digest
    assert tagged.text == "<path>: Error return value of <q> is not checked (errcheck)"
    assert normalize("[lint] ERROR task failed") == "[lint] ERROR task failed"
    assert normalize("[test:ci] --- FAIL: TestSearch (0.01s)") == "FAIL: TestSearch (<n>)"
    # golangci-lint relays the compiler's note that it stopped counting, under the tag too
    relayed = (
        "Exit code 1\n[lint:go] cmd/a.go:3:1: undefined: foo (typecheck)\n"
        "[lint:go] cmd/a.go:9:1: too many errors (typecheck)\n[lint:go] ERROR task failed"
    )
    assert signature_of(relayed, "Bash", 1).text == "<path>: undefined: foo"


def test_a_linters_finding_without_a_column_signs_over_the_runners_verdict() -> None:
    """entireio/cli's history (outside the repository): golangci-lint's dupl names a line
    but no column ("…_test.go:2468: 2468-2517 lines are duplicate of …") with the code it
    found twice under it; mise's "[lint] ERROR task failed" had signed such runs, as every
    other lint failure of the task that the output cut."""
    output = (
        "Exit code 1\n[lint] $ golangci-lint run ./...\n"
        "cmd/a/manual_commit_test.go:2468: 2468-2517 lines are duplicate of "
        "`cmd/a/messages_test.go:146-191` (dupl)\n\ttests := []struct {\n\t}\n"
        "1 issues:\n* dupl: 1\n[lint] ERROR task failed"
    )
    sig = signature_of(output, "Bash", 1)
    assert sig.text == "<path>: <n>-<n> lines are duplicate of <q> (dupl)"
    # a test's log line at a file and line is no finding: it names no linter
    logged = "Exit code 1\n    flow_test.go:1400: Phase 5: verify\nFAIL\n[test] ERROR task failed"
    assert "Phase 5" not in signature_of(logged, "Bash", 1).text


def test_a_duration_in_two_units_is_a_number() -> None:
    """FSM1/cipher-box's and entireio/cli's histories (outside the repository): `gh pr
    checks` prints how long a failed check ran ("E2E Tests fail 3m20s https://…"), and each
    run of one failing check was a pattern of its own; a number with one unit already was
    `<n>`."""
    check = "E2E Tests fail {} https://github.com/FSM1/cipher-box/actions/runs/1/job/2"
    first = signature_of(check.format("3m20s"), "Bash", 1)
    assert first.digest == signature_of(check.format("3m18s"), "Bash", 1).digest
    assert normalize("took 1h5m3s") == normalize("took 45s") == "took <n>"
    assert normalize("abc3m20sdef") == "abc3m20sdef"


def test_a_path_named_bare_is_a_path() -> None:
    """jdx/mise's Codex history (outside the repository): ripgrep's "rg: tests: …" stood
    beside "rg: <path>: …" as another failure, 14 beside 19. A program's own word that a
    path it was given is missing or of the wrong kind reads a bare name as a path; an
    error's own words before a colon are no path."""
    assert normalize("rg: tests: No such file or directory (os error 2)") == (
        "rg: <path>: No such file or directory (os error <n>)"
    )
    assert normalize("grep: src: No such file or directory") == (
        "grep: <path>: No such file or directory"
    )
    assert normalize("cat: dist: Is a directory") == "cat: <path>: Is a directory"
    assert normalize("error: cannot run gpg: No such file or directory") == (
        "error: cannot run gpg: No such file or directory"
    )
    assert normalize("fatal: origin: Permission denied") == "fatal: origin: Permission denied"
    assert normalize("jq: error: Could not open file a.json: No such file or directory") == (
        "jq: error: Could not open file <path>: No such file or directory"
    )


def test_gnu_words_for_other_tools_and_hidden_files_read_alike() -> None:
    assert normalize("cp: cannot stat 'dist/app.js': No such file or directory") == (
        "cp: <path>: No such file or directory"
    )
    assert normalize("cat: .claude/settings.json: No such file or directory") == (
        "cat: <path>: No such file or directory"
    )
    # a tool's own "error:" is no program name, and a dotted word is no hidden folder
    assert normalize("error: cannot open 'x.lock': Operation not permitted").startswith(
        "error: cannot open"
    )
    assert normalize("see .env for the keys") == "see .env for the keys"


def test_pytests_mark_and_nodes_trailing_path_split_no_failure() -> None:
    # every real session on this machine (not in the repository)
    in_a_test = signature_of("E       TypeError: unsupported operand type(s) for /", "Bash", 1)
    outside = signature_of("TypeError: unsupported operand type(s) for /", "Bash", 1)
    assert in_a_test.digest == outside.digest
    # Claude Code's Read, before and after it began to name the path
    old = signature_of("EISDIR: illegal operation on a directory, read", "Read")
    new = signature_of("EISDIR: illegal operation on a directory, read '/src/app'", "Read")
    assert old.digest == new.digest
    assert normalize("E2E tests failed") == "E2E tests failed"


def test_only_the_head_of_a_long_error_line_is_read() -> None:
    # a minified bundle printed in a build's failure: the path patterns read a line with
    # no space in time that grows with its square (bench/mining.py --hostile times it)
    signed = signature_of("Exit code 1\nError: " + "ab." * 30_000, "Bash", 1)
    assert len(signed.text) <= 200
    # what comes after the head is not read, even where placeholders would have left
    # room for it in the signature
    assert normalize("/a" * 1_250 + " TAIL") == "<path>"
    assert normalize("/a" * 100 + " TAIL") == "<path> TAIL"


# wild sample 41's owner (not in the repository, scotthamilton77/claude-code-sidekick):
# across ~500 sessions of one person, Jest's closing counts were the two largest patterns
JEST_RUN = """FAIL tests/unit/audit-trail.test.ts
  Audit Trail Generation Stage
    Complete Explainability Trace Generation
      ✓ should build the trace (4 ms)
      ✕ should aggregate every stage (2 ms)
    Edge Cases and Error Handling
      ✕ should handle missing stages gracefully

  ● Audit Trail Generation Stage › Complete Explainability Trace Generation › should aggregate

    Missing required pipeline stage: aiLabelFiltering

      235 |   for (const stage of requiredStages) {
      236 |     if (!pipelineResults[stage as keyof PipelineResults]) {
    > 237 |       throw new Error(`Missing required pipeline stage: ${stage}`);
          |             ^

      at generateAuditTrail (src/pipeline/audit-trail.ts:237:13)

Test Suites: 1 failed, 3 passed, 4 total
Tests:       2 failed, 40 passed, 42 total
Snapshots:   0 total
Time:        2.31 s
"""


# a history outside the repository (PackmindHub/context-evaluator, Apache-2.0; one test name
# shortened): `bun test`
# run by the agent prints no mark for a passing test, but prints what its tests logged in
# the form of a failure's report; nine runs of different failing tests had made one pattern
# named by an error that a passing test of the error path logged
BUN_RUN = """[11:53:34.636] [ConcurrencyLimiter] Task 2 failed: 84 |
89 | \t\t\t\t\tthrow new Error("Item 3 failed");
error: Item 3 failed
[11:53:34.636] [ConcurrencyLimiter] Task 0 failed: 101 | \t\t});
106 | \t\t\t\tthrow new Error("All fail");
error: All fail
[SemanticDeduplicator] Semantic deduplication failed: AI provider failed
error: expect(received).toContain(expected)
(fail) prompt-generator > colocatedPairs support > prompt includes notice when pairs exist [0.27ms]
error: expect(received).toContain(expected)
(fail) prompt-generator > colocatedPairs support > suggestion prompt includes consolidation notice
error: Job queue is at capacity
315 | \t\t\t\tsubmitJobError: new Error("Database connection failed"),
error: Database connection failed
 2 fail
error: script "test" exited with code 1
"""


def test_a_bun_test_run_is_signed_by_its_first_failed_test() -> None:
    sig = signature_of(f"Exit code 1\n{BUN_RUN}", "Bash", 1)
    assert sig.text == (
        "(fail) prompt-generator > colocatedPairs support > prompt includes notice when "
        "pairs exist [<n>]"
    )
    # the same test failing in another run, with other logs and another time: one failure
    again = BUN_RUN.replace("Database connection failed", "Job queue is at capacity").replace(
        "[0.27ms]", "[1.90ms]"
    )
    assert signature_of(f"Exit code 1\n{again}", "Bash", 1).text == sig.text
    # another failed test is another failure
    other = BUN_RUN.replace("colocatedPairs support", "generateRemediationPrompts")
    assert signature_of(f"Exit code 1\n{other}", "Bash", 1).text != sig.text


def test_a_hostile_test_sum_is_read_at_once() -> None:
    """A line shaped like pytest's closing sum but endless ("= passed passed …" with no
    closing rule) inside a run is read in one pass: read with a pattern that looked
    around "passed" twice, a line of 56 KB took 0.4 s, and the time grew with its square."""
    line = "= " + "passed " * 100_000 + "x"
    text = f"============ test session starts ============\n{line}\nerror: boom"
    assert signature_of(text, "Bash", 1).text == "error: boom"


def test_a_bun_run_cut_to_its_end_is_signed_by_its_count_of_failures() -> None:
    """`bun run test 2>&1 | tail -60` (the same history, four results): the failed tests'
    "(fail)" lines were cut off above, and what is left of the run is what passing tests
    logged and the closing count; the logged "error: Database connection failed" had
    signed the runs, as if that test had failed. The count signs, unless a line after the
    run says what went wrong."""
    tail = BUN_RUN.split("error: expect(received)")[0]
    tail += "error: Database connection failed\n 1348 pass\n 3 fail\n 2939 expect() calls\n"
    tail += 'Ran 1351 tests across 61 files. [904.00ms]\nerror: script "test" exited with code 1'
    assert signature_of(f"Exit code 1\n{tail}", "Bash", 1).text == "<n> fail"
    # a run with nothing failed signs by what failed after it; so does an error after a
    # failed run's count
    after = tail + "\nsrc/a.ts(3,1): error TS2304: Cannot find name 'x'."
    assert "TS2304" in signature_of(f"Exit code 1\n{after}", "Bash", 1).text
    # an error bun reports between tests is what failed (a test file that could not load)
    unloaded = tail.replace(
        " 1348 pass",
        "a/table.test.tsx:\n\n# Unhandled error between tests\n-------------------------------\n"
        "error: Cannot find module '@testing-library/react' from '/w/a/table.test.tsx'\n"
        "-------------------------------\n\n 1348 pass",
    )
    assert signature_of(unloaded, "Bash", 1).text == "error: Cannot find module <q> from <q>"


def test_a_fail_mark_outside_a_bun_run_signs_nothing_of_its_own() -> None:
    # "(fail)" in what another program printed: the lines are read as any output's
    notes = (
        "(fail) marks a check that failed\nTraceback (most recent call last):\n"
        '  File "check.py", line 3, in <module>\nValueError: no checks found\n'
    )
    assert signature_of(f"Exit code 1\n{notes}", "Bash", 1).text == ("ValueError: no checks found")


# a history outside the repository (FSM1/cipher-box, MIT; the rules shortened): Playwright's
# run seen through `| tail -60`, which kept only the failed test's attachments and the
# closing list; nine such runs of different tests had made one pattern, "Error Context:"
PLAYWRIGHT_TAIL = """    attachment #3: screenshot (image/png) ──────────────────────────────
    test-results/sharing-W-cb3e4-chromium/test-failed-2.png
    ────────────────────────────────────────────────────────────────────

    Error Context: test-results/sharing-W-cb3e4-chromium/error-context.md

    attachment #5: trace (application/zip) ─────────────────────────────
    test-results/sharing-W-cb3e4-chromium/trace.zip
    ────────────────────────────────────────────────────────────────────

  1 failed
    [chromium] › tests/sharing-workflow.spec.ts:171:3 › Sharing Workflow › 2.1 Alice creates a file
  18 did not run
  1 passed (10.8s)
"""


def test_a_playwright_run_cut_to_its_attachments_is_signed_by_the_failed_test() -> None:
    sig = signature_of(PLAYWRIGHT_TAIL, "Bash", None)
    assert sig.text == "<path> › Sharing Workflow › <n> Alice creates a file"
    other = PLAYWRIGHT_TAIL.replace("2.1 Alice creates a file", "5.2 Charlie sees the folder")
    assert signature_of(other, "Bash", None).text != sig.text
    # where the failure's own report is in the output, its error signs, as before
    reported = (
        "  1) [chromium] › tests/sharing-workflow.spec.ts:338:3 › Sharing Workflow › 6.1 Alice "
        "revokes access\n\n    TimeoutError: locator.waitFor: Timeout 10000ms exceeded.\n"
        + PLAYWRIGHT_TAIL
    )
    assert signature_of(reported, "Bash", None).text == (
        "TimeoutError: locator.waitFor: Timeout <n> exceeded."
    )


def test_a_jest_run_is_signed_by_its_first_failed_tests_message() -> None:
    sig = signature_of(f"Exit code 1\n{JEST_RUN}", "Bash", 1)
    assert sig.text == "Missing required pipeline stage: aiLabelFiltering"
    # an assertion's message is the matcher's line, whichever test it was
    assertion = JEST_RUN.replace(
        "Missing required pipeline stage: aiLabelFiltering",
        "expect(received).toBe(expected) // Object.is equality\n\n    Expected: 0\n    Received: 1",
    )
    assert signature_of(assertion, "Bash", 1).text == (
        "expect(received).toBe(expected) // Object.is equality"
    )
    # a suite that could not run says why under its own header
    broken = (
        "FAIL tests/unit/x.test.ts\n  ● Test suite failed to run\n\n"
        "    Cannot find module '../src/config' from 'tests/unit/x.test.ts'\n\n"
        "Test Suites: 1 failed, 1 total\n"
    )
    assert signature_of(broken, "Bash", 1).text == "Cannot find module <q> from <q>"


def test_jests_counts_code_frame_and_cut_notes_never_sign_a_failure() -> None:
    # the counts alone: a runner's verdict, read only when nothing else is printed
    counts = "Test Suites: 6 failed, 16 passed, 22 total\nTests: 47 failed, 479 passed, 531 total"
    assert "Test Suites" not in signature_of(f"TypeError: x is undefined\n{counts}", "Bash", 1).text
    # the message was cut out of the middle (Claude Code) or off the end (the harvester):
    # the lines left say what they can, never the note
    cut = JEST_RUN.replace(
        "    Missing required pipeline stage: aiLabelFiltering\n",
        "... [133174 characters truncated] ...\n",
    )
    assert "truncated" not in signature_of(cut, "Bash", 1).text
    assert "throw new Error" not in signature_of(cut, "Bash", 1).text
    clipped = "go: downloading golang.org/x/tools v0.21.0\n…[truncated: 70123 bytes in all]"
    assert "truncated" not in signature_of(clipped, "Bash", 1).text


def test_a_shell_message_with_a_reason_is_no_path() -> None:
    # sandboxed Codex runs (every real session on this machine, not in the repository)
    line = "zsh:1: can't create temp file for here document: operation not permitted"
    assert normalize(line) == (
        "sh: can't create temp file for here document: operation not permitted"
    )


def test_npms_bare_prefix_line_never_signs_a_failure() -> None:
    # wild sample 41's owner (not in the repository): npm 10 prints "npm error" alone
    # between its paragraphs; every line's prefix had made each of them sound like an
    # error, and the bare one signed 46 failures
    missing = (
        "npm error Lifecycle script `lint` failed with error:\n"
        "npm error workspace @gmail-automation/email-processor@1.0.0\n"
        "npm error location /workspaces/gmail-automation/packages/email-processor\n"
        'npm error Missing script: "lint"\nnpm error\nnpm error Did you mean this?\n'
        "npm error   npm link # Symlink a package folder\nnpm error\n"
        "npm error To see a list of scripts, run:\n"
        "npm error   npm run --workspace=@gmail-automation/email-processor@1.0.0"
    )
    assert signature_of(missing, "Bash", 1).text == "npm error Missing script: <q>"


def test_a_bullet_outside_a_jest_run_is_no_test_header() -> None:
    # `systemctl status` heads its unit with "●": the line that says what failed signs it
    status = (
        "● api.service - API server\n"
        "     Loaded: loaded (/etc/systemd/system/api.service; enabled)\n"
        "     Active: failed (Result: exit-code) since Tue 2026-12-01 10:00:00 UTC\n"
        "    Process: 812 ExecStart=/usr/bin/api (code=exited, status=1/FAILURE)"
    )
    assert "Loaded" not in signature_of(status, "Bash", 3).text


def test_a_run_seen_only_through_its_counts_is_one_pattern_whatever_else_it_counted() -> None:
    # wild sample 41's owner (not in the repository): `npm test 2>&1 | tail -5` showed
    # only Jest's counts; which other kinds the run had split it into three patterns
    runs = [
        "Test Suites: 4 failed, 25 passed, 29 total\nTests:       20 failed, 619 passed, 639 total",
        "Tests:       4 failed, 4 total",
        "Tests:       42 failed, 5 skipped, 472 passed, 519 total\nSnapshots:   0 total",
    ]
    assert {signature_of(run, "Bash", 1).text for run in runs} == {"Tests: <n> failed"}
    assert normalize("=== 2 failed, 40 passed in 1.23s ===") == normalize(
        "=== 2 failed in 0.5s ==="
    )


def test_eslints_crash_banner_never_signs_the_crash() -> None:
    # a whole history of one person (not in the repository) had 42 ESLint crashes of
    # several causes behind the one banner "Oops! Something went wrong! :("
    def crash(message: str) -> str:
        return f"Oops! Something went wrong! :(\n\nESLint: 9.34.0\n\n{message}"

    no_files = crash(
        'No files matching the pattern "src/cli/fetch-emails.ts" were found.\n'
        "Please check for typing mistakes in the pattern."
    )
    no_config = crash("ESLint couldn't find an eslint.config.(js|mjs|cjs) file.")
    signed = {signature_of(text, "Bash", 2).text for text in (no_files, no_config)}
    assert len(signed) == 2
    assert not any("Oops" in text or "ESLint: <n>" in text for text in signed)
    assert signature_of(no_files, "Bash", 2).text.startswith("No files matching the pattern")


def test_a_test_run_that_found_no_test_is_signed_by_that_not_by_npms_wrapper() -> None:
    # npm prints its own error block first; Jest's reason comes after it
    text = (
        "npm error Lifecycle script `test` failed with error:\n"
        "npm error code 1\n"
        "npm error path /work/app/packages/engine\n"
        "npm error command failed\n"
        "npm error command sh -c jest --testPathPattern=fetcher.test.ts\n\n\n"
        "> engine@1.0.0 test\n> jest --testPathPattern=fetcher.test.ts\n\n"
        "No tests found, exiting with code 1\n"
        "Run with `--passWithNoTests` to exit with code 0\n"
        "In /work/app/packages/engine\n  67 files checked."
    )
    assert signature_of(text, "Bash", 1).text == "No tests found, exiting with code <n>"
    assert (
        "No test files found"
        in signature_of(
            "\n RUN  v1.6.0 /app\n\nNo test files found, exiting with code 1\n", "Bash", 1
        ).text
    )


def test_pytests_session_header_never_signs_a_run() -> None:
    # every pytest run prints it; a plugin adds lines of its own settings to it
    header = (
        "============================= test session starts ==============================\n"
        "platform darwin -- Python 3.12.7, pytest-8.4.0, pluggy-1.6.0 -- /app/.venv/bin/python\n"
        "cachedir: .pytest_cache\nrootdir: /app\nconfigfile: pyproject.toml\n"
        "plugins: xdist-3.7.0, anyio-4.9.0, asyncio-1.0.0\n"
        "asyncio: mode=Mode.AUTO, asyncio_default_fixture_loop_scope=function\n"
    )
    nothing_selected = header + (
        "collecting ... collected 205 items / 205 deselected / 0 selected\n\n"
        "=========================== 205 deselected in 0.58s ============================"
    )
    signed = signature_of(nothing_selected, "Bash", 5).text
    assert "session starts" not in signed and "asyncio" not in signed
    assert "deselected" in signed
    # an output cut inside the header has nothing else to sign it
    assert signature_of(header, "Bash", 1).text


def test_npms_block_over_a_failed_script_gives_way_to_the_scripts_own_lines() -> None:
    # one person's whole history (not in the repository): `npm test 2>&1 | tail -15`
    # showed Jest's counts above npm's block, and 74 runs were signed by npm's lines
    block = (
        "npm error Lifecycle script `test` failed with error:\n"
        "npm error code 1\n"
        "npm error path /work/app/packages/engine\n"
        "npm error workspace @app/engine@1.0.0\n"
        "npm error location /work/app/packages/engine\n"
        "npm error command failed\n"
        "npm error command sh -c jest --testPathPattern=rules"
    )
    counts = (
        "Test Suites: 4 failed, 27 passed, 31 total\nTests:       9 failed, 412 passed, 421 total"
    )
    tailed = f"{counts}\nSnapshots:   0 total\nTime:        17.7 s\nRan all test suites.\n{block}"
    assert signature_of(tailed, "Bash", 1).text == signature_of(counts, "Bash", 1).text
    # with nothing else that sounds like an error, npm's block still names what ran
    cut = f"Snapshots:   0 total\nTime:        17.7 s\nRan all test suites.\n{block}"
    assert signature_of(cut, "Bash", 1).text.startswith("npm error")
    # and an error code in it still names the error
    assert (
        signature_of(
            "npm error code ERESOLVE\nnpm error ERESOLVE could not resolve", "Bash", 1
        ).error_class
        == "ERESOLVE"
    )


def test_a_tool_time_limit_opening_the_output_signs_it_whatever_was_printed_before() -> None:
    """MythologIQ/Zo-Qore 019c2593 (set 14): a PowerShell listing stopped at Codex's time
    limit; a file in the listing, TYPESCRIPT_ERRORS_REPORT.md, had signed it."""
    listing = (
        "Exit code: 124\nWall time: 10.1 seconds\nTotal output lines: 473\nOutput:\n"
        "command timed out after 10128 milliseconds\n\n\n"
        "    Directory: G:\\MythologIQ\\Hearthlink\n\n"
        "Mode                 LastWriteTime         Length Name\n"
        "-a----        11/29/2025   7:30 PM           4449 TYPESCRIPT_ERRORS_REPORT.md\n"
    )
    plain = "Exit code: 124\nOutput:\ncommand timed out after 13579 milliseconds\nTo github.com\n"
    signed = signature_of(listing, "shell_command", 124)
    assert signed.text == "command timed out after <n>"
    assert signed == signature_of(plain, "shell_command", 124)
    # a failure printed before the note is still what signs it when the note comes later
    late = "error: tests failed\ncommand timed out after 100 milliseconds"
    assert signature_of(late, "shell_command", 1).text != "command timed out after <n>"


def test_a_failed_check_signs_a_health_report_not_its_advice() -> None:
    """Smartagent-so/Personal_AI_Infrastructure 351b5d6c (set 14): PAI's health check
    marks the failed check with ❌ and closes with where to report failures."""
    report = (
        "Exit code 1\n\n🏥 PAI Health Check\n\n"
        "✅ Hooks Directory: Found: /Users/pretor/Projects/PAI/.claude/hooks\n"
        "❌ History Directory: Missing: /Users/pretor/Projects/PAI/.claude/history\n"
        "✅ Voice Server: Voice server responding\n\n"
        "📊 Results: 12 passed, 1 failed, 0 warnings\n\n"
        "🔧 PAI has issues. Check failed tests above.\n\n"
        "📖 See PAI_CONTRACT.md for what should work out of box.\n\n"
        "🐛 Report core guarantee failures at:\n"
        "   https://github.com/danielmiessler/Personal_AI_Infrastructure/issues\n"
    )
    assert signature_of(report, "Bash", 1).text == "❌ History Directory: Missing: <path>"


def test_pytest_that_ran_nothing_is_signed_by_why_or_by_its_closing_line() -> None:
    """handgemacht-ai/claude-code-log 37f83ec9 (pytest with every test deselected, exit 5):
    the closing line says it ran nothing; a wrong path printed above it says why, and signs
    it."""
    deselected = (
        "asyncio: mode=Mode.AUTO, asyncio_default_fixture_loop_scope=function\n"
        "collected 205 items / 205 deselected / 0 selected\n"
        "================= no tests collected (205 deselected) in 0.39s =================\n"
    )
    assert signature_of(deselected, "Bash", 5).text == "no tests collected (<n> deselected) in <n>"
    wrong_path = (
        "ERROR: file or directory not found: tests/test_missing.py\n\n"
        "============================ no tests ran in 0.01s =============================\n"
    )
    assert signature_of(wrong_path, "Bash", 4).text == "ERROR: file or directory not found: <path>"


def test_an_api_error_object_is_signed_by_its_message() -> None:
    """admarble/sequant 31_2247b8093c and Monotoba/OpenPrintKit (set 11): GitHub's API
    through `gh api` and curl, exit 0 behind a pipe; the JSON object's strings all read
    `<q>` once normalised, so different refusals had one signature."""
    missing = (
        '{"message":"Not Found","documentation_url":"https://docs.github.com/rest/issues/'
        'comments#list-issue-comments","status":"404"}'
    )
    forbidden = (
        '{\n  "message": "Must have admin rights to Repository.",\n  "documentation_url": '
        '"https://docs.github.com/rest/actions",\n  "status": "403"\n}'
    )
    assert signature_of(missing, "Bash").text == "Not Found (status <n>)"
    assert signature_of(forbidden, "shell").text == (
        "Must have admin rights to Repository. (status <n>)"
    )
    nested = '{"error": {"message": "Invalid API key", "code": 401}}'
    assert signature_of(nested, "Bash", 1).text == "Invalid API key (status <n>)"
    # JSON with no message is read as before
    assert "<q>" in signature_of('{"ok": true, "items": [1, 2]}', "Bash", 1).text


def test_codex_code_modes_header_is_a_wrapper() -> None:
    """chikachow/cyspbot 4d_22222ed5984d (set 2, Codex code mode): the script's header, not
    pnpm's refusal, had signed the failure."""
    output = (
        "Script completed\nWall time 0.2 seconds\n"
        " ERR_PNPM_UNSUPPORTED_ENGINE  Unsupported environment (bad pnpm and/or Node.js version)\n"
        'Your Node version is incompatible with "/Users/cysp/src/cyspbot".\n'
    )
    assert signature_of(output, "exec", 1).text.startswith("ERR_PNPM_UNSUPPORTED_ENGINE")


def test_a_check_that_passed_never_signs_a_failure() -> None:
    """Set 9 (repiq): pre-commit's passed hooks around its own bug report, exit 1."""
    output = (
        "Exit code 1\n"
        "gitleaks.................................................................Passed\n"
        "bug: pre-commit's script is installed in migration mode\n"
        "run `pre-commit install -f --hook-type commit-msg` to fix this\n\n"
        "Please report this bug at https://github.com/pre-commit/pre-commit/issues\n"
        "commitizen check.........................................................Passed\n"
    )
    assert signature_of(output, "Bash", 1).text == (
        "bug: pre-commit's script is installed in migration mode"
    )


def test_an_empty_commit_is_signed_by_gits_refusal_not_by_the_status_above_it() -> None:
    """procrypto/Personal_AI_Infrastructure (set 13): `git commit` with nothing staged
    prints the whole status, then its refusal, and exits 1."""
    output = (
        "Exit code 1\nOn branch consolidation\nChanges not staged for commit:\n"
        '  (use "git add <file>..." to update what will be committed)\n'
        "\tmodified:   .gitignore\n\n"
        'no changes added to commit (use "git add" and/or "git commit -a")\n'
    )
    other_branch = output.replace("consolidation", "main")
    assert signature_of(output, "Bash", 1).text.startswith("no changes added to commit")
    assert signature_of(output, "Bash", 1) == signature_of(other_branch, "Bash", 1)
    clean = "Exit code 1\nOn branch main\nnothing to commit, working tree clean\n"
    assert signature_of(clean, "Bash", 1).text == "nothing to commit, working tree clean"


def test_a_refusal_to_write_an_unread_file_is_one_pattern_whichever_tool_wrote() -> None:
    """On the labelled sessions Claude Code refused Edit 18 times and Write 8 times with the
    same words; reading is no writing, so Read's refusal in those words stays apart."""
    refused = (
        "<tool_use_error>File has not been read yet. Read it first before writing to it."
        "</tool_use_error>"
    )
    keys = {signature_of(refused, tool, None).digest for tool in ("Edit", "Write", "MultiEdit")}
    assert len(keys) == 1
    assert signature_of(refused, "Read", None).digest not in keys
    assert signature_of(refused, "NotebookEdit", None).digest in keys


def test_a_failure_a_codex_poll_shows_is_the_commands_own() -> None:
    """Codex reads a long command's end with `write_stdin` polls: the same failure is one
    pattern whether the command ended at once or on a later poll."""
    failed = (
        "Process exited with code 2\nOutput:\nrg: src/missing: No such file or directory "
        "(os error 2)"
    )
    at_once = signature_of(failed, "exec_command", 2)
    assert signature_of(failed, "write_stdin", 2).digest == at_once.digest


def test_a_later_codexs_sandbox_message_is_taken_off_what_the_command_printed() -> None:
    from tests.harvesters.test_codex_harvester import (
        SANDBOX_DENIED_MESSAGE,
        SANDBOX_IN_A_MESSAGE,
    )

    assert signature_of(SANDBOX_IN_A_MESSAGE, "exec_command", 128).text == (
        "fatal: Unable to create <q>: Operation not permitted"
    )
    # the same failure in another repository is the same pattern
    other = SANDBOX_IN_A_MESSAGE.replace("soph/Work/git-sync", "ana/src/app")
    assert signature_of(other, "exec_command", 128).text == (
        signature_of(SANDBOX_IN_A_MESSAGE, "exec_command", 128).text
    )
    assert "SandboxDenied" not in signature_of(SANDBOX_DENIED_MESSAGE, "exec_command", 1).text


#: entireio/git-sync's Codex history (outside the repository): a go test the sandbox kept
#: from listening, its output as the message's escaped string (cut here to its frames).
SANDBOX_DENIED_GO_TEST = (
    "exec_command failed for `/bin/zsh -lc 'go test ./internal/syncer -run TestRun_Sync -v'`: "
    'SandboxDenied { message: "=== RUN   TestRun_Sync\\n--- FAIL: TestRun_Sync (0.12s)\\n'
    "panic: httptest: failed to listen on a port: listen tcp6 [::1]:0: bind: operation not "
    "permitted [recovered, repanicked]\\n\\ngoroutine 8 [running]:\\ntesting.tRunner("
    "0x14000003a40, 0x105215390)\\n\\t/Users/soph/go/src/testing/testing.go:1934 +0xc8\\n"
    'FAIL\\tgithub.com/soph/git-sync/internal/syncer\\t0.330s\\nFAIL\\n", '
    "truncated_after_lines: None }, duration: 0ns, timed_out: false } }\n"
)


def test_a_sandbox_messages_escapes_are_read_as_the_characters_they_stand_for() -> None:
    """`\\t` in the message is a tab: read as the letter, go test's "FAIL\\t<package>\\t0.33s"
    had become one path-like word, which normalized to "<path>" alone and signed the run."""
    sig = signature_of(SANDBOX_DENIED_GO_TEST, "exec_command", 1)
    assert sig.text.startswith("panic: httptest: failed to listen on a port")
    # a character named by its code is that character; a NUL or half a surrogate pair,
    # which no store's text may hold, is left out
    named = SANDBOX_DENIED_GO_TEST.replace("operation not", "operation\\u{a0}\\u{0}\\u{d800}not")
    text = signature_of(named, "exec_command", 1).text
    assert "operation not permitted" in text  # the no-break space read as a space
    assert "\x00" not in text and "\ud800" not in text


def test_a_bare_path_never_signs_where_a_line_says_something() -> None:
    """melagiri/code-insights' history (outside the repository): `pwd && ls package.json
    */package.json` printed the folder, then zsh's complaint; the folder, all path, had
    signed the failure as "<path>". A line that is all value once normalized signs only
    where nothing else is printed."""
    text = "/Users/melagiri/Workspace/code-insights/cli\n(eval):1: no matches found: */package.json"
    assert signature_of(text, "Bash", 1).text.startswith("sh: no matches found")
    assert signature_of("/Users/me/app/cli", "Bash", 1).text == "<path>"
    # an error line that is a bare path gives way to one that says something
    logged = "build failed: see log\n/var/log/app/error.log"
    assert signature_of(logged, "Bash", 1).text == "build failed: see log"
    # a quoted message is a value too (JanDeDobbeleer/oh-my-posh's history: an MCP server's
    # refusal had been signed "<q>: <q>" by its JSON's last line)
    refused = (
        "MCP error -32602: Input validation error: Invalid arguments for tool get_session: [\n"
        '  {\n    "code": "invalid_type",\n'
        '    "message": "Invalid input: expected string, received undefined"\n  }\n]'
    )
    assert signature_of(refused, "mcp__ccd__get_session").text.startswith("MCP error -<n>")


def test_an_old_codexs_sandbox_note_is_taken_off_what_the_command_printed() -> None:
    # real lines of the labelled Codex sessions (JaydenXsoe/ocodex, Monotoba/OpenPrintKit,
    # SproutSeeds/coda; Codex 0.2x): the sandbox's name and the note's words had made one
    # pattern of each failure per sandbox
    denied = (
        "failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, "
        "exit code: 2, stdout: , stderr: bash: -c: line 1: unexpected EOF while looking for "
        "matching `\"'"
    )
    linux = denied.replace("MacosSeatbelt", "LinuxSeccomp")
    assert (
        signature_of(denied, "shell").text
        == signature_of(linux, "shell").text
        == ("sh: unexpected EOF while looking for matching `\"'")
    )
    # the tests it ran failed: pytest's own lines sign it, as without the note
    tests = (
        "failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit "
        "code: 1, stdout: .F [100%]\n=== FAILURES ===\n___ test_cli ___\n"
        "E       AssertionError: assert 1 == 0\n=== 1 failed, 1 passed in 0.12s ===, stderr: "
    )
    assert (
        signature_of(tests, "shell").text
        == signature_of(tests.split("stdout: ", 1)[1].rsplit(", stderr: ", 1)[0], "shell").text
    )
    rust = (
        "failed in sandbox MacosSeatbelt with execution error: Denied { output: "
        'ExecToolCallOutput { exit_code: 128, stdout: StreamOutput { text: "", '
        'truncated_after_lines: None }, stderr: StreamOutput { text: "fatal: cannot lock ref '
        "'refs/heads/001-build': Unable to create '/Users/c/coda/.git/refs/heads/001-build.lock'"
        ': Operation not permitted\\n", truncated_after_lines: None }, aggregated_output: '
        'StreamOutput { text: "", truncated_after_lines: None }, duration: 276.007292ms, '
        "timed_out: false } }"
    )
    assert signature_of(rust, "shell").text.startswith("fatal: cannot lock ref <q>")
    # the note's own reason: a time limit is the one time-limit failure
    timed_out = "failed in sandbox None with execution error: command timed out"
    noted = signature_of("command timed out after 10031 milliseconds", "shell")
    assert signature_of(timed_out, "shell").digest == noted.digest
    killed = "failed in sandbox: sandbox error: command was killed by a signal"
    assert signature_of(killed, "shell").text == "command was killed by a signal"
    # the same words anywhere but at the head are no note
    quoted = "echo: failed in sandbox None with execution error: command timed out"
    assert signature_of(quoted, "shell").text != noted.text


def test_a_patch_that_listed_the_lines_it_looked_for_is_one_failure() -> None:
    # the labelled Codex sessions of JaydenXsoe/ocodex (Codex 0.2x listed the lines, one
    # list a patch) beside the later wording: one pattern, not one per list
    later = signature_of(
        "apply_patch verification failed: Failed to find expected lines in /w/gen.py:\n# A",
        "apply_patch",
    )
    for listed in (
        'error: Failed to find expected lines ["    # Optional analysis"] in /w/gen.py',
        'error: Failed to find expected lines [" ", ""] in /w/README.md',
        'error: Failed to find expected lines ["a", "b \\"c\\""] in /w/x.py',
        # a list longer than what is read of the output, its path cut off, and source in it
        # that names an error class
        'error: Failed to find expected lines ["import ollama", "", "    except Exception:", '
        '"        raise SystemExit(1)", "        return e',
    ):
        assert signature_of(listed, "apply_patch").digest == later.digest, listed


# --- compilers, test runners and prompts seen on histories not in the repository ------


def test_a_compilers_note_never_signs_the_error_it_explains() -> None:
    """Durban-Designer/vsla (MIT, a C library's build, not in the repository): gcc's note
    under a redefinition names a type, `vsla_error_t`, that holds "error"; as the last line
    that sounded like one it had signed nine failures. rustc's `= note:` and mypy's
    `note:` are read the same way."""
    gcc = (
        "/home/kenth56/vsla/src/vsla_unified.c:661:14: error: redefinition of ‘vsla_scale’\n"
        "  661 | vsla_error_t vsla_scale(vsla_context_t* ctx, vsla_tensor_t* out,\n"
        "      |              ^~~~~~~~~~\n"
        "/home/kenth56/vsla/src/vsla_unified.c:459:14: note: previous definition of "
        "‘vsla_scale’ with type ‘vsla_error_t(vsla_context_t *, vsla_tensor_t *)’\n"
        "make[2]: *** [CMakeFiles/vsla_static.dir/build.make:90: x.c.o] Error 1\n"
        "make[2]: *** Waiting for unfinished jobs....\n"
    )
    assert signature_of(gcc, "Bash", 2).text == "<path>: error: redefinition of <q>"
    rustc = (
        "error: The default runtime flavor is `multi_thread`, but the `rt-multi-thread` "
        "feature is disabled.\n"
        " --> src/main.rs:3:1\n"
        "  |\n"
        "3 | #[tokio::main]\n"
        "  | ^^^^^^^^^^^^^^\n"
        "  |\n"
        "  = note: this error originates in the attribute macro `tokio::main`\n"
    )
    assert signature_of(rustc, "Bash", 101).text.startswith(
        "error: The default runtime flavor is <q>"
    )
    mypy = "app.py:3: error: Incompatible types\napp.py:3: note: Revealed type is 'Error'\n"
    assert signature_of(mypy, "Bash", 1).text == "<path>: error: Incompatible types"
    # a note alone is still read: nothing else says anything
    assert "note" in signature_of("x.c:1:2: note: only this\n", "Bash", 1).text


def test_a_diagnostics_indented_lines_never_sign_it() -> None:
    """randlee/claude-history (MIT, not in the repository): go vet's arguments wanted,
    `want (string, func(line json.RawMessage) error)`, had signed a failed `go test`; the
    diagnostic above says what went wrong, where go test's `FAIL … [build failed]` under it
    only says that something did."""
    output = (
        "Exit code 1\n"
        "# github.com/randlee/claude-history/cmd [github.com/randlee/claude-history/cmd.test]\n"
        "cmd/debug_test.go:41:30: too many arguments in call to jsonl.NewScanner\n"
        "\thave (string)\n"
        "\twant ()\n"
        "cmd/debug_test.go:42:18: not enough arguments in call to scanner.Scan\n"
        "\thave ()\n"
        "\twant (string, func(line json.RawMessage) error)\n"
        "\n"
        "FAIL\tgithub.com/randlee/claude-history/cmd [build failed]\n"
        "FAIL\n"
    )
    assert signature_of(output, "Bash", 1).text == (
        "<path>: too many arguments in call to jsonl.NewScanner"
    )
    # an indented line under any other line is read as before
    assert "error" in signature_of("Build step:\n\tfatal error: out of memory\n", "Bash", 1).text


def test_go_tests_verbose_lines_never_sign_a_run() -> None:
    """randlee/claude-history: `go test -v` names each test as it starts (`=== RUN`) and
    as it passes (`--- PASS:`); test names that hold "error"
    (`returns_error_for_non-existent_agent`) had signed the run by a test that passed."""
    passed = (
        "=== RUN   TestQueryAgentFileNotFound\n"
        "=== RUN   TestQueryAgentFileNotFound/returns_error_for_non-existent_agent\n"
        "--- PASS: TestQueryAgentFileNotFound (0.00s)\n"
        "    --- PASS: TestQueryAgentFileNotFound/returns_error_for_non-existent_agent (0.00s)\n"
        "=== PAUSE TestExport_WindowsPaths/error_on_drive\n"
        "--- SKIP: TestExport_WindowsPaths/error_on_drive (0.00s)\n"
    )
    failed = "--- FAIL: TestRenderFullPage (0.01s)\n"
    verdict = "FAIL\nFAIL\tgithub.com/randlee/claude-history/cmd\t3.451s\nFAIL\n"
    assert signature_of(passed + failed + verdict, "Bash", 1).text == (
        "FAIL: TestRenderFullPage (<n>)"
    )
    # with the failed test cut away, the verdict on the package is all that says anything
    assert signature_of(passed + verdict, "Bash", 1).text == (
        "FAIL github.com/randlee/claude-history/cmd <n>"
    )


def test_makes_own_refusal_is_a_failure_and_its_verdict_is_not() -> None:
    """Durban-Designer/vsla: `cmake .. && make` in a folder with no Makefile; make's "***
    No targets specified … Stop." is the failure, where its `*** [target] Error 1` only
    says a recipe failed. CMake's note of an optional tool it did not find had signed it."""
    output = (
        "make: *** No targets specified and no makefile found.  Stop.\n"
        "\n"
        "-- Could NOT find Doxygen (missing: DOXYGEN_EXECUTABLE) \n"
        "-- Configuring done (0.0s)\n"
        "-- Generating done (0.0s)\n"
        "-- Build files have been written to: /home/kenth56/vsla/build\n"
    )
    assert signature_of(output, "Bash", 2).text == (
        "make: *** No targets specified and no makefile found."
    )
    verdict_only = "make: *** [Makefile:12: lint] Error 1\n"
    assert signature_of(verdict_only, "Bash", 2).text == "make: *** [Makefile: lint] Error <n>"


def test_a_question_left_unanswered_signs_the_failure() -> None:
    """A script that asks a question with no terminal to answer it exits at the question;
    the line it printed before the question had signed the failure. Seen on a history whose
    licence allows no copying, so these lines are made up in its shape."""
    output = "Exit code 1\nDraft saved.\nPublish the draft now? [y/N]"
    assert signature_of(output, "Bash", 1).text == "Publish the draft now? [y/N]"
    assert signature_of("Proceed with the upgrade (yes/no)?\n", "Bash", 1).text == (
        "Proceed with the upgrade (yes/no)?"
    )
    # an error line above the question is still what went wrong
    erring = "error: remote rejected\nRetry? [Y/n]\n"
    assert signature_of(erring, "Bash", 1).text == "error: remote rejected"


def test_an_api_error_object_under_its_clients_lines_is_read_by_its_message() -> None:
    """Durban-Designer/vsla: `gh api user/emails` printed gh's own two lines over GitHub's
    error object; the object, its strings all `<q>`, had signed it."""
    output = (
        "gh: Not Found (HTTP 404)\n"
        'gh: This API operation needs the "user" scope. To request it, run:  gh auth '
        "refresh -h github.com -s user\n\n"
        '{"message":"Not Found","documentation_url":"https://docs.github.com/rest/users/'
        'emails#list-email-addresses-for-the-authenticated-user","status":"404"}'
    )
    assert signature_of(output, "Bash", 1).text == "Not Found (status <n>)"


def test_a_powershell_error_record_is_signed_by_its_exception_and_message() -> None:
    """M-Thisness/M-Claude (MIT; its whole history, not in the repository, run as a new
    user would): Windows PowerShell's record ends in `+ CategoryInfo` and `+
    FullyQualifiedErrorId` lines that name the cmdlet and its target, and wrap at the
    console's width, so each missing cmdlet had been a pattern of its own, signed by a
    field ("+ CategoryInfo : ObjectNotFound: (Get-WebAuthnSetting:String) [], …") or by
    the wrapped end of one ("em], ItemNotFoundException")."""

    def missing(cmdlet: str) -> str:
        return (
            f"Exit code 1\n{cmdlet} : The term '{cmdlet}' is not recognized as the name of a "
            "cmdlet, function, script file, \r\nor operable program. Check the spelling of the "
            "name, or if a path was included, verify that the path is correct and \r\ntry "
            f"again.\r\nAt line:1 char:1\r\n+ {cmdlet} 2>&1\r\n+ ~~~~~~~~~~~~~~~~~~~\r\n"
            f"    + CategoryInfo          : ObjectNotFound: ({cmdlet}:String) [], "
            "CommandNotFoundException\r\n    + FullyQualifiedErrorId : CommandNotFoundException"
        )

    one = signature_of(missing("Get-WebAuthnSetting"), "Bash", 1)
    assert one.error_class == "CommandNotFoundException"
    assert one.text == (
        "CommandNotFoundException: The term <q> is not recognized as the name of a cmdlet, "
        "function, script file, or operable program."
    )
    assert signature_of(missing("Get-NetFirewallProfile"), "Bash", 1) == one
    # a parse error: its message stands under the excerpt
    parse = (
        "Exit code 1\nAt line:1 char:101\r\n+ ... d,ProcessName,@{Name='User';Expression="
        "{try{extglob.GetOwner().User}c ...\r\n+                              ~\r\nAn expression "
        "was expected after '('.\r\n    + CategoryInfo          : ParserError: (:) [], "
        "ParentContainsErrorRecordException\r\n    + FullyQualifiedErrorId : ExpectedExpression"
    )
    assert signature_of(parse, "Bash", 1).text == (
        "ParentContainsErrorRecordException: An expression was expected after <q>."
    )
    # a field wrapped inside a word (Python-AI-Solutions/agentic-neurodata-conversion, in
    # the fixtures); the command's own lines above the message are no part of it
    wrapped = (
        "Downloading…\nInvoke-WebRequest : 404: Not Found\nAt line:1 char:2\n+ (Invoke-"
        "WebRequest -UseBasicParsing https://raw.githubusercontent.com ...\n+  ~~~~~~~~~~\n"
        "    + CategoryInfo          : InvalidOperation: (System.Net.HttpWebRequest:"
        "HttpWebRequest) [Invoke-WebRequest], WebExc \n   eption\n    + FullyQualifiedErrorId"
        " : WebCmdletWebResponseException,Microsoft.PowerShell.Commands.InvokeWebRequestCommand"
    )
    assert signature_of(wrapped, "shell", 1).text == "WebException: <n>: Not Found"
    # a script's `throw`: the line right above `At`, not what the script printed before it
    thrown = (
        "#12 added to project 3\nUnknown status 'Backlog'. Valid values: Done, Todo\nAt "
        "C:\\tools\\set-status.ps1:14 char:5\n+     throw \"Unknown status '$StatusName'\"\n"
        "+     ~~~~~\n    + CategoryInfo          : OperationStopped: (Unknown status ...:"
        "String) [], RuntimeException\n    + FullyQualifiedErrorId : Unknown status 'Backlog'"
    )
    assert signature_of(thrown, "Bash", 1).text == "RuntimeException: Unknown status <q>."
    # lines shaped like a record's with no CategoryInfo under them are read as before
    plain = "Exit code 1\nAt line:1 char:1\n+ fails\nerror: something broke\n"
    assert signature_of(plain, "Bash", 1).text == "error: something broke"


def test_a_long_number_is_a_number_not_a_hash() -> None:
    """isaacmorgado/claude-sovereign (MIT, its whole history not in the repository): Claude
    Code's refusal to read a large file named its size in tokens; a count of six digits had
    read as `<hex>` and one of five as `<n>`, one failure as two patterns."""
    big = "File content (101217 tokens) exceeds maximum allowed tokens (25000)."
    small = "File content (25266 tokens) exceeds maximum allowed tokens (25000)."
    assert signature_of(big, "Read") == signature_of(small, "Read")
    assert "<hex>" not in signature_of(big, "Read").text
    # a hash is still one, with or without letters in reach of the digits
    assert signature_of("fatal: bad object 3f9a2c1d8e", "Bash", 128).text == (
        "fatal: bad object <hex>"
    )


def test_an_api_error_object_after_the_clients_words_is_read_by_its_message() -> None:
    """The same history: an MCP client's failure ends in the server's error object; its
    strings, all `<q>` once normalised, had made every such failure one pattern."""
    gateway = (
        'Streamable HTTP error: Error POSTing to endpoint: {"error": {"code": "504", '
        '"message": "An error occurred with your deployment"}}'
    )
    ended = (
        'Streamable HTTP error: Error POSTing to endpoint: {"jsonrpc":"2.0","error":'
        '{"code":-32600,"message":"MCP session has been terminated"},"id":null}'
    )
    tool = "mcp__grep__searchGitHub"
    assert signature_of(gateway, tool).text == (
        "Streamable HTTP error: Error POSTing to endpoint: An error occurred with your "
        "deployment (status <n>)"
    )
    assert signature_of(ended, tool).text == (
        "Streamable HTTP error: Error POSTing to endpoint: MCP session has been terminated "
        "(status -<n>)"
    )
    # braces that are no JSON object are read as before
    assert "<q>" in signature_of("error: bad value {'a': 1}", "Bash", 1).text


def test_a_hooks_refusal_is_signed_by_its_message_not_its_advice() -> None:
    """A history outside the repository (melagiri/code-insights, MIT): Claude Code's
    security-reminder hook refused writes with a warning and then its advice, whose
    "- Provides proper error handling" had signed every refusal alike."""
    refusal = (
        "PreToolUse:Write hook error: [python3 ${CLAUDE_PLUGIN_ROOT}/hooks/security_reminder"
        "_hook.py]: ⚠️ Security Warning: Using child_process.exec() can lead to command "
        "injection vulnerabilities.\n\nThis codebase provides a safer alternative: "
        "src/utils/execFileNoThrow.ts\n\nInstead of:\n  exec(`command ${userInput}`)\n\n"
        "Use:\n  import { execFileNoThrow } from '../utils/execFileNoThrow.js'\n\n"
        "The execFileNoThrow utility:\n- Uses execFile instead of exec (prevents shell "
        "injection)\n- Handles Windows compatibility automatically\n- Provides proper error "
        "handling\n"
    )
    signed = signature_of(refusal, "Write").text
    assert signed == (
        "PreToolUse:Write hook error: ⚠️ Security Warning: Using child_process.exec() can lead "
        "to command injection vulnerabilities."
    )
    assert "PreToolUse:Write hook error" in example_of(refusal)
    # Viniciuscarvalho/FitToday f4_473875393c_5 (in the repository): the same hook header,
    # the hook's command quoted one way or another, is one failure
    for command in (
        "/Users/viniciuscarvalho/.claude/hooks/safety/block-dangerous-commands.sh",
        '"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-dangerous-commands.sh',
    ):
        blocked = (
            f"PreToolUse:Bash hook error: [{command}]: BLOCKED: Dangerous command detected "
            "matching 'curl .* | sh'. Command: gh pr create --title x"
        )
        assert signature_of(blocked, "Bash").text == (
            "PreToolUse:Bash hook error: BLOCKED: Dangerous command detected matching <q>."
        )
    # a hook header quoted further down an output is no refusal of this call
    quoted = "grep: 3 matches\nnotes.md: PreToolUse:Bash hook error: [x]: BLOCKED\nfatal: bad"
    assert not signature_of(quoted, "Bash", 1).text.startswith("PreToolUse")


def test_a_cli_error_panel_is_signed_by_the_message_inside_it() -> None:
    """Beep206/CyberVPN, a history outside the repository: typer's error panel, whose
    border is titled "Error", had signed the failure by the border."""
    output = (
        "Exit code 2\nUsage: mcp-cli [OPTIONS] COMMAND [ARGS]...\nTry 'mcp-cli --help' for "
        "help.\n╭─ Error ──────────────────────────────────────────╮\n│ No such command "
        "'info'.                          │\n╰──────────────────────────────────────────────────"
        "╯\n"
    )
    assert signature_of(output, "Bash", 2).text == "No such command <q>."
    # a panel with another title, or a border with nothing inside, is read line by line
    other = "╭─ Options ─────╮\n│ --help  Show this message │\n╰───────╯\nerror: bad flag"
    assert signature_of(other, "Bash", 2).text == "error: bad flag"


def test_npms_registry_error_is_signed_by_its_first_line_not_its_json() -> None:
    """`npm view … --json` of a version the registry lacks prints npm's block and the same
    error as JSON; the JSON's `"error": {` line had signed it (as `<q>: {`, one pattern for
    any such object), and without it npm's last elaboration would ("npm error 404 tarball,
    folder, …"). Seen in a history outside the repository whose author asked that his
    sessions stay private: the lines below are npm's own wording, for another package."""
    output = (
        "Process exited with code 1\nOutput:\nnpm error code E404\nnpm error 404 No match "
        "found for version 9.9.9\nnpm error 404\nnpm error 404  'left-pad@9.9.9' is not in "
        "this registry.\nnpm error 404\nnpm error 404 Note that you can also install from "
        'a\nnpm error 404 tarball, folder, http url, or git url.\n{\n  "error": {\n    '
        '"code": "E404",\n    "summary": "No match found for version 9.9.9",\n    '
        '"detail": "\'left-pad@9.9.9\' is not in this registry."\n  }\n}\nnpm error A '
        "complete log of this run can be found in: /home/u/.npm/_logs/2026-06-18-debug-0.log\n"
    )
    assert signature_of(output, "exec_command", 1).text == "npm error code E404"
    # npm's block whose own words name the error still signs by them
    resolve = (
        "npm error code ERESOLVE\nnpm error ERESOLVE unable to resolve dependency tree\n"
        "npm error Found: react@18.2.0"
    )
    assert "unable to resolve dependency tree" in signature_of(resolve, "Bash", 1).text
    # a key opening an object is no line of its own, whatever the key
    assert signature_of('{"a": 1}\n"errors": [\nfatal: bad object HEAD', "Bash", 1).text == (
        "fatal: bad object HEAD"
    )


def test_a_line_quoted_from_the_source_over_a_caret_never_signs() -> None:
    """entireio/cli sessions outside the repository (MIT): golangci-lint quotes each
    finding's source line over a caret, and `func Get(name string) (Strategy, error) {`
    had signed a finding for its Go type `error`, also behind mise's task tag; SQLite
    points into the statement with `error here ---^`."""
    lint = (
        "cmd/cli/strategy/registry.go:27:1: Get returns interface "
        "(github.com/entireio/cli/cmd/cli/strategy.Strategy) (ireturn)\n"
        "func Get(name string) (Strategy, error) {\n^\n1 issues:\n* ireturn: 1\n"
    )
    assert signature_of(lint, "Bash", 1).text == (
        "<path>: Get returns interface (<path>) (ireturn)"
    )
    tagged = "".join(f"[lint:go] {line}\n" for line in lint.splitlines())
    assert signature_of(tagged, "Bash", 1).text == (
        "<path>: Get returns interface (<path>) (ireturn)"
    )
    sqlite = (
        "Error: in prepare, no such column: title\n  as dur_min, title FROM sessions WHERE st\n"
        "                  error here ---^\n"
    )
    assert signature_of(sqlite, "Bash", 1).text == "Error: in prepare, no such column: title"
    # a line over a line of prose is no quoted source
    prose = "error: cannot open the journal\nsee the log ^ for details"
    assert signature_of(prose, "Bash", 1).text == "error: cannot open the journal"


def test_an_api_error_object_printed_over_several_lines_is_read_by_its_message() -> None:
    """entireio/cli sessions outside the repository: `gh api` printed GitHub's 404 object
    pretty, under its own line; its `"message": "Not Found",` had signed it as `<q>: <q>,`."""
    output = (
        'Exit code 1\ngh: Not Found (HTTP 404)\n\n{\n  "message": "Not Found",\n'
        '  "documentation_url": "https://docs.github.com/rest",\n  "status": "404"\n}\n'
    )
    assert signature_of(output, "Bash", 1).text == "Not Found (status <n>)"
    # an object that is no error object, under an error line, is read line by line
    listing = 'error: 2 checks failed\n{\n  "total": 2,\n  "names": ["lint", "test"]\n}\n'
    assert signature_of(listing, "Bash", 1).text == "error: <n> checks failed"


def test_a_go_panic_is_signed_by_its_panic_line_not_a_stack_frame() -> None:
    """entireio/cli sessions outside the repository (MIT): a test's panic printed its
    goroutine's stack, and a frame naming the runtime's `panic.go` had signed it."""
    output = (
        "Exit code 1\n--- FAIL: TestCondenseSession_GeminiTranscript (0.05s)\n"
        'panic: invalid checkpoint ID "gemini123456": must be 12 lowercase hex characters '
        "[recovered, repanicked]\n\ngoroutine 8 [running]:\n"
        "testing.tRunner.func1.2({0x1052f6180, 0x1400014e320})\n"
        "\t/usr/local/go/src/testing/testing.go:1872 +0x190\n"
        "panic({0x1052f6180?, 0x1400014e320?})\n\t/usr/local/go/src/runtime/panic.go:783 +0x120\n"
        "entire.io/cli/cmd/entire/cli/checkpoint/id.MustCheckpointID(...)\n"
        "\t/Users/soph/cli/checkpoint/id/id.go:45\nFAIL\tentire.io/cli/strategy\t0.412s\nFAIL\n"
    )
    assert signature_of(output, "Bash", 1).text == (
        "panic: invalid checkpoint ID <q>: must be <n> lowercase hex characters "
        "[recovered, repanicked]"
    )
    # a call shaped like a frame with no goroutine header over it is read as before
    assert signature_of("cleanup(x)\nfatal: panic(1) in cleanup", "Bash", 1).text == (
        "fatal: panic(<n>) in cleanup"
    )


def test_the_help_a_command_prints_under_its_error_never_signs() -> None:
    """A cobra CLI prints "Error: unknown flag: --short" and then its help, whose "-q,
    --quiet  Suppress non-essential output (errors only)" had signed the failure (seen in a
    history outside the repository whose author asked that his sessions stay private: the
    lines below are cobra's shape, for a made-up command)."""
    output = (
        "Process exited with code 1\nOutput:\nError: unknown flag: --short\nUsage:\n"
        "  tool db status [flags]\n\nFlags:\n  -h, --help   help for status\n\n"
        "Global Flags:\n  -q, --quiet     Suppress non-essential output (errors only)\n"
    )
    assert signature_of(output, "exec_command", 1).text == "Error: unknown flag: --short"
    # argparse prints its error after the usage: that error still signs
    argparse = "usage: tool [-h] [--verbose]\ntool: error: unrecognized arguments: --x"
    assert signature_of(argparse, "Bash", 2).text == ("tool: error: unrecognized arguments: --x")
    noted = (
        "Error: bad config\nusage: tool [-h]\n"
        "tool: error: the following arguments are required: path"
    )
    assert "arguments are required" in signature_of(noted, "Bash", 2).text


def test_a_test_that_started_or_passed_never_signs() -> None:
    """A history outside the repository (entireio/cli, MIT): `go test -v … | tail -100`
    kept the passing tests and go test's closing FAIL; a test named "…_InvalidJSON" had
    signed the failure by its PASS line."""
    output = (
        "=== RUN   TestExtractUserContent_InvalidJSON\n"
        "--- PASS: TestExtractUserContent_InvalidJSON (0.00s)\n"
        "    --- PASS: TestValidate/empty_rejected (0.00s)\nPASS\n"
        "ok  \tentire.io/cli/cmd/entire/cli/validation\t3.032s\nFAIL"
    )
    assert signature_of(output, "Bash").text == "FAIL"
    failing = "=== RUN   TestA\n--- FAIL: TestA (0.01s)\n    a_test.go:12: got 3\nFAIL"
    assert signature_of(failing, "Bash").text.startswith("FAIL: TestA")


def test_each_go_subtest_that_failed_is_a_failure_of_its_own() -> None:
    """A history outside the repository (entireio/cli): the failures of sixteen runs of
    different subtests were one pattern, "FAIL: <path> (<n>)", each subtest's name read as
    a path. A subtest's name is kept, and so is the package go test names in its verdict;
    a path after a verdict still is a path."""
    run = (
        "Exit code 1\n--- FAIL: TestUserPromptSubmit_ReinstallsDeletedHooks (0.05s)\n"
        "    --- FAIL: TestUserPromptSubmit_ReinstallsDeletedHooks/{} (0.02s)\nFAIL\n"
        "FAIL\tentire.io/cli/cmd/entire/cli\t0.528s\nFAIL"
    )
    manual = signature_of(run.format("manual-commit"), "Bash", 1)
    auto = signature_of(run.format("auto-commit"), "Bash", 1)
    assert manual.text == "FAIL: TestUserPromptSubmit_ReinstallsDeletedHooks/manual-commit (<n>)"
    assert manual.digest != auto.digest
    assert normalize("=== FAIL: ./cmd/cli TestHooks/auto-commit (0.45s)") == (
        "FAIL: ./cmd/cli TestHooks/auto-commit (<n>)"
    )
    assert normalize("FAIL: /tmp/TestData/x.go") == "FAIL: <path>"
    # a run cut by `tail` to go test's verdict on a package: the package says where
    cut = "=== RUN   TestCountLines\nFAIL\nFAIL\t{}\t2.771s\nFAIL"
    cli = signature_of(cut.format("entire.io/cli/cmd/entire/cli"), "Bash", 1)
    agent = signature_of(cut.format("github.com/entireio/cli/cmd/agent/openclaw"), "Bash", 1)
    assert cli.text == "FAIL entire.io/cli/cmd/entire/cli <n>"
    assert cli.digest != agent.digest
    assert normalize("FAIL\tgithub.com/x/y [build failed]") == "FAIL github.com/x/y [build failed]"
    assert normalize("FAIL\t/Users/me/src/y\t2s") == "FAIL <path> <n>"


def test_gos_import_cycle_signs_by_the_cycle_not_the_package() -> None:
    """A history outside the repository (entireio/cli): Go's refusal of an import cycle
    names the package, then the imports, and only the last says what went wrong, with no
    error word ("not allowed"); the package's line had signed it, as it would any
    failure Go reports under a package."""
    output = (
        "Exit code 1\npackage entire.io/cli/cmd/entire/cli/checkpoint\n"
        "\timports entire.io/cli/cmd/entire/cli/logging from committed.go\n"
        "\timports entire.io/cli/cmd/entire/cli/checkpoint from logger.go: import cycle not allowed"
    )
    assert signature_of(output, "Bash", 1).text == (
        "imports <path> from <path>: import cycle not allowed"
    )


def test_gos_note_that_it_stopped_listing_errors_never_signs() -> None:
    """A history outside the repository (entireio/cli): Go stops listing compile errors
    after ten with "<file>:146:8: too many errors", the one line holding the word "error";
    it had signed six builds that failed in different ways as one pattern (four more in
    git-sync's)."""
    output = (
        "Exit code 1\n[test] $ go test ./... -run TestResetCmd\n"
        "# entire.io/cli/cmd/entire/cli [entire.io/cli/cmd/entire/cli.test]\n"
        "cmd/entire/cli/reset_test.go:31:45: undefined: testCommitOptions\n"
        "cmd/entire/cli/reset_test.go:41:8: undefined: paths.ClearCache\n"
        "cmd/entire/cli/reset_test.go:146:8: too many errors\n[test] ERROR task failed\n\n"
        "FAIL\tentire.io/cli/cmd/entire/cli [build failed]\nFAIL"
    )
    assert signature_of(output, "Bash", 1).text == "<path>: undefined: testCommitOptions"
    worded = output.replace("undefined: paths.ClearCache", "cannot use x (variable) as y")
    assert signature_of(worded, "Bash", 1).text == "<path>: cannot use x (variable) as y"
    # cut by a tail to the note and go test's verdict (git-sync's history): the package
    cut = (
        "\twant (context.Context, *Conn, bool)\ninternal/gitproto/fetch_test.go:750:66: too "
        "many errors\nok  \tgithub.com/soph/git-sync/cmd/git-sync\t0.501s\n"
        "FAIL\tgithub.com/soph/git-sync/internal/gitproto [build failed]\nFAIL"
    )
    assert signature_of(cut, "Bash", 1).text == (
        "FAIL github.com/soph/git-sync/internal/gitproto [build failed]"
    )


def test_how_to_see_more_and_a_version_line_never_sign() -> None:
    # mise's footer under its error (held-out set 38's format, read after it was scored)
    output = (
        "mise ERROR [vfox-jdx-vfox-php] plugin not installed\n"
        "mise ERROR Version: 2026.6.13 macos-arm64 (2026-06-23)\n"
        "mise ERROR Run with --verbose or MISE_VERBOSE=1 for more information"
    )
    assert (
        signature_of(output, "Bash").text == "mise ERROR [vfox-jdx-vfox-php] plugin not installed"
    )


def test_codexs_command_header_and_gits_advice_under_fatal_never_sign() -> None:
    """Two Codex sessions outside the repository (entireio/git-sync, MIT): Codex names the
    command over its output, and git's advice under its `fatal:` line, wrapped at the
    terminal's width, had signed as "are terminated then try again." """
    header = "Command: /bin/zsh -lc 'git add README.md'\nChunk ID: 7bfce8\n"
    ignored = (
        header + "Process exited with code 1\nOutput:\n"
        "The following paths are ignored by one of your .gitignore files:\ncmd/git-sync\n"
        "hint: Use -f if you really want to add them.\n"
    )
    assert signature_of(ignored, "exec_command", 1).text == (
        "The following paths are ignored by one of your .gitignore files:"
    )
    locked = (
        header + "Process exited with code 128\nOutput:\n"
        "fatal: Unable to create '/Users/soph/x/.git/index.lock': File exists.\n\n"
        "Another git process seems to be running in this repository, e.g.\n"
        "an editor opened by 'git commit'. Please make sure all processes\n"
        "are terminated then try again. If it still fails, a git process\n"
        "may have crashed in this repository earlier:\nremove the file manually to continue.\n"
    )
    assert signature_of(locked, "exec_command", 128).text == (
        "fatal: Unable to create <q>: File exists."
    )
    # a `fatal:` line a run logged on its way is not its last word: the run's own
    # failure after it still signs
    logged = (
        "fatal: not a git repository (or any of the parent directories): .git\n"
        "ok 1 - parses\nnot ok 2 - renders\n"
        "src/render.test.js:12: AssertionError: expected 2 to equal 3\n"
    )
    assert "AssertionError" in signature_of(logged, "Bash", 1).text


def test_an_outputs_own_words_sign_where_its_form_hid_them() -> None:
    """Codex histories outside the repository (jdx/mise, entireio/git-sync, MIT): a Rust
    report's bare "Error:" over its numbered cause, golangci-lint's quoted logfmt message,
    a GraphQL API's errors beside its data, and Codex's note that it cut the output, each
    had signed as a line that said nothing ("Error:", "level=error msg=<q>", a line of
    `<q>`, "Warning: truncated output …")."""
    eyre = (
        "Process exited with code 1\nOutput:\nError: \n   0: Setting [shorthands_file] is not "
        "set\n\nLocation:\n   src/cli/settings/get.rs:42\n\nVersion:\n   2026.7.1 macos-arm64\n"
    )
    assert signature_of(eyre, "exec_command", 1).text == (
        "Error: Setting [shorthands_file] is not set"
    )
    logfmt = 'level=error msg="Running error: context loading failed: no go files to analyze"'
    assert signature_of(logfmt, "exec_command", 5).text == (
        "level=error msg=Running error: context loading failed: no go files to analyze"
    )
    graphql = (
        '{"data":{"securityAdvisory":null},"errors":[{"type":"NOT_FOUND","path":['
        '"securityAdvisory"],"message":"Could not resolve to a Security Advisory."}]}'
    )
    assert signature_of(graphql, "Bash", 1).text == "Could not resolve to a Security Advisory."
    cut = (
        "Warning: truncated output (original token count: 385983)\nTotal output lines: 8410\n"
        "src/lib.rs:138:    /// The amount of rounds\n"
        "rg: tests: No such file or directory (os error 2)"
    )
    assert signature_of(cut, "exec_command", 2).text.startswith("rg: <path>: No such file")


def test_msbuild_diagnostics_sign_by_code_and_message_across_projects_and_targets() -> None:
    # keparlak/NumWordify (held-out set 39, read after its score): one error, built for
    # several target frameworks, is one failure; an analyzer's code that happens to be hex
    # ("CA1865") is the rule's name, not a hash
    def built(target: str) -> str:
        return (
            "C:\\Users\\dev\\numwordify\\Converters\\NumberToWordsConverter.cs(269,37): error "
            "CS0103: 'ScaleWord' adı geçerli bağlamda yok [C:\\Users\\dev\\numwordify\\"
            f"NumWordify.csproj::TargetFramework={target}]\n    5 Uyarı\n    5 Hata"
        )

    net8 = signature_of(built("net8.0"), "Bash", 1).text
    assert net8 == signature_of(built("net48"), "Bash", 1).text
    assert "TargetFramework" not in net8 and "CS0103" in net8
    one = signature_of("error CA1865: Tek karakterli bir dize", "Bash", 1).text
    other = signature_of("error CA1869: Her serileştirme işlemi", "Bash", 1).text
    assert one.startswith("error CA1865:") and other.startswith("error CA1869:")
    # a hash is still a hash
    assert "<hex>" in signature_of("fatal: bad object cafe1234beef", "Bash", 128).text


def test_a_numbered_source_listing_after_a_failed_test_never_signs() -> None:
    # keparlak/NumWordify: `dotnet test …; grep -n -A14 …` printed the test's source after
    # xUnit's verdict; a line of it holds "Exception" but says nothing of the failure
    output = (
        "[xUnit.net 00:00:00.40]     NumWordify.Tests.ValidationGapTests."
        "Options_do_not_silently_drop_a_currency_code [FAIL]\n\n"
        "Başarısız! - Başarısız:     1, Başarılı:     0, Toplam:     1\n"
        "170:    public void Options_do_not_silently_drop_a_currency_code()\n"
        "171-    {\n"
        "182-        Assert.Throws<ArgumentException>(\n"
        '183-            () => 1m.ToWords(new WordifyOptions { CurrencyCode = "ZZZ" }));\n'
        "184-    }\n"
    )
    text = signature_of(output, "Bash", 1).text
    assert text.endswith("Options_do_not_silently_drop_a_currency_code [FAIL]")


def test_the_status_a_stash_pop_prints_after_a_failure_never_signs_it() -> None:
    """entireio/git-sync's history (MIT, not in the repository): `git stash push f && go
    test … | tail -20; git stash pop`. The status the pop prints closes the output; its
    "no changes added to commit" is the worktree's state, not what failed."""
    output = STASHED_RED_STEP
    signed = signature_of(output, "Bash", None).text
    assert signed == "FAIL: TestObjectsToPushTransitiveMissing (<n>)"


def test_golangci_lints_count_by_linter_signs_when_its_findings_were_cut_off() -> None:
    """entireio/git-sync's history: `go test -race ./... | tail -10 && golangci-lint run
    ./... | tail -3`. The tail kept the caret under the finding, the count and the count by
    linter; go test's line for a package without tests is no failure."""
    output = (
        "ok  \tentire.io/entire/git-sync/internal/syncer\t(cached)\n"
        "?   \tentire.io/entire/git-sync/internal/syncertest\t[no test files]\n"
        "ok  \tentire.io/entire/git-sync/unstable\t(cached)\n"
        "\t\t                           ^\n1 issues:\n* nolintlint: 1"
    )
    assert signature_of(output, "Bash", None).text == "* nolintlint: <n>"
    two = output.replace("1 issues:\n* nolintlint: 1", "2 issues:\n* tparallel: 1\n* intrange: 1")
    assert signature_of(two, "Bash", None).text == "* tparallel: <n>"
    # a bullet with no count over it is no linter's
    bullet = output.replace("1 issues:\n", "")
    assert signature_of(bullet, "Bash", None).text != "* nolintlint: <n>"


def test_go_vets_diagnostic_signs_its_failure_not_the_package_header() -> None:
    """entireio/git-sync's and JanDeDobbeleer/oh-my-posh's histories (MIT, not in the
    repository): go vet names each package that does not compile ("# pkg", "# [pkg]") and
    prints its diagnostics behind its own name; a relative Windows path is a path."""
    unix = (
        "# entire.io/entire/git-sync/internal/gitproto\n"
        "# [entire.io/entire/git-sync/internal/gitproto]\n"
        "vet: internal/gitproto/push_test.go:150:17: not enough arguments in call to PushPack\n"
        "\thave (context.Context, *Conn)\n\twant (context.Context, *Conn, bool)"
    )
    assert signature_of(unix, "Bash", None).text == (
        "vet: <path>: not enough arguments in call to PushPack"
    )
    windows = (
        "# github.com/jandedobbeleer/oh-my-posh/src/svg\n"
        "# [github.com/jandedobbeleer/oh-my-posh/src/svg]\n"
        "vet.exe: svg\\window_test.go:179:28: geo.margin undefined (type geometry has no field "
        "or method margin)"
    )
    other_file = windows.replace("svg\\window_test.go:179:28", "svg\\frame_test.go:12:3")
    signed = signature_of(windows, "Bash", None)
    assert signed.text.endswith(
        "<path>: geo.margin undefined (type geometry has no field or method margin)"
    )
    assert signature_of(other_file, "Bash", None).digest == signed.digest
    # a backslash that is no path stays as typed
    assert normalize("use \\n for a newline") == "use \\n for a newline"
