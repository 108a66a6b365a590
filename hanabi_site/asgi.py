import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hanabi_site.settings")
# Under ASGI each synchronous request may run on another thread of the executor, and a
# persistent connection stays with its thread: the push process kept 14–26 idle PostgreSQL
# connections after health checks (bench/multihost.py). Django's documentation advises
# persistent connections off under ASGI; the web processes (WSGI) keep theirs.
os.environ.setdefault("CONN_MAX_AGE", "0")
django_application = get_asgi_application()

# Issue 28: the push stream is served in front of Django's request handling (no thread, no
# database connection per open stream): games/views/events.py.
from games.views.events import with_events  # noqa: E402 (needs the settings above)

application = with_events(django_application)
