"""USD prices per million tokens, so budgets are enforced in money, not hope.

List prices at the time of writing; users override them in the config (the
`price_overrides` setting) when providers change them or a local server is free.
Unknown models get a deliberately expensive default and are flagged.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sleepd.backends.base import MESSAGE_OVERHEAD_TOKENS, Estimate, ModelRequest

#: Tokens an agent CLI adds to every call on its own (its system prompt and tool
#: definitions), which the caller never sees: an allowance, so a CLI call's reservation
#: stays a bound. Settled to the CLI's reported usage when the call returns.
CLI_OWN_PROMPT_TOKENS = 30_000


def input_token_bound(request: ModelRequest) -> int:
    """An upper bound on a request's input tokens without asking the provider.

    Byte-level BPE tokenizers (Anthropic's and OpenAI's) never put fewer than one UTF-8
    byte in a token, so the prompt's byte count bounds its tokens; the JSON schema of a
    structured-output call and a per-message framing allowance are added.
    """
    import orjson

    parts = [request.system or "", request.cache_prefix or ""]
    parts += [m.content for m in request.messages]
    size = sum(len(p.encode("utf-8", "surrogatepass")) for p in parts)
    if request.json_schema is not None:
        size += len(orjson.dumps(request.json_schema))
    return size + MESSAGE_OVERHEAD_TOKENS * (len(request.messages) + 1)


@dataclass(frozen=True, slots=True)
class ModelPrice:
    """USD per million tokens."""

    input: float
    output: float
    cache_read: float
    cache_write: float
    cache_write_1h: float

    @classmethod
    def anthropic(cls, input_: float, output: float) -> ModelPrice:
        """Anthropic cache pricing: reads 0.1x, 5-minute writes 1.25x, 1-hour writes 2x."""
        return cls(input_, output, input_ * 0.1, input_ * 1.25, input_ * 2.0)

    @classmethod
    def openai(cls, input_: float, output: float, cached: float | None = None) -> ModelPrice:
        """OpenAI caches automatically: no write surcharge, discounted reads."""
        read = cached if cached is not None else input_ * 0.5
        return cls(input_, output, read, input_, input_)


FREE = ModelPrice(0.0, 0.0, 0.0, 0.0, 0.0)

#: Priced like the most expensive widely used model: unknown never means cheap.
CONSERVATIVE_DEFAULT = ModelPrice.anthropic(15.0, 75.0)

#: Batch APIs (Anthropic Message Batches, OpenAI Batch) bill at half price.
BATCH_DISCOUNT = 0.5

#: A key matches the model of that name and its dated or minor versions: "claude-sonnet-4"
#: prices "claude-sonnet-4-6" and "claude-sonnet-4-5-20250929", but "gpt-5" does not price
#: "gpt-5.4-mini" (a different model: unknown, so priced conservatively and flagged).
DEFAULT_PRICES: dict[str, ModelPrice] = {
    "claude-opus-4": ModelPrice.anthropic(15.0, 75.0),
    "claude-opus-4-5": ModelPrice.anthropic(5.0, 25.0),
    "claude-opus-4-6": ModelPrice.anthropic(5.0, 25.0),
    "claude-sonnet-4": ModelPrice.anthropic(3.0, 15.0),
    "claude-3-7-sonnet": ModelPrice.anthropic(3.0, 15.0),
    "claude-haiku-4": ModelPrice.anthropic(1.0, 5.0),
    "claude-3-5-haiku": ModelPrice.anthropic(0.8, 4.0),
    "gpt-4o": ModelPrice.openai(2.5, 10.0, 1.25),
    "gpt-4o-mini": ModelPrice.openai(0.15, 0.6, 0.075),
    "gpt-4.1": ModelPrice.openai(2.0, 8.0, 0.5),
    "gpt-4.1-mini": ModelPrice.openai(0.4, 1.6, 0.1),
    "gpt-4.1-nano": ModelPrice.openai(0.1, 0.4, 0.025),
    "gpt-5": ModelPrice.openai(1.25, 10.0, 0.125),
    "gpt-5-mini": ModelPrice.openai(0.25, 2.0, 0.025),
    "gpt-5-nano": ModelPrice.openai(0.05, 0.4, 0.005),
    "o4-mini": ModelPrice.openai(1.1, 4.4, 0.275),
    "sim": FREE,
}


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0


#: The largest token count a provider's report is believed for one call (and what the
#: ledger's integer columns hold everywhere).
MAX_REPORTED_TOKENS = 2**31 - 1


def reported_count(value: Any) -> int:
    """A token count from a provider's or a CLI's report: a whole number from 0 up to
    MAX_REPORTED_TOKENS. Anything else there (text, a negative, a fraction, a flag, an
    object) is no count, 0: a garbled report must neither stop the call's bookkeeping nor
    lower what the budget has counted."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value if value <= MAX_REPORTED_TOKENS else 0
    return 0


