"""The client's address, as the last trusted proxy saw it
(docs/security.md, "The client address behind proxies").

Every limit per address (sign-ups, failed sign-ins, websocket caps and rates) reads one
address: ``scope["client"]``, which Django hands on as ``REMOTE_ADDR`` and Channels'
consumers read as it is. This ASGI middleware, around the whole application, sets it:

* ``DJANGO_TRUSTED_PROXIES=0`` (the default: uvicorn alone, ``make run``,
  ``scripts/stack`` without a balancer): the TCP peer. ``X-Forwarded-For`` is ignored, as
  any client can write anything into it.
* ``N`` > 0 (N proxies in front, each appending the address it saw to
  ``X-Forwarded-For``: HAProxy's ``option forwardfor``, nginx's
  ``$proxy_add_x_forwarded_for``): the N-th address from the right end of that header,
  all its lines read in order. The N-1 to its right are the proxies' own; it is the
  right-most one no trusted proxy wrote, the address the outermost proxy saw. What a
  client wrote in front of it is never read.

uvicorn must not rewrite the peer itself (``--no-proxy-headers`` in every command that
starts it): with its default it takes a header from 127.0.0.1 as the client, and with
``--forwarded-allow-ips=*`` the left-most, client-written entry.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings


def forwarded_client(peer: str | None, forwarded_for: list[str], proxies: int) -> str | None:
    """The client's address: ``peer`` with no trusted proxy or no header, else the
    ``proxies``-th entry from the right of the joined header lines (the left-most one when
    the request passed fewer proxies than configured). An entry that is no IP address was
    not written by a proxy: then the peer."""
    if proxies <= 0:
        return peer
    hops = [hop.strip() for line in forwarded_for for hop in line.split(",") if hop.strip()]
    if not hops:
        return peer
    chosen = hops[-min(proxies, len(hops))]
    try:
        return str(ipaddress.ip_address(chosen))
    except ValueError:
        return peer


class ClientAddressMiddleware:
    """Sets ``scope["client"]`` of every HTTP request and websocket to the client's
    address (:func:`forwarded_client`), the port to 0 when it came from the header."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        proxies = settings.TRUSTED_PROXIES
        if proxies > 0 and scope["type"] in ("http", "websocket"):
            peer = (scope.get("client") or (None, 0))[0]
            lines = [
                value.decode("latin-1")
                for name, value in scope.get("headers", ())
                if name == b"x-forwarded-for"
            ]
            client = forwarded_client(peer, lines, proxies)
            if client is not None and client != peer:
                scope = dict(scope, client=(client, 0))
        return await self.app(scope, receive, send)
