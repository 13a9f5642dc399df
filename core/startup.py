"""What the web server does once, before it takes its first request.

* It refuses to start without a secret key of its own. config/settings.py leaves
  SECRET_KEY empty when DJANGO_DEBUG is off and DJANGO_SECRET_KEY is not set; Django
  alone would only fail on the first request that signs something.
* It loads the URLconf (and so the views, DRF and the API schema code): otherwise the
  first request, often a load balancer's /healthz, waits a second or more for imports.

The ASGI and WSGI entry points call :func:`prepare`; management commands do not, so
collectstatic, makemessages and the like run without a key.
"""

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.urls import get_resolver

NO_SECRET_KEY = (
    "DJANGO_SECRET_KEY is not set and DJANGO_DEBUG is off: refusing to start, since "
    "anyone could forge sessions with a key that is not secret. Set DJANGO_SECRET_KEY "
    "to a long random value, for example the output of "
    "`python3 -c 'import secrets; print(secrets.token_urlsafe(50))'` (in the environment "
    "or in .env), or set DJANGO_DEBUG=true for development (`make run` does)."
)


def require_secret_key() -> None:
    try:
        key = settings.SECRET_KEY
    except ImproperlyConfigured:
        key = ""
    if not key:
        raise ImproperlyConfigured(NO_SECRET_KEY)


def prepare() -> None:
    require_secret_key()
    get_resolver().url_patterns  # noqa: B018 (imports the URLconf)
