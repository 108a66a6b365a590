"""Issue 13, A: no admin page tells anything of a game's deal while it is played.

The admin filters on any field a URL names, so `?seed__lte=X` would answer one bit of the
seed per request. The experiment: one game in play, every admin page (and every lookup on the
deal) fetched by a moderator seated in it and by a superuser; then the game's deal (seed and
deck) is changed for another one under which the same moves are legal and leave the same
summary, and every page is fetched again. Whatever a page shows, it must not change. The
card ids in the moves' actions are positions in the deck, public once played or discarded;
as nothing in the admin changes with the deck, nothing there maps them to cards.
"""

import re

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import User
from games.admin import HIDDEN_FIELDS, reaches_hidden_field
from games.engine import GameOptions, new_deck, replay, seating_order
from games.models import ChatMessage, Game, Invitation
from games.services import play
from moderation import services as moderation
from tests.conftest import make_moderator
from tests.games.conftest import current_user, make_user, start_game

SEED = 1234
OPTIONS = GameOptions(players=2, empty_clues=True)  # any clue is legal, whatever the hands


def other_deal() -> tuple[int, list]:
    """Another seed that seats the players as SEED does, and an explicit deck unlike both."""
    seed = next(
        s for s in range(1, 100) if s != SEED and seating_order(s, 2) == seating_order(SEED, 2)
    )
    deck = [list(card) for card in reversed(new_deck(OPTIONS, SEED))]
    return seed, deck


def summary(options: GameOptions, deck_source, actions: list[dict]) -> tuple:
    state = replay(options, deck_source, actions)
    return state.turn, state.current_seat, state.score, state.max_score, state.clue_tokens


def cards_in_hands(state) -> list[list[str]]:
    return [[state.card(card_id).name for card_id in hand] for hand in state.hands]


@pytest.fixture
def seated_moderator(db) -> User:
    return make_moderator("mo")


@pytest.fixture
def view_only_staff(db) -> User:
    """Staff who may look at everything in the admin, without the moderator right."""
    user = make_user("stan")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    return user


@pytest.fixture
def superuser(db) -> User:
    return User.objects.create_superuser("root@example.org", "a-long-root-password")


@pytest.fixture
def game(seated_moderator, bob) -> Game:
    """A game in play with a clue from each side, a chat message, a report, an invitation
    and a moderator's action: something on every admin page that can reach a game."""
    game = start_game(seated_moderator, bob, seed=SEED, turn_time_limit=24, empty_clues=True)
    for rank in (1, 2, 3):
        game.refresh_from_db()
        action = {"type": "clue", "target": 1 - game.current_seat, "rank": rank}
        play.submit_action(game.pk, current_user(game), action, game.turn)
    ChatMessage.objects.create(game=game, author=bob, text="good luck")
    moderation.report(game.pk, bob, "slow", reported_user_id=seated_moderator.pk)
    Invitation.objects.create(game=game, email="dora@example.org", invited_by=seated_moderator)
    moderation.extend_deadline(game.pk, make_moderator("maud"), "a holiday", 24)
    game.refresh_from_db()
    return game


def test_the_other_deal_plays_the_same_moves_to_the_same_summary_with_other_cards(game):
    """The experiment changes only what is hidden: the moves stay legal and the summary the
    same, while every hand differs."""
    actions = list(game.moves.order_by("turn").values_list("action", flat=True))
    seed, deck = other_deal()
    for source in (seed, deck):
        assert summary(OPTIONS, source, actions) == summary(OPTIONS, SEED, actions)
        assert cards_in_hands(replay(OPTIONS, source, actions)) != cards_in_hands(
            replay(OPTIONS, SEED, actions)
        )
    state = replay(OPTIONS, SEED, actions)
    assert (game.turn, game.current_seat, game.score, game.max_score) == (
        state.turn,
        state.current_seat,
        state.score,
        state.max_score,
    )


def changelist(model) -> str:
    return f"/admin/{model._meta.app_label}/{model._meta.model_name}/"


