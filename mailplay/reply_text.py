"""What a player wrote in a reply to a turn email: no quote, no "On … wrote:", no signature.

The quote is found by quotequail (github.com/closeio/quotequail). It splits a plain-text
body at the start of the quote, whichever kind it is: a "> " block, an attribution line
("On … wrote:", "Am … schrieb …:", "Le … a écrit :"…), Outlook's "From:/Sent:/To:/Subject:"
block or its line of underscores. It gives the text above the quote and the text below it,
so that top- and bottom-posted replies both work.

The rest is glue, each piece said where it is:
- picking the body part and decoding it, whatever the charset or the MIME damage;
- undoing format=flowed (RFC 3676), which Thunderbird and Alpine use to wrap long lines;
- HTML to text (html.parser), leaving out the containers that clients put quotes and
  signatures in;
- dropping the quoted lines that quotequail leaves (its second and later quotes, or one
  under three lines), the attribution line of a language it does not know, and signatures.

This module imports no Django: it reads an email.message.EmailMessage and nothing else.
"""

import email
import email.message
import email.policy
import re
from collections.abc import Iterator
from html.parser import HTMLParser

import quotequail
from django.utils.translation import gettext as _

__all__ = ["UnreadableReply", "written_text"]

# quotequail's search for a header block is quadratic in the number of "Name: value" lines:
# 8,000 of them take 16 s, and the 256 KB inbound limit lets 50,000 in. A move is written
# above the quote, or below the quote of one turn email: the first lines are enough.
MAX_LINES = 500
# Deeper nesting of multiparts is no real client's.
MAX_DEPTH = 20


