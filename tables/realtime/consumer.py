"""The live table over WebSocket (docs/protocol.md): a translator, nothing more.

A frame is parsed into a command (tables/realtime/commands.py), the command calls one service or
selector in a worker thread, and what that returns is sent back. The services broadcast their
own events after commit to the groups this consumer joins; ``room_frames`` only forwards them.
No rule of poker and no query here: identity is the session's user, never a message field.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.core.exceptions import ObjectDoesNotExist

from pokerroom import metrics
from tables import flood, heartbeat, layer_watch, public_snapshots, selectors, services
from tables.realtime.commands import (
    Act,
    AddChips,
    Chat,
    Command,
    ImIn,
    JoinWaitingList,
    Leave,
    LeaveWaitingList,
    MuteChat,
    Ping,
    SetAutoMuck,
    Show,
    Sit,
    SitIn,
    SitOut,
    Snapshot,
    command_name,
    parse_frame,
    watcher_may_send,
)
from tables.realtime.frames import Frame, Pong, frame_text
from tables.realtime.protocol import ErrorCode, ProtocolError, error_frame
from tables.services.broadcast import table_group, user_group
from tables.services.chat import chat_post

logger = logging.getLogger(__name__)

PONG = Pong()

# Close codes (4000-4999 are the application's).
CLOSE_NO_TABLE = 4404
CLOSE_ABUSIVE = 4008
# Table ids are 64-bit (BigAutoField): a larger id in the URL names no table. SQLite cannot
# even bind it (OverflowError), so it is answered before any query, as PostgreSQL would.
MAX_TABLE_ID = 2**63 - 1


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One viewer of one table: a seated player, a player watching, or a visitor."""

    table_id: int
    groups_joined: list[str]
    guard: flood.SocketGuard
    budgets: list[tuple[str, float]]  # the shared flood budgets (tables/flood.py)
    viewing: bool  # counted among the process's viewers of the table (public_snapshots)
    closing: bool
    counted: bool  # this connection is counted in its seat's presence (services)
    beating: bool  # in the process's presence heartbeat (tables/heartbeat.py)
    watching: bool  # in the process's watch of its channel layer (tables/layer_watch.py)

    @property
    def player(self) -> Any:
        """The session's user when logged in, else None (a visitor watches, never acts)."""
        user = self.scope.get("user")
        return user if user is not None and user.is_authenticated else None

    # --- connection ---------------------------------------------------------------------------

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.groups_joined = []
        self.closing = False
        self.counted = False
        self.beating = False
        self.watching = False
        self.guard = flood.SocketGuard(self.scope, None if self.player is None else self.player.pk)
        self.viewing = False
        await self.accept()
        try:
            if not 0 < self.table_id <= MAX_TABLE_ID:
                raise ObjectDoesNotExist(f"no table {self.table_id}")
            await self._join(table_group(self.table_id))
            public_snapshots.viewer_joined(self.table_id)
            self.viewing = True
            layer_watch.join(self)
            self.watching = True
            if self.player is not None:
                await self._join(user_group(self.player.pk))
                # R-TIME-3: presence; refused harmlessly for a player without a seat here.
                await self._count_connection()
                heartbeat.join(self)
                self.beating = True
            # Joined first, then the snapshot: any event after it is already queued for us.
            await self.send_json(await self._snapshot())
        except ObjectDoesNotExist:
            self.closing = True
            await self.send_json(error_frame(ErrorCode.NOT_FOUND, "no such table"))
            await self.close(code=CLOSE_NO_TABLE)

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "viewing", False):
            self.viewing = False
            public_snapshots.viewer_left(self.table_id)
        if getattr(self, "watching", False):
            self.watching = False
            await layer_watch.leave(self)
        if getattr(self, "beating", False):
            self.beating = False
            await heartbeat.leave(self)
        if not getattr(self, "counted", False):
            return
        self.counted = False
        try:
            await database_sync_to_async(services.seat_set_connected)(
                table_id=self.table_id, player=self.player, connected=False
            )
        except Exception:
            logger.exception("presence on disconnect failed (table %s)", self.table_id)

    async def _count_connection(self) -> None:
        """Count this connection in the player's seat here (once), if they have one."""
        if self.counted:
            return
        result = await database_sync_to_async(services.seat_set_connected)(
            table_id=self.table_id, player=self.player, connected=True
        )
        self.counted = result.ok

    async def count_again(self) -> None:
        """The heartbeat found this connection's count gone (the presence sweep cleared it
        while this process was slow, or the player left from another tab): count it again
        if the player still has a seat here."""
        self.counted = False
        try:
            await self._count_connection()
        except Exception:
            logger.exception("presence recount failed (table %s)", self.table_id)

    async def resync(self) -> None:
        """The channel layer is back after an outage (tables/layer_watch.py): join the groups
        again (a restarted Redis kept none; joining twice is harmless) and send a snapshot,
        so what was lost meanwhile costs nothing."""
        if self.closing:
            return
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.send_json(await self._snapshot())

    async def _join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' own dispatch first hops to its single database thread to close stale
        connections, for every frame of every viewer: the room's hottest path. This consumer
        touches the database only through ``database_sync_to_async``, which closes them in
        the thread that uses them, so that hop is skipped."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    # --- client frames ------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return
        flooding = await self.guard.refusal()
        if flooding is not None:
            await self._refuse_flood(flooding)
            return
        try:
            command = parse_frame(text_data, bytes_data)
        except ProtocolError as refused:
            await self.send_json(refused.frame())
            return
        if self.player is None and not watcher_may_send(command):
            await self.send_json(
                error_frame(
                    ErrorCode.LOGIN_REQUIRED, "visitors watch; log in to play", ref=command.ref
                )
            )
            return
        reply: dict[str, Any] | Frame | None
        try:
            reply = await self._run(command)
        except ObjectDoesNotExist:
            reply = error_frame(ErrorCode.NOT_FOUND, "no such table", ref=command.ref)
        except Exception:
            logger.exception("table %s: %r failed", self.table_id, command)
            reply = error_frame(ErrorCode.INTERNAL, "the room could not do that", ref=command.ref)
        if reply is not None:
            await self.send_json(reply)

    async def _refuse_flood(self, why: str) -> None:
        if self.guard.abusive:
            self.closing = True
            await self.send_json(error_frame(ErrorCode.RATE_LIMITED, f"{why}: goodbye"))
            await self.close(code=CLOSE_ABUSIVE)
        else:
            await self.send_json(error_frame(ErrorCode.RATE_LIMITED, f"{why}: slow down"))

    async def _run(self, command: Command) -> dict[str, Any] | Frame | None:
        """The command's service or selector; returns the frame to send back, if any."""
        if isinstance(command, Snapshot):
            return _with_ref(await self._snapshot(), command.ref)
        if isinstance(command, Ping):
            if command.seq is not None and await self._behind(command):
                # A frame was lost on the way (docs/protocol.md, "Catching up").
                await self.send_json(await self._snapshot())
            return PONG if command.ref is None else Pong(ref=command.ref)
        if isinstance(command, Chat):
            # Broadcast by the service, as every table frame is (tables.services.broadcast).
            await database_sync_to_async(chat_post, thread_sensitive=False)(
                table_id=self.table_id, player=self.player, text=command.text
            )
            return None
        call = self._service_call(command)
        # Off Channels' single database thread: tables are independent (each service locks
        # its table's row), so actions at different tables need not queue behind each other.
        # A connection's own messages still run one after another.
        result = await database_sync_to_async(call, thread_sensitive=False)()
        if result.ok and isinstance(command, Sit):
            await self._count_connection()  # sat down from this connection: it counts
        elif result.ok and isinstance(command, Leave):
            self.counted = False  # the seat is gone
        return _with_ref({**result.reply(), "command": command_name(command)}, command.ref)

    def _service_call(self, command: Command) -> Callable[[], Any]:
        """The service a player's command calls, bound to this table and the session's user."""
        table_id, player, service = self.table_id, self.player, COMMAND_SERVICES[type(command)]
        if isinstance(command, Sit):  # issue #25: where the seat is taken from
            address, device = flood.client_address(self.scope), _user_agent(self.scope)
            return lambda: services.seat_take(
                table_id=table_id,
                player=player,
                buy_in=command.buy_in,
                seat_number=command.seat,
                address=address,
                device=device,
            )
        return lambda: service(command, table_id, player)

    async def _behind(self, ping: Ping) -> bool:
        behind = database_sync_to_async(selectors.client_behind, thread_sensitive=False)
        return bool(await behind(self.table_id, ping.hand_id, ping.seq or 0))

    async def _snapshot(self) -> dict[str, Any]:
        """The table as this viewer may see it; a visitor's is the public one, built once for
        all the process's visitors of the table (tables/public_snapshots.py)."""
        build = database_sync_to_async(selectors.table_snapshot, thread_sensitive=False)
        snapshot: dict[str, Any] | None
        if self.player is None:
            snapshot = await public_snapshots.public_snapshot(
                self.table_id, lambda: build(self.table_id, None)
            )
        else:
            snapshot = await build(self.table_id, self.player)
        if snapshot is None:
            raise ObjectDoesNotExist(f"no table {self.table_id}")
        return snapshot

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """Every frame down the WebSocket (replies and broadcasts alike) goes this way."""
        if text_data is not None or bytes_data is not None:
            metrics.frame_sent()
        await super().send(text_data, bytes_data, close)

    async def send_json(self, content: Any, close: bool = False) -> None:
        # Channels' own send_json skips a subclass's send: through ours, so it is counted.
        # A declared frame (tables/realtime/frames.py) is encoded by msgspec.
        if isinstance(content, Frame):
            await self.send(text_data=frame_text(content), close=close)
            return
        await self.send(text_data=await self.encode_json(content), close=close)

    # --- frames from the services (channel layer) ---------------------------------------------

    async def room_frames(self, message: dict[str, Any]) -> None:
        """A change's frames for one group, in order, already JSON text (services.broadcast)."""
        # The user group serves every table the player sits at: keep this table's frames.
        if message.get("table_id") != self.table_id:
            return
        public_snapshots.changed(self.table_id)
        for text in message["texts"]:
            await self.send(text_data=text)


