"""The embedded default's email: one .eml file per message (hanabi_site.mail_backend),
read on the DEBUG-only pages /dev/mail/ (hanabi_site.dev_mail)."""

import email
import email.policy
import re
from pathlib import Path

import pytest
from django.http import Http404
from django.test import RequestFactory

from hanabi_site import dev_mail
from lib.emails import send_email

LOGIN_URL = "http://127.0.0.1:8000/accounts/link/?sesame=abc&next=%2Fgames%2F7%2F"
EML_NAME = re.compile(r"\d{8}-\d{6}-\d{6}-\d+\.eml")


def send_login_link(to: str = "alice@example.org", **context) -> None:
    context = {"user": {"display_name": "Alice"}, "url": LOGIN_URL, "valid_minutes": 15, **context}
    headers = {"List-Unsubscribe": "<http://127.0.0.1:8000/accounts/unsubscribe/xyz/>"}
    send_email("accounts/login_link", to, context, headers=headers)


def eml_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.eml"))


def test_each_message_is_its_own_eml_file(mail_folder: Path):
    send_login_link("alice@example.org")
    send_login_link("bob@example.org")

    files = eml_files(mail_folder)
    assert [EML_NAME.fullmatch(path.name) is not None for path in files] == [True, True]
    messages = [
        email.message_from_bytes(path.read_bytes(), policy=email.policy.default) for path in files
    ]
    # The names sort in the order the messages were sent.
    assert [message["To"] for message in messages] == ["alice@example.org", "bob@example.org"]
    text = messages[0].get_body(preferencelist=("plain",)).get_content()
    assert LOGIN_URL in text
    assert messages[0].get_body(preferencelist=("html",)) is not None


def test_messages_sent_in_the_same_instant_do_not_overwrite_each_other(mail_folder, monkeypatch):
    from hanabi_site import mail_backend

    monkeypatch.setattr(mail_backend, "eml_file_name", lambda sent_at, n: f"same-{n}.eml")
    send_login_link("alice@example.org")
    send_login_link("bob@example.org")
    assert [path.name for path in eml_files(mail_folder)] == ["same-1.eml", "same-2.eml"]


@pytest.mark.django_db
def test_the_list_shows_the_newest_first_with_links(client, mail_folder, debug_urls):
    send_login_link("alice@example.org")
    send_login_link("bob@example.org")
    older, newer = (path.name for path in eml_files(mail_folder))

    response = client.get("/dev/mail/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Sent emails</h1>" in html
    assert '<ul class="messages">' not in html  # the list is not mistaken for flash messages
    assert html.index("bob@example.org") < html.index("alice@example.org")
    assert f'<a href="/dev/mail/{newer}/">Your login link for Hanabi by post</a>' in html
    assert f'<a href="/dev/mail/{older}/">Your login link for Hanabi by post</a>' in html


@pytest.mark.django_db
def test_an_empty_mailbox(client, mail_folder, debug_urls):
    assert "No emails yet." in client.get("/dev/mail/").content.decode()


@pytest.mark.django_db
def test_a_message_shows_headers_a_clickable_text_and_the_html_in_a_sandbox(
    client, mail_folder, debug_urls
):
    send_login_link("alice@example.org", user={"display_name": "<Alice & Co>"})
    (path,) = eml_files(mail_folder)

    response = client.get(f"/dev/mail/{path.name}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<th scope="row">To</th><td><a href="mailto:alice@example.org">' in html
    assert "<h1>Your login link for Hanabi by post</h1>" in html
    clickable = f'<a href="{LOGIN_URL.replace("&", "&amp;")}" rel="nofollow">'
    assert clickable in html  # in the text body
    assert 'rel="nofollow">http://127.0.0.1:8000/accounts/unsubscribe/xyz/</a>' in html
    # The text body is escaped, not pasted in as HTML.
    assert "Hello &lt;Alice &amp; Co&gt;," in html

    (srcdoc,) = re.findall(r'<iframe [^>]*\bsandbox="[^"]*" srcdoc="([^"]*)"', html)
    assert "<" not in srcdoc  # escaped into the attribute, never into this page
    assert "&lt;base target=&quot;_top&quot;&gt;" in srcdoc
    assert "Log in to Hanabi" in srcdoc


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["missing.eml", "..eml", "x.txt", "%2e%2e%2fsecret.eml"])
def test_an_unknown_name_is_not_found(client, mail_folder, debug_urls, name):
    mail_folder.mkdir()
    (mail_folder / "x.txt").write_text("not a message")
    assert client.get(f"/dev/mail/{name}/").status_code == 404


@pytest.mark.parametrize("name", ["../secret.eml", "../../secret.eml", "/tmp/secret.eml"])
def test_a_path_out_of_the_mail_folder_is_refused(settings, mail_folder, name):
    # URLs cannot carry a "/" into the name; the view checks anyway.
    settings.DEBUG = True
    mail_folder.mkdir()
    (mail_folder.parent / "secret.eml").write_text("Subject: secret\n\nsecret")
    request = RequestFactory().get("/dev/mail/x/")
    with pytest.raises(Http404):
        dev_mail.mail_detail(request, name)


@pytest.mark.django_db
def test_without_debug_there_are_no_mail_pages(client, mail_folder):
    send_login_link()
    (path,) = eml_files(mail_folder)
    assert client.get("/dev/mail/").status_code == 404
    assert client.get(f"/dev/mail/{path.name}/").status_code == 404


def test_the_views_refuse_to_serve_without_debug(settings, mail_folder):
    # In case someone wires them up by hand.
    settings.DEBUG = False
    send_login_link()
    (path,) = eml_files(mail_folder)
    request = RequestFactory().get("/dev/mail/")
    with pytest.raises(Http404):
        dev_mail.mail_list(request)
    with pytest.raises(Http404):
        dev_mail.mail_detail(request, path.name)
