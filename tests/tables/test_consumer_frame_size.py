"""Issue #11: a frame over the protocol's 2048 bytes is answered `too_large` by the room, even
over Daphne's default message limit of 1 MiB (which cut it with an abnormal close, 1006), on a
real Daphne started as the room is started."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
import websockets

from tables.realtime.protocol import SERVER_MAX_MESSAGE_BYTES
from tests.consumer_helpers import make_table
from tests.room_processes import daphne, room_env

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


async def _send_big_then_ping(url: str, table_id: int, size: int) -> list[dict[str, object]]:
    ws_url = url.replace("http://", "ws://") + f"/ws/tables/{table_id}/"
    async with websockets.connect(ws_url, origin=url, max_size=2**22) as ws:  # type: ignore[arg-type]
        snapshot = json.loads(await ws.recv())
        assert snapshot["type"] == "snapshot"
        await ws.send(json.dumps({"type": "chat", "text": "x" * size}))
        await ws.send(json.dumps({"type": "ping", "ref": "after"}))
        return [json.loads(await asyncio.wait_for(ws.recv(), 20)) for _ in range(2)]


def test_a_frame_over_one_mebibyte_is_answered_too_large_and_the_connection_stays_open():
    table = make_table()
    with daphne(room_env()) as url:
        replies = asyncio.run(_send_big_then_ping(url, table.pk, 3 * 1024 * 1024 // 2))
    assert replies[0]["type"] == "error" and replies[0]["code"] == "too_large"
    assert replies[1] == {"type": "pong", "ref": "after"}


@pytest.mark.parametrize("start", ["Makefile", "Procfile", "docs/operations.md"])
def test_every_place_the_room_is_started_sets_the_servers_message_limit(start):
    text = (ROOT / start).read_text()
    daphne_lines = [line for line in text.splitlines() if re.search(r"\bdaphne\b.* -p ", line)]
    assert daphne_lines
    for line in daphne_lines:
        defined = re.search(r"^DAPHNE_SIZE_ARGS :?= (.*)$", text, re.M)
        args = line.replace("$(DAPHNE_SIZE_ARGS)", defined.group(1) if defined else "")
        assert f"--websocket-max-message-size {SERVER_MAX_MESSAGE_BYTES}" in args, line
        assert f"--websocket-max-frame-size {SERVER_MAX_MESSAGE_BYTES}" in args, line
