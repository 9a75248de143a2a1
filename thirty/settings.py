"""Settings, all read from the environment.

The defaults make `make run` work with nothing set: debug off, SQLite and a secret key made
once in `data/`, answering on this machine's own addresses. Set `SITE_URL` when the app has
a public address; `DATABASE_URL` selects PostgreSQL. `.env.example` lists every variable.
"""

from __future__ import annotations

import os
import secrets
import socket
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from thirty import limits
from thirty.network import LOOPBACK_NAMES, lan_addresses

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool) -> bool:
    value = os.getenv(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def envint(name: str, default: int) -> int:
    value = os.getenv(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def envsecret(name: str, default: str) -> str:
    """A secret from NAME, or from the file named by NAME_FILE (Docker secrets)."""
    path = os.getenv(f"{name}_FILE")
    if path:
        return Path(path).read_text().strip()
    return os.getenv(name, default)


def kept_secret_key(path: Path) -> str:
    """A secret key made once for this installation and kept in `path` (readable by its owner
    only), so that `make run` needs no setup and signed cookies survive a restart."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first
        return path.read_text().strip()
    with os.fdopen(descriptor, "w") as file:
        file.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


# Off unless asked for: a debug page would print a game's keys and hands to any phone.
DEBUG = envbool("DEBUG", False)
DATA_DIR = Path(os.getenv("THIRTY_DATA_DIR", BASE_DIR / "data"))

# The address people use. Unset, the app is on a laptop at the table: it answers on this
# machine's own addresses, and hands out its address on the local network (games/links.py).
SITE_URL = os.getenv("SITE_URL", "").rstrip("/")
_site = urlsplit(SITE_URL)
if SITE_URL and (not _site.scheme or not _site.hostname):
    raise ImproperlyConfigured(f"SITE_URL must be a full address, not {SITE_URL!r}")

# Whether the server listens on the local network (thirty/serve.py says, from HOST): only
# then may a link made on 127.0.0.1 carry the machine's address on the network instead.
THIRTY_LISTENS_ON_LAN = envbool("THIRTY_LISTENS_ON_LAN", True)

SECRET_KEY = envsecret("SECRET_KEY", "") or kept_secret_key(DATA_DIR / "secret_key")

# The site's own address decides which hosts and origins are trusted.
if SITE_URL:
    # This machine's own names too: a health check, or the host on the server itself.
    ALLOWED_HOSTS = [str(_site.hostname), *LOOPBACK_NAMES]
    CSRF_TRUSTED_ORIGINS = [f"{_site.scheme}://{_site.netloc}"]
else:
    _hostname = socket.gethostname()
    ALLOWED_HOSTS = [*LOOPBACK_NAMES, *lan_addresses(), _hostname, f"{_hostname}.local"]
    CSRF_TRUSTED_ORIGINS = []

INSTALLED_APPS = [
    "django.contrib.staticfiles",
    "django.contrib.contenttypes",
    "django_htmx",
    "csp",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "games.middleware.PermissionsPolicyMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Before anything that checks the Host header against ALLOWED_HOSTS.
    "games.middleware.HealthCheckMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Right after the host is checked: a phone's poll of an unchanged game needs no more.
    "games.middleware.UnchangedLiveMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "games.password.InstancePasswordMiddleware",
    "games.middleware.StaleKeyCookieMiddleware",
]

# On PostgreSQL, each process listens for version changes (games/versions.py): it pushes
# them to the phones following through it, and answers an unchanged live refresh without a
# query. Switched off, a phone hears at once only of changes made through its own process;
# the others reach it by its safety poll, every 30 s.
THIRTY_VERSION_PUSH = envbool("THIRTY_VERSION_PUSH", True)

# The kinds of game this instance plays (`games.kinds`), in the order the app offers them.
# A kind is a package under `games.kinds` over its engine in `games.rules`, and its line here.
THIRTY_KINDS = ["games.kinds.dice.DICE", "games.kinds.cards.CARDS"]

# The pace of a game's page: how long a fresh turn pad ignores taps after a turn is recorded
# (so that a double tap cannot land on the next turn), and how often a page whose event stream
# does not get through polls for changes. The browser tests shorten both; one test of each
# keeps these.
THIRTY_COOLDOWN_MS = 600
# A seat's phone counts as quiet (asleep, or closed) once its stream has not beaten for this
# long: two heartbeats (games/push.py) and a margin (games/presence.py).
THIRTY_PRESENCE_QUIET_SECONDS: float = 45
THIRTY_POLL_SECONDS: float = 1
# How long a roll of the dice the whole table makes waits for the other phones' parts before
# it is made without those that have not come (games/store/table_rolls.py).
THIRTY_TABLE_ROLL_WAIT_SECONDS: float = 4
# Computers move at once; every phone shows their moves one by one, this far apart, so that
# a person can follow them (static/thirty.js, data-pace). The browser tests shorten it too.
THIRTY_PACE_MS = 1500

# Optional: a password for creating games and seeing the history (see games/password.py).
THIRTY_PASSWORD = envsecret("THIRTY_PASSWORD", "")

ROOT_URLCONF = "thirty.urls"
WSGI_APPLICATION = "thirty.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "games.context_processors.pace",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.getenv("DATABASE_URL", f"sqlite:///{DATA_DIR / 'thirty.sqlite3'}"),
        conn_max_age=envint("DB_CONN_MAX_AGE", 600),
        # Off by default: a check costs every request a round trip to PostgreSQL, and the live
        # refresh is one query. A dropped connection then fails one request, and is replaced.
        conn_health_checks=envbool("DB_CONN_HEALTH_CHECKS", False),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE takes the write lock when a transaction starts, so two requests never both
    # read a game and then race to write it; WAL lets readers go on while one writes.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests use a real file, not memory, so that threads and other processes share it; one
    # per test run, so that two runs at once do not share it.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"thirty-test-{os.getpid()}.sqlite3")
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Wrong guesses of the password or of a key allowed per client address (games/guesses.py),
# far above what a person mistypes.
THIRTY_GUESS_RATE = os.getenv("THIRTY_GUESS_RATE", "30/10m")
# How many reverse proxies stand in front of the app, each adding the address it was reached
# from to X-Forwarded-For: the client is the address the last of them added, never one the
# client wrote itself. 0: the client is the connection's own address.
THIRTY_TRUSTED_PROXIES = limits.TRUSTED_PROXIES  # read once, there, for the server too
if os.getenv("RATELIMIT_IP_META_KEY"):
    raise ImproperlyConfigured(
        "RATELIMIT_IP_META_KEY is no longer read: a client can write that header itself."
        " Set THIRTY_TRUSTED_PROXIES to the number of reverse proxies in front of the app."
    )

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("da", _("Danish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language a phone chose with the EN / DA switch: kept for a year, no session needed.
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_I18N = True
TIME_ZONE = os.getenv("TIME_ZONE", "Europe/Copenhagen")
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.getenv("THIRTY_STATIC_ROOT", BASE_DIR / "static-collected"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# The production entry point (thirty/serve.py) collects the static files first and then asks
# for names with content hashes, which browsers may cache for ever. Elsewhere (tests,
# development) files are served as they are.
STORAGES = {
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if envbool("THIRTY_COLLECTED_STATIC", False)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# A request body never needs to be large: a whole exported game is a few hundred kilobytes.
DATA_UPLOAD_MAX_MEMORY_SIZE = envint("DATA_UPLOAD_MAX_MEMORY_SIZE", 1024 * 1024)
# Uploads stay in memory and stop at that size: nothing is written to disk (games/uploads.py).
FILE_UPLOAD_HANDLERS = ["games.uploads.LimitedMemoryUploadHandler"]
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE

# Only this site's own files: no inline script, style or handler, nothing from elsewhere,
# no plugins, no framing. htmx's own indicator style is switched off in base.html.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        # The silent video that keeps a phone's screen on without Wake Lock (NoSleep.js).
        "media-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# A form refused for its CSRF token gets the app's own page, in the reader's language.
CSRF_FAILURE_VIEW = "games.errors.csrf_failure"
if _site.scheme == "https":
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"one_line": {"()": "thirty.logs.WithoutTraceback"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "one_line": {"class": "logging.StreamHandler", "filters": ["one_line"]},
    },
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "WARNING")},
    "loggers": {
        # A request for a host name that is not allowed (a phone that typed an old address, a
        # scanner on the internet) is one line that names the host, not a traceback.
        "django.security.DisallowedHost": {"handlers": ["one_line"], "propagate": False},
    },
}
