"""Authentication backends that also refuse suspended users, so a suspension logs a user
out of every session at once (get_user refuses them too) and stops new log-ins, by password
or by an emailed link. A log-in by an emailed code does not pass through a backend's
authenticate(): accounts/adapter.py refuses suspended users there."""

from allauth.account.auth_backends import AuthenticationBackend
from django.contrib.auth import get_user_model

from lib.prepared_queries import PreparedQuery


class UnlessSuspended:
    def user_can_authenticate(self, user) -> bool:
        return super().user_can_authenticate(user) and not user.is_suspended()


class PasswordBackend(UnlessSuspended, AuthenticationBackend):
    def get_user(self, user_id):
        """ModelBackend's, with the query compiled once per process (lib/prepared_queries.py):
        every request with a session reads its user here (issue 28)."""
        found = _user_by_pk(user_id)
        if not found:
            return None
        return found[0] if self.user_can_authenticate(found[0]) else None


def _user_by_pk(user_id):
    global _users_by_pk
    if _users_by_pk is None:
        model = get_user_model()
        _users_by_pk = PreparedQuery(
            lambda pk: model._default_manager.filter(pk=pk), model._meta.pk
        )
    return _users_by_pk(user_id)


_users_by_pk: PreparedQuery | None = None