def admin_urls(client: Client, game: Game) -> list[str]:
    """Every changelist, with each choice of each of its filters, each column to sort by and
    some searches (the seed among them); the change, history, delete and add pages of
    everything about the game."""
    urls = []
    for model, model_admin in admin.site._registry.items():
        base = changelist(model)
        urls += [base, f"{base}?_facets=1", f"{base}add/"]
        urls += [f"{base}?q={term}" for term in (SEED, "red", "mo")]
        urls += [f"{base}?o={i}" for i in range(1, len(model_admin.list_display) + 1)]
        cl = client.get(base).context["cl"]
        for spec in cl.filter_specs:
            urls += [base + choice["query_string"] for choice in spec.choices(cl)]
    objects = [
        game,
        *game.moves.all(),
        *game.chat.all(),
        *game.invitations.all(),
        *game.reports.all(),
        *game.moderator_actions.all(),
        *User.objects.filter(seats__game=game),
    ]
    for item in objects:
        base = f"{changelist(type(item))}{item.pk}/"
        urls += [f"{base}change/", f"{base}history/", f"{base}delete/"]
    return urls


def normalised(response) -> tuple:
    """What a response tells, less what changes from one request to the next anyway."""
    body = response.content.decode()
    body = re.sub(r'(csrfmiddlewaretoken" value=")[^"]+', r"\1…", body)
    body = re.sub(r'("X-CSRFToken": ")[^"]+', r"\1…", body)
    body = re.sub(r'(nonce=")[^"]+', r"\1…", body)
    return response.status_code, response.get("Location"), body


def responses(clients: dict[str, Client], urls: dict[str, list[str]]) -> dict:
    return {(who, url): normalised(clients[who].get(url)) for who in clients for url in urls[who]}


def deal(game: Game, seed: int, deck: list | None) -> None:
    Game.objects.filter(pk=game.pk).update(seed=seed, deck=deck)


def refused_lookups(game: Game) -> list[tuple[str, list[str]]]:
    """(changelist, [the same lookup with values on either side of the hidden one])."""
    seed = game.seed
    on_game = [f"seed__lte={seed}", f"seed__lte={seed - 1}", f"seed={seed}", "seed__gt=0"]
    return [
        ("/admin/games/game/", [f"id__exact={game.pk}&{q}" for q in on_game]),
        ("/admin/games/game/", ["deck__isnull=True", "deck__isnull=False"]),
        ("/admin/games/game/", ["deck__0__0=0", "deck__0__0=4", "deck__contains=[[4, 3]]"]),
        ("/admin/games/game/", ["moves__action__card_id=0", "moves__action__card_id=9"]),
        ("/admin/games/game/", ["moves__action__type=clue", "moves__action__rank=1"]),
        ("/admin/games/game/", [f"seats__game__seed__lte={seed}", "seats__game__seed__lte=0"]),
        (
            "/admin/games/game/",
            [f"deal_analysis__pk__seed__lte={seed}", "deal_analysis__pk__seed=0"],
        ),
        ("/admin/games/game/", ["creator__password__startswith=pbkdf2", "creator__password=x"]),
        ("/admin/games/move/", [f"game__seed__lte={seed}", "game__seed__lte=0"]),
        ("/admin/games/move/", ["action__type=clue", "action__card_id=3", "game__deck=1"]),
        ("/admin/games/chatmessage/", [f"game__seed__lte={seed}", "game__deck__0=1"]),
        ("/admin/games/invitation/", [f"game__seed__lte={seed}", "game__seed__lte=0"]),
        ("/admin/moderation/report/", [f"game__seed__lte={seed}", "game__deck__isnull=True"]),
        ("/admin/moderation/report/", ["message__game__seed__lte=0", "game__moves__action=1"]),
        ("/admin/moderation/moderatoraction/", [f"game__seed__gt={seed}", "game__seed__gt=0"]),
        ("/admin/accounts/user/", [f"seats__game__seed__lte={seed}", "seats__game__seed=0"]),
        ("/admin/accounts/user/", ["created_games__deck__isnull=False", "password=x"]),
        ("/admin/games/importedreplay/", ["owner__seats__game__seed__lte=0"]),
        ("/admin/games/game/", ["_to_field=seed&_popup=1", "_to_field=deck&_popup=1"]),
    ]


