"""Who may not take a seat, by the rules of apps above games (a deal seen before, in
deals/): each guard answers (game, user) with the reason to refuse, or None. Guards are
registered from their app's ready(); joining a table asks every one (services/lobby.py)."""

from collections.abc import Callable

from accounts.models import User

Guard = Callable[["Game", User], "str | None"]  # noqa: F821  (games.models.Game)
GUARDS: list[Guard] = []


def register(guard: Guard) -> Guard:
    GUARDS.append(guard)
    return guard


def refusal(game, user: User) -> str | None:
    """The first guard's reason to keep `user` from a seat at `game`, if any."""
    return next((reason for guard in GUARDS if (reason := guard(game, user))), None)
