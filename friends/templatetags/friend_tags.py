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
    seated = set(game.seats.exclude(user=None).values_list("user_id", flat=True))
    invited = {email.lower() for email in game.invitations.values_list("email", flat=True)}
    friends = list(services.friends_of(user))
    friend_ids = {friend.pk for friend in friends}
    partners = [p for p in services.recent_partners(user) if p.pk not in friend_ids]
    people = [
        {
            "user": person,
            "friend": person.pk in friend_ids,
            "invited": person.email.lower() in invited,
        }
        for person in friends + partners
        if person.pk not in seated
    ]
    return {
        "shown": True,
        "game": game,
        "people": people,
        "has_friends": bool(friends),
        "csrf_token": context.get("csrf_token"),
    }
