"""Credentials a URL carries in its own shape, and values that end where a URL's query does.

Found in a real history (isaacmorgado's, MIT, not in the repository): presigned upload URLs
printed by a tool, a key typed into a slash command's arguments and one given as a shell
default (`${FEATHERLESS_API_KEY:-rc_…}`), stored in the clear. Every key and signature here
is made up in the shape of the real ones.
"""

from __future__ import annotations

import pytest

from sleepd.redaction import Redactor

VALUE = "Zq8Xw2Lr5Tn9Kp3Vb6Hm1Jd4Fs7Gc0YaQ"
HEX_SIG = "c73c512a1e1765e9b9ac7ab335934510a31ec9f33e188b069183f281c3873cd7"
FEATHERLESS = "rc_4e1d7a90c3b28f56d0e9a7c41b3f8d25e6a09c7b1d4f3e8a2c5b9d0e7f1a6c3b"


@pytest.mark.parametrize(
    "text",
    [
        # a query goes on after the value, or a fragment follows it
        f"GET https://api.example.test/v1/items?token={VALUE}&page=2",
        f"https://api.example.test/v1/items?x=1&api_key={VALUE}&q=shoes",
        f"https://app.example.test/#access_token={VALUE}&token_type=Bearer",
        f"https://app.example.test/cb?refresh_token={VALUE}#done",
        # a value percent-encoded in the query (base64's + / =)
        f"https://chat.example.test/hook?key=abc&token={VALUE}%3D%3D&thread=1",
        # a URL inside a URL's query (a sign-in's redirect), encoded once more
        f"https://login.example.test/?next=https%3A%2F%2Fapp%2F%3Fapi_key%3D{VALUE}%26x%3D1",
        # the arguments of a slash command, as Claude Code stores them
        f"<command-args>this is the API key: {VALUE}.BrfNpV8TbeF5tCaK</command-args>",
        # a shell default when the variable is unset
        f'curl -H "Authorization: Bearer ${{SERVICE_API_KEY:-{VALUE}}}" https://x.test',
    ],
)
def test_a_named_value_that_ends_where_a_url_or_a_tag_goes_on_is_redacted(
    redactor: Redactor, text: str
) -> None:
    redacted, rules = redactor.redact(text)
    assert VALUE[:20] not in redacted, redacted
    assert rules


@pytest.mark.parametrize(
    "text",
    [
        # code: a call, a member chain or another name after the assignment
        "const helpDeskCredential = string2Base64(`${this.helpDeskId}:${this.token}`);",
        "token := base64.URLEncoding.EncodeToString(b)",
        "const privateKey = secp256k1.utils.randomPrivateKey();",
        "credentials: { secretAccessKey: process.env.R2_SECRET_ACCESS_KEY,\n}",
        "B=(OB()?Q.s1mAccessCache:Q.s1mNonSubscriberAccessCache)?.[A]",
        "AVFormatIDKey: kAudioFormatLinearPCM,",
        # a property list's <key> element holds a name
        "\t<key>CFBundleGetInfoString</key>\n\t<string>__HB_build</string>",
    ],
)
def test_code_beside_a_secret_name_is_kept(redactor: Redactor, text: str) -> None:
    assert redactor.redact(text) == (text, [])