@pytest.mark.slow
def test_no_admin_page_changes_with_the_hidden_cards_of_a_game_in_play(
    game, seated_moderator, superuser
):
    """Seen by the moderator who plays in the game (the one the issue is about) and by a
    superuser, who sees every page staff can see (staff without the moderator right see
    the same pages with fewer actions)."""
    clients = {}
    for name, user in [("seated moderator", seated_moderator), ("superuser", superuser)]:
        clients[name] = Client()
        clients[name].force_login(user)
    lookups = [f"{url}?{query}" for url, queries in refused_lookups(game) for query in queries]
    pages = admin_urls(clients["superuser"], game) + lookups
    turn_views = [f"/admin/games/game/{game.pk}/turn/{turn}/" for turn in range(game.turn + 1)]
    # The superuser does not play, so the turn view shows them the cards (may_inspect): the
    # control that shows the experiment sees a change of deal where there is one.
    urls = {"seated moderator": pages + turn_views, "superuser": pages}
    assert len(pages) > 100

    before = responses(clients, urls)
    control = [normalised(clients["superuser"].get(url)) for url in turn_views]
    seed, deck = other_deal()
    deal(game, seed, deck)
    after = responses(clients, urls)

    assert [normalised(clients["superuser"].get(url)) for url in turn_views] != control
    for key, seen in before.items():
        assert after[key] == seen, key
    assert {before["seated moderator", url][0] for url in turn_views} == {403}
    statuses = {seen[0] for seen in before.values()}
    assert statuses <= {200, 302, 400, 403}, statuses


def hidden_paths(model, hops: int) -> set[str]:
    """Every lookup path from `model` to a hidden field, over at most `hops` relations
    (forward and reverse, as the ORM follows them)."""
    found = set()
    paths = [("", model)]
    for _ in range(hops + 1):
        next_paths = []
        for prefix, current in paths:
            for field in current._meta.get_fields():
                path = f"{prefix}{field.name}"
                if (current, field.name) in HIDDEN_FIELDS:
                    found.add(path)
                elif field.is_relation and field.related_model is not None:
                    next_paths.append((f"{path}__", field.related_model))
        paths = next_paths
    return found


def test_every_admin_refuses_every_lookup_path_to_a_deal_or_a_password():
    for model, model_admin in admin.site._registry.items():
        for path in hidden_paths(model, hops=3):
            for lookup in (path, f"{path}__lte", f"{path}__isnull", f"{path}__0__0"):
                assert not model_admin.lookup_allowed(lookup, "1", None), (model, lookup)
    # Where Django alone would have answered: a filter on a field of the model itself.
    plain = admin.ModelAdmin(Game, admin.site)
    assert plain.lookup_allowed("seed__lte", "1", None)
    # `pk` names a relation when the primary key is one (a deal's analysis is keyed by its
    # game), and the rule follows it where Django's own check stops.
    assert reaches_hidden_field(Game, "deal_analysis__pk__seed__lte")
    assert not reaches_hidden_field(Game, "moves__turn__lte")
    assert not reaches_hidden_field(Game, "seats__user__email")


def test_a_lookup_on_the_deal_is_refused_the_same_whatever_the_deal(
    game, seated_moderator, view_only_staff, superuser
):
    lookups = refused_lookups(game)
    for user in (seated_moderator, view_only_staff, superuser):
        client = Client()
        client.force_login(user)
        answers = {}
        for url, queries in lookups:
            for query in queries:
                response = client.get(f"{url}?{query}")
                # Django refuses with 400 (DisallowedModelAdminLookup, …ToField) or with a
                # redirect to ?e=1 (403: this user may not see the list at all); whichever,
                # the same answer whatever the value asked.
                refused = response.status_code in (400, 403) or response.get(
                    "Location", ""
                ).endswith("?e=1")
                assert refused, (user, url, query, response.status_code)
                if user.is_superuser:  # who may see every list: refused for the lookup
                    assert response.status_code == 400, (url, query)
                answers[url, query] = normalised(response)
            assert len({answers[url, query] for query in queries}) == 1, (url, queries)
        seed, deck = other_deal()
        deal(game, seed, deck)
        for url, queries in lookups:
            for query in queries:
                assert normalised(client.get(f"{url}?{query}")) == answers[url, query]
        deal(game, SEED, None)


def test_no_admin_searches_sorts_or_filters_on_a_hidden_field():
    for model, model_admin in admin.site._registry.items():
        sortable = model_admin.sortable_by
        paths = [
            *model_admin.search_fields,
            *(model_admin.ordering or ()),
            *(name for name in model_admin.list_display if sortable is None or name in sortable),
            *(item[0] if isinstance(item, tuple) else item for item in model_admin.list_filter),
            model_admin.date_hierarchy or "",
        ]
        for path in paths:
            if isinstance(path, str):  # a SimpleListFilter is code, not a path
                assert not reaches_hidden_field(model, path), (model, path)


def test_a_game_page_in_the_admin_shows_no_deal(client, game, superuser):
    client.force_login(superuser)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "Seed" not in page and "Deck" not in page and str(game.seed) not in page
    assert f"/admin/games/game/{game.pk}/turn/0/" in page  # the one way to the cards
