"""Whether a shell command that worked replaced one that failed.

A judge spec may tell the judge "this command failed before; do not repeat it" only when the
agent had to run a different command to do the same job: another program for the same
arguments (`npm install` → `pnpm install`), the same program without a wrapper that did not
know the command (`rtk bun run test` → `bun run test`) or under a runner (`pytest -x` →
`uv run pytest -x`), or the same words written with other flags (`powercfg /change …` →
`powercfg -change …`). The same command run again after the code was fixed (`make lint`
failing, then passing) and a different command that merely came next (`bun run test`
failing, then `bun run lint:fix`; `git log` then `git status`) are no replacement: the
failing run was the right command, and a judge told to avoid it would mark down the
verification a good rollout repeats.

Pure; reads only the two commands' first lines.
"""

from __future__ import annotations

from sleepd.mining.errors.shell import OUTPUT_FILTERS, read_shell_words

#: Steps before the command proper that only set where or how it runs.
_SETUP_PROGRAMS = frozenset({"cd", "pushd", "export", "source", ".", "set", "setopt"})
#: What ends one step of a command line (a subshell's parentheses too: `tmp=$(mktemp)`).
_LIST_OPERATORS = frozenset({"&&", "||", ";", "&", ";;", "(", ")"})
#: How a first line ends when the command goes on below it (`$v = @(`, `for x in a b; do`,
#: a backslash, an open pipe).
_GOES_ON = ("(", "{", "[", "\\", "|", "&&", "||", " do", " then", "=")
#: Of the arguments of two different programs, the share they must have in common for one
#: program to have stood in for the other (`zsh -c …` → `bash -c …`).
SAME_ARGUMENTS = 0.5


def command_core(command: str) -> tuple[str, ...] | None:
    """The words of the command that did the work, from `command`'s first line: leading
    `cd`/`export` steps, redirections and pipes into an output filter left out (`cd x &&
    bun run test 2>&1 | tail -20` → `bun run test`); a trailing slash of a path dropped.
    None when the command goes on past its first line (an open quote, `bash -c '`; an open
    bracket, `$v = @(`) or the line cannot be read as shell words."""
    line = command.strip().split("\n", 1)[0].rstrip()
    if not line or line.endswith(_GOES_ON):
        return None
    tokens = read_shell_words(line)
    if tokens is None:
        return None
    steps: list[list[str]] = [[]]
    piped: list[bool] = [False]
    skip_next = False
    for token in tokens:
        if skip_next:
            skip_next = False
            continue
        if token in _LIST_OPERATORS or token == "|":
            steps.append([])
            piped.append(token == "|")
            continue
        if token and set(token) <= set("<>&"):
            # a redirection: its target is the next word (`> out.txt`, `2>&1` reads as
            # `2`, `>&`, `1`)
            if steps[-1] and steps[-1][-1].isdigit():
                steps[-1].pop()
            skip_next = True
            continue
        steps[-1].append(token.rstrip("/") if len(token) > 1 else token)
    kept = [
        step
        for step, after_pipe in zip(steps, piped, strict=True)
        if step and not (after_pipe and step[0] in OUTPUT_FILTERS)
    ]
    while kept and kept[0][0] in _SETUP_PROGRAMS:
        kept.pop(0)
    return tuple(kept[0]) if kept else None


def _word(token: str) -> str:
    return token.lstrip("-/")


def replaces(failing: str, working: str) -> bool:
    """Whether `working` did the job `failing` failed at, another way (see the module's
    docstring for what counts)."""
    old, new = command_core(failing), command_core(working)
    if old is None or new is None or old == new:
        return False
    if old[0] != new[0]:
        if old == new[-len(old) :] or new == old[-len(new) :]:
            return True  # a runner or a wrapper added or dropped
        # another program for the same verb and mostly the same arguments (not `npx
        # prettier --write a b` followed by `git add a b`)
        a, b = set(old[1:]), set(new[1:])
        same_verb = old[1:2] == new[1:2] and len(old) > 1
        return same_verb and len(a & b) / len(a | b) >= SAME_ARGUMENTS
    old_words, new_words = [_word(t) for t in old[1:]], [_word(t) for t in new[1:]]
    if old_words == new_words:
        return True  # the same words, another way to write the flags
    positional_old = [t for t in old[1:] if not t.startswith("-")]
    positional_new = [t for t in new[1:] if not t.startswith("-")]
    return positional_old == positional_new and bool(positional_old)
