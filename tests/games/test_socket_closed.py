"""A frame for a socket that has already closed (core/realtime.py ``sends_while_open``):
the player left while his consumer prepared it, so it is dropped, not an error that ends
the consumer; anything else sent out of order still fails."""

from __future__ import annotations

from typing import Any

import pytest
from uvicorn.protocols.utils import ClientDisconnected

from core.realtime import sends_while_open

pytestmark = pytest.mark.asyncio

FRAME = {"type": "websocket.send", "text": '{"type": "state"}'}
# What uvicorn raises for a frame once the socket is closed (its websockets protocol).
AFTER_CLOSE = RuntimeError(
    "Unexpected ASGI message 'websocket.send', after sending 'websocket.close' "
    "or response already completed."
)


def server_send(error: BaseException | None) -> tuple[Any, list[dict[str, Any]]]:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        if error is not None:
            raise error
        sent.append(message)

    return send, sent


async def test_a_frame_reaches_an_open_socket() -> None:
    send, sent = server_send(None)
    await sends_while_open(send)(FRAME)
    assert sent == [FRAME]


@pytest.mark.parametrize("error", [AFTER_CLOSE, ClientDisconnected()], ids=["closed", "closing"])
async def test_a_frame_for_a_socket_already_closed_is_dropped(error: BaseException) -> None:
    send, _ = server_send(error)
    await sends_while_open(send)(FRAME)  # no error: nobody is left to read it


async def test_a_message_out_of_order_is_still_an_error() -> None:
    send, _ = server_send(RuntimeError("Expected ASGI message 'websocket.accept'"))
    with pytest.raises(RuntimeError, match=r"websocket\.accept"):
        await sends_while_open(send)(FRAME)


async def test_a_close_refused_is_still_an_error() -> None:
    send, _ = server_send(AFTER_CLOSE)
    with pytest.raises(RuntimeError):
        await sends_while_open(send)({"type": "websocket.close", "code": 1000})
