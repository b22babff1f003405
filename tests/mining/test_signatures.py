"""Error output → stable signatures."""

from __future__ import annotations

from sleepd.mining.signatures import error_class, normalize, signature_of


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
    assert signature_of("Exit code 1", "Bash", 1).text == "Exit code <n>"  # nothing else


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
