"""Settings, read from the environment.

Every variable is optional: unset means the embedded default (SQLite, a broker on the
filesystem under var/, email written to files under var/mail), so the site runs with
no server installed. Production sets DATABASE_URL, REDIS_URL, EMAIL_URL, SECRET_KEY,
SITE_URL and ALLOWED_HOSTS.
"""

import logging
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import environ
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()

# Runtime files of the embedded default: the SQLite database, the broker, the mail.
VAR_DIR = Path(env.str("VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env.bool("DEBUG", default=False)

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Production needs a long random SECRET_KEY in the "
            "environment; for local development set DEBUG=true (python3 dev.py run does)."
        )
    SECRET_KEY = "insecure-development-key-never-use-in-production"

SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[SITE_URL])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    # Lower apps first; none imports an app below it in this list (tests/test_layers.py).
    "outbox",
    "accounts",
    "games",
    "friends",
    "players",
    "rematches",
    "deals",
    "moderation",
    "mailplay",
    "anymail",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Issue 15: a poll of an unchanged game answered from the cache, before the session
    # and the user are loaded (no database query), and before the Content-Security-Policy
    # is built for a response that has no content; anything else goes on.
    "games.views.table.unchanged_poll_middleware",
    "csp.middleware.CSPMiddleware",
    "lib.db_retry.dropped_connection_middleware",  # issue 25: retried once, or 503
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.scoped.scoped_pass_middleware",  # a game email's link: that game's pages only
    "allauth.account.middleware.AccountMiddleware",
    "lib.time_zones.user_time_zone_middleware",
    "accounts.languages.language_middleware",  # issue 29: the profile's, or the browser's
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "deals.middleware.DealGamesMiddleware",  # issue 26: no other game of a deal one plays
]

ROOT_URLCONF = "hanabi_site.urls"
WSGI_APPLICATION = "hanabi_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'hanabi.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A worker and the web server write to the same file: wait for the lock instead of
    # failing, and take the write lock at BEGIN so transactions never deadlock.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL;",
    }
    # A file, not the default in-memory database: its shared cache locks whole tables, which
    # fails the browser tests' concurrent requests instead of waiting.
    # One per process, so that two test runs in one checkout do not share it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
# Keep connections between requests: opening one costs PostgreSQL a process fork (about
# 10 ms a request in bench/site.py). Each web or worker process holds one connection.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # allauth's backend (the email address and password), refusing suspended users.
    "accounts.backends.PasswordBackend",
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Accounts (django-allauth): the email address is the login, and it is verified before
# the account can log in or receive a game email. accounts/adapter.py sends allauth's
# emails through the outbox and asks for the display name at sign-up.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupForm"
ACCOUNT_FORMS = {
    name: f"accounts.allauth_forms.{form}"
    for name, form in [
        ("login", "LoginForm"),
        ("signup", "SignupForm"),
        ("request_login_code", "RequestLoginCodeForm"),
        ("reset_password", "ResetPasswordForm"),
        ("change_email", "ChangeEmailForm"),
    ]
}
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False  # link checkers in mail clients must not confirm
ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS = 3
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_CHANGE_EMAIL = True  # one address per account; a new one replaces it once verified
ACCOUNT_EMAIL_NOTIFICATIONS = (
    True  # the old address hears of a change, the account of a new password
)
ACCOUNT_REAUTHENTICATION_REQUIRED = True  # changing the address asks for the password again
ACCOUNT_REAUTHENTICATION_TIMEOUT = 5 * 60
ACCOUNT_EMAIL_SUBJECT_PREFIX = "Hanabi: "
# Log in with a code sent by email: single use, 5 minutes, 3 wrong guesses and it is void.
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
ACCOUNT_LOGIN_BY_CODE_TIMEOUT = 5 * 60
ACCOUNT_LOGIN_BY_CODE_MAX_ATTEMPTS = 3
# Past a limit the page answers 429 (templates/429.html); docs/SECURITY.md lists them.
# "ip" counts per client address, "key" per email address asked about, "user" per account.
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "10/h/ip",
    "confirm_email": "1/3m/key",
    "reset_password": "20/h/ip,3/h/key",
    "reset_password_from_key": "20/m/ip",
    "request_login_code": "20/h/ip,3/15m/key",
    "change_password": "5/m/user",
    "manage_email": "10/m/user",
    "reauthenticate": "10/m/user",
}
# allauth counts requests in the cache: Redis, shared by every web process, when there is
# one; otherwise the process's memory (the embedded default runs one web process).
# CACHE_KEY_PREFIX keeps two sites (or a test run, tests/run_environment.py) sharing one
# Redis apart.
if env.str("REDIS_URL", default=""):
    CACHES = {
        "default": {
            # Django's, with one Redis client per process (issue 28: lib/cache_batch.py).
            "BACKEND": "lib.cache_batch.RedisCache",
            "LOCATION": env.str("REDIS_URL"),
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="hanabi"),
            # Issue 15: polls and every change to a game use the cache (games/services/
            # versions.py); with Redis stopped or frozen they give up quickly and ask the
            # database, instead of waiting without end.
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.5},
        }
    }
    # Issue 15: sessions read from Redis (0 queries), kept in the database (accounts/sessions.py).
    # Only with a cache every process shares: see that module.
    SESSION_ENGINE = "accounts.sessions"
