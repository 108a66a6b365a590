"""The admin's index has one section for accounts: allauth's email addresses are shown on
the account's own page, not in a second section also named "Accounts" (issue 27)."""

import re

import pytest

from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(client):
    admin = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    return client


def test_the_admin_index_has_one_accounts_section(superuser_client):
    response = superuser_client.get("/admin/")
    assert response.status_code == 200
    sections = [app["name"] for app in response.context["app_list"]]
    assert sections.count("Accounts") == 1, sections
    assert len(sections) == len(set(sections)), sections
    captions = re.findall(r"<caption>\s*<a [^>]*>([^<]+)</a>", response.content.decode())
    assert [c for c in captions if c.strip().casefold() == "accounts"] == ["Accounts"]


def test_an_accounts_email_addresses_are_on_its_page(superuser_client):
    player = make_user("alice")
    response = superuser_client.get(f"/admin/accounts/user/{player.pk}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Email addresses" in page
    assert f'value="{player.email}"' in page  # allauth's address row, in the inline
    # allauth's own pages for them are gone with its section.
    assert superuser_client.get("/admin/account/emailaddress/").status_code == 404
