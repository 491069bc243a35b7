"""HTTP and WebSocket routing for Daphne.

WebSockets pass the origin check (pokerroom/origins.py: only the room's own origins, scheme,
host and port) and the session middleware, so a consumer knows its user from the session
cookie alone, never from a message.
"""

import asyncio
import gc
import os
import sys
from pathlib import Path
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from pokerroom.celery import app as celery_app  # noqa: E402
from pokerroom.inprocess import runner  # noqa: E402
from pokerroom.origins import RoomOriginValidator  # noqa: E402
from pokerroom.routing import websocket_urlpatterns  # noqa: E402
from tables.services.broadcast import broadcast_from_server_loop  # noqa: E402

room_router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": RoomOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The room; in the embedded mode the in-process task runner starts with the first call,
    and broadcasts go through this loop (tables/services/broadcast.py)."""
    if settings.TASKS_IN_PROCESS:
        runner(celery_app)
        broadcast_from_server_loop(asyncio.get_running_loop())
    await room_router(scope, receive, send)


if settings.TASKS_IN_PROCESS and Path(sys.argv[0]).name == "daphne":
    # Started as the room's server: run the clock and beat at once, not on the first visit.
    runner(celery_app)

# Everything imported so far (Django, the apps, their modules) lives as long as the process:
# move it out of the garbage collector's reach, so a full collection only walks what the
# connections made. With 600 connections a process, those pauses were the tail of the
# human-pace benchmark (docs/performance.md, "gc.freeze"): 200 tables went from p99 178-272
# ms to 91-117 ms. Objects frozen here are still freed by reference counting.
gc.freeze()