# Issue 15: the poll answers "nothing changed" from the cache only when every process (web
# and worker) shares it, Redis: the embedded default's cache is each process's memory, which
# would never hear of a worker's move. A single process may turn it on (a test run does).
POLL_FROM_CACHE = env.bool("POLL_FROM_CACHE", default=bool(env.str("REDIS_URL", default="")))

LANGUAGE_CODE = "en"
# Issue 29: the languages people may choose (accounts' User.language; email commands are
# read in all three). Each named in its own language, as a language menu shows them.
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("fr", "Français")]
TIME_ZONE = "UTC"
USE_I18N = True
# The site's own translations (locale/<language>/LC_MESSAGES/django.po): compiled to .mo by
# `python3 dev.py run|test|check` (manage.py compilemessages), never committed.
LOCALE_PATHS = [BASE_DIR / "locale"]
# How each language writes a date (hanabi_site/formats/): templates name a format, such as
# "SHORT_DATETIME_FORMAT", and read it in the person's language.
FORMAT_MODULE_PATH = ["hanabi_site.formats"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Email: SMTP (or any scheme django-environ knows) from EMAIL_URL; by default every
# message is written as its own .eml file under var/mail, where a person can read it:
# with DEBUG on, /dev/mail/ lists them with their links clickable.
if "EMAIL_URL" in os.environ:
    vars().update(env.email_url("EMAIL_URL"))
else:
    EMAIL_BACKEND = "hanabi_site.mail_backend.EmlFileBackend"
    EMAIL_FILE_PATH = VAR_DIR / "mail"
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Hanabi <hanabi@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL


def _default_mail_domain(site_url: str) -> str:
    """SITE_URL's host, unless it is an IP address (play+x@127.0.0.1 is no address)."""
    host = urlsplit(site_url).hostname or "localhost"
    return host if re.search(r"[a-z]", host, re.IGNORECASE) else "localhost"


# Play by email (mailplay/): a turn email's Reply-To is REPLY_ADDRESS_PREFIX+<token>@
# MAIL_DOMAIN, the domain whose MX (or a provider's inbound route) reaches this site. Also
# the domain of the Message-IDs the site sends.
MAIL_DOMAIN = env.str("MAIL_DOMAIN", default=_default_mail_domain(SITE_URL))
REPLY_ADDRESS_PREFIX = env.str("REPLY_ADDRESS_PREFIX", default="play")
# A reply is a few lines; anything bigger is refused (SMTP 552) or ignored (webhooks).
INBOUND_MAX_BYTES = env.int("INBOUND_MAX_BYTES", default=256 * 1024)
# Replies processed this many days ago are deleted by the nightly purge (mailplay/purge.py).
INBOUND_KEEP_DAYS = env.int("INBOUND_KEEP_DAYS", default=30)
# Who may move by replying (mailplay/sender_authentication.py): "authenticated" moves only
# for a reply whose From domain is vouched for (a DKIM signature verified here, the
# provider's verdicts, or the Authentication-Results of a server named in
# INBOUND_TRUSTED_AUTHSERV_IDS); "from-only" takes the From as written, for development
# only (dev.py run sets it; /dev/mail/ says so). docs/SECURITY.md says what each way of
# receiving mail needs.
INBOUND_SENDER_CHECK = env.str("INBOUND_SENDER_CHECK", default="authenticated")
INBOUND_TRUSTED_AUTHSERV_IDS = env.list("INBOUND_TRUSTED_AUTHSERV_IDS", default=[])
# The built-in receiver (python manage.py receive_mail) listens here; /dev/mail/'s reply box
# sends to it.
INBOUND_SMTP_HOST = env.str("INBOUND_SMTP_HOST", default="127.0.0.1")
INBOUND_SMTP_PORT = env.int("INBOUND_SMTP_PORT", default=8025)
# Hosted providers' inbound webhooks (django-anymail), under /anymail/<provider>/inbound/:
# every one needs the shared secret as HTTP basic auth ("user:password" in the URL given to
# the provider); Mailgun's requests are also signed with its webhook signing key.
ANYMAIL = {
    "WEBHOOK_SECRET": env.str("ANYMAIL_WEBHOOK_SECRET", default="") or None,
    "MAILGUN_WEBHOOK_SIGNING_KEY": env.str("MAILGUN_WEBHOOK_SIGNING_KEY", default="") or None,
}

# Push (games/push.py): each change to a game is published, and an ASGI process (uvicorn:
# production's `push`, the development web process) streams it to open pages; on Redis when
# there is one, otherwise by datagrams on PUSH_SOCKET (games/push_local.py: one machine).
# PUSH_ENABLED=false keeps pages to polling.
PUSH_ENABLED = env.bool("PUSH_ENABLED", default=True)
PUSH_SOCKET = Path(env.str("PUSH_SOCKET", default=str(VAR_DIR / "push.sock")))

# Celery: Redis when REDIS_URL is set; otherwise kombu's filesystem transport, which
# needs no server and works across processes on one machine.
REDIS_URL = env.str("REDIS_URL", default="")
BROKER_DIR = VAR_DIR / "broker"
# A task is sent after a commit, while a page waits (a move's outbox rows): with Redis
# stopped, unreachable or frozen, sending must fail at once and leave the row to the outbox
# sweep, not retry for 19 s as Celery's defaults do. So: one connection attempt, short
# socket timeouts, no publish retries (Celery's worker keeps retrying its own connection
# for ever: broker_connection_max_retries), and a result backend that gives up as quickly.
BROKER_FAIL_FAST = {
    "max_retries": 0,  # kombu's connection retries when a producer opens a channel
    "socket_connect_timeout": 0.2,
    "socket_timeout": 0.5,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 0.2
CELERY_TASK_PUBLISH_RETRY = False
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 0.2
CELERY_REDIS_SOCKET_TIMEOUT = 5.0
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 1, "interval_start": 0, "interval_step": 0.2}
}
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = dict(BROKER_FAIL_FAST)
else:
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        **BROKER_FAIL_FAST,
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
    CELERY_RESULT_BACKEND = f"file://{VAR_DIR / 'celery-results'}"
    for folder in ("queue", "control"):
        (BROKER_DIR / folder).mkdir(parents=True, exist_ok=True)
    (VAR_DIR / "celery-results").mkdir(exist_ok=True)
