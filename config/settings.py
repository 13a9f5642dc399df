"""Settings for the Thousand service, read from the environment.

Two ways to run (see docs/architecture.md):

* Embedded default — no ``DATABASE_URL`` and no ``REDIS_URL``: a SQLite file, the
  in-memory channel layer, Celery tasks run eagerly in-process.
* Full stack — ``DATABASE_URL=postgres://…`` and ``REDIS_URL=redis://…``: PostgreSQL
  through Django's psycopg connection pool, the Redis channel layer, Redis as the
  Celery broker and result backend.

Every variable read here is listed in README.md and used by docker-compose.yml; a test
(tests/test_deploy_files.py) checks the two stay in step.
"""

from pathlib import Path
from urllib.parse import urlsplit

import django_stubs_ext
import environ
from django.utils.translation import gettext_lazy as _
from kombu import Queue

from core.logging import logging_settings
from core.redis_options import redis_options

django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    env.read_env(BASE_DIR / ".env")

# ------------------------------------------------------------------ core
DEBUG = env.bool("DJANGO_DEBUG", default=False)
# Only DEBUG falls back to a key written here. Without DEBUG and without a key the setting
# stays empty: Django then refuses any use of it, and core.startup makes the web
# server refuse to start (tooling such as collectstatic and makemessages still runs).
DEVELOPMENT_SECRET_KEY = "django-insecure-thousand-development-only"
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="") or (DEVELOPMENT_SECRET_KEY if DEBUG else "")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "accounts.apps.AccountsAdminConfig",  # the admin asks staff for a second factor
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "servestatic.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "django_countries",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "core",
    "accounts",
    "games",
    "tournaments",
    "ratings",
    "social",
    "analysis",
    "clubs",
    "fairplay",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "core.api_errors.ApiErrorMiddleware",
    # A NUL byte in the path, query or cookies: 404, 400, the cookie dropped (core/nul.py).
    "core.nul.RefuseNulMiddleware",
    "servestatic.middleware.ServeStaticMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "accounts.sessions.SignInSeenMiddleware",
    "accounts.middleware.PlayerPreferencesMiddleware",
    "accounts.limits.DeviceCookieMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# ------------------------------------------------------------------ database
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's psycopg pool: persistent connections matter (docs/architecture.md#what-the-websocket-stack-costs).
    # Django requires CONN_MAX_AGE=0 with the pool.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DATABASE_POOL_MIN_SIZE", default=1),
        "max_size": env.int("DATABASE_POOL_MAX_SIZE", default=10),
        "timeout": 10,
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions take the write lock up front, the nearest SQLite has to
    # select_for_update; WAL lets readers go on meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # The ratings' covering index (INCLUDE) is PostgreSQL's; SQLite keeps the key columns
    # and drops the rest, which is all the embedded mode needs: no warning on every run.
    SILENCED_SYSTEM_CHECKS = ["models.W040"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ------------------------------------------------------------------ accounts
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Failed sign-ins lock an account or an address for a while (accounts/limits.py).
AUTHENTICATION_BACKENDS = [
    "accounts.limits.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
SIGNIN_FAILURES_PER_ACCOUNT = env.int("SIGNIN_FAILURES_PER_ACCOUNT", default=5)
SIGNIN_FAILURES_PER_ADDRESS = env.int("SIGNIN_FAILURES_PER_ADDRESS", default=30)
SIGNIN_LOCKOUT_SECONDS = env.int("SIGNIN_LOCKOUT_SECONDS", default=15 * 60)
# Accounts created per client address, the API and the sign-up page together
# (accounts/limits.py); a DRF rate ("60/hour"), read on every request.
ACCOUNTS_SIGNUP_RATE = env.str("ACCOUNTS_SIGNUP_RATE", default="60/hour")
# A browser that signed in to an account before is a known device of it: its signed
# cookie exempts it from the account's and the address's locks, its own failures lock it
# alone (accounts/limits.py, docs/security.md).
SIGNIN_DEVICE_COOKIE = "signin_device"
SIGNIN_DEVICE_SECONDS = 365 * 24 * 3600
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# ------------------------------------------------------------------ i18n
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ru", _("Russian")),
    ("uk", _("Ukrainian")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# ------------------------------------------------------------------ static files
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Hashed, compressed, long-cached file names need `collectstatic` first: the Docker image
# and `make stack` turn this on; `make run` and the tests serve the plain files.
STATIC_MANIFEST = env.bool("DJANGO_STATIC_MANIFEST", default=False)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "servestatic.storage.CompressedManifestStaticFilesStorage"
            if STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        ),
    },
}
# servestatic serves them under ASGI with asynchronous file reads (whitenoise's
# synchronous iterators made Django warn and buffer). Without collectstatic (make run,
# tests) it serves straight from the finders.
SERVESTATIC_USE_FINDERS = not STATIC_MANIFEST
SERVESTATIC_AUTOREFRESH = DEBUG

