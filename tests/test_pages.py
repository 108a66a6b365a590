import pytest


@pytest.mark.django_db
def test_home_page_answers(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Hanabi" in response.content
    # htmx is served by us, never from a CDN
    assert b"django_htmx/htmx" in response.content
    assert b"https://unpkg.com" not in response.content


@pytest.mark.django_db
def test_login_and_admin_login_pages_answer(client):
    assert client.get("/login/").status_code == 200
    assert client.get("/admin/login/").status_code == 200


@pytest.mark.django_db
def test_admin_lists_users_for_staff(client, django_user_model):
    admin = django_user_model.objects.create_superuser("alice@example.com", "pw-alice-123")
    django_user_model.objects.create_user("bob@example.com", "pw", display_name="Bob")
    client.force_login(admin)
    response = client.get("/admin/accounts/user/")
    assert response.status_code == 200
    assert b"bob@example.com" in response.content
