"""Issue #11, the security review of the table room's WebSocket: who may open it (the origin),
what a table id out of range gets, and floods spread over many connections."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from pokerroom.asgi import application
from tests.integration.consumer_helpers import (
    TableClient,
    consumer_test_room,  # noqa: F401 (autouse)
    session_cookie,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("table_id", [2**63, 2**63 - 1 + 10**6, 10**40])
async def test_a_table_id_too_large_for_the_database_is_an_unknown_table(db, table_id):
    visitor = await TableClient.open(table_id)
    frames = await visitor.drain(0.2)
    assert frames[0]["type"] == "error" and frames[0]["code"] == "not_found"
    assert visitor.frames[-1] == {"type": "_closed", "code": 4404}


@pytest.mark.parametrize("table_id", [2**63, 10**40])
async def test_a_player_opening_a_table_id_too_large_gets_an_unknown_table(players, table_id):
    player = await TableClient.open(table_id, players[0])
    frames = await player.drain(0.2)
    assert frames[0]["type"] == "error" and frames[0]["code"] == "not_found"
    assert player.frames[-1] == {"type": "_closed", "code": 4404}


# --- the origin: only the room's own pages may open a socket with the player's cookie --------


async def _handshake(
    table_id: int,
    headers: list[tuple[bytes, bytes]],
    *,
    cookie: bytes | None = None,
    scheme: str = "ws",
) -> tuple[bool, WebsocketCommunicator]:
    if cookie is not None:
        headers = [*headers, (b"cookie", cookie)]
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    communicator.scope["scheme"] = scheme
    connected, _ = await communicator.connect()
    return connected, communicator


ROOM_HOST = (b"host", b"127.0.0.1:8000")


@pytest.mark.parametrize(
    "headers",
    [
        pytest.param([(b"origin", b"http://127.0.0.1:9000"), ROOM_HOST], id="another port"),
        pytest.param([(b"origin", b"https://127.0.0.1:8000"), ROOM_HOST], id="another scheme"),
        pytest.param([(b"origin", b"http://127.0.0.1"), ROOM_HOST], id="the default port"),
        pytest.param([(b"origin", b"http://evil.example"), ROOM_HOST], id="another host"),
        pytest.param([(b"origin", b"null"), ROOM_HOST], id="null"),
        pytest.param([ROOM_HOST], id="no origin"),
        # DNS rebinding: the attacker's name on the room's address, same origin as its Host.
        pytest.param(
            [(b"origin", b"http://evil.example:8000"), (b"host", b"evil.example:8000")],
            id="a host not allowed",
        ),
    ],
)
async def test_a_page_of_another_origin_cannot_open_the_players_socket(table, players, headers):
    cookie = await database_sync_to_async(session_cookie)(players[0])
    connected, _ = await _handshake(table.pk, headers, cookie=cookie)
    assert not connected


@pytest.mark.parametrize(
    ("headers", "scheme"),
    [
        pytest.param([(b"origin", b"http://127.0.0.1:8000"), ROOM_HOST], "ws", id="trusted"),
        pytest.param(
            [(b"origin", b"http://localhost:8000"), (b"host", b"127.0.0.1:8000")],
            "ws",
            id="another trusted origin",
        ),
        # A Daphne on any port (the browser tests') serves its own pages: same origin.
        pytest.param(
            [(b"origin", b"http://127.0.0.1:51234"), (b"host", b"127.0.0.1:51234")],
            "ws",
            id="same origin",
        ),
        pytest.param(
            [(b"origin", b"https://localhost"), (b"host", b"localhost:443")],
            "wss",
            id="same origin over TLS",
        ),
    ],
)
async def test_the_rooms_own_page_opens_the_players_socket(table, players, headers, scheme):
    cookie = await database_sync_to_async(session_cookie)(players[0])
    connected, communicator = await _handshake(table.pk, headers, cookie=cookie, scheme=scheme)
    assert connected
    snapshot = await communicator.receive_json_from()
    assert snapshot["type"] == "snapshot" and snapshot["table"]["id"] == table.pk
    await communicator.disconnect()


async def test_the_origins_trusted_behind_a_tls_proxy_come_from_csrf_trusted_origins(
    table, settings
):
    settings.ALLOWED_HOSTS = ["room.example", ".room.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://room.example", "https://*.room.example"]
    # The proxy ends TLS: Daphne sees ws, the page was https.
    trusted = [(b"origin", b"https://room.example"), (b"host", b"room.example")]
    subdomain = [(b"origin", b"https://www.room.example"), (b"host", b"room.example")]
    plain = [(b"origin", b"http://room.example:8080"), (b"host", b"room.example")]
    for headers, accepted in ((trusted, True), (subdomain, True), (plain, False)):
        connected, communicator = await _handshake(table.pk, headers)
        assert connected is accepted, headers
        if connected:
            await communicator.disconnect()