# ------------------------------------------------------------------ redis, channels, celery
REDIS_URL = env.str("REDIS_URL", default="") or None

if REDIS_URL:
    # The pub/sub layer: about 2.5x the throughput of RedisChannelLayer on this kind of
    # machine; a raised pool (redis-py 8 caps an async pool at 100) and a socket timeout
    # longer than the layer's receive wait (docs/architecture.md#what-the-websocket-stack-costs);
    # a dead connection (Redis restarted) retried and idle ones checked (core/redis_options.py).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "max_connections": env.int("REDIS_MAX_CONNECTIONS", default=1000),
                        "socket_timeout": 30,
                        "socket_connect_timeout": 5,
                        **redis_options(asyncio=True),
                    }
                ],
                # One Redis serves several databases but a single pub/sub namespace:
                # the database number keeps two deployments (or test runs) apart.
                "prefix": "thousand" + urlsplit(REDIS_URL).path.strip("/"),
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The cache behind the throttles and the sign-in limits: shared by every process of a
# deployment (Redis) on the full stack; local memory in the one-process embedded default.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "thousand-cache",
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2, **redis_options()},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# A host in the in-memory URL too: kombu warns "No hostname was supplied" otherwise.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://localhost/")
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=REDIS_URL is None)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_ENABLE_UTC = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
# Nobody waits for a task's return value (bots, clocks, results, ratings, tournaments):
# storing them only grew the result backend. A task that is waited for says so itself
# (config.ping).
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A message a worker took but never acknowledged (it died, or lost Redis while holding it)
# goes back to its queue after visibility_timeout seconds: longer than any task runs or
# waits for its countdown here (a bot's pause), short enough that a lost one is not lost
# for long. Every task is safe to run twice.
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 5, "visibility_timeout": 300}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"

