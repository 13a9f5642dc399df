"""ASGI entry point: HTTP through Django, websockets through Channels.

Websockets get the session user (core/ws_session.py: Channels' AuthMiddlewareStack with
its database read off the single database thread), or the user of an API token
(core/ws_auth.py), and are refused unless their Origin is one of ALLOWED_HOSTS, or
when they carry a NUL byte (core/nul.py). Requests and websockets alike get the
client's address behind trusted proxies (core/client_address.py). The
lifespan start-up hands the server's event loop to the games scheduler, which runs bot
turns and the clock sweep there in the embedded default (games/scheduler.py). Static
files are served by servestatic's async Django middleware (config/settings.py).
core.startup.prepare() refuses to start without a secret key (DEBUG off) and loads the
URLconf before the first request.
"""

import asyncio
import gc
import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before anything imports models (consumers, routing).
django_asgi_app = get_asgi_application()

from core.startup import prepare  # noqa: E402

prepare()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from core.client_address import ClientAddressMiddleware  # noqa: E402
from core.nul import RefuseNulWebsocket  # noqa: E402
from core.ws_auth import TokenAuthMiddleware  # noqa: E402
from core.ws_session import PooledAuthMiddlewareStack  # noqa: E402
from games import scheduler  # noqa: E402


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            scheduler.attach(asyncio.get_running_loop())
            # Everything loaded so far lives as long as the server: keep it out of the
            # cyclic garbage collector's work, and collect less often (fewer pauses under
            # load; the table benchmark in docs/benchmarks.md).
            gc.collect()
            gc.freeze()
            gc.set_threshold(100_000, 50, 100)
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


# The client's address (behind DJANGO_TRUSTED_PROXIES proxies) for pages and websockets.
application = ClientAddressMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": RefuseNulWebsocket(
                AllowedHostsOriginValidator(
                    PooledAuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
                )
            ),
            "lifespan": lifespan,
        }
    )
)
