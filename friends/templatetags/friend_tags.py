"""The waiting page's offer of friends and recent partners (templates/games/waiting.html):
one button per person to invite them, and a field to invite a friend by name."""

from django import template

from friends import services
from games.models import Game

register = template.Library()


@register.inclusion_tag("friends/_invite.html", takes_context=True)
def invite_friends(context, game: Game) -> dict:
    user = context["request"].user
    if not user.is_authenticated or not game.is_open():
        return {"shown": False}
    # The waiting page's seats when it has them: no query.
    seats = context.get("seats") or game.seats.all()
    seated = {seat.user_id for seat in seats if seat.user_id is not None}
    friends = list(services.friends_of(user))
    friend_ids = {friend.pk for friend in friends}
    partners = [p for p in services.recent_partners(user) if p.pk not in friend_ids]
    people = [person for person in friends + partners if person.pk not in seated]
    invited = set()
    if people:
        invited = {email.lower() for email in game.invitations.values_list("email", flat=True)}
    people = [
        {
            "user": person,
            "friend": person.pk in friend_ids,
            "invited": person.email.lower() in invited,
        }
        for person in people
    ]
    return {
        "shown": True,
        "game": game,
        "people": people,
        "has_friends": bool(friends),
        "csrf_token": context.get("csrf_token"),
    }