class UnreadableReply(Exception):
    """A reply with no text to read; `reason` says so to the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def written_text(message: email.message.EmailMessage) -> str:
    """What the person wrote in this reply: quoted text, the client's "On … wrote:" lines,
    signatures ("-- ", "Sent from my iPhone", "Get Outlook for iOS"…) removed; the plain text
    part if there is one, else the HTML part turned into text. Raises UnreadableReply when
    there is no text part at all.

    Only the first MAX_LINES lines of the body are read. A sign-off without "-- " before it
    ("Thanks,\\nAlice") is no marked signature and stays: the command is the first line.
    """
    plain = html = None
    for part in _body_parts(message, MAX_DEPTH, may_reparse=True):
        content_type = part.get_content_type()
        if content_type == "text/plain" and plain is None:
            plain = _decoded(part)
            if str(part.get_param("format", "")).lower() == "flowed":
                plain = _unflowed(plain, delsp=str(part.get_param("delsp", "")).lower() == "yes")
        elif content_type == "text/html" and html is None:
            html = _decoded(part)
    # Some clients send an empty text/plain beside the HTML they composed.
    if html is not None and (plain is None or not plain.strip()):
        return _strip_reply(_html_text(html))
    if plain is not None:
        return _strip_reply(plain)
    raise UnreadableReply(
        _(
            "Your reply had no text in it that could be read (only attachments, perhaps). "
            "Write the command in the body of the email, for example: %(example)s"
        )
        % {"example": _("play 1")}
    )


# --- The body part ------------------------------------------------------------------------


def _body_parts(
    part: email.message.Message, depth: int, may_reparse: bool
) -> Iterator[email.message.Message]:
    """The leaf parts of the message that may be its body: not attachments, not the insides
    of an attached message (a forward is not what the person wrote)."""
    if depth <= 0 or part.get_content_maintype() == "message":
        return
    if part.get_content_maintype() != "multipart":
        try:
            disposition = part.get_content_disposition()
        except Exception:  # Python's header parser raises on some damaged values (IndexError)
            return  # a part whose headers cannot be read is not read either
        if disposition != "attachment":
            yield part
        return
    payload = part.get_payload()
    if isinstance(payload, list):
        for subpart in payload:
            yield from _body_parts(subpart, depth - 1, may_reparse)
    elif may_reparse and (reparsed := _reparsed(part)) is not None:
        yield from _body_parts(reparsed, depth - 1, may_reparse=False)


# A delimiter line: "--" and a boundary (RFC 2046: up to 70 of these characters).
_DELIMITER = re.compile(
    rb"^--([0-9A-Za-z'()+_,./:=? -]{0,69}[0-9A-Za-z'()+_,./:=?-])[ \t]*\r?$", re.M
)


def _reparsed(part: email.message.Message) -> email.message.EmailMessage | None:
    """A multipart whose declared boundary is nowhere in its body (the parser keeps that body
    as one string), parsed again with the boundary of the first delimiter line in it."""
    # Not a multipart to the parser: get_payload(decode=True) gives the body's bytes as sent
    # (get_payload() would decode 8-bit text as ASCII, with replacement marks).
    body = part.get_payload(decode=True) or b""
    found = _DELIMITER.search(body)
    boundary = found.group(1).decode("ascii").removesuffix("--") if found else ""
    if not boundary:
        return None
    # Any multipart subtype is read alike here; the boundary is ASCII by the pattern.
    header = f'Content-Type: multipart/mixed; boundary="{boundary}"\n\n'.encode("ascii")
    return email.message_from_bytes(header + body, policy=email.policy.default)


def _decoded(part: email.message.Message) -> str:
    """The part's text. The stdlib's get_content() raises on an unknown charset name; here
    the declared charset is tried, then UTF-8 (often sent as "us-ascii" or undeclared), then
    the declared one again with replacement marks, then windows-1252, which reads any byte."""
    data = part.get_payload(decode=True) or b""
    declared = part.get_content_charset()
    for charset, errors in ((declared, "strict"), ("utf-8", "strict"), (declared, "replace")):
        if charset:
            try:
                return data.decode(charset, errors)
            # An unknown or non-text codec, a name with a NUL in it, or the wrong charset.
            except (LookupError, ValueError):
                continue
    return data.decode("cp1252", "replace")


def _unflowed(text: str, delsp: bool) -> str:
    """format=flowed (RFC 3676): a line that ends in a space goes on in the next line of the
    same quote depth; a space after the quote marks (or at the start) is stuffing."""
    lines: list[str] = []
    flowing_at = None  # the quote depth of the previous line, if it was flowed
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:].removeprefix(" ")
        flowed = content.endswith(" ") and content != "-- "  # "-- " is the signature mark
        if flowed and delsp:
            content = content[:-1]
        if flowing_at == depth and lines:
            lines[-1] += content
        else:
            lines.append(">" * depth + " " * bool(depth) + content)
        flowing_at = depth if flowed else None
    return "\n".join(lines)


# --- HTML to text -------------------------------------------------------------------------

# Elements whose content is a quote or a signature and is left out with all inside it: any
# blockquote (Apple Mail's and Thunderbird's <blockquote type="cite">, Gmail's inside its
# "gmail_quote" div, which also holds the "On … wrote:" line), Thunderbird's
# "moz-cite-prefix" (its "On … wrote:") and signatures, Gmail's signature, Yahoo's quote,
# Outlook's signatures and new Outlook's quote container.
_DROPPED_CLASSES = {"gmail_quote", "gmail_signature", "moz-cite-prefix", "moz-signature"}
_DROPPED_CLASSES |= {"yahoo_quoted"}
_DROPPED_IDS = {
    "Signature",
    "ms-outlook-mobile-signature",
    "mail-editor-reference-message-container",
}
# Outlook (web, iOS, Android, Windows) puts the quote after these, up to the end.
_QUOTE_FOLLOWS_IDS = {"appendonsend", "divRplyFwdMsg"}
_UNSEEN_TAGS = {"head", "style", "script", "title", "template", "blockquote"}
_VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "wbr"}
_BLOCK_TAGS = {
    "address", "article", "aside", "blockquote", "center", "dd", "div", "dl", "dt", "footer",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "ol", "p", "pre", "section",
    "table", "tr", "ul",
}  # fmt: skip
_HTML_SPACE = re.compile(r"[ \t\r\n\f]+")


class _HtmlText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.dropping: str | None = None  # the tag of the element being left out
        self.nesting = 0  # how many of those are open
        self.ended = False  # past Outlook's start of the quote
        self.in_pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.ended:
            return
        if self.dropping:
            if tag == self.dropping:
                self.nesting += 1
            elif self.dropping == "head" and tag == "body":  # a <head> left open
                self.dropping = None
            if self.dropping:
                return
        attributes = dict(attrs)
        element_id = attributes.get("id") or ""
        if element_id in _QUOTE_FOLLOWS_IDS:
            self.ended = True
            return
        classes = set((attributes.get("class") or "").split())
        if tag in _UNSEEN_TAGS or classes & _DROPPED_CLASSES or element_id in _DROPPED_IDS:
            if tag not in _VOID_TAGS:
                self.dropping, self.nesting = tag, 1
            return
        if tag == "br":
            self.chunks.append("\n")
        elif tag in _BLOCK_TAGS:
            self._line_break()
        elif tag in ("td", "th"):
            self.chunks.append(" ")
        if tag == "pre":
            self.in_pre += 1

    def handle_endtag(self, tag: str) -> None:
        if self.ended:
            return
        if self.dropping:
            if tag == self.dropping:
                self.nesting -= 1
                if self.nesting == 0:
                    self.dropping = None
            return
        if tag in _BLOCK_TAGS:
            self._line_break()
        if tag == "pre" and self.in_pre:
            self.in_pre -= 1

    def handle_data(self, data: str) -> None:
        if self.ended or self.dropping:
            return
        if not self.in_pre:
            data = _HTML_SPACE.sub(" ", data)
            # White space at the start of a line, as between two blocks, is not seen.
            if data == " " and (not self.chunks or self.chunks[-1].endswith("\n")):
                return
        self.chunks.append(data)

    def _line_break(self) -> None:
        if self.chunks and not self.chunks[-1].endswith("\n"):
            self.chunks.append("\n")


def _html_text(html: str) -> str:
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    return "\n".join(line.strip() for line in "".join(parser.chunks).split("\n"))


# --- Quote and signature ------------------------------------------------------------------

# The line that introduces a quote in a form quotequail does not know (K-9's "Hanabi <…>
# schrieb am 24. November 2026 09:12:00 MEZ:", other languages): it names an address or a
# time, and ends in a colon.
_ATTRIBUTION = re.compile(r"(@|\d:\d\d).*:\s*$")
# The signature separator, "-- " (RFC 3676); some clients strip its space.
_SIGNATURE_MARK = re.compile(r"-- ?")
# The one-line signatures of mobile clients, in the languages players are likely to use.
_MOBILE_SIGNATURE = re.compile(
    r"(sent (from|with) |get outlook for |von meinem .* gesendet|envoyé de mon |enviado desde mi )",
    re.IGNORECASE,
)
# Invisible characters some clients leave (Apple Mail starts its quote with a BOM).
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060"), None)
_INVISIBLE |= dict.fromkeys(map(ord, "\xa0\u202f"), " ")


def _strip_reply(text: str) -> str:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[:MAX_LINES]
    unwrapped = quotequail.unwrap("\n".join(lines))
    if unwrapped is not None:
        # ">" stands for the quote that quotequail took out, between the two texts.
        above, below = unwrapped.get("text_top", ""), unwrapped.get("text_bottom", "")
        lines = [*above.split("\n"), ">", *below.split("\n")]
    kept: list[str] = []
    for line in lines:
        line = line.translate(_INVISIBLE).rstrip()
        if _SIGNATURE_MARK.fullmatch(line):
            break
        if line.lstrip().startswith(">"):
            # A quote left in place; and the attribution line above it, if unknown.
            while kept and not kept[-1]:
                kept.pop()
            if kept and _ATTRIBUTION.search(kept[-1]):
                kept.pop()
            continue
        if _MOBILE_SIGNATURE.match(line.lstrip()) and len(line) < 100:
            continue
        kept.append(line)
    return "\n".join(kept).strip("\n")
