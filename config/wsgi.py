"""WSGI entry point (management tools only; the service runs on ASGI)."""

import os

from django.core.wsgi import get_wsgi_application

from core.startup import prepare

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
prepare()
