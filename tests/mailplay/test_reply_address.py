"""A reply address names one game, seat and turn, signed for the seat's user."""

import pytest

from games.reply_address import (
    ReplyScope,
    is_genuine,
    reply_address,
    reply_token,
    scope_of,
    token_of,
)


def test_an_address_reads_back_as_its_scope_and_is_genuine_for_its_user_only(settings):
    settings.MAIL_DOMAIN = "hanabi.example"
    address = reply_address(12, 1, 7, user_id=5)
    assert address.startswith("play+12-1-7-") and address.endswith("@hanabi.example")
    scope, mac = scope_of(token_of(address))
    assert scope == ReplyScope(12, 1, 7)
    assert is_genuine(scope, mac, user_id=5)
    assert not is_genuine(scope, mac, user_id=6)  # the seat changed hands: dead


def test_mail_systems_that_fold_the_case_or_add_brackets_change_nothing():
    address = reply_address(12, 1, 7, user_id=5)
    scope, mac = scope_of(token_of(f"<{address.upper()}>"))
    assert is_genuine(scope, mac, user_id=5)


@pytest.mark.parametrize(
    "changed",
    [
        ReplyScope(13, 1, 7),  # another game
        ReplyScope(12, 0, 7),  # another seat
        ReplyScope(12, 1, 8),  # another turn
    ],
)
def test_a_token_altered_into_another_game_seat_or_turn_is_not_genuine(changed):
    _, mac = scope_of(reply_token(12, 1, 7, user_id=5))
    assert not is_genuine(changed, mac, user_id=5)


@pytest.mark.parametrize(
    "address",
    [
        "hanabi@localhost",
        "play@localhost",
        "other+12-1-7-0123456789abcdef0123@localhost",
        "play+12-1-7@localhost",
        "play+12-1-7-0123456789abcdef012@localhost",  # a MAC too short
        "play+x2-1-7-0123456789abcdef0123@localhost",
        "play+12-1-7-0123456789abcdef0123-extra@localhost",
        "",
    ],
)
def test_other_addresses_have_no_scope(address):
    token = token_of(address)
    assert token is None or scope_of(token) is None


def test_a_made_up_mac_is_not_genuine():
    scope, _ = scope_of(reply_token(12, 1, 7, user_id=5))
    assert not is_genuine(scope, "0" * 20, user_id=5)
