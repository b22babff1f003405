"""What a command told the agent: the text a slash command expanded to, read from the session.

"/changelog", "/simplify", "/review" or "/gsd:check-todos" is all a person types, but it
is not what the agent was asked. Claude Code writes, right after the command's own record,
the text the command expanded to: a custom command's file, a plugin's or a skill's
instructions, a built-in's prompt, with the person's arguments put in. That text is the
request. A replay hands the agent the task inside a quoted block in a fresh checkout,
where the person's user-level commands and plugins are not installed and a quoted
"/changelog" runs nothing: without the text, the agent has a name and a guess, and a
judge grades against a name.

Codex writes a skill the person invokes by name ("$handoff", "[$review](…/SKILL.md) the
auth change") as a record of its own after their message: the skill's text, which is
what the name asked for, and is read the same way.

Some commands expand only to an order to load a skill ("Invoke the
superpowers:brainstorming skill and follow it exactly as presented to you"); the skill's
own text then arrives as the next injected message once the agent has loaded it, and is
what the command meant. Both are read here: the text the command expanded to, followed
to the skill it names when it names one and nothing more.
"""

from __future__ import annotations

import re
import textwrap
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Sequence

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session as DbSession

from sleepd.mining.commands import SKILL_INVOKED, parse_command, skill_name
from sleepd.mining.loading import UNREAD_EVENT
from sleepd.store.models import Episode, Event

#: How far after a command the text it expands to may stand (Claude Code writes it as the
#: next record; a queue operation may come between).
EXPANSION_WITHIN = 3
#: How far after a command a skill it orders loaded may arrive (the agent's call of its
#: skill tool, the tool's result and some progress records come between).
SKILL_WITHIN = 12
#: The most of a command's text a task carries: past it, the text is cut at a line and
#: says so (a replay's request and a judge's rubric are model input, paid per token).
MAX_COMMAND_TEXT = 12_000

#: Episodes read per query.
_CHUNK = 200

#: A skill's header line ("Base directory for this skill: C:\\Users\\…\\skills\\taskmaster"):
#: where the person's plugins live, nothing the agent is asked. Group 1 is the directory.
SKILL_BASE = re.compile(
    r"^[ \t]*Base directory for this skill:([^\n]*)(?:\n|$)", re.IGNORECASE | re.MULTILINE
)
#: A command's whole text being an order to load a skill and follow it ("Invoke the
#: superpowers:brainstorming skill and follow it exactly as presented to you"), perhaps
#: with the person's arguments after it: group 1 is the skill's name.
_LOADS_A_SKILL = re.compile(
    r"^\s*(?:invoke|use|load|run|launch)\s+the\s+[`'\"]?([\w:./-]+?)[`'\"]?\s+skill\b"
    r"[^\n]{0,160}(?:\n\s*(?:ARGUMENTS:[\s\S]*)?)?$",
    re.IGNORECASE,
)


def command_texts(db: DbSession, episodes: Sequence[Episode]) -> dict[int, str]:
    """Per command episode (by id): what its command asked of the agent, for those whose
    session holds it, in a query per `_CHUNK` episodes: the text it expanded to, followed to the
    skill it orders loaded, the header of the person's plugin directory left out, a
    built-in's indented prompt dedented, cut at `MAX_COMMAND_TEXT`. The person's side of
    the record is read (`is_meta` user records injected after the command), never the
    agent's words."""
    if not episodes:
        return {}
    window = max(EXPANSION_WITHIN, SKILL_WITHIN)
    # a record of a kind the harvest does not know may stand after each one, and is no
    # step: the records are read that much further, and their steps counted without it
    reach = 2 * window
    injected: dict[int, list[tuple[int, str]]] = defaultdict(list)
    typed: dict[int, int] = {}  # the first typed turn after the command, by episode
    for start in range(0, len(episodes), _CHUNK):
        chunk = episodes[start : start + _CHUNK]
        # each episode's few records after its command, and only the person's side
        ranges = [
            and_(
                Event.session_id == e.session_id,
                Event.seq.between(e.start_seq + 1, e.start_seq + reach),
            )
            for e in chunk
        ]
        rows = db.execute(
            select(Event.session_id, Event.seq, Event.kind, Event.is_meta, Event.text, UNREAD_EVENT)
            .where(or_(*ranges), or_(Event.role == "user", UNREAD_EVENT))
            .order_by(Event.session_id, Event.seq)
        ).all()
        passed_over: dict[int, list[int]] = defaultdict(list)  # by session, in order
        for session_id, seq, *_, is_unread in rows:
            if is_unread:
                passed_over[session_id].append(seq)
        commands: dict[int, list[Episode]] = defaultdict(list)
        for e in chunk:
            commands[e.session_id].append(e)
        for session_id, seq, kind, is_meta, text, is_unread in rows:
            if is_unread:
                continue
            unread_seqs = passed_over.get(session_id, [])
            # (two commands typed in a row share records: each reads them at its own
            # distance)
            for e in commands[session_id]:
                if not e.start_seq < seq <= e.start_seq + reach:
                    continue
                skipped = bisect_left(unread_seqs, seq) - bisect_right(unread_seqs, e.start_seq)
                step = seq - e.start_seq - skipped
                if step > window:
                    continue
                if is_meta:
                    injected[e.id].append((step, text or ""))
                elif kind == "user_prompt":
                    typed.setdefault(e.id, step)
    skills = {
        e.id: skill_name(invoked)
        for e in episodes
        if (invoked := SKILL_INVOKED.match(e.intent_text or "")) is not None
    }
    texts: dict[int, str] = {}
    for episode_id, records in injected.items():
        # (in step order, once each: two chunks may both have read a shared record)
        before_typed = sorted({(s, t) for s, t in records if s < typed.get(episode_id, window + 1)})
        if episode_id in skills:
            text = _codex_skill(before_typed, skills[episode_id])
        else:
            text = _read(before_typed) or ""
        if text:
            texts[episode_id] = text
    return texts


