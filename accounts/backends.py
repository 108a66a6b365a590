"""Authentication backends that also refuse suspended users, so a suspension logs a user
out of every session at once (get_user refuses them too) and stops new log-ins, by password
or by an emailed link."""

from django.contrib.auth.backends import ModelBackend
from sesame.backends import ModelBackend as SesameBackend


class UnlessSuspended:
    def user_can_authenticate(self, user) -> bool:
        return super().user_can_authenticate(user) and not user.is_suspended()


class PasswordBackend(UnlessSuspended, ModelBackend):
    pass


class LinkBackend(UnlessSuspended, SesameBackend):
    pass
