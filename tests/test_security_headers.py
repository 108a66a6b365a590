"""Production headers: a Content-Security-Policy that allows no inline script or style, no
sniffing, no framing, no referrer off the site, HttpOnly cookies; and `check --deploy` is
clean with production settings, which also turn on HTTPS-only cookies and HSTS."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"


def csp_directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {
        name: values
        for name, *values in (part.split() for part in policy.split(";") if part.strip())
    }


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/accounts/signup/", "/admin/login/"])
def test_every_page_forbids_inline_scripts_and_foreign_sources(client, path):
    response = client.get(path)
    assert response.status_code == 200
    directives = csp_directives(response)
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["default-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
def test_the_session_cookie_is_http_only(client, alice):
    from tests.conftest import PASSWORD

    response = client.post("/accounts/login/", {"login": alice.email, "password": PASSWORD})
    assert response.status_code == 302
    assert response.cookies["sessionid"]["httponly"] is True


def site_templates() -> list[Path]:
    # Emails are read in mail clients, which ignore style sheets: inline styles belong there.
    return [p for p in TEMPLATES.rglob("*.html") if "emails" not in p.relative_to(TEMPLATES).parts]


@pytest.mark.parametrize("path", site_templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_has_an_inline_script_style_or_handler(path):
    text = path.read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), "inline <script>"
    assert "<style" not in text, "inline <style>"
    assert not re.search(r"\sstyle=", text), "style attribute"
    assert not re.search(r"\son[a-z]+=", text), "event handler attribute"
    assert "hx-on" not in text and "js:" not in text, "htmx evaluating script"


def production_environment() -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTEST_VERSION", "DEBUG", "SECRET_KEY", "SITE_URL", "ALLOWED_HOSTS")
        and key != "DJANGO_ALLOW_ASYNC_UNSAFE"  # the browser tests set it for themselves
    }
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        SITE_URL="https://hanabi.example.org",
        ALLOWED_HOSTS="hanabi.example.org",
        DEBUG="false",
    )
    return env


def manage(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=production_environment(),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_check_deploy_is_clean_with_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


# /healthz renders no template: production serves static files from a manifest that only
# collectstatic writes.
PROBE = """
from django.conf import settings
from django.test import Client
response = Client().get("/healthz", secure=True, HTTP_HOST="hanabi.example.org")
print("status", response.status_code)
for name in ("Strict-Transport-Security", "Content-Security-Policy"):
    print(name, "=", response.headers.get(name, "-"))
insecure = Client().get("/healthz", HTTP_HOST="hanabi.example.org")
print("insecure", insecure.status_code, insecure.headers.get("Location", "-"))
print("cookies secure", settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE)
"""


def test_production_serves_https_only_with_hsts():
    result = manage("shell", "-c", PROBE)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert re.search(r"^status (200|503)$", out, re.M)  # healthy or not, the same headers
    assert "Strict-Transport-Security = max-age=31536000; includeSubDomains; preload" in out
    assert "script-src 'self'" in out
    assert "insecure 301 https://hanabi.example.org/healthz" in out
    assert "cookies secure True True" in out