def reported_usd(value: Any) -> float | None:
    """A cost a CLI reported: a finite number of dollars, 0 or more; None for anything
    else, and the usage is priced from the price table instead."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        usd = float(value)
    except OverflowError:
        return None
    return usd if math.isfinite(usd) and usd >= 0 else None


#: The longest model name the store keeps (the ledger's and a rollout's column).
MODEL_NAME_CHARS = 128


def reported_model(value: Any) -> str | None:
    """A model name from a provider's or a CLI's answer: a string of 1 to
    MODEL_NAME_CHARS characters; None for anything else (the requested model stands)."""
    return value if isinstance(value, str) and 0 < len(value) <= MODEL_NAME_CHARS else None


def reported_text(value: Any) -> str:
    """A string field of a CLI's report or events; anything else there is no text."""
    return value if isinstance(value, str) else ""


def report_fields(value: Any) -> Mapping[str, Any]:
    """A report's object, or an empty one when the report holds anything else there."""
    return value if isinstance(value, dict) else {}


class PriceTable:
    """Looks up a model's price; remembers which models were priced by default."""

    def __init__(
        self,
        prices: Mapping[str, ModelPrice] | None = None,
        default: ModelPrice = CONSERVATIVE_DEFAULT,
        batch_discount: float = BATCH_DISCOUNT,
    ) -> None:
        self._prices = dict(DEFAULT_PRICES if prices is None else prices)
        self.default = default
        self.batch_discount = batch_discount
        self.unknown_models: set[str] = set()

    @classmethod
    def with_overrides(cls, overrides: Mapping[str, Mapping[str, float]]) -> PriceTable:
        """Overrides per model: any of input/output/cache_read/cache_write/cache_write_1h."""
        table = cls()
        for model, fields in overrides.items():
            base = table._prices.get(model, table.default)
            table._prices[model] = replace(base, **{k: float(v) for k, v in fields.items()})
        return table

    def lookup(self, model: str) -> tuple[ModelPrice, bool]:
        """(price, known); unknown models get the conservative default and are flagged."""
        best = ""
        for key in self._prices:
            if _matches(key, model) and len(key) > len(best):
                best = key
        if best:
            return self._prices[best], True
        self.unknown_models.add(model)
        return self.default, False

    def cost(
        self, model: str, usage: Usage, *, batch: bool = False, cache_ttl_1h: bool = False
    ) -> float:
        price, _known = self.lookup(model)
        write_rate = price.cache_write_1h if cache_ttl_1h else price.cache_write
        total = (
            usage.input_tokens * price.input
            + usage.output_tokens * price.output
            + usage.cache_read_tokens * price.cache_read
            + usage.cache_write_tokens * write_rate
        ) / 1_000_000
        return total * (self.batch_discount if batch else 1.0)

    def worst_case_cost(self, model: str, input_tokens: int, output_tokens: int) -> float:
        """Every input token billed at the dearest input rate (a cache write) for estimates."""
        price, _known = self.lookup(model)
        input_rate = max(price.input, price.cache_write, price.cache_write_1h)
        return (input_tokens * input_rate + output_tokens * price.output) / 1_000_000

    def is_known(self, model: str) -> bool:
        return self.lookup(model)[1]

    def estimate(self, model: str, input_tokens: int, max_tokens: int) -> Estimate:
        """The upper bound a budget reserves: full output, dearest input rate."""
        return Estimate(
            input_tokens=input_tokens,
            output_tokens=max_tokens,
            cost_usd=self.worst_case_cost(model, input_tokens, max_tokens),
            price_known=self.is_known(model),
        )


def _matches(key: str, model: str) -> bool:
    if model == key:
        return True
    rest = model[len(key) :] if model.startswith(key) else ""
    return len(rest) >= 2 and rest[0] == "-" and rest[1].isdigit()
