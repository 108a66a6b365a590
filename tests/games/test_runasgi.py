"""manage.py runasgi, the web process of Procfile.dev: its console leaves out the polls that
found nothing new (204), as runserver's does (tests/test_dev_server_log.py), and logs every
other request. The site it serves, push streams included, is tested for real in
tests/browser/test_dev_run_push_browser.py."""

import logging

import pytest

from games.management.commands.runasgi import is_not_a_quiet_poll


def access_line(path: str, status: int) -> logging.LogRecord:
    # uvicorn's access logger: '%s - "%s %s HTTP/%s" %d' with these arguments.
    args = ("127.0.0.1:5000", "GET", path, "1.1", status)
    return logging.LogRecord(
        "uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d', args, None
    )


def test_a_poll_that_finds_nothing_new_is_not_logged():
    assert not is_not_a_quiet_poll(access_line("/games/12/poll/?status=playing&turn=7", 204))


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/games/12/poll/?status=playing&turn=7", 200),
        ("/games/12/poll/?status=playing&turn=7", 286),
        ("/games/12/events/?v=3", 200),
        ("/games/12/move/", 204),
    ],
)
def test_every_other_request_is_logged(path, status):
    assert is_not_a_quiet_poll(access_line(path, status))
