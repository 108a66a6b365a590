import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hanabi_site.settings")
django_application = get_asgi_application()

# Issue 28: the push stream is served in front of Django's request handling (no thread, no
# database connection per open stream): games/views/events.py.
from games.views.events import with_events  # noqa: E402 (needs the settings above)

application = with_events(django_application)
