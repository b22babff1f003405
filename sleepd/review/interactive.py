"""The interactive queue, in the manner of `git add -p`.

Every decision is committed the moment it is made, so quitting (or a crash, or a
closed terminal) loses nothing: the next `sleepd review` resumes with what is left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from sqlalchemy.engine import Engine

from sleepd.errors import SleepdError
from sleepd.review.adopt import (
    AdoptionResult,
    InvalidDocumentError,
    execute_adoption,
    plan_adoption,
    reject_proposal,
)
from sleepd.review.editor import EditorError, edit_text
from sleepd.review.evidence import gather_evidence
from sleepd.review.queue import ProposalView, get_proposal, list_proposals, proposed_content
from sleepd.review.render import render_diff, render_evidence, render_header, render_story
from sleepd.review.story import gather_story
from sleepd.review.validate import document_problems

PROMPT_KEYS = "y,n,s,e,v,q,?"
HELP = """\
y - accept this edit: write the document (backed up, atomic)
n - reject this edit (you may give a reason)
s - skip it; it stays in the queue
e - edit the proposed document in $VISUAL/$EDITOR, then accept your version
v - view the evidence: per-task scores, example trajectories, source sessions
q - quit; every decision so far is already saved
? - print this help"""

Ask = Callable[[str], str]


class Reviewer:
    """One interactive pass over the pending proposals."""

    def __init__(self, engine: Engine, console: Console, ask: Ask, actor: str) -> None:
        self.engine = engine
        self.console = console
        self.ask = ask
        self.actor = actor
        self.tally: Counter[str] = Counter()

    def _answer(self, prompt: str) -> str:
        try:
            return self.ask(prompt).strip()
        except EOFError:
            return "q"

    def run(self) -> Counter[str]:
        ids = [v.id for v in list_proposals(self.engine)]
        if not ids:
            self.console.print("No pending proposals.")
            return self.tally
        for index, proposal_id in enumerate(ids, start=1):
            view = get_proposal(self.engine, proposal_id)
            if view.status != "pending":
                self.console.print(f"Proposal #{proposal_id} is now {view.status}; skipped.")
                self.tally[view.status] += 1
                continue
            if self._review_one(view, f"({index}/{len(ids)})") == "quit":
                break
        self.console.print(
            "accepted {accepted}, rejected {rejected}, skipped {skipped}".format(
                accepted=self.tally["accepted"],
                rejected=self.tally["rejected"],
                skipped=self.tally["skipped"],
            )
        )
        return self.tally

    def _review_one(self, view: ProposalView, position: str) -> str:
        render_header(self.console, view, position=position)
        render_story(self.console, view, gather_story(self.engine, view.id))
        self.console.rule("the change to the document", align="left")
        render_diff(self.console, view.diff)
        while True:
            key = self._answer(f"{position} Accept this edit [{PROMPT_KEYS}]? ").lower()
            if key == "y":
                outcome = self._accept(view)
            elif key == "n":
                reason = self._answer("Reason (optional, Enter to skip): ")
                reject_proposal(self.engine, view.id, actor=self.actor, reason=reason or None)
                self.console.print(f"Rejected proposal #{view.id}.")
                outcome = "rejected"
            elif key == "s":
                outcome = "skipped"
            elif key == "e":
                outcome = self._edit(view)
            elif key == "v":
                render_evidence(self.console, gather_evidence(self.engine, view.id))
                continue
            elif key == "q":
                return "quit"
            else:
                self.console.print(HELP, markup=False, highlight=False)
                continue
            if outcome != "again":
                self.tally[outcome] += 1
                return outcome

    def _accept(self, view: ProposalView, edited: str | None = None) -> str:
        try:
            plan = plan_adoption(self.engine, view.id, edited_content=edited)
        except InvalidDocumentError as exc:
            self.console.print(f"Not adopted: {exc}", markup=False)
            return "again"
        except SleepdError as exc:
            self.console.print(f"Cannot adopt: {exc}. Left in the queue.", markup=False)
            return "skipped"
        if plan.merged:
            self.console.print(f"{plan.path} changed since this proposal was staged; merged:")
            render_diff(self.console, plan.merge_diff)
            if self._answer("Write the merged document [y,n]? ").lower() != "y":
                self.console.print("Not written; the proposal stays in the queue.")
                return "skipped"
        try:
            result = execute_adoption(self.engine, plan, actor=self.actor)
        except SleepdError as exc:
            self.console.print(f"Cannot adopt: {exc}. Left in the queue.", markup=False)
            return "skipped"
        self._report(result)
        return "accepted"

    def _report(self, result: AdoptionResult) -> None:
        how = " (your edit)" if result.edited else ""
        how += " (merged)" if result.merged else ""
        self.console.print(
            f"Adopted proposal #{result.proposal_id}{how} into {result.path} "
            f"as version #{result.adopted_version_id}.",
            markup=False,
        )
        if result.stale_proposal_ids:
            stale = ", ".join(f"#{i}" for i in result.stale_proposal_ids)
            self.console.print(f"Marked stale (built on the old document): {stale}.")

    def _edit(self, view: ProposalView) -> str:
        try:
            edited = edit_text(
                proposed_content(self.engine, view.id), filename=Path(view.document_path).name
            )
        except EditorError as exc:
            self.console.print(f"Edit failed: {exc}", markup=False)
            return "again"
        problems = document_problems(view.document_kind, edited, path=view.document_path)
        if problems:
            self.console.print("Edit not adopted: " + "; ".join(problems), markup=False)
            return "again"
        return self._accept(view, edited=edited)


def run_interactive(engine: Engine, console: Console, ask: Ask, actor: str) -> Counter[str]:
    return Reviewer(engine, console, ask, actor).run()
