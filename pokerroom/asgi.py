"""HTTP and WebSocket routing for Daphne.

WebSockets pass the allowed-hosts origin check and the session middleware, so a consumer
knows its user from the session cookie alone, never from a message.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from pokerroom.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

if settings.TASKS_IN_PROCESS:
    # The embedded mode: start the in-process task runner (and its beat) with the server.
    from pokerroom.inprocess import runner

    runner()
