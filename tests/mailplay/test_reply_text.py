"""The text a player wrote in a reply to a turn email (mailplay.reply_text.written_text).

The samples in replies/ are written as each client sends a reply: its headers, MIME
structure, transfer encoding, quote style, attribution line and signature. Each quotes a
turn email, whose lines (and the clients' quote headers) must never come out, least of all
the example commands in it ("  play 1").
"""

import email
import email.policy
import time
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from mailplay.reply_text import UnreadableReply, written_text

REPLIES = Path(__file__).resolve().parent / "replies"
TO = "play+12-1-7-0123456789abcdef0123@hanabi.example"

# What each sample's sender wrote, exactly.
WRITTEN = {
    "gmail_top.eml": "play 3",
    "gmail_html_only_signature.eml": "chat: nice one, Bob – that clue was perfect",
    # A sign-off without "-- " is no marked signature: it stays, below the command.
    "outlook_desktop_top.eml": "discard 4\n\nThanks,\nAlice",
    "outlook_web_html_only.eml": "clue bob red",
    "outlook_ios_top.eml": "clue carol 2",
    "apple_iphone_top.eml": "Play 2",
    # format=flowed: two lines as sent, one as written.
    "thunderbird_top.eml": (
        "chat: nice one, Bob! I think your clue was meant as a finesse on Carol’s slot 2, "
        "so I’ll wait and see."
    ),
    "thunderbird_bottom_signature.eml": "clue bob red",
    "k9_german_top.eml": "discard 4",
    "k9_english_top.eml": "play 4",
    # Bottom-posted between parts of the quote, then signed.
    "mutt_bottom.eml": "clue carol 5\n\nCarol, that 5 is the last one.\n\nWill do.",
    "alpine_quoted_command_bottom.eml": "discard 5",
    # The boundary in the body is not the declared one.
    "malformed_boundary.eml": "play 5\n(it’s the R2, I’m sure)",
    # charset="x-unknown" on UTF-8 text.
    "malformed_charset.eml": "clue carol 3 – she’s got it",
    # Cut off in the middle of the HTML part; bad base64 padding in the plain one.
    "malformed_truncated.eml": "discard 2",
}
UNREADABLE = ["no_text_part.eml"]

# Lines of the quoted turn email, and of the clients' attribution lines and quote headers.
QUOTED = [
    "Hello Alice",
    "Since your last turn",
    "Fireworks",
    "Clue tokens",
    "Bob:",
    "Your hand",
    "Reply to this email",
    "Commands:",
    "Open the game",
    "Unsubscribe",
    "hanabi@hanabi.example",
    "wrote:",
    "schrieb",
    "From:",
    "Sent:",
    "Subject:",
    "________",
    "Sent from my",
    "Get Outlook",
    "K-9 Mail",
]


def parsed(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)


def sample(name: str) -> EmailMessage:
    return parsed((REPLIES / name).read_bytes())


def html_part_alone(message: EmailMessage) -> EmailMessage:
    """The message as a client that sends HTML only would: its text/html part alone."""
    return parsed(message.get_body(preferencelist=("html",)).as_bytes())


def plain_reply(body: str, content_type: str = "text/plain; charset=utf-8") -> EmailMessage:
    return parsed(
        f"From: Alice <alice@example.org>\nTo: {TO}\nSubject: Re: Your turn in Hanabi game 12\n"
        f"MIME-Version: 1.0\nContent-Type: {content_type}\n\n{body}".encode()
    )


QUOTE = (
    "On Tue, 24 Nov 2026 at 09:12, Hanabi <hanabi@hanabi.example> wrote:\n"
    "> Fireworks: R1 Y0 G2 B0 W0   Score 3/25\n"
    "> Reply to this email with one command:\n"
    ">   play 1\n"
    ">   clue Bob red\n"
)


def test_every_sample_is_checked():
    assert sorted(path.name for path in REPLIES.glob("*.eml")) == sorted([*WRITTEN, *UNREADABLE])


@pytest.mark.parametrize("name", WRITTEN)
def test_the_command_is_the_first_line(name):
    assert written_text(sample(name)).strip().splitlines()[0] == WRITTEN[name].splitlines()[0]


