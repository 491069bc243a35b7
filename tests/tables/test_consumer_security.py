"""Issue #11, the security review of the table room's WebSocket: who may open it (the origin),
what a table id out of range gets, and floods spread over many connections."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from pokerroom.asgi import application
from tables import flood, public_snapshots, selectors
from tests.consumer_helpers import (
    BUY_IN,
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


# --- floods spread over many connections -----------------------------------------------------


@pytest.fixture
def still_clock(monkeypatch):
    """One flood window for the whole test, and visitors' snapshots kept until a change."""
    monkeypatch.setattr(flood, "clock", lambda: 1_000_000.0)
    monkeypatch.setattr(public_snapshots, "clock", lambda: 500.0)


async def _open_from(table_id: int, address: str, player=None) -> TableClient:
    cookie = None if player is None else await database_sync_to_async(session_cookie)(player)
    client = TableClient(table_id, player, cookie)
    client.communicator.scope["client"] = (address, 40000)
    connected, _ = await client.communicator.connect()
    assert connected
    await client.wait_for(lambda f: f["type"] == "snapshot")
    return client


async def _answered(client: TableClient, count: int) -> None:
    """Until `count` answers (a pong, a snapshot or an error) came after the frames already
    read: each message is waited for, however slow the machine, never a fixed pause."""
    while len(_answers([client])) < count:
        await client.drain(0.05)


def _answers(clients: list[TableClient]) -> list[str]:
    return [
        f["type"] if f["type"] != "error" else f["code"]
        for client in clients
        for f in client.frames[client.read :]
    ]


async def test_a_players_connections_share_one_budget_and_another_player_is_unaffected(
    table, players, settings, still_clock
):
    settings.TABLE_WS_USER_RATE = 2  # 4 messages per 2-second window, over all connections
    settings.TABLE_WS_ADDRESS_RATE = 0
    flooder = [await _open_from(table.pk, "10.0.0.1", players[0]) for _ in range(3)]
    other = await _open_from(table.pk, "10.0.0.1", players[1])

    for client in flooder:
        for _ in range(2):
            await client.send({"type": "ping"})
        await _answered(client, 2)
    for _ in range(3):
        await other.send({"type": "ping"})
    await _answered(other, 3)

    assert sorted(_answers(flooder)) == ["pong"] * 4 + ["rate_limited"] * 2
    assert _answers([other]) == ["pong"] * 3
    for client in [*flooder, other]:
        await client.close()


async def test_visitors_from_one_address_share_one_budget(table, settings, still_clock):
    settings.TABLE_WS_ADDRESS_RATE = 3  # 6 messages per window from one address
    watchers = [await _open_from(table.pk, "10.0.0.9") for _ in range(20)]
    elsewhere = await _open_from(table.pk, "10.0.0.10")

    for watcher in watchers:
        await watcher.send({"type": "snapshot"})
        await _answered(watcher, 1)
    await elsewhere.send({"type": "snapshot"})
    await _answered(elsewhere, 1)

    answers = _answers(watchers)
    assert answers.count("snapshot") == 6 and answers.count("rate_limited") == 14
    assert _answers([elsewhere]) == ["snapshot"]
    for client in [*watchers, elsewhere]:
        await client.close()


async def test_a_connection_flooding_past_the_shared_budget_is_closed(table, settings, still_clock):
    settings.TABLE_WS_ADDRESS_RATE = 1
    settings.TABLE_WS_ABUSE_LIMIT = 3
    watcher = await _open_from(table.pk, "10.0.0.3")

    for _ in range(12):
        await watcher.send({"type": "ping"})
    await watcher.drain(0.2)

    assert watcher.frames[-1] == {"type": "_closed", "code": 4008}
    await watcher.close()


