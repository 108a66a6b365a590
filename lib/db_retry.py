"""A dropped database connection is not an error page (issue 25).

When PostgreSQL drops a connection (a failover, a restart, an administrator's
pg_terminate_backend), the request using it fails with OperationalError or InterfaceError,
and Django does not reconnect within a request. This middleware closes the broken connection
and runs the request once more on a fresh one, where that is safe:

- every GET and HEAD (they change nothing);
- a POST only to a view marked with `retried_after_a_dropped_connection`: the move, whose
  transaction rolled back with the connection and whose form names its turn, so a retry
  after a move that did commit is refused as stale, never made twice.

Any other POST is not retried: it may have committed before the connection died. A
database that refuses connections, still after the retry, answers 503 "back in a moment"
with Retry-After instead of a 500 (for any method: nothing was done without a connection).

Django turns an exception into a 500 response at every middleware, so this one would never
see it. While this middleware runs a request, a receiver of `got_request_exception` (sent
before that 500 is made) raises a connection failure on through the middleware in between,
to here; anything else, and every request not in this middleware, goes the usual way.
"""

import contextlib
import logging
import sys
from collections.abc import Callable

from django.contrib.auth.models import AnonymousUser
from django.core.signals import got_request_exception
from django.db import DEFAULT_DB_ALIAS, DatabaseError, InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve

logger = logging.getLogger(__name__)

SAFE_METHODS = ("GET", "HEAD")
RETRY_AFTER_SECONDS = 5
_IN_RETRY_MIDDLEWARE = "_db_retry_in_middleware"
_MARK = "retried_after_a_dropped_connection"


def retried_after_a_dropped_connection(view: Callable) -> Callable:
    """Mark a POST view as safe to run again after its connection dropped: its writes are one
    transaction and it refuses a second run of the same form (the move's turn check). Put it
    outermost, so that the URL resolves to the marked function."""
    setattr(view, _MARK, True)
    return view


class ConnectionFailure(Exception):
    """A database connection failed while the middleware ran the request."""

    def __init__(self, error: Exception, refused: bool):
        super().__init__(str(error))
        self.error = error
        self.refused = refused


def _failure_of(error: BaseException | None) -> ConnectionFailure | None:
    """The connection failure behind `error`, or None for any other database error (a
    deadlock, a locked SQLite file, a bad query: not this middleware's to retry). Told from
    the error itself: by the time it reaches here, a rollback or another middleware may
    already have closed the broken connection and opened a new one."""
    if isinstance(error, ConnectionFailure):
        return error
    if not isinstance(error, (OperationalError, InterfaceError)):
        return None
    if _raised_while_connecting(error):
        return ConnectionFailure(error, refused=True)  # the database refuses connections
    code = getattr(error.__cause__, "sqlstate", None) or getattr(error.__cause__, "pgcode", None)
    if code is not None:
        # Class 08 is "connection exception"; 57P01-03 are the server shutting down (an
        # administrator's pg_terminate_backend, a crash, a restart).
        broken = code.startswith("08") or code in ("57P01", "57P02", "57P03")
    else:
        # PostgreSQL's drivers give every error the server sent a SQLSTATE: one without is
        # the client's own (the connection lost or already closed). SQLite's have none.
        broken = isinstance(error, InterfaceError) or connections[DEFAULT_DB_ALIAS].vendor == (
            "postgresql"
        )
    return ConnectionFailure(error, refused=False) if broken else None


def _raised_while_connecting(error: BaseException) -> bool:
    traceback = error.__traceback__
    while traceback is not None:
        frame = traceback.tb_frame
        if (
            frame.f_code.co_name == "ensure_connection"
            and frame.f_globals.get("__name__") == "django.db.backends.base.base"
        ):
            return True
        traceback = traceback.tb_next
    return False


def _raise_to_the_middleware(sender, request: HttpRequest | None = None, **kwargs) -> None:
    if request is None or not getattr(request, _IN_RETRY_MIDDLEWARE, False):
        return
    failure = _failure_of(sys.exc_info()[1])
    if failure is not None:
        raise failure


# Connected when the settings' middleware is loaded, so before any other receiver connected
# per request (the test client's): those never hear of a failure that is retried.
got_request_exception.connect(_raise_to_the_middleware, dispatch_uid="lib.db_retry")


def _close_connections() -> None:
    for conn in connections.all(initialized_only=True):
        # A broken one may fail to close; close() forgets it anyway, so the next query
        # opens a new connection.
        with contextlib.suppress(DatabaseError):
            conn.close()


def _may_retry(request: HttpRequest) -> bool:
    if request.method in SAFE_METHODS:
        return True
    if request.method != "POST":
        return False
    match = getattr(request, "resolver_match", None)
    if match is None:  # failed in a middleware, before the URL was resolved
        try:
            match = resolve(request.path_info, getattr(request, "urlconf", None))
        except Resolver404:
            return False
    return getattr(match.func, _MARK, False)


def back_in_a_moment(request: HttpRequest) -> HttpResponse:
    """503 with a page that needs no database: the user and the messages, which the base
    template shows, would be read from it."""
    response = render(request, "503.html", {"user": AnonymousUser(), "messages": ()}, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def dropped_connection_middleware(get_response: Callable) -> Callable:
    def middleware(request: HttpRequest) -> HttpResponse:
        setattr(request, _IN_RETRY_MIDDLEWARE, True)
        try:
            try:
                return get_response(request)
            except ConnectionFailure as failure:
                _close_connections()
                if not _may_retry(request):
                    if failure.refused:
                        return back_in_a_moment(request)
                    raise failure.error from None  # the usual 500, logged with its cause
                logger.warning(
                    "retrying %s %s on a fresh connection: %s",
                    request.method,
                    request.path,
                    failure.error,
                )
            try:
                return get_response(request)
            except ConnectionFailure as failure:
                _close_connections()
                if failure.refused:
                    return back_in_a_moment(request)
                raise failure.error from None
        finally:
            setattr(request, _IN_RETRY_MIDDLEWARE, False)

    return middleware