@pytest.mark.parametrize("name", WRITTEN)
def test_what_was_written_and_nothing_else(name):
    text = written_text(sample(name))

    assert text == WRITTEN[name]
    for quoted in QUOTED:
        assert quoted not in text
    lines = [line.strip() for line in text.splitlines()]
    assert "play 1" not in lines
    assert not any(line.startswith(">") for line in lines)


MULTIPART = [
    name
    for name in WRITTEN
    if sample(name).get_content_type() == "multipart/alternative"
    and not name.startswith("malformed_")
]


@pytest.mark.parametrize("name", MULTIPART)
def test_the_html_part_alone_reads_the_same(name):
    """Gmail's gmail_quote, Outlook's divRplyFwdMsg, Apple Mail's and Thunderbird's
    blockquote type="cite", K-9's gmail_quote: left out with their attribution lines."""
    message = sample(name)
    html_only = html_part_alone(message)
    assert html_only.get_content_type() == "text/html"

    assert written_text(html_only) == written_text(message)


def test_a_message_with_no_text_part_is_unreadable():
    with pytest.raises(UnreadableReply) as raised:
        written_text(sample("no_text_part.eml"))

    assert isinstance(raised.value, Exception)
    assert "play 1" in raised.value.reason  # it says how to write a command


def test_a_text_attachment_or_an_attached_message_is_not_the_body():
    attached = EmailMessage()
    attached["From"] = "Alice <alice@example.org>"
    attached.set_content("play 1")
    attached.add_attachment(b"play 2\n", maintype="text", subtype="plain", filename="move.txt")
    forwarded = EmailMessage()
    forwarded.set_content("play 3")
    attached.add_attachment(forwarded)
    attached.get_payload().pop(0)  # no body of its own: only the attachments

    with pytest.raises(UnreadableReply):
        written_text(parsed(attached.as_bytes()))


def test_a_reply_of_only_the_quote_is_empty():
    assert written_text(plain_reply("\n" + QUOTE)) == ""


def test_a_short_quote_above_the_command():
    assert written_text(plain_reply(">   play 1\n\ndiscard 2\n")) == "discard 2"


def test_an_attribution_line_in_a_language_quotequail_does_not_know():
    italian = QUOTE.replace(
        "On Tue, 24 Nov 2026 at 09:12, Hanabi <hanabi@hanabi.example> wrote:",
        "Il giorno mar 24 nov 2026 alle ore 09:12 Hanabi <hanabi@hanabi.example> ha scritto:",
    )
    assert written_text(plain_reply("play 3\n\n" + italian)) == "play 3"


def test_an_empty_plain_part_gives_way_to_the_html():
    message = EmailMessage()
    message.set_content("\n")
    message.add_alternative(
        '<div dir="ltr">clue carol 4</div><div class="gmail_quote">On … wrote:'
        "<blockquote>Fireworks: R1</blockquote></div>",
        subtype="html",
    )
    assert written_text(parsed(message.as_bytes())) == "clue carol 4"


def test_html_head_styles_and_comments_are_not_text():
    html = (
        "<html><head><title>Re: Your turn</title><style>p {margin:0}</style></head><body>"
        "<!--[if mso]><p>hidden</p><![endif]--><p>play&nbsp;2</p><p>&nbsp;</p>"
        '<div id="appendonsend"></div><div>Fireworks: R1</div></body></html>'
    )
    assert written_text(plain_reply(html, "text/html; charset=utf-8")) == "play 2"


def test_format_flowed_with_delsp():
    # delsp=yes: the space that ends a flowed line was put in by the client, and goes.
    body = (
        "chat: I’ll keep the 5s, Carol has the red one, so saving it would wa \r\nste a clue.\r\n"
    )
    message = plain_reply(body, "text/plain; charset=utf-8; format=flowed; delsp=yes")

    assert written_text(message) == (
        "chat: I’ll keep the 5s, Carol has the red one, so saving it would waste a clue."
    )


@pytest.mark.parametrize(
    "signature",
    [
        "-- \nAlice",
        "--\nAlice",
        "Sent from my Galaxy",
        "Get Outlook for Android<https://aka.ms/AAb9ysg>",
        "Von meinem iPhone gesendet",
    ],
)
def test_signatures(signature):
    assert written_text(plain_reply(f"discard 1\n\n{signature}\n\n{QUOTE}")) == "discard 1"


