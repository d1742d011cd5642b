"""Settings for the judging desk, all driven by the environment.

Every variable has a safe default for the embedded demo (SQLite, debug on, local hosts only), and
every value that is present but malformed stops the process at start-up with a message saying which
variable is wrong: a venue laptop must not start with half a configuration.
"""

import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
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


# Off by default, so that no traceback ever reaches a judge; developers switch it on.
DEBUG = env_flag("DJANGO_DEBUG", default=False)

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

DEFAULT_DATABASE_URL = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
_database_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
try:
    DATABASES = {"default": dj_database_url.parse(_database_url, conn_max_age=0)}
except ValueError as error:
    raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {error}") from error
if DATABASES["default"]["ENGINE"] not in {
    "django.db.backends.sqlite3",
    "django.db.backends.postgresql",
}:
    raise ImproperlyConfigured("DATABASE_URL must point at SQLite or PostgreSQL.")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Judges write concurrently from several tablets; wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20


def _local_secret_key() -> str:
    """A random key kept beside the code, made on the first start, when none is configured.

    A laptop at a venue then needs no set-up, and the key survives restarts; a deployment on
    several machines sets DJANGO_SECRET_KEY so they all share one.
    """
    path = BASE_DIR / ".secret_key"
    try:
        if not path.exists():
            path.write_text(secrets.token_urlsafe(50), encoding="utf-8")
            path.chmod(0o600)
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
    "players",
    "tournaments",
    "judging",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
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
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/Moscow")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Only a production install that runs collectstatic needs a folder for it.
STATIC_ROOT = os.environ.get("DJANGO_STATIC_ROOT") or None
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# The app serves its own assets from the app folders, so a venue laptop needs no collectstatic
# step and no CDN; the files are few and small.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"
