"""A profile and a page of the history cost the same number of queries with 10 finished games
as with 1,000: every figure is a stored aggregate, and a page reads a page of rows."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.conftest import make_user
from tests.players.helpers import many_finished_games


def queries_of(client: Client, path: str, **query) -> int:
    client.get(path, query)  # the first request of a session may read what later ones keep
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, query)
    assert response.status_code == 200
    return len(captured)


def page_queries(count: int) -> dict:
    player, partner, viewer = (make_user(f"{name}{count}") for name in ("p", "q", "v"))
    many_finished_games([player, partner], count)
    assert player.variant_stats.get().played == count
    client = Client()
    client.force_login(viewer)
    profile, history = f"/players/{player.pk}/", f"/players/{player.pk}/games/"
    return {
        "profile": queries_of(client, profile),
        "history": queries_of(client, history),
        "history, second page": queries_of(client, history, page=2),
        "history, filtered": queries_of(
            client, history, partner=partner.pk, result="lost", players=2
        ),
    }


@pytest.mark.django_db
def test_the_pages_cost_the_same_queries_with_10_and_with_1000_games():
    few, many = page_queries(10), page_queries(1000)
    assert few == many
    assert max(many.values()) <= 12, many
