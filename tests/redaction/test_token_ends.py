"""Where a provider's token ends: the shapes from one real history (isaacmorgado's, MIT, not
in the repository), where a live Stripe key, a SendGrid key, an OpenAI key and a Google
API key were stored as typed; the keys here are made up."""

from __future__ import annotations

import pytest

from sleepd.redaction import Redactor

STRIPE = "sk_live_51QxT2L5BseYEbCapAp3Mziqr4DTtdQupz4a1kTNaGiW52DqWLPRbzZvZ8SFRb4w54Etgg51a6m"
SENDGRID = "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"


@pytest.mark.parametrize(
    "text",
    [
        # curl's basic auth: the key as the user name, the colon before an empty password
        f"curl -s https://api.stripe.com/v1/coupons -u {STRIPE}: -d percent_off=40",
        f'curl -s https://api.stripe.com/v1/products -u "{STRIPE}:" | head -10',
        # a tool call's input as it is stored: JSON, the command's quotes escaped
        f'{{"command":"echo \\"{STRIPE}\\" | vercel env add STRIPE_SECRET_KEY production"}}',
        f'{{"command":"curl -H \\"Authorization: Bearer {SENDGRID}\\" https://api.sendgrid.com"}}',
        # escaped twice, as a raw line holds a JSON string inside JSON
        f'{{"raw":"{{\\\\"key\\\\":\\\\"{STRIPE}\\\\"}}"}}',
        # a query, brackets, a list, a tag, a pipe, a sentence
        f"https://example.test/charge?key={STRIPE}&amount=100",
        f"stripe.api_key = os.environ.get('X', default=({STRIPE}))",
        f"keys: [{STRIPE}, other]",
        f"<secret>{STRIPE}</secret>",
        f"printf {STRIPE}|pbcopy",
        f"Your live key is {STRIPE}.",
        # a token the tool or the agent cut short to show it
        f"the key {STRIPE}... (user provided)",
        f"the key {STRIPE}… (user provided)",
    ],
)
def test_a_token_against_a_delimiter_is_redacted(redactor: Redactor, text: str) -> None:
    redacted, rules = redactor.redact(text)
    token = SENDGRID if SENDGRID in text else STRIPE
    assert token[12:40] not in redacted, redacted
    assert rules


def test_a_token_that_runs_on_is_not_cut(redactor: Redactor) -> None:
    """A dot inside a longer string is no end: the rule finds no token there rather than a
    piece of one (gitleaks reads it the same)."""
    text = f"path/{STRIPE}.backup.json"
    assert STRIPE[:20] + "[" not in redactor.redact(text)[0]


def test_a_jwt_cut_short_with_an_ellipsis_is_redacted(redactor: Redactor) -> None:
    """The same history: a sign-up's response, an access token cut with "..." by the
    agent's own script, stored in the clear (a made-up token of the same shape)."""
    token = (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI1MmMxZjhmOC0wYmM3LTQ2N2EtOGRjZC1j"
        "YWI5NzViMTFjYmEiLCJleHAiOjE3NjcxNTU3NDR9.Q9wKx2LmZ8pR4vT7nB1cY6dF3hJ0sA5e"
    )
    text = f'Response: {{"access_token":"{token}...\n\n3. Get user profile'
    redacted, rules = redactor.redact(text)
    assert "eyJzdWIiOiI1MmMx" not in redacted
    assert rules == ["jwt"]


def test_a_sendgrid_key_cut_to_a_tables_width_is_redacted(redactor: Redactor) -> None:
    """The same history: Railway's listing of the variables showed the key wrapped at its
    column's width, its first piece shorter than the whole key the provider rule asks for."""
    cut = SENDGRID[:48]
    text = f"║ SENDGRID_API_KEY         │ {cut} ║\n║ SENDGRID_FROM_EMAIL │ a@b.c ║"
    redacted, rules = redactor.redact(text)
    assert cut[3:40] not in redacted
    assert rules == ["sendgrid-key-cut"]
    # a host name that starts the same way is no key
    assert redactor.redact("see SG.example.com and SG.aaaaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbb")[1] == []


