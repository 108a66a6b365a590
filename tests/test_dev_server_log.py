"""The development server's console: the turn page's polls that find nothing new (204) are
not logged; every other request is, the poll that finds a change included."""

import logging

import pytest
from django.core.servers.basehttp import WSGIRequestHandler


class Lines(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


@pytest.fixture
def server_log():
    """What runserver would print: its request lines go through the `django.server` logger
    as configured by the settings."""
    handler = Lines()
    logger = logging.getLogger("django.server")
    logger.addHandler(handler)
    yield handler.lines
    logger.removeHandler(handler)


def log_request(request_line: str, status: str) -> None:
    # runserver's own code path, without a socket: BaseHTTPRequestHandler.log_request
    # calls log_message with this format.
    server = WSGIRequestHandler.__new__(WSGIRequestHandler)
    server.request = None
    server.log_message('"%s" %s %s', request_line, status, "0")


def test_a_poll_that_finds_nothing_new_is_not_logged(server_log):
    log_request("GET /games/12/poll/?status=playing&turn=7 HTTP/1.1", "204")
    log_request("GET /games/12/poll/ HTTP/1.1", "204")
    assert server_log == []


@pytest.mark.parametrize(
    ("request_line", "status"),
    [
        ("GET /games/12/poll/?status=playing&turn=7 HTTP/1.1", "200"),  # something changed
        ("GET /games/12/poll/?status=playing&turn=7 HTTP/1.1", "286"),  # stop polling
        ("GET /games/12/poll/?status=playing&turn=7 HTTP/1.1", "403"),
        ("GET /games/12/poll/?status=playing&turn=7 HTTP/1.1", "500"),
        ("POST /games/12/move/ HTTP/1.1", "204"),
        ("GET /games/12/ HTTP/1.1", "200"),
    ],
)
def test_every_other_request_is_logged(server_log, request_line, status):
    log_request(request_line, status)
    assert server_log == [f'"{request_line}" {status} 0']
