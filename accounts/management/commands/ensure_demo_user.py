from allauth.account.models import EmailAddress
from django.core.management.base import BaseCommand

from accounts.models import User


class Command(BaseCommand):
    help = (
        "Create the demo account (a staff user, its address verified) if it does not exist "
        "yet; reset its password."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("email")
        parser.add_argument("password")

    def handle(self, email: str, password: str, **options) -> None:
        user, created = User.objects.get_or_create(
            email=email,
            defaults={"display_name": "Demo", "is_staff": True, "is_superuser": True},
        )
        # Resetting keeps the printed password true on every run.
        user.set_password(password)
        user.save(update_fields=["password"])
        # Verified, or the login would stop at "verify your address" on a site with no
        # real inbox.
        EmailAddress.objects.update_or_create(
            user=user, email=user.email.lower(), defaults={"verified": True, "primary": True}
        )
        self.stdout.write(f"{'Created' if created else 'Kept'} demo account {email}")