# ------------------------------------------------------------------ DRF
REST_FRAMEWORK = {
    # Token first: an anonymous caller then gets 401 with `WWW-Authenticate: Token`
    # (DRF takes the challenge from the first class; a session has none, hence 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # One error shape under /api/ (docs/protocol.md §2); deep JSON is a 400, not a 500.
    "EXCEPTION_HANDLER": "core.api_errors.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "core.api_parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # No DEFAULT_THROTTLE_RATES: each throttle reads its rate from a setting of its own
    # on every request (ACCOUNTS_SIGNUP_RATE, SOCIAL_WRITE_RATE), so a deployment sets it
    # by its environment and a test by the settings fixture.
    # REMOTE_ADDR is already the client's address (TRUSTED_PROXIES below): DRF must not
    # read X-Forwarded-For again (its None would trust any header a client sends).
    "NUM_PROXIES": 0,
}
# How many proxies in front of the server append to X-Forwarded-For: 0, the TCP peer is
# the client; N, the N-th address from that header's end (core/client_address.py, which
# sets the address every limit reads, pages, API and websockets; docs/security.md).
TRUSTED_PROXIES = env.int("DJANGO_TRUSTED_PROXIES", default=0)
SPECTACULAR_SETTINGS = {
    "TITLE": "Thousand API",
    # What the API offers is told by TAGS, one entry per group of endpoints that exists
    # (a test keeps the two in step), so the description promises nothing more.
    "DESCRIPTION": (
        "The HTTP API of the Thousand service, for the card game Thousand (Тысяча). "
        "Sign in with the session of the web site, or send `Authorization: Token <key>`: "
        "`POST /api/v1/auth/token/` gives the key for a username and password."
    ),
    "TAGS": [
        {"name": "accounts", "description": "Your profile and your API token."},
        {
            "name": "tables",
            "description": (
                "Live tables: list and open them, take or leave a seat, seat bots, start, "
                "resign, and a match's record. The play itself goes over the websocket "
                "`/ws/tables/<id>/` (docs/protocol.md)."
            ),
        },
        {
            "name": "tournaments",
            "description": (
                "Scheduled tournaments: the lists, one tournament with its rules in plain "
                "words, entrants, standings and rounds with their live tables; register, "
                "withdraw and check in (docs/tournaments.md)."
            ),
        },
        {
            "name": "social",
            "description": (
                "The social side of the tables: follow and block players, the Friends list "
                "with presence, mutes, chat reports and challenges (docs/social.md)."
            ),
        },
        {
            "name": "clubs",
            "description": (
                "Clubs: found one, join, leave, ask and answer, invitation links, members "
                "and their rights, a club's events and leaderboard (docs/clubs.md)."
            ),
        },
        {"name": "leaderboard", "description": "The ratings leaderboards (docs/ratings.md)."},
        {"name": "players", "description": "A player's ratings and statistics."},
    ],
    # Operations are grouped (tagged) by the first path segment after /api/v1/.
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Separate request and response components: read-only fields (the token's `token`)
    # are then no input in the docs' "Try it out", which works with form bodies too.
    "COMPONENT_SPLIT_REQUEST": True,
    # Enums stay inline: the default enum hook moves a blank choice ("no preferred
    # language") into a shared, type-less `BlankEnum` component.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enum_id_removal"],
    # Swagger UI is served from this server (drf-spectacular-sidecar), never a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# ------------------------------------------------------------------ security
# Served over HTTPS (itself or behind a proxy that sets X-Forwarded-Proto), DJANGO_HTTPS
# turns on all that `manage.py check --deploy` asks for. /healthz stays reachable over
# plain HTTP for load balancers and container health checks.
HTTPS = env.bool("DJANGO_HTTPS", default=False)
SECURE_SSL_REDIRECT = HTTPS
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=365 * 24 * 3600 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_HSTS_PRELOAD", default=HTTPS)
SECURE_HSTS_PRELOAD = SECURE_HSTS_INCLUDE_SUBDOMAINS

# ------------------------------------------------------------------ logging
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOG_FORMAT = env.str("LOG_FORMAT", default="console" if DEBUG else "json")
LOGGING = logging_settings(level=LOG_LEVEL, handler_format=LOG_FORMAT)

# ------------------------------------------------------------------ live tables (games)
# Who runs bot turns and the clock sweep (games/scheduler.py): Celery on the full stack,
# the ASGI server's own event loop in the embedded default.
GAMES_SCHEDULER = env.str(
    "GAMES_SCHEDULER", default="loop" if CELERY_TASK_ALWAYS_EAGER else "celery"
)
GAMES_BOT_DELAY = env.float("GAMES_BOT_DELAY", default=0.8)  # a bot's human-like pause, seconds
# Open (not started) tables one person may have created.
GAMES_OPEN_TABLES_PER_USER = env.int("GAMES_OPEN_TABLES_PER_USER", default=3)
# Tables with bots playing at once (twelve tables of master bots from one account
# would stall every bot table): per person who started them, of those with master
# bots (a master decision costs the bots' pool over a second), and per address.
GAMES_BOT_TABLES_PER_USER = env.int("GAMES_BOT_TABLES_PER_USER", default=3)
GAMES_MASTER_TABLES_PER_USER = env.int("GAMES_MASTER_TABLES_PER_USER", default=1)
GAMES_BOT_TABLES_PER_ADDRESS = env.int("GAMES_BOT_TABLES_PER_ADDRESS", default=6)
GAMES_BOT_GRACE = 10.0  # after its pause, the sweep plays a bot's lost turn
GAMES_CLOCK_SWEEP_SECONDS = 1.0
GAMES_WS_MAX_MESSAGE = 4096  # bytes of one client message
GAMES_WS_RATE = 10.0  # client messages a second per connection ...
GAMES_WS_BURST = 20  # ... in bursts of this many
GAMES_WS_STRIKES = 50  # refused messages in a row before the connection is closed
GAMES_WS_USER_RATE = 20.0  # client messages a second per person (per address when anonymous),
GAMES_WS_USER_BURST = 40  # all his table connections together, in bursts of this many
# Websockets of each kind (tables, lobby, tournaments, notifications, social) one person holds at
# a time, across every server process (counted in Redis: core/ws_guard.py) ...
GAMES_WS_MAX_PER_USER = env.int("GAMES_WS_MAX_PER_USER", default=8)
# ... and one address (0: no cap). Behind a proxy, set DJANGO_TRUSTED_PROXIES, or every
# socket shares the proxy's address.
GAMES_WS_MAX_PER_ADDRESS = env.int("GAMES_WS_MAX_PER_ADDRESS", default=64)
# Each open socket's place in those counts is a lease its server renews every third of
# this; a server that dies leaves places that run out after it.
GAMES_WS_LEASE_SECONDS = env.float("GAMES_WS_LEASE_SECONDS", default=60.0)
# An open signed-in socket learns within this long that its credential was revoked (its
# token, its password, a sign-out: checked in PostgreSQL every half of it, and before the
# socket acts when the last check is older), however the closing message fares in Redis.
GAMES_WS_CREDENTIAL_SECONDS = env.float("GAMES_WS_CREDENTIAL_SECONDS", default=5.0)
# One owner per live table (games/owner.py): the process holding a table's advisory lock
# applies its commands in order, the others send them to it. Off: every process writes
# (behind a transaction-mode pooler, which cannot carry a session's advisory lock).
GAMES_TABLE_OWNER = env.bool("GAMES_TABLE_OWNER", default=True)
GAMES_TABLE_OWNER_TIMEOUT = 2.0  # seconds a command waits for the owner's answer
GAMES_TABLE_OWNER_CHECK_SECONDS = 1.0  # how often the owner checks its lock's connection
# How long an owner publishes a table's updates for another process's sockets after that
# process last said it has some (it says so every third of this), and after taking a table.
GAMES_TABLE_OWNER_WATCH_SECONDS = env.float("GAMES_TABLE_OWNER_WATCH_SECONDS", default=5.0)
# ------------------------------------------------------------------ the social app (docs/social.md)
# A social socket that stops without closing (its server died) still counts its person
# online for at most this many seconds; each process re-scores its sockets every third.
SOCIAL_PRESENCE_TTL = 15
SOCIAL_CHAT_MAX_LENGTH = 300  # characters of one chat message
# At most SOCIAL_CHAT_MESSAGES chat lines in SOCIAL_CHAT_SECONDS per person, across processes.
SOCIAL_CHAT_RATE = (
    env.int("SOCIAL_CHAT_MESSAGES", default=5),
    env.int("SOCIAL_CHAT_SECONDS", default=10),
)
# The social app's writes (follows, blocks, challenges, reports…) per person; a DRF rate.
SOCIAL_WRITE_RATE = env.str("SOCIAL_WRITE_RATE", default="120/minute")
CLUBS_WRITE_RATE = env.str("CLUBS_WRITE_RATE", default="60/minute")
SOCIAL_CHAT_HISTORY = 50  # messages a chat shows when it opens
SOCIAL_CHAT_RETENTION_DAYS = 30  # chat is deleted this long after it was written
# The word filter's lists (social/wordfilter.py): Russian and Ukrainian; English from
# better-profanity's own list while SOCIAL_CHAT_FILTER_ENGLISH is on.
SOCIAL_CHAT_WORDLISTS = [str(BASE_DIR / "social" / "wordlists" / "ru_uk.txt")]
SOCIAL_CHAT_FILTER_ENGLISH = True
SOCIAL_CHALLENGE_SECONDS = 180  # a challenge not answered by then expires
# Challenges one person may have waiting for answers at once (one at a time per pair).
SOCIAL_CHALLENGES_PER_USER = env.int("SOCIAL_CHALLENGES_PER_USER", default=3)
SOCIAL_REMINDER_MINUTES = 10  # entrants are reminded this long before a tournament starts
# ------------------------------------------------------------------ e-mail
# Where mail goes (accounts/mail.py): EMAIL_URL, `smtp://user:password@host:587`
# (`smtp+tls://`, `smtp+ssl://`), `console://` (the default: `make run` needs nothing),
# `file:///path/to/folder`. Sent by Celery on the `mail` queue, never inside a request.
EMAIL_URL = env.str("EMAIL_URL", default="console://")
_EMAIL_SCHEMES = {"console": "consolemail", "file": "filemail", "memory": "memorymail"}
_scheme, _sep, _rest = EMAIL_URL.partition("://")
_email = environ.Env.email_url_config(f"{_EMAIL_SCHEMES.get(_scheme, _scheme)}://{_rest}")
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST") or "localhost"
EMAIL_PORT = _email.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS"))
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL"))
if _scheme == "file":
    EMAIL_FILE_PATH = _rest  # file:///var/mail/thousand: an absolute folder
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Thousand <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_TIMEOUT = 20
# The site's public address, for the links in mail sent outside a request (a notice's
# link and its unsubscribe link): e.g. https://thousand.example
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
# Attempts at one mail before it is marked failed (the outbox in the admin).
ACCOUNTS_MAIL_ATTEMPTS = env.int("ACCOUNTS_MAIL_ATTEMPTS", default=5)
# How long a link in a mail holds: an address's confirmation, a password reset.
ACCOUNTS_EMAIL_CONFIRM_SECONDS = 3 * 24 * 3600
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=2 * 3600)
# Password-reset mails asked for one address, and for one account, per hour.
ACCOUNTS_RESETS_PER_HOUR = env.int("ACCOUNTS_RESETS_PER_HOUR", default=3)
# A closed account is erased this long after it was closed (until then it can come back).
ACCOUNTS_CLOSE_GRACE_SECONDS = env.int("ACCOUNTS_CLOSE_GRACE_SECONDS", default=14 * 24 * 3600)
# Whoever uses the admin (staff, a club's organisers) needs a confirmed address and a second
# factor (TOTP or a recovery code).
ACCOUNTS_ADMIN_OTP = env.bool("ACCOUNTS_ADMIN_OTP", default=True)
OTP_TOTP_ISSUER = "Thousand"

# Data that stays small (games/retention.py): a finished match's action log rows and
# dealings are deleted this long after its end; its result's record keeps every action
# and seed. The archive task runs every GAMES_ARCHIVE_SWEEP_SECONDS.
GAMES_LOG_RETENTION_SECONDS = env.int("GAMES_LOG_RETENTION_SECONDS", default=3600)
GAMES_ARCHIVE_SWEEP_SECONDS = 60.0
# Periodic tasks: Celery beat on the full stack, games/scheduler.py's in-process beat in
# the embedded default.
# Worker pools by queue (config/celery.py's QUEUES): bots' turns and the clock on one,
# results, ratings and tournaments on the other, so a burst of one never delays the other.
CELERY_TASK_ROUTES = {
    "games.*": {"queue": "bots"},
    "ratings.*": {"queue": "results"},
    "tournaments.*": {"queue": "results"},
    # The computer analysis of finished matches: long and CPU-bound, on a pool of its own
    # so that bot turns and results never wait behind it.
    "analysis.*": {"queue": "analysis"},
    # Mail leaves through a queue of its own: an SMTP server that hangs delays no result.
    "accounts.*": {"queue": "mail"},
    "fairplay.*": {"queue": "analysis"},
}
CELERY_TASK_QUEUES = [
    Queue("bots"),
    Queue("results"),
    Queue("celery"),
    Queue("analysis"),
    Queue("mail"),
]
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_BEAT_SCHEDULE = {
    "games-clocks-sweep": {"task": "games.clocks_sweep", "schedule": GAMES_CLOCK_SWEEP_SECONDS},
    "tournaments-tick": {"task": "tournaments.tick", "schedule": 5.0},
    "games-logs-archive": {"task": "games.logs_archive", "schedule": GAMES_ARCHIVE_SWEEP_SECONDS},
    "social-chat-expire": {"task": "social.chat_expire", "schedule": 3600.0},
    "social-challenges-expire": {"task": "social.challenges_expire", "schedule": 15.0},
    "social-reminders": {"task": "social.reminders_send", "schedule": 60.0},
    "accounts-closed-erase": {"task": "accounts.closed_erase", "schedule": 3600.0},
    "clubs-series": {"task": "clubs.series_materialize", "schedule": 900.0},
}

# The computer analysis of finished matches (analysis/, docs/analysis.md): worlds sampled a
# decision (no clock: the result is a function of the seed), analyses a person may ask
# for in 24 hours (one running at a time), and the retries of one that fails.
ANALYSIS_SAMPLES = env.int("ANALYSIS_SAMPLES", default=120)
ANALYSIS_PER_DAY = env.int("ANALYSIS_PER_DAY", default=5)
# Fair play: its settings stand beside this file (read after .env above).
from config.fairplay_settings import (  # noqa: E402, F401
    FAIRPLAY_ANALYSIS_MATCHES,
    FAIRPLAY_ANALYSIS_SAMPLES,
    FAIRPLAY_CLOCK_THRESHOLD,
    FAIRPLAY_ENGINE_THRESHOLD,
    FAIRPLAY_HIGH_LEVEL_RATING,
    FAIRPLAY_HIGH_LEVEL_SAMPLES,
    FAIRPLAY_MIN_MATCHES,
    FAIRPLAY_PAIR_THRESHOLD,
    FAIRPLAY_SCREEN_DECISIONS,
    FAIRPLAY_SOFT_PLAY_THRESHOLD,
)

ANALYSIS_RETRIES = 2
# A running analysis with no decision finished for this long has likely lost its worker
# (Redis hands the task back after the visibility timeout): the page says so.
ANALYSIS_STALL_SECONDS = env.int("ANALYSIS_STALL_SECONDS", default=90)
