"""A WebSocket ping: proves the stack (Daphne, origin check, session auth, channel layer)."""

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class PingConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        user = self.scope.get("user")
        username = user.get_username() if user is not None and user.is_authenticated else None
        if not isinstance(content, dict) or content.get("type") != "ping":
            await self.send_json({"type": "error", "message": 'send {"type": "ping"}'})
            return
        await self.send_json({"type": "pong", "user": username, "echo": content.get("echo")})