@pytest.mark.parametrize(
    ("text", "secret", "rule"),
    [
        (
            "http://localhost:4566/uploads/a.wav?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            "&X-Amz-Date=20251217T014650Z&X-Amz-Expires=3600"
            f"&X-Amz-Signature={HEX_SIG}&X-Amz-SignedHeaders=host",
            HEX_SIG,
            "url-signature",
        ),
        (
            "https://b.s3.amazonaws.com/k?X-Amz-Security-Token=IQoJb3JpZ2luX2VjEJr%2F%2F"
            "wEaCXVzLWVhc3QtMSJHMEUCIQDx7Kp2&X-Amz-Signature=00",
            "IQoJb3JpZ2luX2VjEJr",
            "url-signature",
        ),
        (
            "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256"
            f"&X-Goog-Expires=900&X-Goog-Signature={HEX_SIG}{HEX_SIG}",
            HEX_SIG,
            "url-signature",
        ),
        (
            f"https://cdn.example.test/v.mp4?Expires=1767225600&Signature={VALUE}~{VALUE}__"
            "&Key-Pair-Id=K2JCJMDEHXQW5F",
            VALUE,
            "url-signature",
        ),
        # inside a JSON string whose `&` a JSON encoder escaped
        (
            '{"url":"https://x.test/y?a=1\\u0026X-Amz-Signature=' + HEX_SIG + '\\u0026b=2"}',
            HEX_SIG,
            "url-signature",
        ),
        (
            f"https://discord.com/api/webhooks/123456789012345678/{VALUE}{VALUE}",
            VALUE,
            "webhook-url-token",
        ),
        (
            f"curl https://api.telegram.org/bot7123456789:AAH{VALUE[:32]}/sendMessage",
            VALUE[:20],
            "webhook-url-token",
        ),
        (
            f"https://maker.ifttt.com/trigger/door/with/key/{VALUE}",
            VALUE,
            "webhook-url-token",
        ),
        (
            "https://hooks.zapier.com/hooks/catch/1234567/b8x2kq9/",
            "b8x2kq9",
            "webhook-url-token",
        ),
        # a bot's token by its shape, with nothing naming it
        (f"use 7123456789:AAH{VALUE[:32]} for the bot", VALUE[:20], "telegram-bot-token"),
        (f"the key is {FEATHERLESS}", FEATHERLESS, "prefixed-provider-key"),
    ],
)
def test_a_credential_in_a_url_or_by_its_shape_is_redacted(
    redactor: Redactor, text: str, secret: str, rule: str
) -> None:
    redacted, rules = redactor.redact(text)
    assert secret not in redacted, redacted
    assert rule in rules


@pytest.mark.parametrize(
    "text",
    [
        "def sign(url, signature=None): pass",
        "the signature=valid check passed",
        "https://example.test/docs?section=signature-verification",
        # the format's own example in a README, not a token
        "Telegram bot tokens look like 123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11",
    ],
)
def test_a_signature_named_in_prose_or_code_is_kept(redactor: Redactor, text: str) -> None:
    assert redactor.redact(text) == (text, [])


@pytest.mark.parametrize(
    "text",
    [
        # a browser's "Copy as cURL", curl -v, a test's Set-Cookie, a client's config
        f"curl 'https://app.example.test/api' -H 'Cookie: sessionid={VALUE}; csrftoken=abc'",
        f"< Set-Cookie: connect.sid=s%3A{VALUE}.Xk3vR9qT2m; Path=/; HttpOnly",
        f"-b 'PHPSESSID=9f2c4e6a8b0d1f3e5a7c9b2d4f; laravel_session=eyJpdiI6{VALUE}'",
        f"Cookie: _myapp_session={VALUE}; JSESSIONID=9F2C4E6A8B0D1F3E5A7C9B2D4F6E8A0C",
        f"GEMINI_COOKIES='__Secure-1PSID=g.a000{VALUE}; __Secure-1PSIDTS=sidts-{VALUE}'",
        f"cookie: cf_clearance={VALUE}-1767225600-1.2.1.1; remember_user_token={VALUE}",
    ],
)
def test_a_session_cookie_is_redacted(redactor: Redactor, text: str) -> None:
    redacted, rules = redactor.redact(text)
    assert VALUE[:20] not in redacted and "9f2c4e6a8b0d" not in redacted, redacted
    assert "session-cookie" in rules


@pytest.mark.parametrize(
    "text",
    [
        # a session's id is no cookie
        "claude --resume 1f3e5a7c-9b2d-4f6e-8a0c-1e3b5d7f9a2c",
        "?sessionId=copilot-vscode%3A37485b85-fca1-4f58-8574-330fbeb3346e",
        "/api/checkout?session_id=invalid_session_123",
        '{"sessionId":"1f3e5a7c-9b2d-4f6e-8a0c-1e3b5d7f9a2c","cwd":"/w"}',
        # code
        "EFQ.captureSession=A9.captureSession;EFQ.close=A9.close",
        "db_session = SessionLocal()",
        "Set-Cookie: sessionid=; expires=Thu, 01 Jan 1970 00:00:00 GMT",
    ],
)
def test_a_session_named_outside_a_cookie_is_kept(redactor: Redactor, text: str) -> None:
    assert redactor.redact(text) == (text, [])
