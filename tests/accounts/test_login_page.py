import pytest


@pytest.mark.django_db
def test_the_login_page_offers_the_other_ways_in(client):
    html = client.get("/login/?next=/games/4/").content.decode()
    assert 'href="/accounts/signup/?next=/games/4/"' in html
    assert 'href="/accounts/login-link/?next=/games/4/"' in html
    assert 'href="/accounts/password-reset/"' in html


@pytest.mark.django_db
def test_the_nav_offers_sign_up_or_the_profile(client, alice):
    html = client.get("/accounts/login-link/").content.decode()
    assert 'href="/accounts/signup/"' in html
    assert 'href="/login/"' in html

    client.force_login(alice)
    html = client.get("/accounts/profile/").content.decode()
    assert '<a class="who" href="/accounts/profile/">Alice</a>' in html
    assert "Log out" in html
    assert 'href="/accounts/signup/"' not in html
