"""The kind of outbox row the accounts app writes: allauth's emails (verification, login
code, password reset, notices of a changed address or password), rendered by
accounts/adapter.py in the request and sent by accounts/emails.py."""

from outbox.registry import register

ACCOUNT_EMAIL = register("account_email", "account email (verification, code, reset, notice)")
