"""Which tool results are failures, and whose failure each one is.

Decided in mining from the stored fields, whatever the harvester's `is_error` says:

- **root**: a real failure of its own call: `is_error`, a non-zero exit code, a
  Claude `<tool_use_error>…</tool_use_error>` result anywhere (subagents too), a
  Codex patch that did not apply (`apply_patch verification failed: …`, or through the
  shell "error: Failed to find expected lines in …"), a result that
  opens with the tool's own timeout notice ("Timed out. New output: …", as an editor's
  agent bridge returns it unflagged) or holds nothing but a warning in place of output
  (Claude Code's Read past the end of a file: "<system-reminder>Warning: the file exists
  but is shorter than the provided offset …</system-reminder>"), or a failure
  the command hid from its exit code (a pipe, `|| true`, Codex code mode) that its
  output states in a program's own words: a line opening with `error:` (or `Error:`,
  as cobra, click and Rust print it), `fatal:`, `FAILED`, `npm ERR!`, a traceback, a
  test or lint summary with failures ("24 fail", "Found 1 error."), go test's `--- FAIL:`
  and `FAIL`, a Rust panic, a tool's `ERROR` log lines, a GraphQL API's errors, among
  the first or last lines, unless a test summary says nothing failed. A line that merely
  mentions an error (source code, a search hit, a log line) is not one.
- **knock_on**: failed only because another call failed or was refused: Claude's
  "Sibling tool call errored", and "The user doesn't want to take this action right
  now" for the calls cancelled with a refused one. It points to its cause (the
  failing or refused call of the same assistant message, else the latest root error
  before it) and is never a failure pattern of its own.
- **benign**: a command whose non-zero exit is an answer, not a failure: `grep`,
  `rg`, `ag`, `ack`, `git grep` exit 1 (no match), `diff`/`cmp`/`git diff
  --exit-code` exit 1 (files differ), `test`/`[`/`[[` exit 1 (false), `which`,
  `command -v`, `type`, `pgrep`, `pidof`, `ps -p`, `kill -0` exit 1 (not found), a
  poll's lone "Waiting for …" or gh's "run N is still in progress" (not yet), `ssh-add -l` and
  `crontab -l` exit 1 (none listed), `ssh-add -l` exit 2 (no agent runs), a path
  looked up (`ls`, `stat`: exit 1 or 2) that is not there, and a search over a tree
  (`rg`, `grep -r`, `find`, `fd`) that exits 1 or 2 after finding what it looked for only because
  some paths could not be read ("Permission denied", "Interrupted system call").
  Otherwise only exit 1, only when
  the family's command decides the exit status (the last one of a chain or pipe),
  and only without error text of its own. A call the person refused ("The user
  doesn't want to proceed with this tool use", a plan "rejected by the user") is
  benign too: it is the person's feedback (a `tool_rejected` signal), not a tool
  failing; so is a call the person stopped while it ran (`[Request interrupted by user
  for tool use]`, `Interrupted by user`; Codex's "aborted by user after 33.4s"), and a
  call the harness's safety check could not judge and so never ran (Claude Code's auto
  mode with its classifier down: "… is temporarily unavailable, so auto mode cannot
  determine the safety of Bash right now"), an outage no guidance changes. So
  is a failure the agent
  announced before making the call ("let me test the error case when there's no PR",
  "running the test to confirm it fails for the intended reason": the red step of
  test-first work; a mistyped command tried on purpose; a run with the change stashed,
  to see that failures were there already or that a new test catches its bug): the
  failure is the answer it wanted. And a stop or kill whose
  target had already stopped ("Shell … is not running", `pkill`/`killall` exit 1):
  the state it asked for already holds.

Shell-init noise, a line the machine prints in every shell output (a broken
`.bashrc`, a version-manager banner), is found per session and across the store's
newest shell results, and stripped before signatures and examples.
"""

from __future__ import annotations

from sleepd.mining.errors.benign import BENIGN_EXIT_1, answers_no_history, is_benign_exit
from sleepd.mining.errors.expected import ANNOUNCE_TAIL, announced_failures
from sleepd.mining.errors.failed import FAILURE_TAIL_LINES, is_failed_result, output_shows_failure
from sleepd.mining.errors.judge import (
    REFUSED,
    EpisodeErrors,
    ErrorKind,
    ErrorVerdict,
    is_knock_on,
    judge_errors,
)
from sleepd.mining.errors.noise import (
    NOISE_MIN_OUTPUTS,
    NOISE_SHARE,
    NoiseFilter,
    noise_lines,
    session_noise,
    shell_outputs_by_machine,
)
from sleepd.mining.errors.shell import (
    COMMAND_READ_CHARS,
    before_status_echo,
    command_family,
    deciding_command,
    exit_hidden,
    inner_command,
    last_command,
    printed_status,
    program_of,
    reads_a_pipe,
    remote_of,
    shell_command,
)

__all__ = [
    "ANNOUNCE_TAIL",
    "BENIGN_EXIT_1",
    "COMMAND_READ_CHARS",
    "FAILURE_TAIL_LINES",
    "NOISE_MIN_OUTPUTS",
    "NOISE_SHARE",
    "REFUSED",
    "EpisodeErrors",
    "ErrorKind",
    "ErrorVerdict",
    "NoiseFilter",
    "announced_failures",
    "answers_no_history",
    "before_status_echo",
    "command_family",
    "deciding_command",
    "exit_hidden",
    "inner_command",
    "is_benign_exit",
    "is_failed_result",
    "is_knock_on",
    "judge_errors",
    "last_command",
    "noise_lines",
    "output_shows_failure",
    "printed_status",
    "program_of",
    "reads_a_pipe",
    "remote_of",
    "session_noise",
    "shell_command",
    "shell_outputs_by_machine",
]