def _user_agent(scope: dict[str, Any]) -> str:
    for name, value in scope.get("headers") or []:
        if name == b"user-agent":
            return bytes(value).decode("latin-1")[:200]
    return ""


# The service each player's command calls (the consumer answers snapshot, ping and chat
# itself): (command, table id, player) -> the service's TableResult. The commands, their names
# and fields are declared in tables/realtime/commands.py.
COMMAND_SERVICES: dict[type, Callable[[Any, int, Any], Any]] = {
    Act: lambda act, table_id, player: services.hand_act(
        table_id=table_id,
        player=player,
        expected_seq=act.seq,
        expected_hand_id=act.hand_id,
        kind=act.kind.value,
        amount=act.amount,
    ),
    Sit: lambda sit, table_id, player: services.seat_take(
        table_id=table_id, player=player, buy_in=sit.buy_in, seat_number=sit.seat
    ),
    AddChips: lambda add, table_id, player: services.seat_add_chips(
        table_id=table_id, player=player, amount=add.amount
    ),
    SitOut: lambda _, table_id, player: services.seat_sit_out(table_id=table_id, player=player),
    SitIn: lambda _, table_id, player: services.seat_sit_in(table_id=table_id, player=player),
    Leave: lambda _, table_id, player: services.seat_leave(table_id=table_id, player=player),
    ImIn: lambda _, table_id, player: services.ante_confirm(table_id=table_id, player=player),
    JoinWaitingList: lambda _, table_id, player: services.waiting_list_join(
        table_id=table_id, player=player
    ),
    LeaveWaitingList: lambda _, table_id, player: services.waiting_list_leave(
        table_id=table_id, player=player
    ),
    Show: lambda show, table_id, player: services.hand_show(
        table_id=table_id, player=player, hand_id=show.hand_id
    ),
    SetAutoMuck: lambda muck, table_id, player: services.player_auto_muck_set(
        table_id=table_id, player=player, auto_muck=muck.on
    ),
    MuteChat: lambda mute, table_id, player: services.chat_mute_set(
        table_id=table_id, player=player, muted_id=mute.player_id, on=mute.on
    ),
}


def _with_ref(frame: dict[str, Any], ref: str | int | None) -> dict[str, Any]:
    return frame if ref is None else {**frame, "ref": ref}
