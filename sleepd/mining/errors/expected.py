"""Failures the agent expected or asked for: a call it announced would fail (the red
step of test-first work), and a stop whose target had already stopped or that the agent
sent itself (Ctrl-C to a polled command).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sleepd.mining.episodes import EventView
from sleepd.mining.errors.shell import shell_command
from sleepd.mining.json_text import json_value
from sleepd.mining.signatures import is_shell_tool
from sleepd.mining.turns.text import as_typed

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
    # a check named negative, in the words or the echo that heads it ("Windows
    # verification: full suite, DSR unit tests, negative check", `echo "--- negative check
    # ---"`)
    r"|\bnegative[\s-](check|test|case|path|scenario)s?\b"
    # a check tried on input it must turn away ("Test commit-msg hook rejects bad message")
    r"|\brejects? (an? |the )?(bad|invalid|wrong|malformed|empty|unsigned)\b"
    r"|\bfails? for the (right|intended|expected) reason\b"
    # a probe of how a failure is handled ("expect refusal this time", "does it fail
    # safely?", "FAULT INJECTION - replay row 131")
    r"|\bexpect(ed|ing)?\s+(an?\s+|the\s+)?(refusal|rejection|failure|error|denial)\b"
    r"|\b(does|do|will|would|should) (it|this|they) fail (safely|gracefully|cleanly|loudly)\b"
    r"|\bfault[ -]injection\b|\binject(s|ed|ing)? (the |a )?(same )?fault\b"
    # how it takes input it must turn away ("Check CLI behavior with invalid JSON input",
    # "test the handling of a missing config")
    r"|\b(check|test|verify|see|try)\w*\s+(\w+\s+){0,3}?(behaviou?r|handling|response)\s+"
    r"(with|on|for|to|of)\s+(an?\s+|the\s+)?(empty|invalid|bad|malformed|missing|wrong|"
    r"unknown|nonexistent|non-existent|garbage|corrupt)\b"
    # a mistyped or unknown command tried on purpose, to see the program turn it away
    # ("Test unknown command shows suggestion", "Let me also test with a typo that has a
    # suggestion."; not "Test with valid command to confirm it works")
    r"|\b(test|try|check|verify)\w*\s+(it\s+)?(with\s+)?(an?\s+|the\s+)?(typo|misspell\w*|"
    r"(unknown|invalid|nonexistent|non-existent|bogus|misspelled|mistyped)\s+"
    r"(sub)?(command|flag|option|argument|arg)s?)\b"
    # or an option tried without the value it needs ("Build and test --agent without
    # value"; not "Test --agent with valid value")
    r"|\b(test|try|check|verify)\w*\s+(\S+\s+){0,3}?without\s+(an?\s+|the\s+|any\s+)?"
    r"(value|argument|arg|args|name|input|parameter|flag)s?\b",
    re.IGNORECASE,
)


#: What the agent wants to learn by running the code as it was before its change: that
#: failures were there already ("Verify RAG/retriever failures are pre-existing (not caused
#: by our changes)", "Let me check if they're pre-existing on PR #17:", "see whether the
#: tests also fail on main"), or that a new test catches the bug it was written for ("Let
#: me verify my test actually catches the bug by temporarily reverting the fix.", "Confirm
#: test fails on unpatched code", "Confirm test catches regression"). Read only with a
#: command that sets the change aside (`_SETS_CHANGE_ASIDE`): "confirm no new failures
#: beyond the pre-existing ones" before a run of the changed code hopes for no failure.
_ABOUT_THE_OLD_CODE = re.compile(
    r"\b(verify|confirm|check|see|determine|establish)\w*\s+(whether\s+|if\s+|that\s+)?"
    r"([\w/'’`\"-]+\s+){0,5}?((are|is|were|was)\s+)?(already\s+)?pre-?existing\b"
    r"|\b(verify|confirm|check|see)\w*\s+(whether\s+|if\s+|that\s+)?([\w/'’`\"-]+\s+){0,4}?"
    r"(also\s+)?(fails?|failing|break|breaks|broken|exists?|occurs?|happens?)\s+(on|in)\s+"
    r"(the\s+)?(main|master|origin/\S+|upstream|base)(\s+branch)?\b"
    r"|\b(tests?|it|this)\s+(actually\s+|really\s+|still\s+|correctly\s+)?(catch(es)?|"
    r"detects?)\s+(the\s+|a\s+|this\s+|that\s+)?(bug|regression|breakage)\b"
    r"|\b(tests?|it|this)\s+fails?\s+(on|against|with)\s+(the\s+)?(unpatched|unfixed|"
    r"pre-?fix|reverted|original)\s+(code|version|source|build)\b"
    # (not "stash my changes" alone: stashing also clears the way for a pull or a rebase)
    r"|\btemporarily\s+(revert|undo|remov|disabl)\w*\s+(the\s+|my\s+|our\s+|this\s+)?"
    r"(fix|patch|change|changes|optimi[sz]ation)\b",
    re.IGNORECASE,
)


#: A command that sets the agent's change aside before it runs anything: `git stash`
#: (`push`, `save`, or bare; not `pop`, `list`, `show`, `drop`), files checked out or
#: restored from another commit (`git checkout origin/x -- .`, `git restore --source`).
_SETS_CHANGE_ASIDE = re.compile(
    r"\bgit\s+(-C\s+\S+\s+)?stash(\s+(push|save)\b|\s*($|&&|;|\|\||\n)|\s+-)"
    r"|\bgit\s+(-C\s+\S+\s+)?checkout\s+\S+\s+--\s"
    r"|\bgit\s+(-C\s+\S+\s+)?restore\s+(\S+\s+)*--source\b"
)


#: A call that says of itself it should work ("Test with valid command to confirm it
#: works", after "Let me also test with a typo …" announced another call's failure): the
#: agent's words before it announce the calls they were about, not this one.
_EXPECTS_SUCCESS = re.compile(
    r"\b(confirm|verify|check|ensure|make sure|see)\w*\s+(that\s+)?(it|this|they|everything|"
    r"the (\w+ )?(command|build|tests?|fix|change))\s+(now\s+|still\s+)?(works?|passe?s?|"
    r"succeeds?|runs? (fine|cleanly|correctly))\b"
    r"|\bshould (now |still )?(work|pass|succeed)\b|\bexpect\w*\s+(it\s+|them\s+)?(to\s+)?"
    r"(pass|succeed|work)\b",
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


def announced_failures(events: Sequence[EventView]) -> set[str]:
    """Call ids of the calls the agent said beforehand would fail (since the person's
    last turn, the agent's latest words before the call)."""
    said = ""
    out: set[str] = set()
    for event in events:
        if event.kind == "user_prompt":
            said = ""
        elif event.kind == "assistant_text":
            said = as_typed(event.text[-ANNOUNCE_TAIL:])
        elif event.kind == "tool_call" and event.call_id:
            described = _described_as(event)
            if (
                _ANTICIPATED.search(described)
                or (_ANTICIPATED.search(said) and not _EXPECTS_SUCCESS.search(described))
                or (
                    _SETS_CHANGE_ASIDE.search(shell_command(event))
                    and (_ABOUT_THE_OLD_CODE.search(described) or _ABOUT_THE_OLD_CODE.search(said))
                )
            ):
                out.add(event.call_id)
    return out


#: The agent's first words after a result, saying the call did not behave as it meant
#: ("The `isatty()` check isn't working because …", "… but the issue is the pipe …",
#: "Still failing"): whatever it announced, the failure it met was not the one it wanted.
_NOT_AS_MEANT = re.compile(
    # (ten words: "it is", "that is" written out from "it's", "that's" are two each)
    r"^\W*(\S+\s+){0,10}?(isn'?t|is not|wasn'?t|was not|doesn'?t|does not|didn'?t|did not)\s+"
    r"(working|work|handl|catch|trigger|show|reach|fire)"
    r"|^\W*(\S+\s+){0,8}?(the (issue|problem|bug) is|wrong error|unexpected error|"
    r"still (fails|failing|broken|errors?))\b",
    re.IGNORECASE,
)


#: The agent's first words after a result, saying the failure was the one it wanted to
#: see ("Now that's the correct error message.", "As expected, …", "Good, it rejects it
#: correctly"): a check of an error path, though nothing before the call announced it.
_AS_MEANT = re.compile(
    r"^\W*((now|ok(ay)?|good|great|perfect)\W+)?(that'?s|that is|this is|there'?s|there is|"
    r"here'?s|here is) the "
    r"(correct|right|expected|intended) (error|message|failure|exit|behaviou?r|rejection|"
    r"refusal)\b"
    r"|^\W*((good|great|perfect)\W+)?(as expected|(that'?s|that is) expected)\b"
    r"|^\W*((good|great|perfect)\W+)?(it|the (command|call|check|hook|script|cli|test)) "
    r"(correctly )?(fails|failed|errors|errored|rejects|rejected|refuses|refused|exits|exited)"
    r"( \w+)? (as expected|correctly|as intended)\b",
    re.IGNORECASE,
)


#: How much of the agent's next words is read for either.
_NEXT_WORDS = 200


def judged_next(events: Sequence[EventView]) -> tuple[set[str], set[str]]:
    """Call ids of the results whose next words from the agent, before the person's next
    turn, open by calling the failure the one it wanted (an error path checked on purpose),
    and of those whose next words say the call did not do what it meant; the results since
    its words before count as one. One walk for both."""
    as_meant: set[str] = set()
    not_as_meant: set[str] = set()
    pending: list[str] = []
    for event in events:
        if event.kind == "user_prompt":
            pending = []
        elif event.kind == "tool_result" and event.call_id:
            pending.append(event.call_id)
        elif event.kind == "assistant_text" and pending:
            opening = as_typed(event.text[:_NEXT_WORDS])
            if _AS_MEANT.search(opening):
                as_meant.update(pending)
            if _NOT_AS_MEANT.search(opening):
                not_as_meant.update(pending)
            pending = []
    return as_meant, not_as_meant


#: A program that could not run at all, or git failing to set the agent's change aside or
#: to put it back ("error: Your local changes to the following files would be overwritten
#: by merge:" from the `git stash pop` after a run on the old code): not what a call
#: announced to fail was testing (a missing file may be, "verify it fails without the
#: config").
COULD_NOT_START = re.compile(
    r"command not found|No module named|Cannot find module|is not installed|"
    r"not recognized as an internal or external command|"
    r"would be overwritten by (merge|checkout)|"
    r"could not restore untracked files from stash|The stash entry is kept",
    re.IGNORECASE,
)


def _described_as(call: EventView) -> str:
    """What the agent wrote, in the call itself, that the call is for: Claude Code's Bash
    `description` ("Verify both new tests now fail for the right reasons"), and what the
    command echoes about itself (`echo "=== RE-INJECTING THE SAME FAULT (expect refusal
    this time) ==="`)."""
    if not is_shell_tool(call.tool_name):
        return ""
    described = ""
    if '"description"' in call.text[:4000]:
        described = _input_text(call, "description")[:ANNOUNCE_TAIL]
    if "echo" in call.text[:4000]:
        echoed = " ".join(m[1] for m in _ECHOED.finditer(shell_command(call)))
        described = f"{described} {echoed[:ANNOUNCE_TAIL]}"
    return described


#: The words a command echoes ("echo "P3: … does it fail safely?"").
_ECHOED = re.compile(r"\becho\s+(?:-[neE]+\s+)?\"([^\"\n]{1,300})\"")


def _input_text(call: EventView, name: str) -> str:
    """A text field of the call's JSON input ("" when the input is not JSON, or the field
    is missing or not text)."""
    data = json_value(call.text)
    value = data.get(name) if isinstance(data, dict) else None
    return value if isinstance(value, str) else ""


def already_stopped(call: EventView | None, event: EventView) -> bool:
    return (
        call is not None
        and bool(_STOP_TOOL.search(call.tool_name or ""))
        and bool(_ALREADY_STOPPED.search(event.text[:300]))
    )


def stopped_by_the_agent(call: EventView | None, event: EventView) -> bool:
    """The agent sent Ctrl-C (or Ctrl-D) to a command it was polling (Codex
    `write_stdin` with `"chars": "\\u0003"`): the exit that follows (130) is the stop it
    asked for, not a failure."""
    if call is None or event.exit_code in (None, 0):
        return False
    chars = _input_text(call, "chars")
    return chars != "" and set(chars) <= {"\x03", "\x04"}
