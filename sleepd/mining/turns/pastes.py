"""What a person pasted into a turn: a program's output, a log, a console, as opposed to
the words they typed about it.

A turn that is mostly a paste reports what a run printed (often what the agent asked for:
"reload and test"); the person's verdict, if any, is in the few words after it.
"""

from __future__ import annotations

import re

#: A line as a log or a program prints it: a source location or a time stamp first, an
#: indented line (a stack frame, a continuation), a bracket, a prompt.
PASTED_LINE = re.compile(
    r"^\s*([\w./@-]+\.\w+:\d+|\d{1,2}:\d{2}(:\d{2})?|\[|\{|<|at |\$ |> |#\d)|^\s{2,}\S|^\S+ \S+ \d"
)


#: A shell prompt and the command after it, as a terminal shows them: `user@host:~/app$`,
#: zsh themes' `❯` and `➜`, a two-line theme's `╰─❯`, PowerShell's `PS C:\app>`, `$`, a
#: powerline prompt, a folder before `$`.
RAN_COMMAND = re.compile(
    r"^\s*(?:\S+@[\w.-]+:\S*\s?[$#]|[$❯➜]|╰─❯|PS [A-Z]:\\[^>]*>)\s+\S"
    # a powerline theme's prompt: Nerd Font icons and segment arrows, private-use glyphs
    # ("\uf312 \ue0b0 \uf015 ~ \ue0b0   systemctl --user status …")
    r"|^\s*[\ue000-\uf8ff][^\n]*[\ue0b0\ue0b4]\s+\S"
    # a prompt that shows the folder ("/work $ ping www.googleapis.com", "~/app % ls"), and
    # zsh's own "user@host folder %" ("neil@MacBook-Pro app % npm run cli")
    r"|^\s*[~/][\w./~-]*\s*[$#%]\s+\S"
    r"|^\s*(\([\w.-]+\)\s*)?[\w.-]+@[\w.-]+(\s+[^\s%$#]{1,60})?\s*[%$#]\s+\S"
)

#: Where the person's own words ask something after a pasted run ("why does it hang?",
#: "please fix this", "can you …").
_ASKS_AFTER_A_RUN = re.compile(
    r"\?\s*$|^\W*(please|pls|can you|could you|would you|let'?s|fix|make|add|change|use|try|"
    r"why|how|what|should|do we|is it|now)\b",
    re.IGNORECASE | re.MULTILINE,
)


#: What follows a prompt when it is a command: environment settings, then a program's name
#: or path in lower case ("GITSYNC_MAX=2000 go run …", "./run.sh"); not a sentence typed
#: after the agent's own prompt mark ("❯ This branch represents a PR …") nor one of the
#: agent's slash commands ("❯ /cd app").
_COMMAND_AFTER_PROMPT = re.compile(
    r"([A-Z_][A-Z0-9_]*=\S*\s+)*(sudo\s+)?(?!/[\w:-]+(\s|$))[a-z.~/_][\w.+/-]*(\s|$)"
)


def is_run_pasted(text: str) -> bool:
    """A command the person ran, pasted with what it printed and no line that asks for
    anything ("❯ git push" and its output): a report of their machine's state."""
    prompt = RAN_COMMAND.match(text)
    if prompt is None or "\n" not in text.strip():
        return False
    command = text[prompt.end() - 1 :]
    return bool(_COMMAND_AFTER_PROMPT.match(command)) and not _ASKS_AFTER_A_RUN.search(text)


#: Most the person's own words after a paste can be: a verdict or a request, not more prose.
WORDS_AFTER_PASTE = 300


def words_after_a_paste(region: str) -> str:
    """The person's last words, when they are short and what comes before them is pasted
    output (three lines or more, most of them as a log prints them); else "". They may
    stand in paragraphs of their own, or straight under the paste, or on its last line
    after the bracket that closes it ("] it seems that the orchestrator does not work")."""
    paragraphs = [p for p in re.split(r"\n\s*\n", region.strip()) if p.strip()]
    tail: list[str] = []
    while len(paragraphs) > 1 and sum(map(len, [paragraphs[-1], *tail])) <= WORDS_AFTER_PASTE:
        if is_pasted(paragraphs[-1]):
            break
        tail.insert(0, paragraphs.pop())
    if tail and is_pasted("\n".join(paragraphs)):
        return "\n\n".join(tail)
    return _lines_after_a_paste(region)


#: The last line of a paste, its closing brackets, then the person's words on that line.
_CLOSED_THEN_WORDS = re.compile(r"^(\s*[\]})]+[,;]?)\s+(?=[^\W\d_])(.*)$")
#: A line that only closes what a program printed ("]", "  },").
_CLOSING_ONLY = re.compile(r"^\s*[\]})]+[,;]?\s*$")


def _lines_after_a_paste(region: str) -> str:
    """The person's lines right under a paste, with no blank line between, or their words
    after the brackets that close its last line."""
    lines = [line for line in region.strip().splitlines() if line.strip()]
    tail: list[str] = []
    while len(lines) > 3 and sum(map(len, [lines[-1], *tail])) <= WORDS_AFTER_PASTE:
        closed = _CLOSED_THEN_WORDS.match(lines[-1])
        if closed:
            tail.insert(0, closed.group(2))
            lines[-1] = closed.group(1)
            break
        if PASTED_LINE.match(lines[-1]) or _CLOSING_ONLY.match(lines[-1]):
            break
        tail.insert(0, lines.pop())
    if not tail or not is_pasted("\n".join(lines)):
        return ""
    return "\n".join(tail)


def is_pasted(text: str) -> bool:
    """Three lines or more, at least half of them as a log prints them."""
    lines = [line for line in text.splitlines() if line.strip()]
    pasted = sum(1 for line in lines if PASTED_LINE.match(line))
    return len(lines) >= 3 and pasted * 2 >= len(lines)


#: A line as a program prints a finding or a state: "Key: value" ("Project: found", "Track
#: methods: subscribeToEvent, …"), not a bullet or a sentence that has a colon in it.
_KEY_VALUE_LINE = re.compile(r"^[A-Za-z_][\w .()/-]{0,40}:\s*\S")


#: Most characters a turn that is program output may hold outside its pasted lines.
OWN_CHARS_IN_OUTPUT = 200


def is_program_output(text: str) -> bool:
    """The turn is, nearly whole, what a program printed: four lines or more, seven in ten
    of them as a log prints them, as "Key: value", or opening with a prefix that three or
    more lines share ("InlineScript 1:6 SPLICE: …"), and few words of the person's besides,
    none of them a question (a paste with "better way?" asks something of its own)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 4:
        return False
    heads = [line.split()[0] for line in lines]
    shared = {head for head in heads if heads.count(head) >= 3}
    own = [
        line
        for line in lines
        if not (PASTED_LINE.match(line) or _KEY_VALUE_LINE.match(line) or line.split()[0] in shared)
    ]
    own_text = "\n".join(own)
    return (
        len(own) * 10 <= len(lines) * 3
        and len(own_text) <= OWN_CHARS_IN_OUTPUT
        and not re.search(r"[?？]", own_text)
    )