async def test_visitors_share_one_public_snapshot_until_the_table_changes(
    table, players, monkeypatch, still_clock
):
    builds = []
    build = selectors.table_snapshot

    def counted(table_id, viewer):
        builds.append(viewer)
        return build(table_id, viewer)

    monkeypatch.setattr(selectors, "table_snapshot", counted)
    watchers = [await _open_from(table.pk, f"10.0.1.{n}") for n in range(20)]
    for watcher in watchers:
        await watcher.send({"type": "snapshot"})
    got = [await w.wait_for(lambda f: f["type"] == "snapshot") for w in watchers]
    assert builds == [None] and all(snapshot == got[0] for snapshot in got)
    assert got[0]["seats"] == []

    player = await _open_from(table.pk, "10.0.2.1", players[0])
    assert (await player.request({"type": "sit", "buy_in": BUY_IN}, "result"))["ok"]
    await watchers[0].wait_for(lambda f: f["type"] == "seats")
    after = await watchers[1].request({"type": "snapshot"}, "snapshot")

    assert [seat["player_id"] for seat in after["seats"]] == [players[0].pk]
    assert after["viewer"] is None
    assert builds.count(None) == 2
    for client in [*watchers, player]:
        await client.close()


SPEND_IN_ANOTHER_PROCESS = """
import django
django.setup()
from tables import flood
flood.clock = lambda: 1_000_000.0
print([flood.shared_admit([("{key}", 2)]) for _ in range(4)])
"""


@pytest.mark.services
async def test_a_budget_spent_on_one_process_is_spent_on_every_process(monkeypatch):
    """The services shape: the count is in Redis, so a second Daphne process is no way
    around it."""
    monkeypatch.setattr(flood, "clock", lambda: 1_000_000.0)
    key = f"user:test-{uuid.uuid4()}"
    spent = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", SPEND_IN_ANOTHER_PROCESS.replace("{key}", key)],
        env=dict(os.environ, DJANGO_SETTINGS_MODULE="pokerroom.settings"),
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert spent.stdout.strip() == "[True, True, True, True]"

    assert flood.shared_admit([(key, 2)]) is False
    assert flood.shared_admit([(f"user:test-{uuid.uuid4()}", 2)]) is True
    # The consumers' own check (an asyncio client of this loop) spends the same counts.
    assert await flood.shared_admit_async([(key, 2)]) is False
    fresh = f"user:test-{uuid.uuid4()}"
    assert [await flood.shared_admit_async([(fresh, 2)]) for _ in range(5)] == [
        True,
        True,
        True,
        True,
        False,
    ]
    assert flood.shared_admit([(fresh, 2)]) is False


async def test_without_the_cache_the_shared_budgets_let_play_go_on(monkeypatch):
    """Redis down: the shared budgets cannot be counted; the connection's own still holds,
    and no player is refused (or disconnected) for it."""

    def cache_down(keys):
        raise ConnectionError("cache down")

    async def cache_down_async(keys):
        raise ConnectionError("cache down")

    monkeypatch.setattr(flood, "_count", cache_down)
    monkeypatch.setattr(flood, "_count_async", cache_down_async)
    assert flood.shared_admit([("user:1", 1.0), ("address:10.0.0.1", 1.0)]) is True
    assert await flood.shared_admit_async([("user:1", 1.0), ("address:10.0.0.1", 1.0)]) is True


@pytest.mark.services
def test_the_shared_budgets_use_one_redis_connection_per_process_not_one_per_websocket(
    settings,
):
    """Channels runs each WebSocket connection in a context of its own, and Django's cache
    proxy gives each context its own cache object with its own Redis pool: the room's Redis
    clients grew by one per connection accepted and were never given back (issue #15's
    benchmark: 325 clients for 300 bots). Twenty connections' worth of fresh contexts spend
    from the shared budgets (and keep a chat line) through one connection, the process's."""
    import contextvars

    import redis

    from tables.common import chat_recent

    probe = redis.Redis.from_url(settings.REDIS_URL)
    flood.shared_admit([("user:warm-up", 100.0)])  # the process's own connection
    before = probe.info("clients")["connected_clients"]

    for number in range(20):
        context = contextvars.Context()  # as a new WebSocket connection's
        assert context.run(flood.shared_admit, [(f"user:leak-{uuid.uuid4()}", 100.0)])
        context.run(chat_recent, number)

    assert probe.info("clients")["connected_clients"] - before <= 1
    probe.close()