#: Codex's record of a skill the person invoked by name (`$handoff`), put in after their
#: message (codex-rs `SkillInstructions`): the name, the path of its SKILL.md on their
#: machine, and the file's text.
#: Read from the record's head only: the body is any length, and a pattern run over it
#: could take time that grows with its square (a body of spaces).
_CODEX_SKILL_HEAD = re.compile(
    r"\s*<skill>[ \t]*\n?[ \t]*<name>([^<\n]{0,200})</name>[ \t]*\n?"
    r"[ \t]*<path>[^<\n]{0,4096}</path>[ \t]*\n?"
)


def _codex_skill(records: Sequence[tuple[int, str]], name: str) -> str:
    """The text of the Codex skill the request invoked by name, from its skill record
    (without the path of the person's copy); "" when none of that name arrived."""
    wanted = name.split(":")[-1].lower()
    for _, text in records:
        head = _CODEX_SKILL_HEAD.match(text)
        if head is None or head.group(1).strip().split(":")[-1].lower() != wanted:
            continue
        body = text[head.end() :].rstrip().removesuffix("</skill>")
        return clip(body.strip())
    return ""


#: Records after a command that are not its text: the command's own record again, and what
#: Claude Code itself printed or noted for a command it answered ("<local-command-stdout>Goal
#: set: …", the caveat before the person's local commands).
_NOT_AN_EXPANSION = ("<command-", "<local-command-", "Caveat: The messages below")


def _read(records: Sequence[tuple[int, str]]) -> str | None:
    """The command's text from the injected records after it, in order (steps after the
    command): the first with words that is neither the command's own record again nor
    what Claude Code printed for it (`_NOT_AN_EXPANSION`)."""
    for index, (step, text) in enumerate(records):
        if step > EXPANSION_WITHIN:
            return None
        if not text.strip() or text.lstrip().startswith(_NOT_AN_EXPANSION):
            continue
        if parse_command(text) is not None:
            continue  # the command's own record again, not what it expands to
        skill = _skill_body(text, records[index + 1 :])
        # (a built-in's prompt is written indented, as it stands in the program's source)
        own = textwrap.dedent(text).strip()
        whole = f"{own}\n\n{skill}" if skill else own
        return clip(without_skill_base(whole))
    return None


def _skill_body(expansion: str, later: Sequence[tuple[int, str]]) -> str:
    """The text of the skill an expansion only orders loaded, from the first skill
    record after it whose directory is that skill's; "" when it orders none or none
    arrived."""
    order = _LOADS_A_SKILL.match(expansion.strip())
    if order is None:
        return ""
    name = order.group(1).split(":")[-1].lower()
    for _, text in later:
        header = SKILL_BASE.match(text.lstrip())
        if header is None:
            continue
        directory = header.group(1).strip().rstrip("/\\").lower()
        # "superpowers:brainstorming" is loaded from ".../skills/brainstorming"
        if re.split(r"[/\\]", directory)[-1] == name:
            return text.strip()
    return ""


def without_skill_base(text: str) -> str:
    """The text without the skill header lines that say where the person's plugin lives."""
    return SKILL_BASE.sub("", text.strip()).strip()


def clip(text: str, limit: int = MAX_COMMAND_TEXT) -> str:
    """The text whole when it fits, or cut at the last line break before `limit` with a
    line that says how much was left out."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit)
    kept = text[: cut if cut > limit // 2 else limit].rstrip()
    return f"{kept}\n[… {len(text) - len(kept):,} more characters of the command's text left out]"
