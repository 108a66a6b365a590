from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def create_user(self, email: str, password: str | None = None, **fields) -> "User":
        if not email:
            raise ValueError("An email address is required")
        # In lower case, as allauth stores and looks up addresses.
        email = self.normalize_email(email).lower()
        fields.setdefault("display_name", email.split("@")[0])
        user = self.model(email=email, **fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def get_by_natural_key(self, email: str | None) -> "User":
        # Addresses are unique whatever their case (see Meta), so a person may type
        # theirs in any case to log in.
        return self.get(email__iexact=email)

    def create_superuser(self, email: str, password: str | None = None, **fields) -> "User":
        fields.update(is_staff=True, is_superuser=True)
        return self.create_user(email, password, **fields)


class User(AbstractBaseUser, PermissionsMixin):
    """A player. The email address is the login; other players see only the display name."""

    email = models.EmailField("email address", unique=True)
    display_name = models.CharField(
        max_length=40, help_text="The name other players see at the table."
    )
    is_staff = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    date_joined = models.DateTimeField(default=timezone.now)

    class Notify(models.TextChoices):
        EVERY_TURN = "every_turn", "An email every time it is my turn"
        DAILY_DIGEST = "daily_digest", "One email a day listing the games waiting for me"
        NONE = "none", "No game emails"

    notify = models.CharField(
        "game emails", max_length=20, choices=Notify.choices, default=Notify.EVERY_TURN
    )
    suspended_until = models.DateTimeField(
        null=True, blank=True, help_text="A moderator's suspension: no log-in until then."
    )
    suspension_reason = models.CharField(max_length=500, blank=True)
    time_zone = models.CharField(
        max_length=64, default="UTC", help_text="Deadlines are shown in this time zone."
    )
    # Issue 29: the language this person reads; their email commands are read in it where
    # languages differ ("b" is blue in English and German, blanc in French).
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text="The language of the site and its emails for this person.",
    )
    # Issue 30: the H-Group bot's review of this person's moves, in each game-over email.
    review_by_email = models.BooleanField(
        default=False,
        help_text="The bot's review of my moves in the email that says a game is over.",
    )

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS = ["display_name"]

    class Meta:
        ordering = ["display_name"]
        constraints = [
            models.UniqueConstraint(
                Lower("email"),
                name="accounts_user_email_ci_unique",
                violation_error_message="An account with this email address already exists.",
            )
        ]

    def __str__(self) -> str:
        return self.display_name

    def clean(self) -> None:
        super().clean()
        self.email = type(self).objects.normalize_email(self.email).lower()

    def is_suspended(self) -> bool:
        return self.suspended_until is not None and self.suspended_until > timezone.now()

    def get_full_name(self) -> str:
        return self.display_name

    def get_short_name(self) -> str:
        return self.display_name
