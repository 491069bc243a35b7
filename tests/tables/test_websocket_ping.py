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
    # Issue #23: the declared error frame (pokerroom/frames.py) always carries its code.
    assert reply == {"type": "error", "code": "bad_message", "message": 'send {"type": "ping"}'}
    await communicator.disconnect()


async def test_a_foreign_origin_is_refused():
    communicator = _ping_socket(b"http://evil.example")
    connected, _ = await communicator.connect()
    assert not connected


async def test_issue_22_the_ping_socket_has_a_budget_and_a_size_limit(settings):
    """One connection no longer gets a pong for every message it sends, nor its megabyte back."""
    settings.TABLE_WS_RATE = 0.001
    settings.TABLE_WS_BURST = 2
    settings.TABLE_WS_ABUSE_LIMIT = 2
    communicator = _ping_socket()
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "ping", "echo": "x" * 65})
    assert "at most 64" in (await communicator.receive_json_from())["message"]
    await communicator.send_json_to({"type": "ping", "echo": 1})
    assert (await communicator.receive_json_from())["echo"] == 1
    for _ in range(2):
        await communicator.send_json_to({"type": "ping"})
        refused = await communicator.receive_json_from()
        assert refused["code"] == "rate_limited" and refused["message"].endswith("slow down")
    await communicator.send_json_to({"type": "ping"})
    assert (await communicator.receive_json_from())["code"] == "rate_limited"
    closed = await communicator.receive_output()
    assert closed == {"type": "websocket.close", "code": 4008}


async def test_issue_22_a_large_ping_is_refused_unread():
    communicator = _ping_socket()
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_to(text_data='{"type": "ping", "echo": "' + "x" * 3000 + '"}')
    assert (await communicator.receive_json_from())["code"] == "too_large"
    await communicator.disconnect()
