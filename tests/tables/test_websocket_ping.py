"""The WebSocket stack: Daphne's ASGI app, origin check, session auth, JSON frames."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from pokerroom.asgi import application

pytestmark = pytest.mark.asyncio

ROOM_ORIGIN = b"http://127.0.0.1:8000"


def _ping_socket(origin: bytes = ROOM_ORIGIN) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", origin), (b"host", b"127.0.0.1:8000")]
    )


async def test_ping_answers_pong_for_an_allowed_origin():
    communicator = _ping_socket()
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "ping", "echo": 7})
    assert await communicator.receive_json_from() == {"type": "pong", "user": None, "echo": 7}
    await communicator.disconnect()


async def test_a_malformed_message_gets_an_error_frame():
    communicator = _ping_socket()
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "shout"})
    reply = await communicator.receive_json_from()
    assert reply["type"] == "error"
    await communicator.disconnect()


async def test_a_foreign_origin_is_refused():
    communicator = _ping_socket(b"http://evil.example")
    connected, _ = await communicator.connect()
    assert not connected
