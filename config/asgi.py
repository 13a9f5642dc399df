"""ASGI entry point: HTTP through Django, websockets through Channels.

Websockets get the session user (AuthMiddlewareStack) and are refused unless their
Origin is one of ALLOWED_HOSTS. Static files are served by servestatic's async Django
middleware (config/settings.py). config.startup.prepare() refuses to start without a
secret key (DEBUG off) and loads the URLconf before the first request.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before anything imports models (consumers, routing).
django_asgi_app = get_asgi_application()

from config.startup import prepare  # noqa: E402

prepare()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