@pytest.mark.parametrize(
    "text",
    [
        # typed into a prompt with no name before it (the shape of isaacmorgado's history)
        "rpa_8Q2ANK7W7XGX7AN4H4LJX0AMQIUXJ3OO7T4S2XFX1ru6w3 IS runpod api",
        "export GROQ_API_KEY=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",
        '"REPLICATE_API_TOKEN": "r8_Kq3Lm8Zp2Xv7Nb4Tc1Yd6Fh0Js5Aw9Er3Tk7Mn"',
        "curl -H 'Authorization: Bearer ya29.a0AfB_byC3Kq9Lm2Zp8Xv7Nb4Tc1Yd6Fh0Js5Aw9Er3Tk7Mn2Bv'",
        "TAVILY_API_KEY=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",
        "key: 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",
        # Railway's listing of the variables (the same history)
        "║ STRIPE_WEBHOOK_SECRET          │ whsec_Kq3Lm8Zp2Xv7Nb4Tc1Yd6Fh0Js5Aw9Er ║",
        # the same history: a Vercel AI Gateway key typed beside a Vercel token
        "this is my vercel api or vck_Kq3Lm8Zp2Xv7Nb4Tc1Yd6Fh0Js5Aw9Er3Tk7Mn2Bv6Cx1Ls8Pq",
        # providers agents are often set up with
        "LANGFUSE_SECRET_KEY=sk-lf-9f2c4e6a-8b0d-1f3e-5a7c-9b2d4f6e8a0c",
        "langsmith: 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",
        "fireworks fw_Kq3Lm8Zp2Xv7Nb4Tc1Yd6Fh0",
        "together tgp_v1_Kq3Lm8Zp2Xv7Nb4Tc1Yd6Fh0Js5Aw9Er3Tk7Mn2Bv6Cx1Ls8Pq",
        "context7 --api-key ctx7sk-Kq3Lm8Zp-2Xv7-Nb4T-c1Yd-6Fh0Js5Aw9Er",
        "resend re_Kq3Lm8Zp_2Xv7Nb4Tc1Yd6Fh0Js5Aw9E",
        "neon napi_kq3lm8zp2xv7nb4tc1yd6fh0js5aw9er3tk7mn2bv6cx1ls8pq9f2c4e6a8b0d",
        "render rnd_Kq3Lm8Zp2Xv7Nb4Tc1Yd6Fh0Js5Aw9E",
        "figma figd_Kq3Lm8Zp2Xv7Nb4Tc1Yd6Fh0Js5Aw9Er3Tk7Mn2Bv6",
        "posthog personal phx_Kq3Lm8Zp2Xv7Nb4Tc1Yd6Fh0Js5Aw9Er3Tk7Mn2Bv6",
        "docker login -u me --password-stdin <<< dckr_pat_Kq3Lm8Zp2Xv7Nb4Tc1Yd6Fh0Js5",
        "e2b e2b_9f2c4e6a8b0d1f3e5a7c9b2d4f6e8a0c1e3b5d7f",
    ],
)
def test_a_key_known_by_its_providers_prefix_is_redacted(redactor: Redactor, text: str) -> None:
    redacted, rules = redactor.redact(text)
    assert "prefixed-provider-key" in rules
    assert "Kq3Lm8Zp2X" not in redacted and "8Q2ANK7W" not in redacted
    assert "9f2c4e6a8b0d" not in redacted


@pytest.mark.parametrize(
    "text",
    [
        "the dscp_rpa_handler table",
        "fc-button and fc-event classes",
        "gsk_ is Groq's prefix",
        "def re_compile_pattern_matcher(x):",
        "fw_version_string_for_device",
        "the store_Kq3Lm8Zp2Xv7Nb4Tc1Yd6Fh0 key",
    ],
)
def test_a_word_with_a_providers_prefix_is_no_key(redactor: Redactor, text: str) -> None:
    assert redactor.redact(text) == (text, [])
