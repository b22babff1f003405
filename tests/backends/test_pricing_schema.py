"""Price lookup, overrides, and the shared edit schema."""

from __future__ import annotations

import jsonschema
import pytest

from sleepd.backends.edit_schema import EDIT_SCHEMA
from sleepd.backends.pricing import CONSERVATIVE_DEFAULT, PriceTable, Usage


def test_versions_and_dates_match_their_family_only() -> None:
    table = PriceTable()
    assert table.lookup("claude-sonnet-4-6")[0].input == 3.0
    assert table.lookup("claude-sonnet-4-5-20250929")[0].output == 15.0
    assert table.lookup("gpt-4o-mini-2024-07-18")[0].input == 0.15  # longest key wins
    price, known = table.lookup("gpt-5.4-mini")  # a different model, not "gpt-5"
    assert not known and price == CONSERVATIVE_DEFAULT
    assert table.unknown_models == {"gpt-5.4-mini"}


def test_cost_batch_discount_and_cache_rates() -> None:
    table = PriceTable()
    usage = Usage(input_tokens=1_000_000, output_tokens=1_000_000, cache_read_tokens=1_000_000,
                  cache_write_tokens=1_000_000)  # fmt: skip
    assert table.cost("claude-haiku-4-5", usage) == pytest.approx(1 + 5 + 0.1 + 1.25)
    assert table.cost("claude-haiku-4-5", usage, batch=True, cache_ttl_1h=True) == pytest.approx(
        0.5 * (1 + 5 + 0.1 + 2.0)
    )


def test_overrides_replace_fields_and_price_local_models() -> None:
    table = PriceTable.with_overrides(
        {"llama3": {"input": 0, "output": 0}, "gpt-5": {"output": 12}}
    )
    assert table.cost("llama3", Usage(1000, 1000)) == 0.0
    assert table.is_known("llama3")
    assert table.lookup("gpt-5")[0].output == 12.0 and table.lookup("gpt-5")[0].input == 1.25


GOOD = {
    "edits": [
        {"op": "add", "anchor": "## Tests", "position": "after", "text": "- Run `pytest -q`."},
        {"op": "replace", "anchor": "old line", "text": "new line"},
        {"op": "delete", "anchor": "stale rule"},
    ],
    "rationale": "Failing runs skipped the tests.",
}


def test_edit_schema_accepts_the_documented_format() -> None:
    jsonschema.validate(GOOD, EDIT_SCHEMA)


@pytest.mark.parametrize(
    "bad",
    [
        {"edits": [{"op": "add", "anchor": "x", "text": "y"}], "rationale": "no position"},
        {"edits": [{"op": "delete", "anchor": "x", "text": "y"}], "rationale": "extra key"},
        {"edits": [{"op": "rewrite", "anchor": "x", "text": "y"}], "rationale": "bad op"},
        {"edits": []},
        {"edits": [], "rationale": "r", "confidence": 1},
    ],
)
def test_edit_schema_rejects_malformed_edits(bad: dict[str, object]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, EDIT_SCHEMA)
