"""Authentication backends that also refuse suspended users, so a suspension logs a user
out of every session at once (get_user refuses them too) and stops new log-ins, by password
or by an emailed link. A log-in by an emailed code does not pass through a backend's
authenticate(): accounts/adapter.py refuses suspended users there."""

from allauth.account.auth_backends import AuthenticationBackend


class UnlessSuspended:
    def user_can_authenticate(self, user) -> bool:
        return super().user_can_authenticate(user) and not user.is_suspended()


class PasswordBackend(UnlessSuspended, AuthenticationBackend):
    pass
