"""A WebSocket ping: proves the stack (Daphne, origin check, session auth, channel layer).

Its messages spend from the socket's budgets like every socket of the room
(`tables.flood.SocketGuard`), a message over `MAX_FRAME_BYTES` is refused unread and the
`echo` it sends back is at most `ECHO_MAX_CHARS` (issue #22: 1,619 pongs a second from one
connection, a megabyte echoed whole). Its one command, `ping`, is declared in
pokerroom/commands.py and decoded by it."""

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from pokerroom.commands import PingRefused, parse_ping
from pokerroom.frames import PingError, PingErrorCode, PingFrameBase, PingPong, frame_text
from tables.flood import SocketGuard
from tables.realtime.protocol import MAX_FRAME_BYTES

CLOSE_ABUSIVE = 4008


class PingConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        user_id = user.pk if user is not None and user.is_authenticated else None
        self.guard = SocketGuard(self.scope, user_id)
        await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        refused = await self.guard.refusal()
        if refused is not None:
            goodbye = self.guard.abusive
            await self.send_frame(
                PingError(code=PingErrorCode.RATE_LIMITED, message=f"{refused}: slow down")
            )
            if goodbye:
                await self.close(code=CLOSE_ABUSIVE)
            return
        if bytes_data is not None or len(text_data or "") > MAX_FRAME_BYTES:
            await self.send_frame(
                PingError(code=PingErrorCode.TOO_LARGE, message=f"at most {MAX_FRAME_BYTES} bytes")
            )
            return
        try:
            ping = parse_ping(text_data or "")
        except PingRefused as refusal:
            await self.send_frame(
                PingError(code=PingErrorCode.BAD_MESSAGE, message=refusal.message)
            )
            return
        user = self.scope.get("user")
        username = user.get_username() if user is not None and user.is_authenticated else None
        await self.send_frame(PingPong(user=username, echo=ping.echo))

    async def send_frame(self, frame: PingFrameBase) -> None:
        """A declared frame (pokerroom/frames.py), encoded by msgspec."""
        await self.send(text_data=frame_text(frame))
