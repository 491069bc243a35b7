"""Who is asking, on an endpoint behind IsAuthenticated (the API's default permission)."""

from __future__ import annotations

from typing import cast

from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request

from accounts.models import Player


def player_id(request: Request) -> int:
    """The logged-in player's id; the anonymous user never gets this far (IsAuthenticated
    answered 401/403 first), and would be answered the same here."""
    user_id = request.user.pk
    if user_id is None:
        raise NotAuthenticated
    return int(user_id)


def player(request: Request) -> Player:
    """The logged-in player, for a service that takes the Player (as the web views pass
    ``request.user``)."""
    player_id(request)
    return cast(Player, request.user)
