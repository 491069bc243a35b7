"""Settings of the poker room, read from the environment (django-environ).

Two ways of running share one code path (see docs/architecture.md):
- embedded (no REDIS_URL): SQLite, in-process channel layer, Celery tasks run inside the
  server process with their countdowns honoured (pokerroom.inprocess);
- services (REDIS_URL set): PostgreSQL via DATABASE_URL, channels_redis, Celery on Redis.
"""

import os
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from pokerroom.log_format import LOG_FORMATS, logging_config

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=True)
# With DEBUG off a real key must come from the environment: no default to forget about.
SECRET_KEY = (
    env("SECRET_KEY", default="insecure-development-key-only-for-make-run-change-me-in-production")
    if DEBUG
    else env("SECRET_KEY")
)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list(
    "CSRF_TRUSTED_ORIGINS",
    default=["http://127.0.0.1:8000", "http://localhost:8000"],
)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_celery_beat",
    "axes",
    # Two-factor logins (issue #26): TOTP devices and recovery codes (static devices).
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "accounts",
    "tables",
    "tournaments",
    "histories",
    "accounting",
    "integrity",
    "bots",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    # A login that owes its second factor (every staff login) reaches only the pages that take it.
    "accounts.second_factor_gate.SecondFactorGateMiddleware",
    # Each login's "last seen" on the settings page's list of sessions (issue #26).
    "accounts.sessions.SessionSeenMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "pokerroom.urls"
OTP_TOTP_ISSUER = "Stud Room"

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

ASGI_APPLICATION = "pokerroom.asgi.application"
WSGI_APPLICATION = "pokerroom.wsgi.application"

# --- Database -------------------------------------------------------------------------------
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions serialise writers the way row locks do on PostgreSQL, and WAL
    # lets readers go on while a hand is being written.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # A file, so a Daphne subprocess in the browser tests sees the same database; one per
    # test process, so two runs at once never share one.
    DATABASES["default"].setdefault("TEST", {})["NAME"] = str(
        BASE_DIR / "var" / f"test-{os.getpid()}.sqlite3"
    )