# The default queue (a test's worker and receiver share one of their own); the deal analysis
# runs on `<default queue>-analysis` (outbox.delivery.queue_for), the Procfile's `analysis`.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE = {
    "deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": 60.0},
    "outbox": {"task": "outbox.sweep", "schedule": 60.0},
    "daily-digest": {"task": "games.tasks.daily_digest", "schedule": crontab(hour=7, minute=0)},
    "outbox-purge": {"task": "outbox.purge", "schedule": crontab(hour=3, minute=30)},
    "inbound-purge": {"task": "mailplay.purge", "schedule": crontab(hour=3, minute=45)},
}
# Outbox rows done this many days ago are deleted by the nightly purge (outbox/purge.py).
OUTBOX_KEEP_DAYS = env.int("OUTBOX_KEEP_DAYS", default=7)
# A row claimed by a worker that vanished is run again after this many seconds; a live
# worker's email always ends within it (outbox/delivery.py).
OUTBOX_LEASE_SECONDS = env.int("OUTBOX_LEASE_SECONDS", default=600)
# How long to wait for the SMTP server to answer the end of a message: RFC 5321 §4.5.3.2
# asks for up to 10 minutes, since a server may check the message before it answers; a
# shorter wait sends the message again. lib/emails.py keeps it inside the lease.
SMTP_DATA_TIMEOUT_SECONDS = env.int("SMTP_DATA_TIMEOUT_SECONDS", default=420)

# Games: a your-turn email waits this long and is not sent while the player's page is open;
# a player whose time runs out this many turns in a row is replaced by a bot.
NOTIFY_DELAY_SECONDS = env.int("NOTIFY_DELAY_SECONDS", default=90)
TIMEOUTS_BEFORE_BOT = 3
BOT_MOVE_DELAY_SECONDS = env.int("BOT_MOVE_DELAY_SECONDS", default=3)
# How long a worker searches for the best score of a finished game's deal before it reports
# the bounds it has (games/analysis/team.py).
ANALYSIS_TIME_LIMIT_SECONDS = env.float("ANALYSIS_TIME_LIMIT_SECONDS", default=20.0)

# Security headers on every response. No page runs an inline script or sets an inline style:
# every script (htmx, from django-htmx) and style sheet is a file of this site, so the policy
# allows nothing else, and an injected <script> would not run.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"  # links in pages carry no path off the site
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

# Behind HTTPS (a production SITE_URL): cookies only over HTTPS, every request redirected to
# it, and browsers told to keep to it (HSTS; SECURE_HSTS_SECONDS=0 turns it off).
if SITE_URL.startswith("https://") and not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)

# The development server logs every request, and an open turn page polls every 5 seconds
# (a 204 while nothing changed): about 100 lines a minute that say nothing. Those are
# dropped; a poll that finds a change, and every other request, is still logged.
_quiet_poll = re.compile(r"GET /games/\d+/poll/[?\s]")


def is_not_a_quiet_poll(record: logging.LogRecord) -> bool:
    if getattr(record, "status_code", None) != 204 or not record.args:
        return True
    return not _quiet_poll.match(str(record.args[0]))


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "drop_quiet_polls": {
            "()": "django.utils.log.CallbackFilter",
            "callback": is_not_a_quiet_poll,
        },
    },
    "formatters": {
        # As Django's default for runserver's request lines.
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server"},
    },
    "loggers": {
        # aiosmtpd logs every SMTP command of every conversation at INFO.
        "mail.log": {"level": "WARNING"},
        "django.server": {
            "handlers": ["django.server"],
            "filters": ["drop_quiet_polls"],
            "level": "INFO",
            "propagate": False,
        },
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