@pytest.mark.parametrize(
    ("charset", "data"),
    [
        ("x-unknown", "play 1 – go".encode()),
        ("us-ascii", "play 1 – go".encode()),  # UTF-8 sent as ASCII
        ("windows-1252", "play 1 – go".encode("cp1252")),
        ("zlib", "play 1 – go".encode()),  # a codec, but not of text
        ("x-unknown", "play 1 – go".encode("cp1252")),  # neither declared nor UTF-8
        ("utf-8", b"play 1 \xff\xfe go"),  # not UTF-8 though said so
    ],
)
def test_charsets_that_are_wrong_or_unknown(charset, data):
    raw = f'MIME-Version: 1.0\nContent-Type: text/plain; charset="{charset}"\n'.encode()
    raw += b"Content-Transfer-Encoding: 8bit\n\n" + data + b"\n"

    assert written_text(parsed(raw)).startswith("play 1 ")


def test_a_long_reply_is_read_in_time():
    """quotequail is quadratic in header-like lines: only the first lines are read."""
    message = plain_reply("play 4\n" + "Note: x\n" * 50_000)

    started = time.monotonic()
    text = written_text(message)
    assert time.monotonic() - started < 5
    assert text.splitlines()[0] == "play 4"


SAMPLE_BYTES = [path.read_bytes() for path in sorted(REPLIES.glob("*.eml"))]


@settings(max_examples=300, deadline=None)
@given(
    raw=st.sampled_from(SAMPLE_BYTES),
    edits=st.lists(
        st.tuples(
            st.integers(min_value=0),
            st.integers(min_value=0, max_value=64),
            st.sampled_from([b"", b"--", b"\n--", b"=", b"\r", b">", b"\xff", b"<blockquote>"])
            | st.binary(max_size=6),
        ),
        max_size=8,
    ),
)
# A carriage return inside a part's charset parameter: Python's parser raises IndexError.
@example(raw=(REPLIES / "apple_iphone_top.eml").read_bytes(), edits=[(672, 0, b"*\r")])
def test_damaged_messages_never_crash(raw, edits):
    data = bytearray(raw)
    for position, length, replacement in edits:
        start = position % len(data)
        data[start : start + length] = replacement
    try:
        message = parsed(bytes(data))
    except Exception:
        # Python's own parser gives up on a few damaged headers: the processing ignores those
        # messages (tests/mailplay/test_processing.py: malformed messages never crash).
        assume(False)
    try:
        assert isinstance(written_text(message), str)
    except UnreadableReply as unreadable:
        assert unreadable.reason


header_values = st.lists(
    st.characters(exclude_categories=("Cs",))
    | st.sampled_from(['"', ";", "=", "\\", "*0*", "utf-8''%E2", "charset=", "boundary=", "\n "]),
    max_size=20,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(
    content_type=st.sampled_from(["text/plain", "text/html", "multipart/mixed", "text"])
    | header_values,
    params=header_values,
    disposition=header_values,
    encoding=st.sampled_from(["base64", "quoted-printable", "8bit", "x-uuencode"]) | header_values,
)
# Python's parser raises IndexError on this disposition only when it is read.
@example(content_type="text/plain", params="", disposition=";0*0*", encoding="base64")
def test_odd_mime_headers_never_crash(content_type, params, disposition, encoding):
    raw = (
        f"Content-Type: {content_type}; {params}\nContent-Disposition: {disposition}\n"
        f"Content-Transfer-Encoding: {encoding}\n\n--b\nplay 1\n"
    ).encode(errors="surrogateescape")
    try:
        message = parsed(raw)
    except Exception:
        # Python's own parser gives up on a few such headers: the processing ignores those
        # messages (tests/mailplay/test_processing.py: malformed messages never crash).
        assume(False)
    try:
        assert isinstance(written_text(message), str)
    except UnreadableReply as unreadable:
        assert unreadable.reason


commands = st.from_regex(
    r"(play|discard) [1-5]|clue (Bob|Carol|2) (red|blue|[1-5])|help", fullmatch=True
)


@settings(max_examples=100, deadline=None)
@given(command=commands, bottom=st.booleans(), prefix=st.sampled_from(["> ", ">"]))
def test_the_command_around_any_quote(command, bottom, prefix):
    quote = QUOTE.replace("> ", prefix)
    body = f"{quote}\n{command}\n" if bottom else f"{command}\n\n{quote}"

    assert written_text(plain_reply(body)) == command
