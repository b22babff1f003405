"""A night honours `mining.model_assisted`: its mining pass asks the miner model about
the user turns the rules find hard, and those calls are the night's spend too."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from sleepd.dream.night import NightOptions, run_night
from sleepd.store.models import BudgetEntry
from tests.mining.test_hard_turns import seed

from .support import small_config


def miner_entries(engine: Engine, night_id: int) -> list[BudgetEntry]:
    with Session(engine) as db:
        return list(
            db.scalars(
                select(BudgetEntry).where(
                    BudgetEntry.night_id == night_id, BudgetEntry.role == "miner"
                )
            )
        )


def test_a_night_asks_the_miner_model_about_hard_turns_and_books_the_calls(
    engine: Engine,
) -> None:
    seed(engine)
    cfg = small_config(mining__model_assisted=True)
    result = run_night(engine, cfg, NightOptions(skip_harvest=True, backend="sim"))
    hard = result.summary["steps"]["mine"]["hard_turns"]
    assert hard["asked"] >= 1, hard
    assert miner_entries(engine, result.night_id), "the miner's calls are not in the ledger"


def test_without_model_assisted_mining_a_night_asks_no_model_while_mining(
    engine: Engine,
) -> None:
    seed(engine)
    result = run_night(engine, small_config(), NightOptions(skip_harvest=True, backend="sim"))
    assert not result.summary["steps"]["mine"].get("hard_turns", {}).get("asked")
    assert miner_entries(engine, result.night_id) == []
