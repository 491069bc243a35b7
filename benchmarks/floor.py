"""The transport floor (issue #15): a bare Channels consumer under Daphne that plays no game.

    daphne benchmarks.floor:application      # what benchmarks/tables.py starts beside the room

What one action costs the transport alone, with the room's channel layer (the same settings
module, so channels_redis pub/sub on the same Redis) and the room's Daphne command: one frame
in (the bot's `act`), one reply (`result`), one broadcast through the channel layer to the
table's group, which each of the table's sockets forwards (the action `event`), and the turn's
offers (`your_turn`) to the one socket whose turn it is. No database, no session, no engine.

It speaks just enough of the room's protocol (docs/protocol.md) for `bots.client.Bot` to play
unchanged: a snapshot names the viewer's seat (from a `floorseat=<n>` cookie: nothing to look
up), events carry the hand's id and seq and whose turn it is, and a hand ends after
`HAND_ACTIONS` actions with the next one dealt in the same broadcast (no pause between hands).
It keeps no state: the `act` frame carries the hand and seq, so the next frame follows from
it, and a table's sockets may sit on different Daphne processes. A table starts when one of
its sockets sends {"type": "start", "hand_id": ...} (the benchmark does, once every bot of
the table has its snapshot), and a table that stalls (a frame lost: channels_redis pub/sub
delivers at most once) is started again the same way.
"""

from __future__ import annotations

import json
import os
from http.cookies import SimpleCookie
from typing import Any

# Actions in one hand (21 on average at the room's bench tables: docs/performance.md).
HAND_ACTIONS = 21
SEATS = 6
# The only offer: a call (the bots' "call" policy takes it).
OFFERS = [{"kind": "call", "amount": 10, "adds": 10}]
MESSAGE_TYPE = "floor.frames"  # FloorConsumer.floor_frames receives it


def floor_group(table_id: int) -> str:
    return f"floor-{table_id}"


def seat_of(headers: list[tuple[bytes, bytes]]) -> int:
    """The seat named by the `floorseat` cookie (0 when there is none)."""
    for name, value in headers:
        if name.lower() == b"cookie":
            morsel = SimpleCookie(value.decode("latin-1")).get("floorseat")
            if morsel is not None and morsel.value.isdigit():
                return int(morsel.value)
    return 0


def snapshot_frame(table_id: int, seat: int) -> dict[str, Any]:
    """What a bot needs to know on connecting: its seat; no hand (the floor keeps none)."""
    return {
        "type": "snapshot",
        "table": {"id": table_id, "buy_in": 1000, "small_bet": 10},
        "viewer": {"player_id": seat + 1, "seat": seat},
        "seats": [],
        "hand": None,
    }


def event_frame(
    hand_id: int, seq: int, kind: str, payload: dict[str, Any], to_act: int | None
) -> dict[str, Any]:
    return {
        "type": "event",
        "hand_id": hand_id,
        "seq": seq,
        "kind": kind,
        "payload": payload,
        "to_act": to_act,
    }


def turn_frame(hand_id: int, seq: int) -> dict[str, Any]:
    return {"type": "your_turn", "hand_id": hand_id, "seq": seq, "legal_actions": OFFERS}


def deal_message(table_id: int, hand_id: int, first: int = 0) -> dict[str, Any]:
    """A new hand: its first event (seq 1), `first` to act."""
    return frames_message(
        table_id, [event_frame(hand_id, 1, "deal", {"seats": list(range(SEATS))}, first)], first
    )


def action_message(
    table_id: int, hand_id: int, seq: int, seat: int, kind: str, amount: int
) -> dict[str, Any]:
    """The broadcast for an action at (hand_id, seq) by `seat`: its event, and when the hand
    is over, the hand's end and the next hand's deal, in that order."""
    to_act = (seat + 1) % SEATS
    action = {"seat": seat, "kind": kind, "amount": amount}
    if seq + 1 < HAND_ACTIONS:
        return frames_message(
            table_id, [event_frame(hand_id, seq + 1, "action", action, to_act)], to_act
        )
    frames = [
        event_frame(hand_id, seq + 1, "action", action, None),
        event_frame(hand_id, seq + 2, "hand_end", {}, None),
        event_frame(hand_id + 1, 1, "deal", {"seats": list(range(SEATS))}, to_act),
    ]
    return frames_message(table_id, frames, to_act)


def frames_message(
    table_id: int, frames: list[dict[str, Any]], to_act: int | None
) -> dict[str, Any]:
    """One channel-layer message: the frames serialised once, as the room's services do
    (tables/services/broadcast.py), and the offers for the seat whose turn it is."""
    last = frames[-1]
    return {
        "type": MESSAGE_TYPE,
        "table_id": table_id,
        "texts": [json.dumps(frame) for frame in frames],
        "to_act": to_act,
        "turn": json.dumps(turn_frame(last["hand_id"], last["seq"])) if to_act is not None else "",
    }


def result_frame(ref: Any) -> dict[str, Any]:
    return {"type": "result", "command": "act", "ok": True, "status": "ok", "ref": ref}


def application_factory() -> Any:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")
    import django

    django.setup()
    from channels.consumer import get_handler_name
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import path

    class FloorConsumer(AsyncWebsocketConsumer):
        table_id: int
        seat: int
        group: str

        async def connect(self) -> None:
            self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
            self.seat = seat_of(self.scope.get("headers", []))
            self.group = floor_group(self.table_id)
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.accept()
            await self.send(text_data=json.dumps(snapshot_frame(self.table_id, self.seat)))

        async def disconnect(self, code: int) -> None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

        async def dispatch(self, message: dict[str, Any]) -> None:
            # As the room's consumer: no hop to a database thread per message.
            await getattr(self, get_handler_name(message))(message)

        async def receive(
            self, text_data: str | None = None, bytes_data: bytes | None = None
        ) -> None:
            frame = json.loads(text_data or "{}")
            kind = frame.get("type")
            if kind == "act":
                await self.send(text_data=json.dumps(result_frame(frame.get("ref"))))
                await self.channel_layer.group_send(
                    self.group,
                    action_message(
                        self.table_id,
                        int(frame["hand_id"]),
                        int(frame["seq"]),
                        self.seat,
                        str(frame.get("kind", "call")),
                        int(frame.get("amount") or 0),
                    ),
                )
            elif kind == "start":
                await self.channel_layer.group_send(
                    self.group, deal_message(self.table_id, int(frame["hand_id"]))
                )
            elif kind == "snapshot":
                await self.send(text_data=json.dumps(snapshot_frame(self.table_id, self.seat)))

        async def floor_frames(self, message: dict[str, Any]) -> None:
            for text in message["texts"]:
                await self.send(text_data=text)
            if message["to_act"] == self.seat:
                await self.send(text_data=message["turn"])

    return ProtocolTypeRouter(
        {"websocket": URLRouter([path("ws/tables/<int:table_id>/", FloorConsumer.as_asgi())])}
    )


if os.environ.get("FLOOR_SERVER") == "1":
    application = application_factory()