else:
    # Persistent connections: Channels runs every database call of a Daphne process in one
    # thread, so this is one connection per process kept open, instead of a new PostgreSQL
    # connection (a few milliseconds, more under load) for every action, snapshot and
    # presence change. A broken connection is dropped after its error (Django closes it).
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    DATABASES["default"].setdefault("TEST", {})["NAME"] = (
        f"test_{DATABASES['default']['NAME']}_{os.getpid()}"
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.Player"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "login"

# Login throttling (django-axes): lock a username+address after AXES_FAILURE_LIMIT failures,
# and the address alone, whatever usernames it tries, after AXES_ADDRESS_FAILURE_LIMIT (issue
# #22: password spraying; larger, since many players share a café's or carrier's address).
# accounts/login_throttle.py counts each against its own limit, and a right password clears
# only that account's failures from that address.
AXES_HANDLER = "accounts.login_throttle.RoomLoginThrottle"
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_ADDRESS_FAILURE_LIMIT = env.int("AXES_ADDRESS_FAILURE_LIMIT", default=20)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Mails about an account (issue #22: password resets, a sign-up's address confirmation, the
# notice to an address's owner that someone signed up with it): of each kind at most this many
# an hour to one account, and sent at one address's asking; beyond either the page answers the
# same and nothing is sent.
ACCOUNT_MAILS_PER_ACCOUNT = env.int("ACCOUNT_MAILS_PER_ACCOUNT", default=3)
ACCOUNT_MAILS_PER_ADDRESS = env.int("ACCOUNT_MAILS_PER_ADDRESS", default=5)

# --- Time -----------------------------------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# The all-in protection day (R-TIME-2) and rake report days are New York days.
ROOM_DAY_TIME_ZONE = "America/New_York"

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = Path(env("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
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

# --- Redis, channels, Celery ----------------------------------------------------------------
REDIS_URL = env("REDIS_URL", default="")
TASKS_IN_PROCESS = not REDIS_URL
# In the embedded mode the in-process runner also plays beat (the sweep, the daily reset).
TASKS_RUN_BEAT = env.bool("TASKS_RUN_BEAT", default=True)

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: a group_send is one PUBLISH, and each Daphne process receives one
            # copy per group and hands it to its own consumers. The list-based layer
            # (channels_redis.core) pushes a copy per consumer and each process pops them one
            # by one: with hundreds of viewers per process that queue, not the room, set the
            # latency (docs/performance.md). Delivery is at most once, as DESIGN.md already
            # assumes of any layer: seq and the snapshot mend a lost frame.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # redis-py 8 reads with a 5 s socket timeout by default; no socket timeout on
            # these long-lived connections.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None}]},
        }
    }
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# Beat reads crontab entries in this zone: the all-in reset runs at New York midnight.
CELERY_TIMEZONE = ROOM_DAY_TIME_ZONE
CELERY_ENABLE_UTC = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Keep reconnecting to Redis for as long as it is away (the default gives up after 100 tries),
# and survive losing it while countdown tasks are held: pokerroom/worker.py (issue #11).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "pokerroom.worker:RoomConsumer"
# A task running when the connection drops finishes (the tasks are short); if the broker
# delivers it again, its expected seq or due time has passed and it does nothing.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Celery's Django fix-up closes the database connection before and after every task unless
# this is set, so each action clock (one per turn) opened a new PostgreSQL connection: a
# backend forked and its caches warmed for one SELECT. Set, the fix-up closes only every
# so many tasks, and pokerroom/celery.py drops connections the Django way after each task
# (CONN_MAX_AGE, or unusable after an error), as a request does.
CELERY_DB_REUSE_MAX = 10_000

# --- Email ----------------------------------------------------------------------------------
EMAIL_BACKEND = env(
    "EMAIL_BACKEND",
    default="django.core.mail.backends.filebased.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_FILE_PATH = env("EMAIL_FILE_PATH", default=str(BASE_DIR / "var" / "mail"))
EMAIL_HOST = env("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Stud Room <room@localhost>")
ACCOUNTING_EMAIL = env("ACCOUNTING_EMAIL", default="")

# --- REST framework -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Stud Room API",
    "DESCRIPTION": "Lobby, tables, wallet, hand histories and rake reports.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc served from the drf-spectacular-sidecar package: no CDN needed.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name for the game choices wherever a field offers them (a Triple Stud table's
    # current and next game, a table's game), not an enum per field.
    "ENUM_NAME_OVERRIDES": {"GameEnum": "stud.variant.GAME_CHOICES"},
}
# Hand histories (R-HIST-2): "Email me these hands" requests per player per hour, and whether
# a hand dealt before the card-by-card commitment shows its whole deck and salt (DESIGN.md
# "Fairness"; hands dealt since reveal only the cards each player saw, whatever this says).
HISTORY_EMAILS_PER_HOUR = env.int("HISTORY_EMAILS_PER_HOUR", default=5)
HAND_HISTORY_REVEAL_DECK = env.bool("HAND_HISTORY_REVEAL_DECK", default=True)

# --- The room's money ------------------------------------------------------------------------
# "play": play money (the default): a new player is granted PLAY_MONEY_SIGN_UP_GRANT cents, and
# may top up by PLAY_MONEY_TOP_UP_AMOUNT once a New York day while the wallet (the balance off
# the tables) is below PLAY_MONEY_TOP_UP_FLOOR. "real": no grant, no top-up; players ask the
# cashier for deposits and withdrawals and staff approve them (docs/operations.md).
ROOM_MONEY = env.str("ROOM_MONEY", default="play")
if ROOM_MONEY not in ("play", "real"):
    raise ImproperlyConfigured(f"ROOM_MONEY must be 'play' or 'real', not {ROOM_MONEY!r}")
PLAY_MONEY_SIGN_UP_GRANT = env.int("PLAY_MONEY_SIGN_UP_GRANT", default=100_000)
PLAY_MONEY_TOP_UP_FLOOR = env.int("PLAY_MONEY_TOP_UP_FLOOR", default=10_000)
PLAY_MONEY_TOP_UP_AMOUNT = env.int("PLAY_MONEY_TOP_UP_AMOUNT", default=100_000)
# Two people for money (issue #22): a staff credit or debit of more than this many cents, or
# any to or from a staff account, waits for a second member of staff's approval; so does a
# cashier request above it (two staff approve) or by a staff member (another staff approves).
MONEY_SECOND_APPROVAL_CENTS = env.int("MONEY_SECOND_APPROVAL_CENTS", default=100_000)
if MONEY_SECOND_APPROVAL_CENTS < 0:
    raise ImproperlyConfigured("MONEY_SECOND_APPROVAL_CENTS must be 0 or more cents")

# --- Live tables ----------------------------------------------------------------------------
# R-GAME-3's short pause between hands (also the time an uncalled winner has to show,
# R-SHOW-3), and how long a freed seat is held for the first on the waiting list.
NEXT_HAND_PAUSE_SECONDS = env.float("NEXT_HAND_PAUSE_SECONDS", default=3.0)
WAITING_LIST_OFFER_SECONDS = env.float("WAITING_LIST_OFFER_SECONDS", default=60.0)
# R-ANTE-1: a player without auto-ante has this long to say "I'm in" (the next hand waits
# at least this long when someone is asked, then is dealt to the others).
ANTE_CONFIRM_SECONDS = env.float("ANTE_CONFIRM_SECONDS", default=6.0)
# Tournaments: from the seat draw to the first deal, for players to reach their tables.
TOURNAMENT_SEATING_SECONDS = env.float("TOURNAMENT_SEATING_SECONDS", default=10.0)
# WebSocket flood control per connection (RateLimiter in tables/realtime/protocol.py):
# messages a second on average, the burst allowed, and the refusals after which the
# connection is closed (4008).
TABLE_WS_RATE = env.float("TABLE_WS_RATE", default=8.0)
TABLE_WS_BURST = env.int("TABLE_WS_BURST", default=16)
TABLE_WS_ABUSE_LIMIT = env.int("TABLE_WS_ABUSE_LIMIT", default=20)
# ... and shared by connections (tables/flood.py, in the cache: across processes on Redis):
# messages a second over all of a player's connections, and over all connections from one
# client address (0: no such limit).
TABLE_WS_USER_RATE = env.float("TABLE_WS_USER_RATE", default=16.0)
TABLE_WS_ADDRESS_RATE = env.float("TABLE_WS_ADDRESS_RATE", default=40.0)

# --- Production safeguards (DEBUG off) ------------------------------------------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

# --- Content-Security-Policy (issue #11) ----------------------------------------------------
# Every page loads its scripts, styles and images from the room only: no inline script, no
# inline style attribute, no framing, forms post back to the room. connect-src 'self' covers
# the table's WebSocket (ws:/wss: to the same host and port, CSP Level 3). On whenever DEBUG
# is off; CSP_ENABLED forces it either way (the browser tests turn it on).
CSP_ENABLED = env.bool("CSP_ENABLED", default=not DEBUG)
if CSP_ENABLED:
    from csp.constants import NONE, SELF

    MIDDLEWARE.insert(1, "csp.middleware.CSPMiddleware")
    CONTENT_SECURITY_POLICY = {
        "DIRECTIVES": {
            "default-src": [SELF],
            "script-src": [SELF],
            "style-src": [SELF],
            "img-src": [SELF, "data:"],
            "font-src": [SELF],
            "connect-src": [SELF],
            "object-src": [NONE],
            "frame-ancestors": [NONE],
            "form-action": [SELF],
            "base-uri": [SELF],
        }
    }

# --- Logs, health and metrics (issue #16; docs/operations.md "Health and metrics") ----------
# LOG_FORMAT: "text" (lines for people) or "json" (one JSON object a line; pokerroom/log_format.py).
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
if LOG_FORMAT not in LOG_FORMATS:
    raise ImproperlyConfigured(f"LOG_FORMAT must be 'text' or 'json', not {LOG_FORMAT!r}")
LOGGING = logging_config(LOG_FORMAT, env("LOG_LEVEL", default="INFO"))
# The Celery worker keeps these handlers rather than its own, so its lines are JSON too.
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT == "text"
# /metrics: with METRICS_TOKEN set, a scrape must send `Authorization: Bearer <token>` (403
# otherwise). METRICS_ENABLED (404 when off) defaults to on while developing or once a token
# is set: a production room shows no figures to the world unless told to.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
METRICS_ENABLED = env.bool("METRICS_ENABLED", default=DEBUG or bool(METRICS_TOKEN))
# Probes speak plain HTTP to the process itself: no redirect to HTTPS for them.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]

# Static files straight from the apps' folders while developing (no collectstatic needed).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# Issue #25: a second seat at a table from an address already seated there is refused unless
# staff allow the pair, except from these networks (integrity.holds.address_is_shared_by_design):
# loopback, where the demo's bots and the room's own browsers connect from.
SEAT_ADDRESS_EXEMPT: list[str] = env.list(
    "POKERROOM_SEAT_ADDRESS_EXEMPT", default=["127.0.0.0/8", "::1/128"]
)
