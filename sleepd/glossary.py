"""The words sleepd's output uses, each in plain language (one vocabulary).

`sleepd explain TERM` and `sleepd help gate` print these; `docs/glossary.md` is the
same text (a test keeps the two equal). Every figure a human view prints is named
with one of these words, so a reader can always look it up.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    name: str
    aliases: tuple[str, ...]
    topic: str
    meaning: str


TERMS: tuple[Term, ...] = (
    Term(
        "recurring task",
        ("task", "tasks", "recurring"),
        "mining",
        "A kind of request that came up again and again (similar wording, in at least "
        "two sessions), turned into something sleepd can replay: the request, its "
        "context and a judge that scores an answer from 0 to 1. A request seen once is "
        "not recurring.",
    ),
    Term(
        "failure pattern",
        ("pattern", "patterns"),
        "mining",
        "An error that came back: tool failures whose messages look alike once numbers, "
        "paths and ids are set aside. Listed with how often it happened in the last 7 "
        "days and the 7 before; a pattern seen once is not recurring and is not listed.",
    ),
    Term(
        "split",
        ("train", "validation", "validation split", "splits"),
        "gate",
        "Every task belongs to one of three groups, fixed when it is mined: train (the "
        "optimizer sees these failures and writes edits from them), validation (the gate "
        "decides on these) and sealed test (reported, never decided on).",
    ),
    Term(
        "sealed test",
        ("test", "test split", "sealed", "sealed test lift"),
        "gate",
        "Tasks no step of the night learns from or decides on. Their score before and "
        "after an accepted edit is an honest estimate of how much it helps on requests "
        "it was not tuned for.",
    ),
    Term(
        "rollout",
        ("rollouts", "replay"),
        "gate",
        "One replay of a task by the model, with the skill document as it is (before) "
        "or with the candidate edit (after), scored 0–1 by the task's judge.",
    ),
    Term(
        "score",
        ("scores", "validation score", "before", "after"),
        "gate",
        "The mean judge score over a split's rollouts, from 0 (every answer failed) to "
        "1 (every answer passed). 'Validation score 0.35 → 0.60' means the mean rose "
        "from 0.35 without the edit to 0.60 with it.",
    ),
    Term(
        "lift",
        ("validation lift", "test lift"),
        "gate",
        "How much an edit raises the score: score after minus score before, on the "
        "same tasks (+0.25 = a quarter of the scale). The gate decides on the validation "
        "lift; the sealed test lift is reported beside it.",
    ),
    Term(
        "informative task",
        ("informative", "informative tasks"),
        "gate",
        "A validation task whose rollouts did not all get the same score. A task every "
        "rollout passed (or failed) before and after says nothing about the edit; the "
        "gate needs a minimum number of informative tasks before it accepts anything.",
    ),
    Term(
        "p-value",
        ("p", "p value"),
        "gate",
        "How often an edit that changes nothing would show a lift at least this large "
        "by chance (exact permutation test over the rollouts). Small is good: 0.003 "
        "means 3 in 1,000.",
    ),
    Term(
        "alpha",
        ("α", "significance level", "alpha used", "α used", "corrected alpha"),
        "gate",
        "The most false acceptances the gate allows: with alpha 0.05, at most 5 % of "
        "edits that do nothing would be accepted. The configured alpha is shared out "
        "across nights (looks) and candidates, so each decision uses a smaller 'alpha "
        "used' (for example 0.05 / 3 looks / 3 candidates ≈ 0.0056); an edit is accepted "
        "only when its p-value is below the alpha used.",
    ),
    Term(
        "look",
        ("looks", "night look"),
        "gate",
        "One night's test of a candidate on fresh rollouts. An inconclusive candidate "
        "gets another look the next night, up to a maximum (3 by default); alpha is "
        "split across the looks so that retrying never raises the false-accept rate.",
    ),
    Term(
        "decision",
        ("accept", "reject", "inconclusive", "outcome", "verdict"),
        "gate",
        "accept: the lift is significant and no task got clearly worse, so the edit is "
        "staged for your review. reject: it made a task clearly worse, or the evidence "
        "never arrived. inconclusive: not enough evidence yet; tried again next night.",
    ),
    Term(
        "A/A calibration",
        ("a/a", "aa", "calibration", "a/a check"),
        "gate",
        "A check of the gate itself: it compares the document with an unchanged copy of "
        "itself. The right answer is 'no difference', so an A/A 'accept' would be a false "
        "alarm; 'inconclusive' or 'reject' is the expected, healthy result.",
    ),
    Term(
        "candidate",
        ("candidates", "edit", "edits"),
        "gate",
        "A proposed change to a skill document (a few added, replaced or removed "
        "sections) that the optimizer wrote from the train failures.",
    ),
    Term(
        "proposal",
        ("proposals", "staged"),
        "review",
        "A candidate the gate accepted, waiting for you in `sleepd review`. Nothing is "
        "written to your documents until you accept it.",
    ),
    Term(
        "dry run",
        ("dry-run", "planned"),
        "night",
        "A night that only plans: it counts tasks and rollouts but calls no model and "
        "stages nothing. Marked DRY RUN in the night's header and in `sleepd nights`.",
    ),
    Term(
        "simulated",
        ("sim", "simulator", "simulated backend"),
        "night",
        "Figures from the simulator backend, a test double used by `sleepd demo` and the "
        "tests. They show the machinery working, not that a real model learned anything.",
    ),
    Term(
        "episode outcome",
        ("outcome in the session", "success", "mixed", "failure", "abandoned", "unknown"),
        "mining",
        "How a request went in the session it came from, read from what followed it: "
        "success (the person approved, or moved on after the agent said it was done), "
        "mixed (a success after a correction: the first attempt failed), failure (the "
        "last word was a correction, a failing test or an error the agent left), "
        "abandoned (the person stopped the agent or left the request), unknown (nothing "
        "in the session says). docs/mining.md gives the rules.",
    ),
    Term(
        "project",
        ("projects", "repository", "worktree"),
        "mining",
        "The repository a session worked in. Sessions run in its worktrees (`claude "
        "--worktree`, `.worktrees/…`, Conductor workspaces) count for the repository, so "
        "its requests recur and its tasks add up in one place. Tasks, failure patterns, "
        "readiness and nights are per project.",
    ),
    Term(
        "readiness",
        ("ready", "enough tasks", "history"),
        "night",
        "Whether a project has enough mined tasks for a night to test an edit: at least "
        "one train task and as many validation tasks as the gate's minimum. When it does "
        "not, sleepd says how many it has, how many it needs, and roughly how many more "
        "sessions that takes at the rate tasks have come so far.",
    ),
    Term(
        "live verdict",
        ("watch", "helping", "looks worse", "no evidence yet", "after adoption"),
        "review",
        "What real sessions say about an adopted edit: the share of requests that ended in "
        "success before and after the adoption, for the kinds of task it was meant to help "
        "and for the project's other recurring ones, compared with an exact test. 'helping' "
        "and 'looks worse' need enough requests on both sides; otherwise 'no evidence yet'. "
        "Live sessions are not a controlled trial: read it as an alarm (docs/watch.md).",
    ),
    Term(
        "learned rule",
        ("rule", "rules", "contribution", "region budget"),
        "review",
        "One line of the part of a document sleepd manages, with the night and proposal it "
        "came from. A night measures its contribution (how much worse the validation tasks "
        "do without it) and proposes deleting rules whose contribution vanished; the "
        "managed part has a size budget. `sleepd rules` lists them.",
    ),
)


def lookup(word: str) -> Term | None:
    """The term a word names (its name or an alias, any case), or None."""
    wanted = " ".join(word.lower().replace("_", " ").split())
    for term in TERMS:
        if wanted == term.name or wanted in term.aliases:
            return term
    return None


def topic_terms(topic: str) -> list[Term]:
    return [t for t in TERMS if t.topic == topic]


TOPICS = ("mining", "gate", "review", "night")


def as_markdown() -> str:
    """The glossary as `docs/glossary.md` holds it."""
    lines = [
        "# Glossary",
        "",
        "The words sleepd's output uses. `sleepd explain TERM` prints one entry; "
        "`sleepd help gate` (or `mining`, `review`, `night`) prints a topic.",
        "This file is generated from `sleepd/glossary.py` "
        "(`python -m sleepd.glossary > docs/glossary.md`); a test keeps them equal.",
    ]
    for topic in TOPICS:
        lines += ["", f"## {topic}"]
        for term in topic_terms(topic):
            aliases = f" (also: {', '.join(term.aliases)})" if term.aliases else ""
            lines += ["", f"**{term.name}**{aliases}: {term.meaning}"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(as_markdown(), end="")
