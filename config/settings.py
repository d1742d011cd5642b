"""Settings for the judging desk, all driven by the environment.

Every variable has a safe default for the embedded demo (SQLite, debug on, local hosts only), and
every value that is present but malformed stops the process at start-up with a message saying which
variable is wrong: a venue laptop must not start with half a configuration.
"""

import contextlib
import datetime
import ipaddress
import os
import secrets
import warnings
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    """Read a boolean variable; anything but a clear yes or no is a configuration error."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}.")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


# --- Data folder (venue): the SQLite database, the secret key, logs and backups -----------------
# Everything the app writes lives in one folder, so a venue laptop has one thing to back up or to
# move, and the checkout stays clean. A relative DJANGO_DATA_DIR is taken from the project folder.


def _data_dir() -> Path:
    raw = os.environ.get("DJANGO_DATA_DIR", "").strip()
    path = Path(raw).expanduser() if raw else Path("data")
    if not path.is_absolute():
        path = BASE_DIR / path
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ImproperlyConfigured(f"DJANGO_DATA_DIR {path} cannot be created: {error}") from error
    return path


def _adopt_old_file(name: str, new_name: str = "") -> None:
    """Move a file an older version kept loose in the checkout into the data folder, once.

    Only when the data folder has no such file yet: an existing event's database and key keep
    working after an update, and nothing is ever overwritten.
    """
    old, new = BASE_DIR / name, DATA_DIR / (new_name or name)
    if os.environ.get("DJANGO_DATA_DIR"):
        return  # A folder chosen on purpose starts as it is; only the default one adopts.
    if old.exists() and not new.exists() and old.resolve() != new.resolve():
        try:
            os.replace(old, new)
        except OSError as error:
            raise ImproperlyConfigured(f"{old} cannot be moved into {DATA_DIR}: {error}") from error


DATA_DIR = _data_dir()
LOG_DIR = DATA_DIR / "logs"


def _min_free_bytes() -> int:
    raw = os.environ.get("DJANGO_MIN_FREE_MB", "").strip() or "100"
    if not raw.isdigit():
        raise ImproperlyConfigured(f"DJANGO_MIN_FREE_MB must be a whole number, not {raw!r}.")
    return int(raw) * 1_000_000


# Below this much free space in the data folder /healthz reports the disk full (before a submit,
# a backup or the log fails on it).
DESK_MIN_FREE_BYTES = _min_free_bytes()
BACKUP_DIR = DATA_DIR / "backups"
# On SQLite a snapshot is taken each time a round is published; the newest this many are kept
# (0: none). `manage.py backup` files are never deleted.
_snapshots = os.environ.get("DJANGO_ROUND_SNAPSHOTS", "").strip() or "10"
if not _snapshots.isdigit():
    raise ImproperlyConfigured(
        f"DJANGO_ROUND_SNAPSHOTS must be a whole number, not {_snapshots!r}."
    )
DESK_ROUND_SNAPSHOTS = int(_snapshots)
# The processes that build CSV and XLSX exports beside the server (judging/export_processes.py),
# started at the first export; 0 builds them on a thread of the server process.
DESK_EXPORT_PROCESSES = 1
# --- end of the data folder block ---------------------------------------------------------------

# Off by default, so that no traceback ever reaches a judge; developers switch it on.
DEBUG = env_flag("DJANGO_DEBUG", default=False)

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

# psycopg's pool on PostgreSQL. With CONN_HEALTH_CHECKS (below) Django gives it
# ``check=ConnectionPool.check_connection``: a cheap query on a connection before the pool hands
# it out, and a new connection in place of a dead one. After a restart of PostgreSQL every pooled
# connection is dead, and without the check the next submits failed on them. Nothing has been
# written on a connection when it is checked, so taking another is a safe retry.
DESK_DATABASE_POOL: dict[str, object] = {"min_size": 2, "max_size": 20, "timeout": 20}
DEFAULT_DATABASE_URL = f"sqlite:///{DATA_DIR / 'db.sqlite3'}"
if not os.environ.get("DATABASE_URL"):
    for _suffix in ("", "-wal", "-shm"):
        _adopt_old_file(f"db.sqlite3{_suffix}")
_database_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
try:
    # A connection kept from an earlier request is checked before use (a restarted database
    # leaves every kept connection dead): Django's check for its own persistent connections.
    DATABASES = {
        "default": dj_database_url.parse(_database_url, conn_max_age=0, conn_health_checks=True)
    }
except ValueError as error:
    raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {error}") from error
if DATABASES["default"]["ENGINE"] not in {
    "django.db.backends.sqlite3",
    "django.db.backends.postgresql",
}:
    raise ImproperlyConfigured("DATABASE_URL must point at SQLite or PostgreSQL.")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Judges write concurrently from several tablets. A deferred transaction that reads first
    # cannot upgrade to a write lock once another writer holds it and fails at once with
    # "database is locked"; IMMEDIATE takes the write lock at BEGIN, where the timeout applies, so
    # writers queue instead of failing. WAL lets readers go on while one writer writes.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            # Connections kept between requests, as PostgreSQL's pool below keeps its own: under
            # ASGI each request runs on a new thread and would otherwise open the file anew.
            "pool": {"max_idle": 8},
        }
    )
    DATABASES["default"]["ENGINE"] = "core.pooled_sqlite3"
else:
    # A pool instead of a new connection per request (half the cost of a submit on PostgreSQL).
    # The LISTEN connection of judging.live is its own, outside the pool.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = dict(DESK_DATABASE_POOL)
    # The values travel apart from the SQL, and a statement run a few times on a connection is
    # prepared there: a queryset of the hot path compiles to the same SQL text on every request,
    # so PostgreSQL plans each once per pooled connection instead of once per request. Both
    # options are Django's own (its PostgreSQL notes: server-side binding, prepare_threshold).
    # Preparing is off for external poolers such as PgBouncer; this pool is psycopg's own,
    # inside the process, so a prepared statement stays on its connection. A migration that
    # changes a table is run before the server starts (``serve``).
    DATABASES["default"]["OPTIONS"].update({"server_side_binding": True, "prepare_threshold": 5})


# The players' pages are built once per change and kept as bytes (floor/public_pages.py): in
# each server process's memory, since a page is rebuilt from the database in milliseconds and a
# process that missed a change builds it on its next request (the key names the change). The
# bound on entries bounds the memory: a page is a few kilobytes, a search's answer less.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "public": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "players-pages",
        "TIMEOUT": 3600,
        "OPTIONS": {"MAX_ENTRIES": 3000, "CULL_FREQUENCY": 3},
    },
}


def _local_secret_key() -> str:
    """A random key kept in the data folder, made on the first start, when none is configured.

    A laptop at a venue then needs no set-up, and the key survives restarts; a deployment on
    several machines sets DJANGO_SECRET_KEY so they all share one.
    """
    _adopt_old_file(".secret_key", "secret_key")
    path = DATA_DIR / "secret_key"
    try:
        if not path.exists():
            # Exclusive creation: of several workers starting at once, one writes the key.
            with contextlib.suppress(FileExistsError):
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                    file.write(secrets.token_urlsafe(50))
        return path.read_text(encoding="utf-8").strip()
    except OSError as error:
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY is not set and {path} cannot be written: {error}"
        ) from error


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "") or _local_secret_key()

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    # The task queue's table and its worker (`manage.py db_worker`), for long work off the request.
    "django_tasks_db",
    # The read-only API's OpenAPI schema and its docs page, whose assets it serves itself.
    "ninja",
    # The desk's own session table (core.models.Session), and nothing else of core is an app.
    "core",
    "players",
    "tournaments",
    "judging",
    "decks",
    "floor",
    "federation",
    "operations",
]

MIDDLEWARE = [
    # First, so that every log line of the request, whatever fails later, carries its id.
    "operations.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # `serve --https-redirect` sends the tablets on from plain HTTP (operations/middleware.py).
    "operations.middleware.LanHttpsRedirectMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "core.inputs.RefuseControlCharacters",
    "core.headers.PrivatePages",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # A GET that met a dead database connection runs once more on a new one (operations/retry.py).
    "operations.retry.RetryReadOnDeadConnection",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

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

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Django's own Content-Security-Policy: every script, style, image and connection comes from the
# app itself (no CDN, no inline script or style), and no other site may frame the pages.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# Sign-in throttling (django-axes): the venue's Wi-Fi is shared with the players. Five wrong
# passwords in a row for one account from one address lock that pair out for 15 minutes (another
# tablet, or the right person elsewhere, can still sign in); every failure is logged by axes.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # A session signed in under the desk's former backend (core.authentication, removed when the
    # request path went back to plain Django) names a backend no longer listed: Django signs it
    # out, and the judge signs in once more.
    "django.contrib.auth.backends.ModelBackend",
]
# Django's database sessions in the desk's own table (core/sessions.py says why).
SESSION_ENGINE = "core.sessions"


def _session_hours() -> int:
    raw = os.environ.get("DJANGO_SESSION_HOURS", "").strip() or "16"
    if not raw.isdigit() or not 1 <= int(raw) <= 24 * 14:
        raise ImproperlyConfigured(
            f"DJANGO_SESSION_HOURS must be a whole number of hours from 1 to 336, not {raw!r}."
        )
    return int(raw)


# A sign-in lasts an event day (16 hours by default), not Django's two weeks: the tablets are
# shared and stay at the venue.
SESSION_COOKIE_AGE = _session_hours() * 3600

# Per-client limits of the pages anyone may open (core/throttle.py): (requests, seconds). A hall
# of phones behind one Wi-Fi address shares a limit: 200 phones each opening a page every ten
# seconds stay under the players' one.
DESK_THROTTLES: dict[str, tuple[int, int]] = {
    "players": (1500, 60),
    "codes": (120, 60),
}
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "config/locked_out.html"
# The address the server resolved (core/clients.py), never a header the client may write.
AXES_CLIENT_IP_CALLABLE = "core.clients.client_address"

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/Moscow")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# collectstatic writes the compressed, fingerprinted copies here (`demo` runs it by itself).
STATIC_ROOT = os.environ.get("DJANGO_STATIC_ROOT") or DATA_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.storage.StaticStorage"},
}
# Before collectstatic has run, the plain files are served from the app folders (short cache);
# after it, WhiteNoise serves the fingerprinted copies, gzip and brotli, cached for a year.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
# Until collectstatic has made it, the missing folder is expected, not worth a warning.
warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Long work (an import of thousands of players, re-checking every deck list of a tournament when
# its pool or rules change) runs as a task: the request that starts it answers at once, and a
# worker takes it from the database's queue. `serve` and `demo` start one worker
# beside the server; on several machines each runs `manage.py db_worker`. The queue is a table
# of the event's own database, so a laptop needs no other server.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# --- HTTPS behind a reverse proxy (venue) ---------------------------------------------------------
# DJANGO_HTTPS=true says the site is served over HTTPS (TLS ends at the proxy in front of uvicorn):
# secure cookies, HSTS, redirect of plain HTTP, and trust in the proxy's scheme header, each of
# which its own variable can change. With it off (the laptop on the venue's Wi-Fi) all stay off.
HTTPS = env_flag("DJANGO_HTTPS", default=False)


def _proxy_ssl_header() -> tuple[str, str] | None:
    raw = os.environ.get("DJANGO_PROXY_SSL_HEADER")
    name = ("X-Forwarded-Proto" if HTTPS else "") if raw is None else raw.strip()
    if name == "" or name.lower() == "none":
        return None
    if not all(char.isalnum() or char == "-" for char in name):
        raise ImproperlyConfigured(
            f"DJANGO_PROXY_SSL_HEADER must be a header name like X-Forwarded-Proto, not {raw!r}."
        )
    return ("HTTP_" + name.upper().replace("-", "_"), "https")


def _trusted_proxies() -> list[str]:
    trusted = []
    for entry in os.environ.get("DJANGO_TRUSTED_PROXIES", "").split(","):
        if not entry.strip():
            continue
        try:
            trusted.append(str(ipaddress.ip_network(entry.strip(), strict=False)))
        except ValueError:
            raise ImproperlyConfigured(
                "DJANGO_TRUSTED_PROXIES must list IP addresses or networks separated by commas "
                f"(such as 127.0.0.1 or 10.0.0.0/24), not {entry.strip()}."
            ) from None
    return trusted


# The reverse proxies whose X-Forwarded-For names the client (none by default): the server then
# takes the client's address from the header on requests from them only (operations/network.py).
DESK_TRUSTED_PROXIES = _trusted_proxies()


def _hsts_seconds() -> int:
    raw = os.environ.get("DJANGO_HSTS_SECONDS", "").strip()
    if not raw:
        return 31_536_000 if HTTPS else 0
    if not raw.isdigit():
        raise ImproperlyConfigured(f"DJANGO_HSTS_SECONDS must be a whole number, not {raw!r}.")
    return int(raw)


def _trusted_origins() -> list[str]:
    origins = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
    for origin in origins:
        if not origin.startswith(("https://", "http://")):
            raise ImproperlyConfigured(
                "DJANGO_CSRF_TRUSTED_ORIGINS must list origins like https://desk.example.org, "
                f"not {origin!r}."
            )
    return origins


SECURE_PROXY_SSL_HEADER = _proxy_ssl_header()
CSRF_TRUSTED_ORIGINS = _trusted_origins()
# A refused form gets the desk's own page, in the user's language, with a way back (issue 26).
CSRF_FAILURE_VIEW = "config.views.csrf_failure"
SESSION_COOKIE_SECURE = env_flag("DJANGO_SECURE_COOKIES", default=HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_flag("DJANGO_SSL_REDIRECT", default=HTTPS)
# A monitor on the machine itself asks for the health over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = _hsts_seconds()
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=HTTPS)
SECURE_HSTS_PRELOAD = env_flag("DJANGO_HSTS_PRELOAD", default=HTTPS)

# HTTPS served by the laptop itself on the venue's network (operations/tls.py), which is not the
# HTTPS above: no proxy, plain HTTP keeps working beside it, so cookies are not made HTTPS-only
# and no HSTS is sent. `serve` sets these when it serves both (always in one process); the
# tablets' page offers the certificate and the https:// address while DESK_LAN_HTTPS_PORT is set.
DESK_LAN_HTTPS_PORT: int | None = None
DESK_LAN_HTTP_PORT: int | None = None
# `serve --https-redirect`: a tablet's GET over plain HTTP is sent on to HTTPS.
DESK_LAN_HTTPS_REDIRECT = False
# --- end of the HTTPS block -----------------------------------------------------------------------

# --- Logging (venue) ------------------------------------------------------------------------------
# Errors with their tracebacks go to the console and to a rotating file in the data folder, every
# line with the id of its request (also on the error page, so a judge can quote it). The file
# handler rotates safely when several uvicorn workers write to it.
LOG_LEVEL = os.environ.get("DJANGO_LOG_LEVEL", "INFO").strip().upper() or "INFO"
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(
        f"DJANGO_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {LOG_LEVEL!r}."
    )
# A log folder that cannot be made does not stop the desk: the file handler then says so on the
# console and logs there only, and /healthz reports it (operations/logs.py).
with contextlib.suppress(OSError):
    LOG_DIR.mkdir(parents=True, exist_ok=True)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "operations.logs.RequestIdFilter"},
        "without_traceback": {"()": "operations.logs.WithoutTraceback"},
        "quiet_not_found": {"()": "operations.logs.QuietNotFound"},
    },
    "formatters": {
        "line": {
            "()": "operations.logs.IsoTimeFormatter",
            "format": "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "line",
        },
        "file": {
            # The rotating file, or the console alone (and a line saying so) when the file
            # cannot be written: a full disk, a read-only data folder (operations/logs.py).
            "class": "operations.logs.FileOrConsoleHandler",
            "filename": str(LOG_DIR / "desk.log"),
            "maxBytes": 5 * 1024 * 1024,
            "backupCount": 10,
            "encoding": "utf-8",
            "filters": ["request_id"],
            "formatter": "line",
        },
        # The audit trail (operations/audit.py) apart from the request lines, so request noise
        # cannot rotate it away; large, and kept long.
        "audit": {
            "class": "operations.logs.FileOrConsoleHandler",
            "filename": str(LOG_DIR / "audit.log"),
            "maxBytes": 20 * 1024 * 1024,
            "backupCount": 50,
            "encoding": "utf-8",
            "filters": ["request_id"],
            "formatter": "line",
        },
    },
    "root": {"handlers": ["console", "file"], "level": LOG_LEVEL},
    # Django's own loggers reach the root's handlers, in debug mode too, and print nothing twice.
    "loggers": {
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # A tablet on a wrong address gets a page saying so; one line in the log is enough.
        "django.security.DisallowedHost": {"filters": ["without_traceback"]},
        # django-axes announces its own version at every start, before any command's output.
        "axes.apps": {"level": "WARNING"},
        # Also in the console and desk.log (propagated), and in a file of its own.
        "desk.audit": {"handlers": ["audit"], "level": "INFO", "propagate": True},
        # A 404 for a long or repeated made-up path: one short line (operations/logs.py).
        "django.request": {"filters": ["quiet_not_found"]},
    },
}
# --- end of the logging block ---------------------------------------------------------------------
