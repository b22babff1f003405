"""Split a session's events into task episodes: one user intent plus the work it caused.

Every typed turn is classified (`turns`): only a new task opens an episode; a
follow-up, a correction or failure report, an approval or steering belongs to the
running one; housekeeping commands to none. Meta injections, wrappers, compaction
summaries, hook noise and tool results delivered as user records are never turns;
a slash command is a turn (Claude stores it as a meta record). This module is
pure (no database) so it is cheap to test and to run over thousands of sessions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from harvesters.claude_code import CONTINUED_HEADER, INTERRUPT_PREFIXES
from harvesters.claude_code import META_PREFIX as CLAUDE_META_PREFIX
from harvesters.codex import GOAL_SET, INJECTED_USER_TEXT
from harvesters.records import STEERING
from sleepd.mining.commands import GO_ON_THEN_COMMAND, SlashCommand, parse_command
from sleepd.mining.json_text import json_value
from sleepd.mining.lexicon import Lexicon
from sleepd.mining.turns import (
    TurnDecision,
    TurnInput,
    TurnKind,
    agent_claims_done,
    classify_turn,
    decided_by_model,
    has_words,
    orients_only,
    questions_put,
)


@dataclass(slots=True)
class EventView:
    """The columns of one event that mining reads (text may be head+tail truncated)."""

    id: int
    seq: int
    kind: str
    role: str = "user"
    text: str = ""
    tool_name: str | None = None
    call_id: str | None = None
    is_error: bool = False
    exit_code: int | None = None
    is_meta: bool = False
    is_sidechain: bool = False
    ts: datetime | None = None
    raw_type: str | None = None
    #: the assistant message a tool call belongs to (parallel calls share one)
    message_id: str | None = None

    @property
    def is_steering(self) -> bool:
        """Typed while the agent ran and sent into its running turn (Claude's queue)."""
        return self.raw_type == STEERING


@dataclass(slots=True)
class TurnRecord:
    """A typed user turn inside an episode and what it was read as."""

    event: EventView
    decision: TurnDecision
    after_interrupt: bool = False

    @property
    def kind(self) -> TurnKind:
        return self.decision.kind


@dataclass(slots=True)
class EpisodeDraft:
    intent: EventView
    events: list[EventView] = field(default_factory=list)
    #: the typed turns after the intent (corrections, approvals, steering, follow-ups)
    feedback: list[TurnRecord] = field(default_factory=list)
    closed: bool = False
    command: SlashCommand | None = None
    #: false for agent work before the session's first recognised intent
    has_intent: bool = True
    intent_turn: TurnRecord | None = None
    #: housekeeping commands typed during the episode (they belong to no request)
    housekeeping: list[TurnRecord] = field(default_factory=list)
    #: Codex's record that the person rolled the thread back over the episode's request,
    #: which nothing typed after took up again (`segment`): the request was withdrawn
    rolled_back: EventView | None = None
    #: the request, made before the session began, that this episode carries on (its
    #: `intent` is then the session's first event, and it has no request of its own)
    carries_on: str | None = None
    #: with `carries_on`: that request read whole, over the conversation carried and this
    #: session both, as one session holding it would read it, its events numbered in the
    #: order they were lived (its outcome is the request's, `mining.read_back`)
    whole: EpisodeDraft | None = None
    #: with `carries_on`: how many of the request's turns other than housekeeping the
    #: conversation carried holds
    carried_turns: int = 0
    #: with `carries_on`: the time of the last event of the conversation carried
    carried_until: datetime | None = None

    @property
    def refinements(self) -> list[str]:
        """Follow-ups typed before any verdict: they refine the request itself."""
        return [clean_prompt(t.event.text) for t in self.feedback if t.kind is TurnKind.FOLLOW_UP]

    @property
    def start_seq(self) -> int:
        return self.intent.seq

    @property
    def end_seq(self) -> int:
        return self.events[-1].seq if self.events else self.intent.seq

    @property
    def intent_text(self) -> str:
        """The request the episode opens with: none for agent work before a session's
        first request, or for an episode that carries on an earlier session's request."""
        if not self.has_intent or self.carries_on is not None:
            return ""
        if self.command is not None:
            return self.command.intent
        return clean_prompt(self.intent.text)

    @property
    def request_text(self) -> str:
        """The request the episode's turns answer: its own, or the one it carries on."""
        return self.carries_on if self.carries_on is not None else self.intent_text

    @property
    def started_at(self) -> datetime | None:
        return self.intent.ts

    @property
    def ended_at(self) -> datetime | None:
        stamps = [e.ts for e in self.events if e.ts is not None]
        return stamps[-1] if stamps else self.intent.ts


#: Wrapper blocks the agent (or the app driving it) injects into user text; removed
#: before reading a prompt. This is the opening tag; the block runs to its closing tag.
_INJECTED_OPEN = re.compile(
    r"<(system-reminder|user-prompt-submit-hook|environment_context|user_instructions|"
    r"INSTRUCTIONS|local-command-stdout|local-command-stderr|command-message|command-name|"
    r"command-args|command-contents|bash-stdout|bash-stderr|[a-z][\w-]*-notification|turn_aborted|"
    r"ide_opened_file|ide_selection|"
    # an app's standing instructions put before the typed request (Conductor writes
    # <system_instruction> and <system-instruction> blocks into the first prompt)
    r"system[-_]instructions?|system[-_]prompt|developer[-_]instructions?)\b[^>]{0,2000}>",
    re.IGNORECASE,
)


def _without_injected_blocks(text: str) -> str:
    """`text` with each injected block (its opening tag to its closing tag) replaced by a
    space; an opening tag that is never closed stays.

    Scanned by hand rather than with one lazy `<(tag)…>.*?</\\1>` pattern: that pattern
    searches to the end of the text again at every unclosed opening tag, so a hostile
    prompt of many unclosed tags took time quadratic in its length. Here a tag found
    unclosed once is never searched for again (nothing after it closes it either).
    """
    out: list[str] = []
    pos = 0
    unclosed: set[str] = set()
    while (opening := _INJECTED_OPEN.search(text, pos)) is not None:
        name = opening.group(1).lower()
        closing = None
        if name not in unclosed:
            closing = re.compile(f"</{re.escape(name)}>", re.IGNORECASE).search(text, opening.end())
            if closing is None:
                unclosed.add(name)
        if closing is None:
            out.append(text[pos : opening.end()])
            pos = opening.end()
            continue
        out.append(text[pos : opening.start()])
        out.append(" ")
        pos = closing.end()
    out.append(text[pos:])
    return "".join(out)


#: Claude Code's interrupt marker, as the harvester names it (lowercased, as user text is
#: read here).
_INTERRUPT_PREFIXES = tuple(prefix.lower() for prefix in INTERRUPT_PREFIXES)
#: A user record whose whole point is one of these is never a typed intent (beside Claude
#: Code's injected records, which the harvester's `META_PREFIX` names). Claude Code's
#: interrupt marker and continued-session summary are here for records stored before the
#: harvest knew them.
_NOISE_PREFIXES: tuple[str, ...] = (
    "<environment_context>",
    "<user_instructions>",
    "<recommended_plugins>",
    # Codex: a skill's instructions put in after the person typed `$name` (the typed
    # request is the turn)
    "<skill>",
    "<turn_aborted>",
    "# agents.md instructions for",
    "<persisted-output>",
    *_INTERRUPT_PREFIXES,
    CONTINUED_HEADER.lower(),
)
#: Claude Code's own reply to a slash command it does not know, written as a user record
#: after the local-command caveat ("Unknown skill: refactor-livedata"): not typed words.
_UNKNOWN_COMMAND = re.compile(r"unknown (skill|command|slash command): [\w:.@/-]+")
#: Claude Code's placeholder for a user record with nothing in it (written, for one, right
#: after a memory added with `#`): no one typed it.
_NO_CONTENT = "(no content)"
_CODEX_ABORTED = "<turn_aborted>"


#: Codex's IDE extension and desktop app put what the person's editor, attachments and
#: in-app browser showed before the typed words ("# Context from my IDE setup: ## Active
#: file: … # Files mentioned by the user: … # In app browser: …"), then this heading.
_CODEX_REQUEST = re.compile(r"^#{1,3} My request for Codex:[ \t]*\n?", re.MULTILINE)
#: A long paste the Codex app kept as a file, named among the files mentioned by its first
#: words ("## Plan: Bootstrap package-manager plugins Goal Let plugins …: /Users/…/
#: pasted-text.txt"): the path is the last ": " followed by an absolute one. Matched line by
#: line, on lines no longer than a heading the app writes.
_CODEX_PASTED = re.compile(r"#{2,3} (.+): (?:/|~|[A-Za-z]:\\)[^\n]*pasted-text[^\n/\\]*\.txt\s*")
_PASTED_LINE_MAX = 500


#: A picture pasted into Codex, written as a tag around its path, or around the picture
#: itself, which the harvest stores as its placeholder ("<image name=[Image #1]>\n[image:
#: image/png, 91380 bytes]\n</image>"): kept as the placeholder Claude Code writes for one
#: ("[Image #1]").
_CODEX_IMAGE = re.compile(
    r"<image name=(\[Image #\d+\])[^>]{0,2000}>\s*(?:\[image: [^\]\n]{0,200}\]\s*)?</image>"
)


def _pasted_titles(context: str) -> list[str]:
    """The first words the Codex app names each pasted file by, in the order it lists them."""
    found = (
        _CODEX_PASTED.fullmatch(line)
        for line in context.splitlines()
        if len(line) <= _PASTED_LINE_MAX and "pasted-text" in line
    )
    return [match.group(1) for match in found if match is not None]


def clean_prompt(text: str) -> str:
    """The typed part of a prompt: injected blocks and an app's context before the
    request removed, whitespace tidied. A request the Codex app kept as a pasted file, with
    nothing typed under its heading, is the first words the app names the paste by."""
    headings = list(_CODEX_REQUEST.finditer(text))
    if headings:
        context, text = text[: headings[-1].start()], text[headings[-1].end() :]
        if not text.strip():
            # nothing typed under the heading: the request is what the person pasted, which
            # the app kept as a file and names by its first words
            text = "\n".join(_pasted_titles(context))
    text = _CODEX_IMAGE.sub(r"\1", text)
    text = _PLAN_TRANSCRIPT_NOTE.sub("", text)
    return _without_injected_blocks(text).strip()


#: The note Claude Code puts under a plan it hands back as a new session's first message
#: ("If you need specific details from before exiting plan mode (like exact code snippets,
#: …), read the full transcript at: /Users/…/<session>.jsonl"): the tool's words, not the
#: person's, pointing at a file on their machine that no replay has.
_PLAN_TRANSCRIPT_NOTE = re.compile(
    r"\s*If you need specific details from before exiting plan mode\b[^\n]{0,400}?"
    r"read the full transcript at:\s*\S+\s*$"
)


def is_interrupt(event: EventView) -> bool:
    """The person stopped the agent: an interrupt event, Claude's `[Request interrupted by
    user…]` marker, or the `<turn_aborted>` user message Codex writes (stored as meta;
    some Codex versions write no other trace of the interrupt)."""
    if event.kind == "interrupt":
        return True
    if event.role != "user" or event.kind not in ("user_prompt", "meta"):
        return False
    head = event.text.lstrip().lower()
    return head.startswith(_CODEX_ABORTED) or (
        event.kind == "user_prompt" and head.startswith(_INTERRUPT_PREFIXES)
    )


def is_service_error(event: EventView) -> bool:
    """The agent's service failed in its turn: Claude Code's API error message ("API
    Error: 429 …", "You've hit your limit · resets 6pm") and its retry notices, Codex's
    `error` and `stream_error` events. A tool's failure is the agent's work, not this."""
    failed = event.kind == "error" and event.role in ("assistant", "system")
    return failed and not event.is_sidechain


#: The records an agent writes when its turn is over, whatever it said last: Claude
#: Code's turn timing (`system` `turn_duration`) and its Stop hooks' summary, progress and
#: result (a Stop hook runs only once the agent has finished responding; builds before
#: 2.1.9x wrote its progress, later ones its result as an attachment), Codex's
#: `task_complete`.
_TURN_END_TYPES = frozenset(
    {"system:turn_duration", "system:stop_hook_summary", "event_msg:task_complete"}
)
_STOP_HOOK = re.compile(r'"hookEvent"\s*:\s*"Stop"')


def ends_the_agents_turn(event: EventView) -> bool:
    """The agent's turn was over here: it had stopped working and waited for the person
    (not a subagent's end, not a tool's). A transcript that stops after this record did
    not stop mid-work, even when the agent's last act was a tool call: a snapshot taken
    by a Stop hook holds the turn's work but not always its closing words."""
    if event.is_sidechain or event.kind != "meta":
        return False
    if event.raw_type in _TURN_END_TYPES:
        return True
    hook = event.raw_type == "progress:hook_progress" or (event.raw_type or "").startswith(
        "attachment:hook_"
    )
    return hook and bool(_STOP_HOOK.search(event.text[:400]))


#: Codex's record that the agent's turn began, written before the prompt that opens it.
TURN_START_TYPE = "event_msg:task_started"
#: Codex's record that the person rolled the thread back (`{"num_turns": N}`): the last N
#: turns they typed, and all that followed them, are no longer part of the conversation.
ROLLBACK_TYPE = "event_msg:thread_rolled_back"


def _record_of(event: EventView, raw_type: str) -> dict[str, Any]:
    """The fields of a record Codex wrote about the session's own thread (a rollback, an
    undo), when `event` is one of type `raw_type`; empty for any other event, one inside a
    subagent's thread, or text that holds no JSON object."""
    if event.raw_type != raw_type or event.is_sidechain:
        return {}
    value = json_value(event.text)
    return value if isinstance(value, dict) else {}


def rolled_back_turns(event: EventView) -> int:
    """How many typed turns a rollback record takes back (0 for any other event)."""
    count = _record_of(event, ROLLBACK_TYPE).get("num_turns")
    return count if type(count) is int and count > 0 else 0


#: Codex's record that its `/undo` ended (`{"success": bool, "message": …}`): on success the
#: person put the working tree back as it was before the agent's latest turn, whose
#: changes are thrown away; the conversation keeps that turn.
UNDO_COMPLETED_TYPE = "event_msg:undo_completed"


def undid_the_agents_work(event: EventView) -> bool:
    """The person's `/undo` restored the tree from before the agent's latest turn (not an
    undo that failed or found no snapshot, not one inside a subagent's thread)."""
    return _record_of(event, UNDO_COMPLETED_TYPE).get("success") is True


def is_typed_prompt(event: EventView) -> bool:
    """A user prompt a person typed (not meta, wrapper, summary, hook or tool output)."""
    if event.kind != "user_prompt" or event.is_meta or event.is_sidechain:
        return False
    raw = event.text.lstrip().lower()
    if raw.startswith(_NOISE_PREFIXES):
        return False
    if CLAUDE_META_PREFIX.match(event.text[:200]):
        return False  # Claude Code's injected records, stored before the harvest knew them
    if INJECTED_USER_TEXT.match(event.text) or raw.rstrip() == _NO_CONTENT:
        return False  # stored before the harvest knew them as Codex's or Claude Code's
    if _UNKNOWN_COMMAND.fullmatch(raw.rstrip()):
        return False
    return bool(clean_prompt(event.text))


#: How Claude Code's record of a command it ran itself begins (its output, written as a
#: user record right after the command's).
_LOCAL_OUTPUT = ("<local-command-stdout>", "<local-command-stderr>")
#: How far past a command its output is looked for (a subagent's aside may come between):
#: a bound, so a session of many commands is read in time linear in its length.
_LOCAL_OUTPUT_WITHIN = 20


def answered_by_the_cli(events: Sequence[EventView], index: int, command: SlashCommand) -> bool:
    """Whether `command`, at `index`, was answered by Claude Code itself: the session's
    next record (a subagent's aside) is the local command's output, and the agent did not
    then take up the words given with the command as work (`_taken_up`)."""
    for position, later in _records_after(events, index):
        answered = later.kind in ("user_prompt", "meta") and later.text.lstrip().startswith(
            _LOCAL_OUTPUT
        )
        return answered and not (bool(command.args.strip()) and _taken_up(events, position))
    return False


def _records_after(events: Sequence[EventView], index: int) -> Iterator[tuple[int, EventView]]:
    """The session's own records after `index` (a subagent's asides passed over), as far as
    a command's output and what follows it are looked for."""
    for position in range(index + 1, min(len(events), index + 1 + _LOCAL_OUTPUT_WITHIN)):
        if not events[position].is_sidechain:
            yield position, events[position]


#: What the agent does when it sets to work (not the notices Claude Code writes about it).
_AGENT_ACTS = ("assistant_text", "thinking", "tool_call")


def _taken_up(events: Sequence[EventView], output: int) -> bool:
    """The command the CLI answered at `output` set the agent to work: the agent acts
    next, before anything else is typed or run (Claude Code 2.1's `/goal simplify this
    repo, … a PR with green CI`, answered "Goal set: …" and then worked on by the agent,
    the whole session long). The notices between (the hook the goal installs, an
    attachment) are read past; a built-in that only manages the session leaves the agent
    idle until the next turn."""
    for _, later in _records_after(events, output):
        if later.kind in _AGENT_ACTS:
            return True
        if later.kind != "meta" or "<command-" in later.text[:200]:
            return False
    return False


def command_of_event(event: EventView) -> SlashCommand | None:
    """The slash command a user record carries (Claude stores it as a meta record)."""
    if event.kind not in ("user_prompt", "meta") or event.is_sidechain:
        return None
    if event.raw_type == GOAL_SET and event.kind == "user_prompt":
        # a goal the person set in Codex, stored as `/goal <objective>`: whatever the
        # objective's own words hold (a tag, a path, a pasted terminal), it is the goal's
        return SlashCommand(name="goal", args=event.text.strip().removeprefix("/goal").strip())
    if event.raw_type and event.raw_type not in (STEERING,):
        return None  # queue operations echo the typed text; the record itself follows
    head = event.text[:2000]
    wrapped = "<command-" in head or head.lstrip().startswith(
        ("<bash-input>", "<user-memory-input>", "<user_action>")
    )
    if not wrapped and not head.lstrip().startswith("/") and not GO_ON_THEN_COMMAND.match(head):
        return None
    if event.kind == "meta" and not wrapped:
        return None
    return parse_command(event.text)


def _turn_text(event: EventView, command: SlashCommand | None) -> str:
    return command.intent if command is not None else clean_prompt(event.text)


def typed_words(event: EventView) -> str:
    """A typed event's words as the turn reader reads them: a command as its name and
    arguments, a prompt without what an app put before the person's words."""
    return _turn_text(event, command_of_event(event))


#: Decides a turn the rules call hard (the miner model); returns the decision to use.
Decider = Callable[[TurnInput, TurnDecision], TurnDecision]


def segment(
    events: Sequence[EventView],
    lexicon: Lexicon,
    *,
    resume_at: int | None = None,
    lead_holds_start: bool | None = None,
    decide: Decider | None = None,
    remembered: Mapping[int, TurnKind] | None = None,
    carried: Sequence[EventView] = (),
) -> list[EpisodeDraft]:
    """Episodes in seq order; the last one is left open (closing is the caller's call).

    Each typed turn is classified (`turns.classify_turn`): a new task opens an
    episode; corrections, approvals, steering and follow-ups belong to the running
    one (follow-ups are its refinements); housekeeping belongs to none. Agent work
    before the first recognised intent forms an episode without an intent.
    `resume_at` continues an episode from an earlier pass: the seq of its intent event,
    which stays an intent whatever it says. The events before it are the lead: read
    only for what a turn is read against (the person's last words, what the agent did
    before, a Codex turn still running, the turns a rollback counts back over), as one
    pass over the session would have read them; the episodes they make are an earlier
    pass's, and are not returned (so one a later rollback takes back keeps what that
    pass stored). `lead_holds_start`: whether the lead was read from the session's first
    event (by default, whether the first event given is its first record; a record mining
    does not read may have been the first). `decide`, when given, settles the turns the
    rules mark hard (model-assisted mining, `hard_turns`); never a turn of the lead,
    which only lends context. `remembered` holds the kinds the miner model gave turns on
    an earlier reading of the session (by event id): a turn the rules still call hard
    keeps that verdict, neither asked again (the model is paid per question) nor handed
    back to the rules.

    `carried` is the conversation the session carries on from another (`mining.carried`),
    read before `events` as a lead is: the person's first turns here are read against it,
    as they would be in one session. Its episodes are the other session's; its running
    request, when the session goes on with it (a follow-up, a correction, the agent's
    work, housekeeping typed meanwhile), makes the first episode returned: it starts at
    the session's first event and carries that request on (`EpisodeDraft.carries_on`),
    with no request of its own.
    """
    if not events:
        return []  # (a lead alone is an earlier pass's, or another session's)
    own_from = len(carried)
    first_own_seq = events[0].seq
    if carried:
        events = [*carried, *events]
    episodes: list[EpisodeDraft] = []
    current: EpisodeDraft | None = None
    preamble: list[EventView] = []
    early: list[TurnRecord] = []  # housekeeping typed before the first intent
    after_interrupt = False
    undone = False  # the person undid the agent's latest work since their last message
    agent_text = ""
    agent_worked = False
    last_ts: datetime | None = None
    previous: TurnKind | None = None
    acted = refused = False
    acted_before = False  # the agent acted in an earlier episode of the session
    last_turn: TurnRecord | None = None  # the running episode's latest typed turn
    ended = True  # the agent's last act was its words (not a tool call or result)
    service_error = False  # the agent's service failed since the agent last wrote
    previous_text = ""  # the last typed turn addressed to the agent
    put_question = False  # the agent's last act was a call of its question tool
    # typed prompts since Codex began the agent's running turn; None when no turn is known
    # to be running (the turn ended, or the rollout writes no turn records)
    prompts_this_turn: int | None = None
    # the typed turns still part of the conversation, each with the episode it belongs
    # to (Codex's rollback takes the last ones back), and the rollback waiting for the
    # next typed turn: its record, and the running episode when the rollback took back
    # that episode's request itself
    addressed: list[tuple[TurnRecord, EpisodeDraft | None]] = []
    rollback: tuple[EventView, EpisodeDraft] | None = None
    # a rollback took back the requests of several episodes: the next typed turn stands
    # where the first of them stood, as a request of its own
    restart = False

    def open_episode(event: EventView, command: SlashCommand | None) -> EpisodeDraft:
        draft = EpisodeDraft(intent=event, command=command)
        episodes.append(draft)
        return draft

    kept_from = 0  # the first draft returned: the lead's are an earlier pass's
    in_lead = resume_at is not None or bool(carried)
    # the carried-on request's draft, with how much of it the lead had filled, and whether
    # what this session adds to it is returned (not an earlier pass's)
    carried_on: tuple[EpisodeDraft, int, int, int] | None = None
    carried_kept = False
    for index, event in enumerate(events):
        gap = (event.ts - last_ts).total_seconds() if (event.ts and last_ts) else None
        if event.ts is not None:
            last_ts = event.ts
        command = command_of_event(event)
        typed = command is not None or is_typed_prompt(event)
        if event.raw_type == TURN_START_TYPE and not event.is_sidechain:
            prompts_this_turn = 0
        elif ends_the_agents_turn(event) or (is_interrupt(event) and not event.is_sidechain):
            prompts_this_turn = None
        # Codex (0.1xx) lets the person type into the agent's running turn: a prompt after
        # the one that opened the turn, before the turn ended, was typed while the agent
        # worked, as a message Claude Code queues is
        typed_into_the_turn = typed and bool(prompts_this_turn)
        if typed and prompts_this_turn is not None:
            prompts_this_turn += 1
        if carried and index == own_from:
            # the session's own first event: the lead's housekeeping, its agent work
            # waiting for a request, its last turn and a rollback are the other session's
            in_lead = resume_at is not None and event.seq < resume_at
            kept_from = len(episodes)
            carried_kept = not in_lead
            early, preamble, last_turn, rollback, restart = [], [], None, None, False
            if current is not None and current.has_intent:
                filled = (len(current.events), len(current.feedback), len(current.housekeeping))
                carried_on = (current, *filled)
            else:
                current = None
        elif in_lead and resume_at is not None and event.seq >= resume_at and index >= own_from:
            in_lead = False
            carried_kept = False
            kept_from = len(episodes)
            # housekeeping typed before the session's first request is that request's, as
            # in one pass, when the lead holds the session's start; a lead that opens inside
            # an earlier episode holds that episode's housekeeping
            if not (first_own_seq == 1 if lead_holds_start is None else lead_holds_start):
                early = []
            current, preamble, last_turn, rollback, restart = None, [], None, None, False
            if typed:
                # the episode an earlier pass opened here, continued: its request stands,
                # and the turns after it are read as after any request
                current = open_episode(event, command)
                current.housekeeping.extend(early)
                early = []
                opened = TurnDecision(TurnKind.NEW_TASK, 1.0, ("continued",))
                addressed.append((TurnRecord(event, opened), current))
                previous, previous_text = TurnKind.NEW_TASK, _turn_text(event, command)
                after_interrupt = undone = agent_worked = put_question = False
                service_error = service_error and not has_words(previous_text)
                acted_before = acted_before or acted
                acted = refused = False
                continue
            # else the agent's work before the session's first request, continued: read on
            # as one pass reads it, waiting for the request that makes it an episode of
            # its own (or that ends it so, with the housekeeping typed meanwhile)
        if not typed:
            taken = rolled_back_turns(event)
            if taken and addressed:
                withdrawn = addressed[-min(taken, len(addressed)) :]
                del addressed[-len(withdrawn) :]
                requests = [
                    e
                    for r, e in withdrawn
                    if e is not None and r.event is e.intent and e.has_intent
                ]
                rollback = None
                if len(requests) == 1 and requests[0] is current:
                    # the running episode's request: the next turn may say it again
                    rollback = (event, requests[0])
                else:
                    for episode in requests:
                        episode.rolled_back = event
                    restart = bool(requests)
            undone = undone or undid_the_agents_work(event)
            if is_interrupt(event):
                after_interrupt = True
                if current is not None and last_turn is not None and not agent_worked:
                    if _meant_for_the_shell(last_turn.event, event):
                        # a shell command typed into the agent's box and stopped at once,
                        # before the agent did anything: the person meant the shell
                        current.feedback.remove(last_turn)
                        shell = TurnDecision(
                            TurnKind.HOUSEKEEPING, 0.8, ("a shell command, stopped at once",)
                        )
                        current.housekeeping.append(TurnRecord(last_turn.event, shell))
                        previous = TurnKind.HOUSEKEEPING
                    last_turn = None
            elif event.kind == "assistant_text" and not event.is_sidechain:
                agent_text = event.text
                agent_worked = True
                refused = service_error = False
                ended = True
                put_question = False
                acted = acted or agent_claims_done(event.text)
            elif event.kind in ("tool_call", "tool_result") and not event.is_sidechain:
                agent_worked = True
                ended = service_error = False
                if event.kind == "tool_call" and _ACTING.search(event.tool_name or ""):
                    acted = True
                if event.kind == "tool_call":
                    # the questions it puts through its question tool are its last words
                    asked = questions_put(event.tool_name, event.text)
                    put_question = bool(asked)
                    agent_text = asked or agent_text
                if event.kind == "tool_result":
                    refused = event.is_error and bool(_REFUSAL.search(event.text[:300]))
            elif is_service_error(event):
                service_error = True
            if current is not None:
                current.events.append(event)
            else:
                preamble.append(event)
            continue
        request = current.intent_text if current is not None else ""
        turn = TurnInput(
            text=_turn_text(event, command),
            command=command,
            has_episode=current is not None and current.has_intent,
            agent_text=agent_text,
            agent_worked=agent_worked,
            after_interrupt=after_interrupt,
            queued=event.is_steering or typed_into_the_turn,
            gap_s=gap,
            previous=previous,
            agent_acted=acted,
            after_refusal=refused,
            context=_context(current, request, agent_text),
            request=request,
            agent_ended=ended,
            acted_before=acted_before,
            after_service_error=service_error,
            previous_text=previous_text,
            answered_by_the_cli=command is not None and answered_by_the_cli(events, index, command),
            put_question=put_question,
            orienting=_only_orients(current),
            withdrawn_request=rollback[1].intent.text if rollback is not None else "",
            after_undo=undone,
        )
        decision = classify_turn(turn, lexicon)
        if decision.hard and remembered and event.id in remembered:
            decision = decided_by_model(decision, remembered[event.id])
        elif decide is not None and decision.hard and not in_lead:
            decision = decide(turn, decision)
        if restart and decision.kind is not TurnKind.HOUSEKEEPING:
            restart = False
            if decision.kind is not TurnKind.NEW_TASK:
                reason = ("a request in place of those rolled back",)
                decision = TurnDecision(TurnKind.NEW_TASK, 0.6, reason, hard=True)
        record = TurnRecord(event, decision, after_interrupt)
        # A command between the agent's work and the next word ("/model", "/effort") is
        # not addressed to the agent: the agent is still the one that was stopped, and its
        # work before the command is still what the next turn answers, unless the command
        # wiped the conversation ("/clear").
        if decision.kind is not TurnKind.HOUSEKEEPING:
            after_interrupt = False
            undone = False
            agent_worked = False
            put_question = False
        elif command is not None and command.starts_afresh:
            agent_worked = False
        if has_words(turn.text) and decision.kind is not TurnKind.HOUSEKEEPING:
            # a pasted image alone is part of the message that follows, and a command such
            # as "/model" between is not addressed to the agent
            service_error = False
        previous = decision.kind
        if decision.kind is not TurnKind.HOUSEKEEPING:
            previous_text = turn.text
            if rollback is not None and decision.kind is TurnKind.NEW_TASK:
                # the request taken back was not asked again: it was withdrawn
                rollback[1].rolled_back = rollback[0]
            rollback = None
        last_turn = None
        if decision.kind is TurnKind.HOUSEKEEPING:
            (current.events if current is not None else preamble).append(event)
            (current.housekeeping if current is not None else early).append(record)
            addressed.append((record, current))  # a message to Codex all the same ("hi")
            continue
        if decision.kind is TurnKind.NEW_TASK or current is None or not current.has_intent:
            if current is None and _has_agent_work(preamble):
                orphan = open_episode(preamble[0], None)
                orphan.has_intent = False
                orphan.events = preamble[1:]
                current = orphan
            if current is not None:
                current.closed = True
                if decision.approves_previous:
                    verdict = TurnDecision(
                        TurnKind.APPROVAL, 0.7, ("verdict before a new request",)
                    )
                    current.feedback.append(TurnRecord(event, verdict, record.after_interrupt))
            current = open_episode(event, command)
            current.intent_turn = record
            addressed.append((record, current))
            acted_before = acted_before or acted
            acted = refused = False
            current.housekeeping.extend(early)
            preamble, early = [], []
            continue
        current.feedback.append(record)
        current.events.append(event)
        addressed.append((record, current))
        last_turn = record
    if rollback is not None:
        rollback[1].rolled_back = rollback[0]  # taken back, and nothing typed after
    if current is None and _has_agent_work(preamble):
        orphan = open_episode(preamble[0], None)
        orphan.has_intent = False
        orphan.events = preamble[1:]
        orphan.housekeeping.extend(early)
    returned = episodes[kept_from:]
    if carried_on is not None and carried_kept:
        _carry_on(carried_on, events[:own_from], events[own_from], returned)
    return returned


def _carry_on(
    carried_on: tuple[EpisodeDraft, int, int, int],
    lead: Sequence[EventView],
    first: EventView,
    returned: list[EpisodeDraft],
) -> None:
    """What the session added to the request it carries on, as the first episode returned:
    its turns, its agent work, and the housekeeping typed while that request ran ("/model",
    "/exit"), which in one session would be that request's too."""
    draft, events, feedback, housekeeping = carried_on
    opens = returned[0].intent if returned else None
    own = EpisodeDraft(
        intent=first,
        events=[e for e in draft.events[events:] if e is not first],
        feedback=draft.feedback[feedback:],
        closed=draft.closed,
        housekeeping=draft.housekeeping[housekeeping:],
        carries_on=draft.request_text,
        whole=_in_order(draft, lead, first),
        carried_turns=1 + feedback,
        carried_until=max((e.ts for e in lead if e.ts is not None), default=None),
    )
    if any(e is draft.rolled_back for e in (first, *own.events)):
        own.rolled_back = draft.rolled_back
    added = own.feedback or own.housekeeping or _has_agent_work([first, *own.events])
    # (a verdict read off the session's first request, "Perfect, now polish the site",
    # cannot open an episode of the request it judges as well: two would start there)
    if first is not opens and added:
        returned.insert(0, own)
    elif returned:
        returned[0].housekeeping[:0] = own.housekeeping


def _in_order(draft: EpisodeDraft, lead: Sequence[EventView], first: EventView) -> EpisodeDraft:
    """The draft with its events numbered in the order they were lived: the conversation
    carried first, then this session's. The carried events keep their own session's
    places (another session's, or this file's copies), which say nothing of their order
    against this session's events, and the outcome rules read which came later by place
    (from 0 up: a place below it reads as none)."""
    offset = len(lead) + 1 - first.seq
    placed = {id(event): replace(event, seq=index + 1) for index, event in enumerate(lead)}

    def moved(event: EventView) -> EventView:
        found = placed.get(id(event))
        if found is None:
            found = placed[id(event)] = replace(event, seq=event.seq + offset)
        return found

    def turn(record: TurnRecord) -> TurnRecord:
        return TurnRecord(moved(record.event), record.decision, record.after_interrupt)

    return EpisodeDraft(
        intent=moved(draft.intent),
        events=[moved(e) for e in draft.events],
        feedback=[turn(t) for t in draft.feedback],
        closed=draft.closed,
        command=draft.command,
        intent_turn=turn(draft.intent_turn) if draft.intent_turn is not None else None,
        housekeeping=[turn(t) for t in draft.housekeeping],
        rolled_back=moved(draft.rolled_back) if draft.rolled_back is not None else None,
    )


#: A command line for a shell: a common command-line program, then its arguments.
_SHELL_LINE = re.compile(
    # an "!" before or after it: the person meant bash mode ("ls!", "! git status")
    r"^\s*!?\s*(git|npm|npx|pnpm|yarn|bun|node|deno|make|go|cargo|python3?|pip3?|uv|pytest|ls|cd|"
    r"cat|docker|kubectl|gh|brew|mise|just|ruff|mypy|tsc|vitest|jest)(\s+[\w:./@=-]+){0,6}!?\s*$"
)
#: "At once": the interrupt this soon after the turn, with no agent work between.
SHELL_STOP_S = 15.0


def _meant_for_the_shell(turn: EventView, interrupt: EventView) -> bool:
    """A turn that is a bare shell command line, interrupted within seconds before the
    agent did anything (the person then runs it in the shell; sent and not stopped, the
    agent runs it, and it stays a follow-up)."""
    if not _SHELL_LINE.match(clean_prompt(turn.text)):
        return False
    if turn.ts is None or interrupt.ts is None:
        return False
    return (interrupt.ts - turn.ts).total_seconds() <= SHELL_STOP_S


#: Tools that change files or run commands (reading and searching are not acting).
_ACTING = re.compile(
    r"^(?!.*todo)(.*(edit|write|patch|bash|shell|exec|command|notebook|run|agent|task).*)$",
    re.IGNORECASE,
)
#: Codex's result for a command or a patch the person declined to approve (the VS Code
#: extension): the person's refusal, like Claude Code's "doesn't want to proceed".
CODEX_REFUSAL = r"^\s*(exec command|patch) rejected by user\b"
_REFUSAL = re.compile(
    r"user doesn'?t want to (proceed|take)|tool use was rejected|" + CODEX_REFUSAL,
    re.IGNORECASE,
)


def _only_orients(current: EpisodeDraft | None) -> bool:
    """The running episode's request and every refinement of it only had the agent look
    at the project."""
    if current is None or not current.has_intent:
        return False
    return all(orients_only(text) for text in (current.intent_text, *current.refinements))


def _context(current: EpisodeDraft | None, request: str, agent_text: str) -> str:
    if current is None:
        return agent_text
    return "\n".join([request, *current.refinements, agent_text])


def _has_agent_work(events: Sequence[EventView]) -> bool:
    return any(e.kind in ("tool_call", "tool_result", "assistant_text") for e in events)


def segment_subagent(events: Sequence[EventView]) -> EpisodeDraft | None:
    """A subagent session is one episode: its task prompt plus all its work."""
    for index, event in enumerate(events):
        if event.kind == "user_prompt" and not is_interrupt(event):
            return EpisodeDraft(intent=event, events=list(events[index + 1 :]))
    if not events:
        return None
    return EpisodeDraft(intent=events[0], events=list(events[1:]))
