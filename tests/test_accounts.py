import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from accounts.models import User


@pytest.mark.django_db
def test_email_is_the_login():
    User.objects.create_user("Alice@Example.COM", "correct horse", display_name="Alice")
    assert authenticate(email="Alice@example.com", password="correct horse") is not None
    assert authenticate(email="alice@example.com", password="wrong") is None


@pytest.mark.django_db
def test_display_name_defaults_to_the_email_local_part_and_is_shown():
    user = User.objects.create_user("carol@example.com", "pw")
    assert user.display_name == "carol"
    assert str(user) == "carol"


@pytest.mark.django_db
def test_email_is_unique():
    from django.db import IntegrityError

    User.objects.create_user("dan@example.com", "pw")
    with pytest.raises(IntegrityError):
        User.objects.create_user("dan@example.com", "pw")


@pytest.mark.django_db
def test_demo_account_command_is_idempotent_and_keeps_the_password_true():
    call_command("ensure_demo_user", "demo@example.com", "first-pw")
    call_command("ensure_demo_user", "demo@example.com", "second-pw")
    assert User.objects.filter(email="demo@example.com").count() == 1
    user = authenticate(email="demo@example.com", password="second-pw")
    assert user is not None and user.is_staff
