"""python manage.py runasgi [host:]port: the development site under uvicorn (ASGI), the web
process of Procfile.dev (`python3 dev.py run`).

Why not runserver: it is WSGI, and the push stream of an open game page (games/views/
events.py) is served only under ASGI. Production routes the stream's path to its `push`
process (uvicorn) and every other path to gunicorn; here one uvicorn process serves both at
one address, so the page's stream goes where its pages come from, with no proxy. As
runserver does, it restarts when a Python file changes and rereads a changed template
(Django's own reloader), and it leaves out of its console the polls that found nothing new.

Procfile.dev runs it with CONN_MAX_AGE=0, as Django advises under ASGI: each request runs in a
thread of its own, and a connection kept for the next request would be left behind with it.
"""

import logging
import re
import warnings

from django.core.management.base import BaseCommand
from django.utils import autoreload

# uvicorn's access lines carry (client, method, path, HTTP version, status) as arguments.
_QUIET_POLL = re.compile(r"/games/\d+/poll/")


def is_not_a_quiet_poll(record: logging.LogRecord) -> bool:
    args = record.args
    if not isinstance(args, tuple) or len(args) != 5:
        return True
    return not (args[4] == 204 and _QUIET_POLL.match(str(args[2])))


class Command(BaseCommand):
    help = "Serve the site under uvicorn (pages and push streams), reloading on changes."

    def add_arguments(self, parser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument(
            "--noreload",
            action="store_false",
            dest="use_reloader",
            help="Do not restart when the code changes.",
        )

    def handle(self, *args, addrport: str, use_reloader: bool, **options) -> None:
        host, _, port = addrport.rpartition(":")
        host = host or "127.0.0.1"
        if use_reloader:
            autoreload.run_with_reloader(serve, host, int(port))
        else:
            serve(host, int(port))


def serve(host: str, port: int) -> None:
    import uvicorn

    logging.getLogger("uvicorn.access").addFilter(is_not_a_quiet_poll)
    # WhiteNoise serves the static files (DEBUG: from the apps' folders) as a file iterator,
    # which Django reads whole under ASGI, and says so at every file; they are small.
    warnings.filterwarnings(
        "ignore", "StreamingHttpResponse must consume synchronous iterators", Warning
    )
    uvicorn.run(
        "hanabi_site.asgi:application",
        host=host,
        port=port,
        # The settings' LOGGING (read by manage.py) prints uvicorn's lines as Django's.
        log_config=None,
        lifespan="off",  # Django has no startup or shutdown of its own to run
        # An open stream would otherwise hold a restart until the browser leaves.
        timeout_graceful_shutdown=2,
    )
