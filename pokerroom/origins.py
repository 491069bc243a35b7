"""Who may open the room's WebSockets: pages of the room's own origins, nothing else.

A browser sends the session cookie with a WebSocket handshake whatever page opened it, so the
``Origin`` header is the only thing that tells the room's own page from another page on the
same host (another port, or http beside https) riding the player's cookie to play their seat.
An origin is accepted, scheme, host and port all equal, when it is

- one of ``CSRF_TRUSTED_ORIGINS`` (``https://*.example.com`` names every subdomain), the list
  Django's own CSRF check trusts for forms; or
- the origin of the handshake itself: ``http://<Host>`` for ``ws``, ``https://<Host>`` for
  ``wss``, with that host in ``ALLOWED_HOSTS`` (what a browser sends for a page served by this
  server; a browser never lets a page choose the Host of another server).

A handshake without an ``Origin`` (or with ``null``) is refused: browsers always send one, and
non-browser clients (bots/client.py) send the room's origin.
"""

from __future__ import annotations

from typing import Any, NamedTuple
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

_DEFAULT_PORTS = {"http": 80, "https": 443}


class Origin(NamedTuple):
    scheme: str
    host: str
    port: int


def parse_origin(text: str) -> Origin | None:
    """``scheme://host[:port]`` -> Origin (the default port filled in), None if it is not one."""
    try:
        parts = urlsplit(text.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    return Origin(parts.scheme, parts.hostname, port or _DEFAULT_PORTS[parts.scheme])


def trusted_origin(origin: Origin, pattern: str) -> bool:
    """``origin`` is ``pattern``, an entry of CSRF_TRUSTED_ORIGINS (``*.`` a subdomain)."""
    wildcard = "://*." in pattern
    trusted = parse_origin(pattern.replace("://*.", "://", 1) if wildcard else pattern)
    if trusted is None or (origin.scheme, origin.port) != (trusted.scheme, trusted.port):
        return False
    if wildcard:
        return origin.host.endswith("." + trusted.host)
    return origin.host == trusted.host


def own_origin(scope: dict[str, Any], headers: dict[bytes, bytes]) -> Origin | None:
    """The origin of a page this server itself served for the handshake's Host, if allowed."""
    host = headers.get(b"host", b"").decode("latin1")
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = "https" if scope.get("scheme", "ws") in ("wss", "https") else "http"
    return parse_origin(f"{scheme}://{host}")


def origin_allowed(scope: dict[str, Any]) -> bool:
    headers = dict(scope.get("headers", []))
    sent = headers.get(b"origin")
    if sent is None:
        return False
    origin = parse_origin(sent.decode("latin1"))
    if origin is None:
        return False
    if any(trusted_origin(origin, pattern) for pattern in settings.CSRF_TRUSTED_ORIGINS):
        return True
    return origin == own_origin(scope, headers)


class RoomOriginValidator:
    """ASGI middleware: a WebSocket handshake from another origin is refused (HTTP 403)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
