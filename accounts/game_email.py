"""Whether game emails may go to a person's address."""

from allauth.account.models import EmailAddress

from accounts.models import User


def may_receive_game_email(user: User) -> bool:
    """Only once the account's address is verified: sign-up must not make the site email
    someone else's inbox."""
    return EmailAddress.objects.filter(
        user=user, email__iexact=user.email, primary=True, verified=True
    ).exists()
