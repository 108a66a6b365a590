"""One helper for every email: subject, text and HTML bodies rendered from templates.

An email of kind "games/invitation" is made of templates/emails/games/invitation/
subject.txt, body.txt and body.html, all rendered with the same context.
"""

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string


def render_email(kind: str, context: dict) -> tuple[str, str, str]:
    """(subject, text body, HTML body) for one kind of email."""
    context = {"site_url": settings.SITE_URL, **context}
    folder = f"emails/{kind}"
    subject = " ".join(render_to_string(f"{folder}/subject.txt", context).split())
    text = render_to_string(f"{folder}/body.txt", context)
    html = render_to_string(f"{folder}/body.html", context)
    return subject, text, html


def send_email(kind: str, to: str, context: dict, headers: dict | None = None) -> None:
    subject, text, html = render_email(kind, context)
    message = EmailMultiAlternatives(subject, text, to=[to], headers=headers or {})
    message.attach_alternative(html, "text/html")
    message.send()
