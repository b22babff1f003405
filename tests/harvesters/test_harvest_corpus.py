"""Every real sample transcript, laid out as the tools write it, gives the figures we counted."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harvesters.base import Harvester
from harvesters.claude_code import ClaudeCodeHarvester
from harvesters.codex import CodexHarvester
from harvesters.records import Batch, SourceFile

# Expected figures per sample, counted independently of the harvesters with jq / python
# one-offs over the raw files:
#   sessions   distinct `sessionId` on conversation records (Claude; a subagent file is its own
#              session) or the session_meta id (Codex). The summary-only 4e27c414 has none.
#   prompts    Claude: user string / text blocks that are not isMeta, not a compact summary, not
#              an interrupt and do not open with a command/hook/IDE/teammate tag or "Caveat:";
#              Codex: response_item message role=user not opening with <environment_context> /
#              "# AGENTS.md instructions". Claude also: queued messages consumed as steering
#              (queue-operation enqueue, then remove; first in, first out).
#   calls      Claude `tool_use` blocks; Codex function_call / custom_tool_call items.
#   errors     Claude tool_result blocks with is_error true; Codex outputs whose
#              metadata.exit_code is non-zero
#              (jq: .payload.output | fromjson | .metadata.exit_code).
#   interrupts user text starting "[Request interrupted by user"; Codex turn_aborted.
#   compactions Claude system/compact_boundary; Codex `compacted` items.
#   links      sessions with a parent (Claude subagent files).
#   tokens     (input, output, cache_read, cache_creation). Claude: per message.id the largest
#              value of each usage field, summed. Codex: last_token_usage of token_count lines,
#              consecutive repeats dropped (jq ... | uniq), input minus cached_input_tokens.


@dataclass(frozen=True)
class Figures:
    sessions: int
    prompts: int
    calls: int
    errors: int
    interrupts: int
    compactions: int
    links: int
    tokens: tuple[int, int, int, int]


EXPECTED = {
    "326189cf": Figures(1, 1, 14, 2, 0, 0, 0, (43, 487, 299222, 25577)),
    "4e27c414": Figures(0, 0, 0, 0, 0, 0, 0, (0, 0, 0, 0)),
    "4379d1bf": Figures(1, 1, 2, 0, 0, 0, 0, (17, 7, 49822, 8216)),
    "7acd37a8": Figures(1, 5, 71, 6, 1, 0, 0, (1804, 20797, 1502915, 182937)),
    "agent-3430b97e": Figures(1, 0, 0, 0, 0, 0, 1, (3, 166, 0, 1135)),
    "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl": Figures(
        1, 2, 40, 0, 0, 0, 0, (1308, 22901, 728660, 102189)
    ),
    "agent-a4ca7529859c158c2.jsonl": Figures(1, 1, 24, 1, 0, 0, 1, (445, 7923, 615694, 113769)),
    "claude__session-01": Figures(1, 1, 0, 0, 0, 0, 0, (6, 16, 3057, 1045)),
    "06_a50ac71f71": Figures(1, 1, 0, 0, 1, 0, 0, (0, 0, 0, 0)),
    "82_b981cea660": Figures(1, 13, 125, 8, 0, 1, 0, (205, 29853, 10427342, 600051)),
    "AcidicSoil": Figures(1, 1, 39, 3, 0, 0, 0, (71933, 22305, 1027328, 0)),
    "simonw": Figures(1, 1, 0, 0, 0, 0, 0, (0, 0, 0, 0)),
    "codex__session-01": Figures(1, 1, 0, 0, 0, 0, 0, (1675, 10, 20864, 0)),
}


def expected_for(sample: Path) -> Figures:
    [key] = [k for k in EXPECTED if k in sample.name]
    return EXPECTED[key]


def harvest(harvester: Harvester, file: SourceFile, **kwargs: Any) -> list[Batch]:
    return list(harvester.read(file, None, **kwargs))


def figures(batches: list[Batch]) -> Figures:
    events = [e for b in batches for e in b.events]
    sessions = {s.external_id: s for b in batches for s in b.sessions}
    return Figures(
        sessions=len(sessions),
        prompts=sum(e.kind == "user_prompt" for e in events),
        calls=sum(e.kind == "tool_call" for e in events),
        errors=sum(e.kind == "tool_result" and e.is_error for e in events),
        interrupts=sum(e.kind == "interrupt" for e in events),
        compactions=sum(e.raw_type in ("compact_boundary", "compacted") for e in events),
        links=sum(s.parent_external_id is not None for s in sessions.values()),
        tokens=(
            sum(e.input_tokens for e in events),
            sum(e.output_tokens for e in events),
            sum(e.cache_read_tokens for e in events),
            sum(e.cache_creation_tokens for e in events),
        ),
    )


def harvesters_for(home: Path) -> list[Harvester]:
    return [
        ClaudeCodeHarvester([home / "claude" / "projects"]),
        CodexHarvester([home / "codex" / "sessions", home / "codex" / "archived_sessions"]),
    ]


def test_every_sample_has_a_layout_and_expected_figures(
    layout_for: Any, corpus_samples: list[Path]
) -> None:
    for sample in corpus_samples:
        assert layout_for(sample) is not None, f"no layout for {sample.name}"
    for sample in (p for p in corpus_samples if p.suffix == ".jsonl"):
        assert sum(k in sample.name for k in EXPECTED) == 1, sample.name


def test_discovery_finds_every_transcript_with_its_role(
    corpus_home: Path, corpus_samples: list[Path]
) -> None:
    found = {
        Path(f.path).relative_to(corpus_home).as_posix(): f.role
        for h in harvesters_for(corpus_home)
        for f in h.discover()
    }
    assert len(found) == sum(p.suffix == ".jsonl" for p in corpus_samples)
    subagents = sorted(path for path, role in found.items() if role == "subagent")
    assert [Path(p).name for p in subagents] == [
        "agent-3430b97e.jsonl",
        "agent-a4ca7529859c158c2.jsonl",
    ]
    assert not any(p.endswith(".meta.json") for p in found)


def test_sample_figures(corpus_home: Path, layout_for: Any, sample: Path) -> None:
    harvester, file = _locate(corpus_home, layout_for, sample)
    batches = harvest(harvester, file)
    assert figures(batches) == expected_for(sample)
    assert all(not b.skipped for b in batches)
    for batch in batches:
        for event in batch.events:
            assert event.session_external_id
            assert event.timestamp is None or event.timestamp.utcoffset() is not None


def test_small_batches_and_a_second_pass_change_nothing(
    corpus_home: Path, layout_for: Any, sample: Path
) -> None:
    """Split messages and token repeats straddle batch edges; a re-read adds nothing."""
    harvester, file = _locate(corpus_home, layout_for, sample)
    batches = harvest(harvester, file, batch_lines=3)
    assert figures(batches) == expected_for(sample)
    ids = [(e.session_external_id, e.external_id) for b in batches for e in b.events]
    assert len(ids) == len(set(ids))
    again = list(harvester.read(file, batches[-1].cursor))
    assert [e for b in again for e in b.events] == []


def test_claude_sessions_take_project_from_cwd_and_subagents_link_to_parent(
    corpus_home: Path,
) -> None:
    harvester = ClaudeCodeHarvester([corpus_home / "claude" / "projects"])
    sessions = {
        s.external_id: s
        for f in harvester.discover()
        for b in harvester.read(f, None)
        for s in b.sessions
    }
    main = sessions["ef958aa1-0e93-49f0-bb71-150f63befcd1"]
    assert (
        main.project_path == "-experiments/worktrees"
    )  # the slug would say -experiments-worktrees
    assert main.model == "claude-opus-4-7" and main.agent_version == "2.1.114"
    sub = sessions["ef958aa1-0e93-49f0-bb71-150f63befcd1:agent-a4ca7529859c158c2"]
    assert sub.kind == "subagent"
    assert sub.parent_external_id == "ef958aa1-0e93-49f0-bb71-150f63befcd1"
    assert sub.project_path == "-experiments/worktrees/.claude/worktrees/agent-a4ca7529"
    assert sub.meta["agent_type"] == "general-purpose"
    assert sub.title == "Research Claude Code plan mode"
    old = sessions["7acd37a8-2745-4b58-a8a9-46164b22ad9e:agent-3430b97e"]
    assert old.parent_external_id == "7acd37a8-2745-4b58-a8a9-46164b22ad9e"
    assert "4e27c414-a885-46a0-b5c8-d58e1417377d" not in sessions


def test_codex_session_uses_utc_record_times_not_the_local_file_name(corpus_home: Path) -> None:
    harvester = CodexHarvester([corpus_home / "codex" / "sessions"])
    sessions = {
        s.external_id: s
        for f in harvester.discover()
        for b in harvester.read(f, None)
        for s in b.sessions
    }
    rollout = sessions["019a93b9-f380-7600-98ff-940e6b99603c"]
    assert rollout.started_at is not None
    assert rollout.started_at.isoformat() == "2025-11-17T21:30:28.608000+00:00"  # file says 15-30
    assert (rollout.model, rollout.agent_version) == ("gpt-5.1-codex", "0.58.0")
    assert (rollout.project_path, rollout.git_branch) == (
        "/home/user/projects/temp/chatbot-ui",
        "main",
    )


def test_image_becomes_a_placeholder_not_base64(corpus_home: Path) -> None:
    harvester = ClaudeCodeHarvester([corpus_home / "claude" / "projects"])
    [file] = [f for f in harvester.discover() if "4379d1bf" in f.path]
    [prompt] = [e for b in harvester.read(file, None) for e in b.events if e.kind == "user_prompt"]
    assert prompt.text.startswith("[image: image/png, ")
    assert "margin-bottom" in prompt.text
    assert len(prompt.text) < 1000


def _locate(home: Path, layout_for: Any, sample: Path) -> tuple[Harvester, SourceFile]:
    target = (home / layout_for(sample)).as_posix()
    for harvester in harvesters_for(home):
        for file in harvester.discover():
            if file.path == target:
                return harvester, file
    raise AssertionError(f"{sample.name} was not discovered at {target}")
